// ==UserScript==
// @name         rulec_fight
// @author       rulec
// @version      1.0.0
// @description  rulec 战斗插件的公共部分：.fight/.hit/.status/.next/.end，每群一场战斗，存在扩展存储里（重启后仍在）；由 rulec_fight_dp 等按规则集启用
// @license      MIT
// @timestamp    0
// @depends      rulec:rulec_chat
// ==/UserScript==
//
// One fight per group, kept in the extension's storage as JSON of the fight's toDict(), so it
// survives a bot restart. This file adds the commands; each ruleset's small plugin
// (rulec_fight_dp.js, rulec_fight_d20.js, rulec_fight_tracks.js) calls add(rules, config) to serve
// its compiled library (generated/js/<id>/rulec_<id>.user.js). With one ruleset installed
// `.fight` uses it; with several, `.fight dp ...` names one.
//
//   .fight 甲 力量5 武技8 / 乙 基础防御8 盔甲防御2     start (属性=值 works too)
//   .hit 甲 乙 长剑 距离=1                             the default procedure (an attack)
//   .hit 擒抱 甲 乙 拳                                 a procedure by Chinese name or id
//   .status [名字]   .next   .end   .fight help
//
// A stored fight is data from the storage, not trusted: it is read through the library's
// fight_from_dict, which checks every value; a record that fails is refused with a Chinese reply
// and dropped, never a crash.
(function (root) {
  'use strict';
  var chat = root.rulec_chat;
  var ChatError = chat.ChatError;
  var EXTENSION = 'rulec-fight';
  var COMMANDS = ['fight', 'hit', 'status', 'next', 'end'];
  // Characters of a stored record written or read back: above what a fight of MAX_FIGHTERS allows
  // (20 combatants of 100 modifiers and 100 conditions each, 1,000 log lines of 500 characters: under 2 MB).
  var MAX_STORED = 2000000;
  // Combatants of one fight started from the chat. The library takes 100, but SealDice's goja has
  // no JIT: every command reads, checks and stores the whole fight, and a fight of 100 combatants
  // each holding 99 conditions cost 2 s of CPU a command there (20 ms in Node). A table that
  // needs more runs the library from a program of its own.
  var MAX_FIGHTERS = 20;
  var own = Object.prototype.hasOwnProperty;
  var rulesets = Object.create(null);  // id -> {rules, config}
  var ids = [];
  var ext = null;
  var cmds = {};

  function fail(text) { throw new ChatError(text); }
  function hint(rules, word, names) {
    var close = rules.close_match(word, names);
    return close !== null ? '，是否想找“' + close + '”？' : '';
  }

  // ---- the fight API of a library (generated/js/<id>: start_fight, fight_from_dict, Fight) ----
  // A Map keeps the order given (an object would put names like "2" first) and any name ("__proto__").
  function startFight(rules, pairs, turns) { return rules.start_fight(new Map(pairs), turns); }
  function names(fight) { return fight.members.map(function (m) { return m.name; }); }
  function statuses(fight) { return names(fight).map(function (n) { return fight.status(n); }); }
  function turnLine(fight) {
    var left = typeof fight.left === 'function' ? fight.left(fight.actor) : '';  // '' without the turn budget
    return '第' + fight.round + '轮，轮到' + fight.actor + (left ? '，本回合剩余' + left : '');
  }

  // ---- storage: one record per group (or private chat) ----
  // SealDice's Message: messageType 'group' or 'private', groupId, sender.userId (dice/dice.go).
  function keyOf(ctx, msg) {
    if (msg && msg.messageType === 'private') return 'fight:private:' + String(msg.sender && msg.sender.userId);
    return 'fight:' + String((msg && msg.groupId) || (ctx && ctx.group && ctx.group.groupId) || '');
  }
  function save(key, entry, fight) {
    var text = JSON.stringify({ruleset: entry.config.id, fight: fight.toDict()});
    if (text.length > MAX_STORED) fail('战斗记录过大，无法保存');
    ext.storageSet(key, text);
  }
  function drop(key) { ext.storageSet(key, ''); }
  // {entry, fight}, or null when the group has no fight; a record that fails its checks is dropped
  // and refused (ChatError), one of a ruleset not installed is kept (its plugin may come back).
  function load(key) {
    var raw = ext.storageGet(key);
    if (typeof raw !== 'string' || raw === '') return null;
    var data = null;
    try { data = raw.length <= MAX_STORED ? JSON.parse(raw) : null; } catch (err) { data = null; }
    if (data === null || typeof data !== 'object' || typeof data.ruleset !== 'string' ||
        data.fight === null || typeof data.fight !== 'object') {
      drop(key);
      fail('本群保存的战斗记录无法读取，已丢弃（.fight 重新开始）');
    }
    if (!own.call(rulesets, data.ruleset)) {
      fail('本群的战斗使用规则集“' + data.ruleset.slice(0, 40) + '”，它的战斗插件没有加载（.end 删除这场战斗）');
    }
    var entry = rulesets[data.ruleset];
    try {
      return {entry: entry, fight: entry.rules.fight_from_dict(data.fight)};
    } catch (err) {
      drop(key);
      var why = err instanceof entry.rules.RuleError ? '：' + err.message : '';
      fail('本群保存的战斗记录未通过检查' + why + '，已丢弃（.fight 重新开始）');
    }
    return null;
  }

  // ---- .fight ----
  function stats(rules, words) {
    var known = Object.keys(rules.STAT_NAMES).concat(Object.keys(new rules.Combatant().toDict()));
    var out = {}, seen = Object.create(null);
    words.forEach(function (token) {
      var eq = token.indexOf('='), key, raw;
      if (eq >= 0) { key = token.slice(0, eq); raw = token.slice(eq + 1); } else {
        var m = /^(.*?)([-+]?[0-9]+|是|否)$/.exec(token);
        if (!m || !m[1]) fail('“' + token + '”应为 属性值 或 属性=值（如 力量5）');
        key = m[1]; raw = m[2];
      }
      if (!key) fail('“' + token + '”缺少属性名（应为 属性=值）');
      if (known.indexOf(key) < 0) fail('没有名为“' + key + '”的属性' + hint(rules, key, known));
      var id = own.call(rules.STAT_NAMES, key) ? rules.STAT_NAMES[key] : key;
      if (own.call(seen, id)) fail('属性“' + key + '”给出了两次');
      seen[id] = true;
      out[key] = chat.value(raw);
    });
    return rules.Combatant.fromDict(out);
  }

  function start(key, words) {
    var found = load(key);
    if (found !== null) {
      fail('本群已有一场战斗（' + names(found.fight).join('、') + '，' + turnLine(found.fight) + '）：先用 .end 结束');
    }
    var id = ids.length === 1 ? ids[0] : null;
    if (words.length && own.call(rulesets, words[0])) { id = words[0]; words = words.slice(1); }
    if (id === null) fail('请指明规则集：.fight ' + ids.join('|') + ' 名字 属性值 ... / 名字 属性值 ...');
    var turns = words.length > 0 && words[0] === '回合制';  // each turn the budget the ruleset declares
    if (turns) words = words.slice(1);
    var entry = rulesets[id], rules = entry.rules;
    var pairs = [], taken = Object.create(null);
    words.join(' ').split('/').forEach(function (chunk) {
      var part = chunk.split(' ').filter(function (w) { return w !== ''; });
      if (!part.length) return;
      var name = part[0];
      if (name.indexOf('=') >= 0) fail('每名角色先写名字，再写属性：“' + name + '”');
      if (/[\[\]［］]/.test(name)) fail('角色名不能含有方括号：“' + name + '”');  // no message code in every reply
      if (pairs.length >= MAX_FIGHTERS) fail('一场战斗至多' + MAX_FIGHTERS + '名角色');
      if (own.call(taken, name)) fail('角色“' + name + '”出现了两次');
      if (procedureOf(rules, name) !== null) fail('角色不能以过程命名：“' + name + '”');
      taken[name] = true;
      pairs.push([name, stats(rules, part.slice(1))]);
    });
    if (!pairs.length) fail('用法：.fight 名字 属性值 ... / 名字 属性值 ...（.fight help 查看用法）');
    var fight = startFight(rules, pairs, turns);
    save(key, entry, fight);
    return ['战斗开始（' + entry.config.name + '）：' + names(fight).join('、') + '（' + turnLine(fight) + '）']
      .concat(statuses(fight));
  }

  // ---- .hit ----
  // The procedures a fight can resolve (the library's FIGHT_RULES.actions), by id or Chinese name.
  function actions(rules) {
    return Object.keys(rules.PROCEDURE_INFO).filter(function (k) { return rules.FIGHT_RULES.actions.has(k); });
  }
  function procedureOf(rules, word) {
    var ids = actions(rules);
    if (ids.indexOf(word) >= 0) return word;
    for (var i = 0; i < ids.length; i++) if (rules.PROCEDURE_INFO[ids[i]].name === word) return ids[i];
    return null;
  }
  function rolesOf(info) { return info.params.filter(function (p) { return p[2] === 'combatant'; }); }
  function procedureNames(rules) {
    var out = [];
    actions(rules).forEach(function (k) { out.push(rules.PROCEDURE_INFO[k].name, k); });
    return out;
  }

  function hit(entry, fight, words) {
    var rules = entry.rules, config = entry.config, members = names(fight);
    var procedure = config.procedure, at = 0;
    if (words.length && members.indexOf(words[0]) < 0) {
      procedure = procedureOf(rules, words[0]);
      if (procedure === null) {
        fail('没有名为“' + words[0] + '”的过程或角色' + hint(rules, words[0], procedureNames(rules).concat(members)));
      }
      at = 1;
    }
    var info = rules.PROCEDURE_INFO[procedure], roles = rolesOf(info);
    var who = words.slice(at, at + roles.length);
    if (who.length < roles.length || who.some(function (w) { return w.indexOf('=') >= 0; })) {
      fail('“' + info.name + '”要写' + roles.length + '名角色：' + roles.map(function (r) { return r[1]; }).join(' ') +
           '（.hit ' + (at ? words[0] + ' ' : '') + roles.map(function (r) { return r[1]; }).join(' ') + ' ...）');
    }
    who.forEach(function (w) {
      if (members.indexOf(w) < 0) fail('战斗中没有“' + w + '”' + hint(rules, w, members));
    });
    var rest = words.slice(at + roles.length);
    var bare = rest.filter(function (w) { return w.indexOf('=') < 0; });
    if (config.firearm && at === 0 && bare.length && rules.get_weapon(bare[0]).attack_type.mode === config.firearm[1]) {
      procedure = config.firearm[0];
      info = rules.PROCEDURE_INFO[procedure];
      roles = rolesOf(info);
    }
    var byRole = {};
    roles.forEach(function (r, i) { byRole[r[0]] = who[i]; });
    var opts = options(rules, info, rest);
    var done = fight.act(procedure, byRole, opts);
    // who acts on whom, the procedure and its weapon: 甲→乙：攻击与防御的对抗（长剑）
    var weapon = typeof opts.weapon === 'string' ? '（' + rules.get_weapon(opts.weapon).name + '）' : '';
    return [who.join('→') + '：' + info.name + weapon, done[0], done[1]];
  }

  function options(rules, info, words) {
    var params = {}, kinds = {}, names = [];
    info.params.forEach(function (p) {
      if (p[2] === 'combatant') return;
      params[p[0]] = p[0]; params[p[1]] = p[0]; kinds[p[0]] = p[2]; names.push(p[1], p[0]);
    });
    var extras = info.positional.filter(function (p) { return kinds[p] !== undefined; });
    var out = {}, next = 0;
    words.forEach(function (token) {
      var eq = token.indexOf('=');
      if (eq < 0) {
        if (next >= extras.length) fail('多余的“' + token + '”（选项写作 名称=值）');
        var p = extras[next++];  // a whole number or true/false given in its place, read as one
        out[p] = kinds[p] === 'int' || kinds[p] === 'bool' ? chat.value(token) : token;
        return;
      }
      var key = token.slice(0, eq), raw = token.slice(eq + 1);
      if (!key) fail('“' + token + '”缺少名称（应为 名称=值）');
      if (!own.call(params, key)) fail('“' + info.name + '”没有选项“' + key + '”' + hint(rules, key, names));
      if (own.call(out, params[key])) fail('选项“' + key + '”给出了两次');
      var kind = kinds[params[key]];
      out[params[key]] = kind === 'int' || kind === 'bool' ? chat.value(raw) : raw;
    });
    extras.forEach(function (p) {
      if (!own.call(out, p)) fail('缺少' + info.params.filter(function (x) { return x[0] === p; })[0][1]);
    });
    out.dice = new rules.SeededDice(chat.options.seed === null ? undefined : chat.options.seed);
    return out;
  }

  // ---- the commands ----
  function answer(command, key, words) {
    if (command === 'fight') return start(key, words);
    var found = null;
    try {
      found = load(key);
    } catch (err) {
      // .end removes a record it cannot read too (one of a ruleset whose plugin is gone)
      if (command !== 'end' || !(err instanceof ChatError)) throw err;
      drop(key);
      return ['已删除本群无法读取的战斗记录'];
    }
    if (found === null) return ['本群还没有战斗：先用 .fight 开始（.fight help 查看用法）'];
    var entry = found.entry, fight = found.fight, before = fight, lines = [];
    if (command === 'end') {
      drop(key);
      return ['战斗结束（' + turnLine(fight).split('，')[0] + '）'].concat(statuses(fight));
    }
    if (command === 'status') {
      var members = names(fight);
      words.forEach(function (w) {
        if (members.indexOf(w) < 0) fail('战斗中没有“' + w + '”' + hint(entry.rules, w, members));
      });
      return [turnLine(fight)].concat((words.length ? words : members).map(function (n) { return fight.status(n); }));
    }
    if (command === 'hit') {
      var done = hit(entry, fight, words);
      fight = done[2];
      lines.push(done[0], done[1].text());
    } else {
      fight = fight.next_turn();
      lines.push(turnLine(fight));
    }
    // the lines this command added (log_since: a full log drops a line for each it adds)
    lines = lines.concat(fight.log_since(before).map(function (l) { return '· ' + l; }), statuses(fight));
    save(key, entry, fight);
    return lines;
  }

  function isRuleError(err) {
    return ids.some(function (id) { return err instanceof rulesets[id].rules.RuleError; });
  }
  // The reply to one command, never an exception (a chat line or a stored record cannot take the bot down).
  function reply(command, ctx, msg, words) {
    try {
      return chat.clean(answer(command, keyOf(ctx, msg), words).join('\n'));
    } catch (err) {
      if (err instanceof ChatError) return chat.clean('无法理解：' + err.message);
      if (isRuleError(err)) return chat.clean('无法结算：' + err.message);
      return chat.INTERNAL + '（' + (err && err.name ? err.name : 'Error') + '）';
    }
  }

  function helpText() {
    return [
      '.fight [规则集] [回合制] 名字 属性值 ... / 名字 属性值 ...：开始本群的战斗（每群一场，机器人重启后仍在）；' +
        '写“回合制”则按规则集的回合结构计算每回合的动作，放不进本回合的行动被拒绝',
      '  例：.fight 甲 力量5 武技8 / 乙 基础防御8 盔甲防御2（也可写 力量=5；真假写 是/否）',
      '.hit [过程] 角色 ... [武器] [选项=值 ...]：结算一个行动并记入战斗（不写过程即攻击）',
      '  例：.hit 甲 乙 长剑 距离=1　　.hit 擒抱 甲 乙 拳',
      '.status [名字 ...]：轮到谁、各角色的伤害、状态与修正',
      '.next：下一名角色的回合（修正按时失效）',
      '.end：结束并删除本群的战斗',
    ].concat(ids.map(function (id) {
      var rules = rulesets[id].rules;
      return id + ' 的过程：' + actions(rules).map(function (k) { return rules.PROCEDURE_INFO[k].name; }).join('、');
    }), [
      '过程、属性与选项用中文名或编号；已启用的规则集：' +
        ids.map(function (id) { return id + '（' + rulesets[id].config.name + '）'; }).join('、'),
    ]).join('\n');
  }

  function register() {
    ext = seal.ext.find(EXTENSION);
    if (!ext) {
      ext = seal.ext.new(EXTENSION, 'rulec', '1.0.0');
      seal.ext.register(ext);
    }
    COMMANDS.forEach(function (command) {
      var cmd = seal.ext.newCmdItemInfo();
      cmd.name = command;
      cmd.help = '';
      cmd.solve = function (ctx, msg, cmdArgs) {
        var words = [], total = 0;
        for (var i = 1; cmdArgs.getArgN(i) !== ''; i++) {
          var word = chat.normal(String(cmdArgs.getArgN(i)));
          total += word.length + 1;
          if (total > chat.MAX_MESSAGE) { words = null; break; }
          words.push(word);
        }
        var result = seal.ext.newCmdExecuteResult(true);
        var bare = command === 'fight' && words !== null && words.length === 0;
        if (bare || (words !== null && words.length === 1 && (words[0] === 'help' || words[0] === '帮助'))) {
          result.showHelp = true;  // SealDice answers with cmd.help
          return result;
        }
        seal.replyToSender(ctx, msg, words === null ? '无法理解：消息过长' : reply(command, ctx, msg, words));
        return result;
      };
      ext.cmdMap[command] = cmd;
      cmds[command] = cmd;
    });
  }

  // Serve a compiled ruleset: config {id, name, procedure (the default of .hit), firearm?: [procedure, mode]}.
  function add(rules, config) {
    if (!rules || typeof rules.start_fight !== 'function' || !rules.FIGHT_RULES) {
      throw new Error('rulec_fight：规则集“' + config.id + '”的模块没有战斗（请用新版的 rulec_' + config.id + '.user.js）');
    }
    if (ext === null) register();
    if (!own.call(rulesets, config.id)) ids.push(config.id);
    rulesets[config.id] = {rules: rules, config: Object.freeze(Object.assign({}, config))};
    var help = helpText();
    COMMANDS.forEach(function (c) { cmds[c].help = help; });
  }

  root.rulec_fight = Object.freeze({add: add, reply: reply});
})(typeof globalThis !== 'undefined' ? globalThis : (function () { return this; })());
