// ==UserScript==
// @name         rulec_fight_tracks
// @author       rulec
// @version      1.0.0
// @description  .fight/.hit/.status/.next/.end：用 rulec 编译的tracks（计时骰池与负面点数）规则在群里进行一场战斗（.fight help 查看用法）
// @license      MIT
// @timestamp    0
// @depends      rulec:rulec_tracks
// @depends      rulec:rulec_fight
// ==/UserScript==
//
// The fight plugin for the `tracks` ruleset: load generated/js/tracks/rulec_tracks.user.js, rulec_chat.js and
// rulec_fight.js (this folder) too; the @depends lines make SealDice load them first.
//   .fight 甲 力量5 武技8 / 乙 基础防御8     .hit 甲 乙 长剑     .status     .next     .end
(function (root) {
  'use strict';
  if (!root.rulec_tracks || !root.rulec_fight) {
    throw new Error('rulec_fight_tracks：请先安装 rulec_tracks.user.js、rulec_chat.js 与 rulec_fight.js');
  }
  root.rulec_fight.add(root.rulec_tracks, {id: 'tracks', name: '计时骰池与负面点数规则', procedure: 'attack', firearm: ['firearm', 'hit_fixed']});
})(typeof globalThis !== 'undefined' ? globalThis : (function () { return this; })());
