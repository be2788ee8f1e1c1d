// ==UserScript==
// @name         rulec_fight_dp
// @author       rulec
// @version      1.0.0
// @description  .fight/.hit/.status/.next/.end：用 rulec 编译的dp（SealDice 的 .ww 骰池）规则在群里进行一场战斗（.fight help 查看用法）
// @license      MIT
// @timestamp    0
// @depends      rulec:rulec_dp
// @depends      rulec:rulec_fight
// ==/UserScript==
//
// The fight plugin for the `dp` ruleset: load generated/js/dp/rulec_dp.user.js, rulec_chat.js and
// rulec_fight.js (this folder) too; the @depends lines make SealDice load them first.
//   .fight 甲 力量5 武技8 / 乙 基础防御8     .hit 甲 乙 长剑     .status     .next     .end
(function (root) {
  'use strict';
  if (!root.rulec_dp || !root.rulec_fight) {
    throw new Error('rulec_fight_dp：请先安装 rulec_dp.user.js、rulec_chat.js 与 rulec_fight.js');
  }
  root.rulec_fight.add(root.rulec_dp, {id: 'dp', name: 'DP骰池战斗规则', procedure: 'attack'});
})(typeof globalThis !== 'undefined' ? globalThis : (function () { return this; })());
