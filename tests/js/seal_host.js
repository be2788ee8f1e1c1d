// A stand-in SealDice host, in plain ES2015 so that Node and QuickJS run the same one
// (tests/test_sealdice.py). It loads scripts the way SealDice does: sorted by file name, then
// each after the scripts its `// @depends author:name` lines name (a script whose dependency is
// missing is not loaded), every file wrapped as its own CommonJS module function as goja_nodejs
// `require` wraps it ("(function(exports, require, module, __filename, __dirname){" + source +
// "\n})", compiled apart from every other file, so a top-level `var` stays in its file). The
// `seal` object has the shapes of sealdice-core's JS API (types/seal.d.ts of the extension
// template): seal.ext.new/find/register/newCmdItemInfo/newCmdExecuteResult, ExtInfo with cmdMap
// and storageSet/storageGet (string values, '' for a missing key), CmdArgs with getArgN, args,
// rawArgs, isArgEqual, getRestArgsFrom; seal.replyToSender. A command whose result has showHelp
// is answered with the command's help, as SealDice does.
//
// sealHost(files, lines, store): files is [[file name, source], ...] in any order, lines the chat
// lines to dispatch (a line is its text, sent in group QQ-Group:1, or [where, text]: where is a
// group id, or a user id 'QQ:<n>' for a private message), store {extension: {key: value}} the
// storage to start from; returns {loaded: [names in load order], failed: [[name, reason]],
// replies: [reply per line], store}. A bot restart is a second call with the store the first
// returned (after a JSON round trip, as SealDice keeps it in its database): nothing else survives.
// As in SealDice, storage keys and values are strings: storageSet refuses anything else.
function sealHost(files, lines, store) {
  'use strict';
  store = store || {};
  function header(source) {
    const out = {name: '', author: '', depends: []};
    const head = /\/\/\s*==UserScript==([\s\S]*?)\/\/\s*==\/UserScript==/.exec(source);
    if (!head) return out;
    head[1].split('\n').forEach(function (line) {
      const m = /^\s*\/\/\s*@(\S+)\s+(.*?)\s*$/.exec(line);
      if (!m) return;
      if (m[1] === 'depends') out.depends.push(m[2].split(':').slice(0, 2).join(':'));
      else if (m[1] === 'name' || m[1] === 'author') out[m[1]] = m[2];
    });
    return out;
  }
  const scripts = files.map(function (f) { return {file: f[0], source: f[1], info: header(f[1])}; });
  scripts.sort(function (a, b) { return a.file < b.file ? -1 : a.file > b.file ? 1 : 0; });
  const byKey = {};
  scripts.forEach(function (s) { byKey[s.info.author + ':' + s.info.name] = s; });
  const order = [], failed = [], state = {};
  function visit(s) {
    if (state[s.file] === 'done') return true;
    if (state[s.file] === 'failed' || state[s.file] === 'visiting') return false;
    state[s.file] = 'visiting';
    for (let i = 0; i < s.info.depends.length; i++) {
      const dep = byKey[s.info.depends[i]];
      if (!dep || !visit(dep)) {
        state[s.file] = 'failed';
        failed.push([s.file, 'missing dependency ' + s.info.depends[i]]);
        return false;
      }
    }
    state[s.file] = 'done';
    order.push(s);
    return true;
  }
  scripts.forEach(visit);

  const extensions = {};
  const replies = [];
  let pending = null;
  function ExtInfo(name, author, version) {
    this.name = name; this.author = author; this.version = version; this.cmdMap = {}; this.isLoaded = true;
    const data = store[name] || (store[name] = {});
    this.storageSet = function (k, v) {
      if (typeof k !== 'string' || typeof v !== 'string') throw new TypeError('storageSet: key and value must be strings');
      data[k] = v;
    };
    this.storageGet = function (k) { return Object.prototype.hasOwnProperty.call(data, k) ? data[k] : ''; };
  }
  const seal = {
    ext: Object.freeze({
      new: function (name, author, version) { return new ExtInfo(String(name), String(author), String(version)); },
      find: function (name) { return extensions[name] || null; },
      register: function (ext) { extensions[ext.name] = ext; },
      newCmdItemInfo: function () {
        return {name: '', help: '', solve: null, allowDelegate: false, disabledInPrivate: false};
      },
      newCmdExecuteResult: function (solved) { return {solved: !!solved, showHelp: false}; },
    }),
    replyToSender: function (ctx, msg, text) {
      if (typeof text !== 'string') throw new TypeError('replyToSender: text must be a string');
      pending = text;
    },
  };
  Object.freeze(seal);

  const globalObject = (0, eval)('this');
  const saved = globalObject.seal;
  globalObject.seal = seal;
  const loaded = [];
  try {
    order.forEach(function (s) {
      const wrapped = '(function(exports, require, module, __filename, __dirname){' + s.source + '\n})';
      const module = {exports: {}};
      try {
        const fn = (0, eval)(wrapped);
        fn.call(module.exports, module.exports, function () { throw new Error('require is not used'); }, module,
                s.file, '.');
        loaded.push(s.file);
      } catch (err) {
        failed.push([s.file, String(err && err.message)]);
      }
    });
    lines.forEach(function (item) {
      const where = typeof item === 'string' ? 'QQ-Group:1' : item[0];
      const line = typeof item === 'string' ? item : item[1];
      const isPrivate = where.indexOf('QQ:') === 0;
      const words = line.trim().split(/\s+/);
      const name = words[0].replace(/^[.。]/, '');
      let cmd = null;
      Object.keys(extensions).forEach(function (e) {
        if (Object.prototype.hasOwnProperty.call(extensions[e].cmdMap, name)) cmd = extensions[e].cmdMap[name];
      });
      if (cmd === null) { replies.push(null); return; }
      const args = words.slice(1);
      const cmdArgs = {
        command: name, args: args, kwargs: [], at: [], rawArgs: args.join(' '), cleanArgs: args.join(' '),
        amIBeMentioned: false, amIBeMentionedFirst: false,
        getArgN: function (n) { return n >= 1 && n <= args.length ? args[n - 1] : ''; },
        isArgEqual: function (n) {
          const want = Array.prototype.slice.call(arguments, 1);
          return n >= 1 && n <= args.length && want.indexOf(args[n - 1]) >= 0;
        },
        getRestArgsFrom: function (n) { return args.slice(n - 1).join(' '); },
        getKwarg: function () { return null; },
      };
      const user = isPrivate ? where : 'QQ:1';
      const ctx = {group: {groupId: isPrivate ? '' : where, groupName: 'test'}, player: {name: '测试者', userId: user},
                   isPrivate: isPrivate, privilegeLevel: 0};
      const msg = {platform: 'QQ', message: line, messageType: isPrivate ? 'private' : 'group',
                   groupId: isPrivate ? '' : where, sender: {nickname: '测试者', userId: user}, time: 0, rawId: 1};
      pending = null;
      try {
        const result = cmd.solve(ctx, msg, cmdArgs);
        if (result && result.showHelp) pending = cmd.help;
        replies.push(pending === null ? '(no reply)' : pending);
      } catch (err) {
        replies.push('PANIC: ' + String(err && err.message));
      }
    });
  } finally {
    globalObject.seal = saved;
  }
  return {loaded: loaded, failed: failed, replies: replies, store: store};
}
