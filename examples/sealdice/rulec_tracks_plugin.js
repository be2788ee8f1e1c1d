// ==UserScript==
// @name         rulec_tracks_plugin
// @author       rulec
// @version      1.0.0
// @description  .tracks：用 rulec 编译的负值伤害轨道规则结算攻击与概率（.tracks help 查看用法）
// @license      MIT
// @timestamp    0
// @depends      rulec:rulec_tracks
// @depends      rulec:rulec_chat
// ==/UserScript==
//
// A SealDice plugin for the `tracks` ruleset: load generated/js/tracks/rulec_tracks.user.js and
// rulec_chat.js (this folder) too; the @depends lines make SealDice load them first.
//   .tracks atk fist 力量=6 格斗=5 vs 基础防御=2
//   .tracks odds fist 力量=6 格斗=5 vs 2
(function (root) {
  'use strict';
  if (!root.rulec_tracks || !root.rulec_chat) {
    throw new Error('rulec_tracks_plugin：请先安装 rulec_tracks.user.js 与 rulec_chat.js');
  }
  root.rulec_chat.register(root.rulec_tracks, {
    extension: 'rulec-tracks', command: 'tracks', procedure: 'attack', mainDefense: 'basic_defense', firearm: ['firearm', 'hit_fixed'],
    help: '.tracks atk 武器 [属性=值 ...] [vs 防御方属性=值 ...] [选项=值 ...]：结算一次攻击\n.tracks odds 武器 [属性=值 ...] [vs 防御方属性=值|防御值]：精确的命中率与伤害分布\n属性与选项用中文名或编号；vs 后的单独数字是防御方的主要防御；是/否 表示真假\n例：.tracks atk fist 力量=6 格斗=5 vs 基础防御=2\n.tracks help：本帮助',
  });
})(typeof globalThis !== 'undefined' ? globalThis : (function () { return this; })());
