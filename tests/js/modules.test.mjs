// node --test: the generated JavaScript modules and scripts of every ruleset of a build (issue 19).
// RULEC_GENERATED names the build to test (tests/test_js_node.py passes a fresh one, which holds the
// tests' own rulesets too); default generated/. The rulesets are the build's js/<id>/ folders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import vm from 'node:vm';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const GENERATED = process.env.RULEC_GENERATED || path.join(ROOT, 'generated');
const RULESETS = readdirSync(path.join(GENERATED, 'js')).filter(rs => existsSync(path.join(GENERATED, 'js', rs, 'index.js'))).sort();
test('the build holds rulesets', () => assert.ok(RULESETS.length > 0, GENERATED));

const load = rs => import(pathToFileURL(path.join(GENERATED, 'js', rs, 'index.js')).href);
const scriptPath = rs => path.join(GENERATED, 'js', rs, `rulec_${rs}.user.js`);

test('SeededDice replays CPython random.Random(seed): the faces of the Python package', async () => {
  const d20 = await load('d20');
  // Python: d = SeededDice(1); [d.die(20) for _ in range(8)]; d = SeededDice(2**40 + 7); [d.die(6) ...]
  const one = new d20.SeededDice(1);
  assert.deepEqual(Array.from({length: 8}, () => one.die(20)), [3, 17, 16, 6, 10, 9, 14, 16]);
  const big = new d20.SeededDice(2 ** 40 + 7);
  assert.deepEqual(Array.from({length: 6}, () => big.die(6)), [4, 5, 6, 4, 3, 6]);
});

test('FixedDice: faces in order, DiceExhausted and BadFace with stable codes', async () => {
  const dp = await load('dp');
  const fixed = new dp.FixedDice([3, 11]);
  assert.equal(fixed.die(10), 3);
  assert.throws(() => fixed.die(10), err => err instanceof dp.BadFace && err.code === 'bad-face');
  const empty = new dp.FixedDice([]);
  assert.throws(() => empty.die(10), err => err instanceof dp.DiceExhausted && err instanceof dp.RuleError &&
    err.code === 'dice-exhausted' && err.toDict().error === 'dice-exhausted');
});

test('inputs from strangers are checked: unknown options, stats and entries are RuleErrors', async () => {
  const d20 = await load('d20');
  const a = new d20.Combatant(), b = new d20.Combatant();
  assert.throws(() => d20.attack(a, b, 'longsword', {nonsense: 1}), d20.OutOfBounds);
  assert.throws(() => new d20.Combatant({strength: 99}), d20.OutOfBounds);
  assert.throws(() => new d20.Combatant({__proto__: 1, strength: 10, polluted: 1}), d20.OutOfBounds);
  assert.throws(() => d20.attack(a, b, '长剑x'), err => err instanceof d20.UnknownEntry && /长剑/.test(err.message));
  assert.throws(() => d20.attack(a, b, 'longsword', {distance: 1e9}), d20.OutOfBounds);
  assert.throws(() => d20.attack(a, b, 'longsword', {distance: 2.5}), d20.OutOfBounds);
  assert.equal(d20.get_weapon('长剑').id, 'longsword');
  // A positional parameter with a default (the weapon: unarmed_strike) may be left out, as in Python.
  assert.equal(d20.attack(a, b).text().length > 0, true);
  assert.deepEqual(d20.attack(a, b, undefined, {dice: new d20.SeededDice(5)}).outcome(),
                   d20.attack(a, b, 'unarmed_strike', {dice: new d20.SeededDice(5)}).outcome());
  assert.ok(Object.isFrozen(d20.attack(a, b, 'longsword')));
});

test('a polluted Object.prototype changes no option and no stat (a shared engine)', () => {
  const context = vm.createContext({});
  vm.runInContext(readFileSync(scriptPath('d20'), 'utf8'), context);
  const clean = vm.runInContext(`(function () {
    const m = rulec_d20, a = new m.Combatant(), b = new m.Combatant();
    return JSON.stringify(m.attack(a, b, 'longbow', {dice: new m.SeededDice(4)}).toDict());
  })()`, context);
  const polluted = vm.runInContext(`(function () {
    Object.prototype.distance = 9999; Object.prototype.strength = 30; Object.prototype.proficient = false;
    const m = rulec_d20, a = new m.Combatant(), b = new m.Combatant();
    return JSON.stringify(m.attack(a, b, 'longbow', {dice: new m.SeededDice(4)}).toDict());
  })()`, context);
  assert.equal(polluted, clean);
});

test('the four forms agree: traced, fast, prepared give one outcome from one seed', async () => {
  for (const rs of RULESETS) {
    const m = await load(rs);
    for (const [proc, info] of Object.entries(m.PROCEDURE_INFO)) {
      const args = info.positional.map(p => {
        const type = info.params.find(x => x[0] === p)[2];
        if (type === 'combatant') return new m.Combatant();
        if (type === 'int') return 0;
        if (type === 'bool') return false;
        return m[type.toUpperCase()].keys().next().value;
      });
      let traced;
      try { traced = m[proc](...args, {dice: new m.SeededDice(7)}); } catch (err) {
        assert.ok(err instanceof m.RuleError, `${rs}.${proc}: ${err}`);
        continue;
      }
      assert.deepEqual(m[`${proc}_fast`](...args, {dice: new m.SeededDice(7)}), traced.outcome(), `${rs}.${proc}`);
      assert.deepEqual(m[`${proc}_prepare`](...args)(new m.SeededDice(7)), traced.outcome(), `${rs}.${proc}`);
      const odds = m[`${proc}_odds`](...args);
      assert.ok(Math.abs(odds.total() + odds.dropped - 1) < 1e-9, `${rs}.${proc} odds sum to 1`);
    }
  }
});

