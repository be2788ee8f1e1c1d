// ==UserScript==
// @name         rulec_dp_plugin
// @author       rulec
// @version      1.0.0
// @description  .dp：用 rulec 编译的dp战斗规则（SealDice 的 .ww 骰池）结算攻击与概率（.dp help 查看用法）
// @license      MIT
// @timestamp    0
// @depends      rulec:rulec_dp
// @depends      rulec:rulec_chat
// ==/UserScript==
//
// A SealDice plugin for the `dp` ruleset: load generated/js/dp/rulec_dp.user.js and
// rulec_chat.js (this folder) too; the @depends lines make SealDice load them first.
//   .dp atk 长剑 力量=4 武技=3 专业=1 vs 基础防御=4 盔甲防御=2 距离=1
//   .dp odds 长剑 力量=4 武技=3 vs 6
(function (root) {
  'use strict';
  if (!root.rulec_dp || !root.rulec_chat) {
    throw new Error('rulec_dp_plugin：请先安装 rulec_dp.user.js 与 rulec_chat.js');
  }
  root.rulec_chat.register(root.rulec_dp, {
    extension: 'rulec-dp', command: 'dp', procedure: 'attack', mainDefense: 'basic_defense',
    help: '.dp atk 武器 [属性=值 ...] [vs 防御方属性=值 ...] [选项=值 ...]：结算一次攻击\n.dp odds 武器 [属性=值 ...] [vs 防御方属性=值|防御值]：精确的命中率与伤害分布\n属性与选项用中文名或编号；vs 后的单独数字是防御方的主要防御；是/否 表示真假\n例：.dp atk 长剑 力量=4 武技=3 专业=1 vs 基础防御=4 盔甲防御=2 距离=1\n.dp help：本帮助',
  });
})(typeof globalThis !== 'undefined' ? globalThis : (function () { return this; })());
