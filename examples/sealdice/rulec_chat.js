// ==UserScript==
// @name         rulec_chat
// @author       rulec
// @version      1.0.0
// @description  rulec 规则插件的公共部分：解析聊天命令、回复结算与概率（被 rulec_dp、rulec_d20、rulec_tracks 的插件与 rulec_fight 依赖）
// @license      MIT
// @timestamp    0
// ==/UserScript==
//
// The part every rulec SealDice plugin shares (rulec_dp_plugin.js, rulec_d20_plugin.js,
// rulec_tracks_plugin.js): it defines one global, globalThis.rulec_chat, whose register(rules,
// config) adds one command to SealDice for a compiled ruleset (the global rulec_<id> of
// generated/js/<id>/rulec_<id>.user.js). The syntax is the Python bot's (examples/bot/bot.py),
// with the ruleset as the command:
//
//   .dp atk 长剑 力量=4 武技=3 vs 基础防御=4 盔甲防御=2 距离=1    resolve an attack
//   .dp odds 长剑 力量=4 武技=3 vs 6                             the exact odds
//   .dp help                                                     SealDice shows the help
//
// `vs` separates the attacker's stats from the defender's; a bare number after it is the
// defender's main defense; a key naming a parameter of the procedure (距离, 瞄准轮数...) is an
// option. Chat lines come from strangers: every word is checked (a typo gets "是否想找", by the
// module's own close_match, the Python package's difflib), a RuleError becomes the reply, and
// no reply carries control or bidirectional characters.
(function (root) {
  'use strict';
  var MAX_MESSAGE = 2000;
  var MAX_REPLY = 4000;
  var INTERNAL = '无法处理这条命令';
  var SUBCOMMANDS = {atk: 'atk', '攻击': 'atk', odds: 'odds', '概率': 'odds'};
  // Settings a host may change before a command runs: seed (null: random faces) makes the
  // replies reproducible (the tests compare them with the Python bot's).
  var options = {seed: null};

  function ChatError(message) { this.message = message; }

  // A reply as it may go back into the chat: no control, bidi or zero-width characters, at most
  // MAX_REPLY characters, and no message code a user's words could carry back out: SealDice turns
  // `[图:file]` and `[CQ:image,file=...]` in a reply into an image, a file or a mention (reading
  // the bot's files, fetching URLs), and OneBot hosts read CQ codes — so the `[` that opens one
  // becomes a full-width `［` (seen, never run).
  function clean(text) {
    var out = String(text).replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, '')
      .replace(/\[(?=[^\[\]\s:：]{1,20}[:：])/g, '\uff3b');
    return out.length <= MAX_REPLY ? out : out.slice(0, MAX_REPLY - 1) + '…';
  }
  function normal(text) {
    return typeof text.normalize === 'function' ? text.normalize('NFKC') : text;
  }
  function value(text) {
    if (text === '是' || text === 'true' || text === 'True') return true;
    if (text === '否' || text === 'false' || text === 'False') return false;
    if (/^[-+]?[0-9]{1,9}$/.test(text)) return parseInt(text, 10);
    throw new ChatError('“' + text + '”不是整数，也不是“是”或“否”');
  }
  function hint(rules, word, names) {
    var close = rules.close_match(word, names);
    return close !== null ? '，是否想找“' + close + '”？' : '';
  }

  function register(rules, config) {
    var command = config.command;
    var procedureOf = function (weapon) {
      var special = config.firearm;
      if (special && rules.get_weapon(weapon).attack_type.mode === special[1]) return special[0];
      return config.procedure;
    };
    var statNames = Object.keys(rules.STAT_NAMES).concat(Object.keys(new rules.Combatant().toDict()));
    var help = config.help;

    function parse(procedure, tokens) {
      var info = rules.PROCEDURE_INFO[procedure];
      var params = Object.create(null), roles = Object.create(null);  // "constructor=1" is no option
      info.params.forEach(function (p) {
        params[p[0]] = p[0]; params[p[1]] = p[0];
        if (p[2] === 'combatant') { roles[p[0]] = true; roles[p[1]] = true; }
      });
      var attacker = {}, defender = {}, opts = {}, side = attacker;
      tokens.forEach(function (token) {
        if (token === 'vs') { side = defender; return; }
        var eq = token.indexOf('=');
        if (eq < 0) { defender[config.mainDefense] = value(token); return; }
        var key = token.slice(0, eq), raw = token.slice(eq + 1);
        if (!key) throw new ChatError('“' + token + '”缺少名称（应为 名称=值）');
        if (key === 'weapon' || key === '武器' || roles[key]) {
          throw new ChatError('“' + key + '”不是选项：武器写在命令里（.' + command + ' atk 武器 选项=值）');
        }
        if (Object.prototype.hasOwnProperty.call(params, key)) {
          if (Object.prototype.hasOwnProperty.call(opts, params[key])) throw new ChatError('选项“' + key + '”给出了两次');
          var text = key === 'called_shot' || key === '特定部位' || key === 'part' || key === '部位';
          opts[params[key]] = text ? raw : value(raw);
          return;
        }
        if (statNames.indexOf(key) < 0) {
          var names = statNames.concat(Object.keys(params));
          throw new ChatError('没有名为“' + key + '”的属性或选项' + hint(rules, key, names));
        }
        side[key] = value(raw);
      });
      return {attacker: attacker, defender: defender, options: opts};
    }

    function call(procedure, weapon, tokens) {
      var parsed = parse(procedure, tokens);
      var info = rules.PROCEDURE_INFO[procedure];
      var roles = info.params.filter(function (p) { return p[2] === 'combatant'; }).map(function (p) { return p[0]; });
      var values = {};
      values[roles[0]] = rules.Combatant.fromDict(parsed.attacker);
      values[roles[1]] = rules.Combatant.fromDict(parsed.defender);
      values.weapon = weapon;
      Object.keys(parsed.options).forEach(function (k) { values[k] = parsed.options[k]; });
      var args = info.positional.map(function (p) { return values[p]; });
      var rest = {};
      Object.keys(values).forEach(function (k) { if (info.positional.indexOf(k) < 0) rest[k] = values[k]; });
      return {args: args, options: rest};
    }

    function shown(v, kind) {
      var table = kind === 'int' || kind === 'bool' || kind === 'str' ? undefined : rules[kind.toUpperCase()];
      return String(rules.shown(v, table));
    }

    function answer(words) {
      if (words.length < 2 || !Object.prototype.hasOwnProperty.call(SUBCOMMANDS, words[0])) {
        if (words.length === 0) return help;
        var known = Object.keys(SUBCOMMANDS);
        if (Object.prototype.hasOwnProperty.call(SUBCOMMANDS, words[0])) return help;
        throw new ChatError('没有子命令“' + words[0] + '”' + hint(rules, words[0], known) + '（.' + command + ' help 查看用法）');
      }
      var sub = SUBCOMMANDS[words[0]], weapon = words[1];
      var procedure = procedureOf(weapon);
      var c = call(procedure, weapon, words.slice(2));
      var info = rules.PROCEDURE_INFO[procedure];
      var name = rules.get_weapon(weapon).name;
      if (sub === 'atk') {
        var o = Object.assign({}, c.options, {dice: new rules.SeededDice(options.seed === null ? undefined : options.seed)});
        var result = rules[procedure].apply(null, c.args.concat([o]));
        var summary = info.fields.slice(0, 4).map(function (f) { return f[1] + '=' + shown(result[f[0]], f[2]); }).join('，');
        return info.name + '（' + name + '）\n' + result.text() + '\n' + summary;
      }
      var odds = rules[procedure + '_odds'].apply(null, c.args.concat([c.options]));
      var lines = [name + '：命中率 ' + (odds.hit_probability * 100).toFixed(1) + '%，期望伤害 ' +
                   odds.expected_damage.toFixed(2)];
      // the twelve likeliest values (ties in value order), shown in value order, as the Python bot does
      var all = Array.from(odds.marginal('damage')).map(function (vp, i) { return [vp[0], vp[1], i]; });
      var likeliest = all.slice().sort(function (a, b) { return b[1] - a[1] || a[2] - b[2]; }).slice(0, 12);
      likeliest.sort(function (a, b) { return a[0] - b[0]; });
      var rest = 0;
      all.forEach(function (vp) { if (likeliest.indexOf(vp) < 0) rest += vp[1]; });
      likeliest.forEach(function (vp) {
        var bar = new Array(Math.round(vp[1] * 30) + 1).join('█');
        lines.push(('    ' + vp[0]).slice(-Math.max(4, String(vp[0]).length)) + ' ' + bar + ' ' + (vp[1] * 100).toFixed(1) + '%');
      });
      if (all.length > likeliest.length) {
        lines.push('（其余' + (all.length - likeliest.length) + '个值共 ' + (rest * 100).toFixed(1) + '%）');
      }
      return lines.join('\n');
    }

    // The reply to the words after the command, never an exception (a chat line cannot take the bot down).
    function reply(words) {
      try {
        return clean(answer(words));
      } catch (err) {
        if (err instanceof ChatError) return clean('无法理解：' + err.message);
        if (err instanceof rules.RuleError) return clean('无法结算：' + err.message);
        return INTERNAL + '（' + (err && err.name ? err.name : 'Error') + '）';
      }
    }

    var ext = seal.ext.find(config.extension);
    if (!ext) {
      ext = seal.ext.new(config.extension, 'rulec', rules.VERSION);
      seal.ext.register(ext);
    }
    var cmd = seal.ext.newCmdItemInfo();
    cmd.name = command;
    cmd.help = help;
    cmd.solve = function (ctx, msg, cmdArgs) {
      var words = [];
      var total = 0;
      for (var i = 1; cmdArgs.getArgN(i) !== ''; i++) {
        var word = normal(String(cmdArgs.getArgN(i)));
        total += word.length + 1;
        if (total > MAX_MESSAGE) { words = null; break; }
        words.push(word);
      }
      var result = seal.ext.newCmdExecuteResult(true);
      if (words !== null && (words.length === 0 || words[0] === 'help' || words[0] === '帮助')) {
        result.showHelp = true;  // SealDice answers with cmd.help
        return result;
      }
      seal.replyToSender(ctx, msg, words === null ? '无法理解：消息过长' : reply(words));
      return result;
    };
    ext.cmdMap[command] = cmd;
    return {reply: reply, ext: ext};
  }

  // The helpers rulec_fight.js shares: the same cleaning, reading of values and refusals.
  root.rulec_chat = Object.freeze({register: register, options: options, clean: clean, value: value, normal: normal,
                                   ChatError: ChatError, MAX_MESSAGE: MAX_MESSAGE, INTERNAL: INTERNAL});
})(typeof globalThis !== 'undefined' ? globalThis : (function () { return this; })());
