// ==UserScript==
// @name         rulec_fight_d20
// @author       rulec
// @version      1.0.0
// @description  .fight/.hit/.status/.next/.end：用 rulec 编译的d20规则在群里进行一场战斗（.fight help 查看用法）
// @license      MIT
// @timestamp    0
// @depends      rulec:rulec_d20
// @depends      rulec:rulec_fight
// ==/UserScript==
//
// The fight plugin for the `d20` ruleset: load generated/js/d20/rulec_d20.user.js, rulec_chat.js and
// rulec_fight.js (this folder) too; the @depends lines make SealDice load them first.
//   .fight 甲 力量5 武技8 / 乙 基础防御8     .hit 甲 乙 长剑     .status     .next     .end
(function (root) {
  'use strict';
  if (!root.rulec_d20 || !root.rulec_fight) {
    throw new Error('rulec_fight_d20：请先安装 rulec_d20.user.js、rulec_chat.js 与 rulec_fight.js');
  }
  root.rulec_fight.add(root.rulec_d20, {id: 'd20', name: 'd20攻击规则', procedure: 'attack'});
})(typeof globalThis !== 'undefined' ? globalThis : (function () { return this; })());
