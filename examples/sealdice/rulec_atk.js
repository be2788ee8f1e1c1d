// ==UserScript==
// @name         rulec-d20-atk
// @author       rulec
// @version      1.0.0
// @description  .atk 与 .odds：用 rulec 编译的 d20 规则结算武器攻击（需要先加载 rulec_d20.user.js）
// @license      MIT
// @timestamp    0
// @depends      rulec:rulec_d20
// ==/UserScript==
//
// A SealDice plugin built on the single-file script of the d20 ruleset
// (generated/js/d20/rulec_d20.user.js), which defines the global object rulec_d20. Load that
// script first (or paste it above this code: `cat rulec_d20.user.js rulec_atk.js > plugin.js`).
//
//   .atk 长剑 15 [力量 16] [熟练]   attack a target of AC 15 with a longsword; the trace is the reply
//   .odds 长剑 15 [力量 16] [熟练]  the exact hit chance and expected damage
//
// Everything in a chat line is untrusted: the weapon goes through get_weapon (an unknown name is
// a RuleError with a suggestion), numbers are parsed strictly and then range-checked by the
// module, and any RuleError becomes the reply instead of an exception.
(function () {
  'use strict';
  // rulec_d20.user.js sets globalThis.rulec_d20 (SealDice loads it first: @depends above).
  var rules = typeof rulec_d20 !== 'undefined' ? rulec_d20 : undefined;
  if (rules === undefined) {
    throw new Error('rulec-d20-atk: load rulec_d20.user.js (generated/js/d20/) before this plugin');
  }
  var EXT = 'rulec-d20';
  var ext = seal.ext.find(EXT);
  if (!ext) {
    ext = seal.ext.new(EXT, 'rulec', rules.VERSION);
    seal.ext.register(ext);
  }

  var MAX_REPLY = 2000;
  // A reply as the chat shows it: no control or bidirectional characters (a name echoed back
  // cannot turn the line around), and at most MAX_REPLY characters.
  function clean(text) {
    var out = String(text).replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, '');
    return out.length <= MAX_REPLY ? out : out.slice(0, MAX_REPLY - 1) + '…';
  }

  // The words after the command: weapon, target AC, then pairs "属性名 数值" and flags ("熟练").
  function parse(cmdArgs) {
    var weapon = cmdArgs.getArgN(1);
    if (!weapon) return {usage: true};
    var ac = cmdArgs.getArgN(2);
    var stats = Object.create(null);  // a stat named "__proto__" is a stat the module refuses, not a prototype
    var flags = {};
    for (var i = 3; cmdArgs.getArgN(i); i++) {
      var word = cmdArgs.getArgN(i);
      if (word === '熟练') { flags.proficient = true; continue; }
      var value = cmdArgs.getArgN(i + 1);
      if (!/^-?\d{1,4}$/.test(value || '')) return {error: '属性“' + word + '”后面需要一个整数'};
      stats[word] = parseInt(value, 10);
      i++;
    }
    if (ac && !/^\d{1,3}$/.test(ac)) return {error: '目标护甲等级需要一个整数'};
    return {weapon: weapon, ac: ac ? parseInt(ac, 10) : 10, stats: stats, flags: flags};
  }

  function command(name, help, run) {
    var cmd = seal.ext.newCmdItemInfo();
    cmd.name = name;
    cmd.help = help;
    cmd.solve = function (ctx, msg, cmdArgs) {
      var args = parse(cmdArgs);
      var reply;
      if (args.usage) reply = help;
      else if (args.error) reply = args.error;
      else {
        try {
          var attacker = rules.Combatant.fromDict(args.stats);
          var target = rules.Combatant.fromDict({'护甲等级': args.ac});
          reply = run(attacker, target, args);
        } catch (err) {  // a chat line never takes the plugin down
          reply = err instanceof rules.RuleError ? err.message : '无法处理这条命令（' + (err && err.name ? err.name : 'Error') + '）';
        }
      }
      seal.replyToSender(ctx, msg, clean(reply));
      return seal.ext.newCmdExecuteResult(true);
    };
    ext.cmdMap[name] = cmd;
  }

  command('atk', '.atk 武器 [目标护甲等级] [属性名 数值]... [熟练]：d20武器攻击', function (attacker, target, args) {
    var result = rules.attack(attacker, target, args.weapon, {proficient: !!args.flags.proficient});
    return result.text();
  });
  command('odds', '.odds 武器 [目标护甲等级] [属性名 数值]... [熟练]：命中率与期望伤害', function (attacker, target, args) {
    var odds = rules.attack_odds(attacker, target, args.weapon, {proficient: !!args.flags.proficient});
    var weapon = rules.get_weapon(args.weapon);
    return weapon.name + '对护甲等级' + args.ac + '：命中率' + (odds.hit_probability * 100).toFixed(1) +
      '%，期望伤害' + odds.expected_damage.toFixed(2);
  });
})();