test('each single-file script parses as an ES2015 script: no import, export or later syntax', () => {
  for (const rs of RULESETS) {
    const check = spawnSync(process.execPath, ['--expose-internals', '-e', `
      const acorn = require('internal/deps/acorn/acorn/dist/acorn');
      const text = require('fs').readFileSync(process.argv[1], 'utf8');
      acorn.parse(text, {ecmaVersion: 2015, sourceType: 'script'});
      for (const word of ['import ', 'export ']) {
        if (text.split('\\n').some(line => line.trimStart().startsWith(word))) throw new Error('module syntax');
      }`, scriptPath(rs)], {encoding: 'utf8'});
    assert.equal(check.status, 0, `${rs}: ${check.stderr}`);
    const head = readFileSync(scriptPath(rs), 'utf8').split('\n').slice(0, 10).join('\n');
    for (const key of ['@name', '@author', '@version', '@description', '@license']) assert.ok(head.includes(key), key);
    assert.ok(head.startsWith('// ==UserScript=='));
  }
});

test('the module parses as ES2015 too, apart from its export list', () => {
  const check = spawnSync(process.execPath, ['--expose-internals', '-e', `
    const acorn = require('internal/deps/acorn/acorn/dist/acorn');
    acorn.parse(require('fs').readFileSync(process.argv[1], 'utf8'), {ecmaVersion: 2015, sourceType: 'module'});`,
    path.join(GENERATED, 'js', 'd20', 'index.js')], {encoding: 'utf8'});
  assert.equal(check.status, 0, check.stderr);
});

test('the script defines the same API on one global object, with the same results as the module', async () => {
  for (const rs of RULESETS) {
    const m = await load(rs);
    const context = vm.createContext({});
    vm.runInContext(readFileSync(scriptPath(rs), 'utf8'), context);
    const g = context[`rulec_${rs}`];
    assert.deepEqual(Object.keys(g).sort(), Object.keys(m).sort());
    const proc = Object.keys(m.PROCEDURE_INFO)[0];
    const make = lib => m.PROCEDURE_INFO[proc].positional.map(() => new lib.Combatant());
    if (m.PROCEDURE_INFO[proc].positional.every(p => m.PROCEDURE_INFO[proc].params.find(x => x[0] === p)[2] === 'combatant')) {
      assert.equal(g[proc](...make(g), {dice: new g.SeededDice(3)}).text(), m[proc](...make(m), {dice: new m.SeededDice(3)}).text());
    }
  }
});

// A stand-in for SealDice's `seal` API that records what a plugin registers and replies (one shared
// context; tests/test_sealdice.py loads every script as SealDice does, one CommonJS module per file).
function sealStandIn() {
  const extensions = new Map(), replies = [];
  const seal = {
    ext: {
      find: name => extensions.get(name) || null,
      new: (name, author, version) => ({name, author, version, cmdMap: {}}),
      register: ext => { extensions.set(ext.name, ext); },
      newCmdItemInfo: () => ({name: '', help: '', solve: null}),
      newCmdExecuteResult: success => ({success}),
    },
    replyToSender: (ctx, msg, text) => { replies.push(text); },
  };
  const call = (name, words) => {
    const cmd = extensions.get('rulec-d20').cmdMap[name];
    const cmdArgs = {getArgN: n => words[n - 1] || ''};
    return cmd.solve({}, {}, cmdArgs);
  };
  return {seal, replies, call, extensions};
}

test('the SealDice example registers .atk and .odds and replies in the rules\' words', () => {
  const s = sealStandIn();
  const context = vm.createContext({seal: s.seal});
  vm.runInContext(readFileSync(scriptPath('d20'), 'utf8'), context);
  vm.runInContext(readFileSync(path.join(ROOT, 'examples', 'sealdice', 'rulec_atk.js'), 'utf8'), context);
  assert.deepEqual(Object.keys(s.extensions.get('rulec-d20').cmdMap).sort(), ['atk', 'odds']);
  assert.deepEqual(s.call('atk', ['长剑', '15', '力量', '16', '熟练']), {success: true});
  assert.match(s.replies.at(-1), /攻击检定：掷d20得\d+/);
  s.call('odds', ['长剑', '15', '力量', '16', '熟练']);
  assert.match(s.replies.at(-1), /^长剑对护甲等级15：命中率\d+\.\d%，期望伤害\d+\.\d\d$/);
  s.call('atk', ['长枪剑', '15']);            // a stranger's typo: the module's error, as the reply
  assert.match(s.replies.at(-1), /没有名为“长枪剑”的武器/);
  s.call('atk', ['长剑', '15', '力量', '999']);
  assert.match(s.replies.at(-1), /力量必须在1到30之间/);
  s.call('atk', ['长剑', 'x']);
  assert.equal(s.replies.at(-1), '目标护甲等级需要一个整数');
  s.call('atk', []);
  assert.match(s.replies.at(-1), /^\.atk 武器/);
  // Loaded twice (a reload), the plugin finds its extension instead of registering another.
  vm.runInContext(readFileSync(path.join(ROOT, 'examples', 'sealdice', 'rulec_atk.js'), 'utf8'), context);
  assert.equal(s.extensions.size, 1);
});
