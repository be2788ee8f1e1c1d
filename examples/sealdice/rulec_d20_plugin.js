// ==UserScript==
// @name         rulec_d20_plugin
// @author       rulec
// @version      1.0.0
// @description  .d20：用 rulec 编译的d20攻击规则结算攻击与概率（.d20 help 查看用法）
// @license      MIT
// @timestamp    0
// @depends      rulec:rulec_d20
// @depends      rulec:rulec_chat
// ==/UserScript==
//
// A SealDice plugin for the `d20` ruleset: load generated/js/d20/rulec_d20.user.js and
// rulec_chat.js (this folder) too; the @depends lines make SealDice load them first.
//   .d20 atk longsword 力量=16 熟练加值=2 vs 护甲等级=15
//   .d20 odds 长剑 力量=16 vs 15
(function (root) {
  'use strict';
  if (!root.rulec_d20 || !root.rulec_chat) {
    throw new Error('rulec_d20_plugin：请先安装 rulec_d20.user.js 与 rulec_chat.js');
  }
  root.rulec_chat.register(root.rulec_d20, {
    extension: 'rulec-d20-rules', command: 'd20', procedure: 'attack', mainDefense: 'armor_class',
    help: '.d20 atk 武器 [属性=值 ...] [vs 防御方属性=值 ...] [选项=值 ...]：结算一次攻击\n.d20 odds 武器 [属性=值 ...] [vs 防御方属性=值|防御值]：精确的命中率与伤害分布\n属性与选项用中文名或编号；vs 后的单独数字是防御方的主要防御；是/否 表示真假\n例：.d20 atk longsword 力量=16 熟练加值=2 vs 护甲等级=15\n.d20 help：本帮助',
  });
})(typeof globalThis !== 'undefined' ? globalThis : (function () { return this; })());
