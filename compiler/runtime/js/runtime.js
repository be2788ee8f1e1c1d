// rulec JavaScript runtime: dice sources, dice engines, exact odds, errors and trace records.
// The compiler copies this file verbatim into every generated JavaScript module (the Python
// runtime is compiler/runtime/*.py; each function here names its Python twin). ES2015 syntax
// only, and no API newer than ES2015, so the single-file script runs in SealDice's engine.
'use strict';

// ---- errors (core.py) ----
// `code`, `message` and `details` are own enumerable properties (a logger or JSON.stringify keeps
// them); toJSON() is toDict(), the Python package's to_dict().
class RuleError extends Error {
  constructor(message, details) {
    super(message);
    const own = {enumerable: true, writable: false, configurable: true};
    Object.defineProperty(this, 'code', Object.assign({value: new.target.CODE || RuleError.CODE}, own));
    Object.defineProperty(this, 'message', Object.assign({value: message}, own));
    Object.defineProperty(this, 'details', Object.assign({value: Object.freeze(Object.assign({}, details || {}))}, own));
    Object.defineProperty(this, 'name', {value: new.target.name, enumerable: false, writable: true, configurable: true});
  }
  toDict() { return {error: this.code, message: this.message, details: Object.assign({}, this.details)}; }
  toJSON() { return this.toDict(); }
}
RuleError.CODE = RuleError.prototype.code = 'rule-error';
function _rt_error_class(name, code, base) {
  const cls = class extends (base || RuleError) {};
  Object.defineProperty(cls, 'name', {value: name});
  cls.CODE = cls.prototype.code = code;
  return cls;
}
const DiceExhausted = _rt_error_class('DiceExhausted', 'dice-exhausted');
const BadFace = _rt_error_class('BadFace', 'bad-face');
const NotSpecifiedBySource = _rt_error_class('NotSpecifiedBySource', 'not-specified-by-source');
const OutOfBounds = _rt_error_class('OutOfBounds', 'out-of-bounds');
const LimitExceeded = _rt_error_class('LimitExceeded', 'limit-exceeded');
const UnknownEntry = _rt_error_class('UnknownEntry', 'unknown-entry');

// What sort of value this is, in the rules' words (core.kind): the same words as the Python
// package's for the same JSON value, and no language's type names.
function _rt_type_name(value) {
  if (value === null || value === undefined) return '空值';
  if (typeof value === 'boolean') return '真假值';
  if (typeof value === 'number') return Number.isInteger(value) ? '整数' : '小数';
  if (typeof value === 'string') return '文本';
  if (Array.isArray(value)) return '列表';
  if (typeof value === 'function') return '函数';
  if (typeof value !== 'object') return typeof value === 'bigint' ? '整数' : '其他值';
  const proto = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype) return '映射';
  return proto.constructor && proto.constructor.name ? proto.constructor.name : '其他值';
}
// A value a caller gave, as a message shows it (core.described): “text” in Chinese quotes (its
// first 20 characters), 真/假, 空值, a number; anything else by its kind.
function _rt_repr(value) {
  if (value === null || value === undefined) return '空值';
  if (value === true) return '真';
  if (value === false) return '假';
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return Math.abs(value) < 1e12 ? String(value) : '超出范围的整数';
    return Number.isNaN(value) ? 'nan' : value === Infinity ? 'inf' : value === -Infinity ? '-inf' : String(value);
  }
  if (typeof value === 'string') {
    const chars = Array.from(value);
    return '“' + chars.slice(0, 20).join('') + (chars.length > 20 ? '…' : '') + '”';
  }
  return `${_rt_type_name(value)}类型的值`;
}

function _rt_within(what, value, limit) {
  if (value > limit) throw new LimitExceeded(`${what}${value}，超过规则集的上限${limit}`);
}
function _rt_floordiv(a, b) {
  if (b === 0) throw new RuleError('除数为0，无法计算');
  return Math.floor(a / b);
}
function _rt_ceildiv(a, b) {
  if (b === 0) throw new RuleError('除数为0，无法计算');
  return -Math.floor(-a / b);
}
function _rt_clamp(x, lo, hi) { return x < lo ? lo : x > hi ? hi : x; }
function _rt_check_int(name, value, lo, hi) {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new OutOfBounds(`${name}必须是整数，得到${_rt_repr(value)}`, {name: name});
  }
  if (value < lo || value > hi) {
    throw new OutOfBounds(`${name}必须在${lo}到${hi}之间，得到${value}`, {name: name, value: value});
  }
  return value;
}
function _rt_check_bool(name, value) {
  if (typeof value !== 'boolean') throw new OutOfBounds(`${name}必须是真或假，得到${_rt_repr(value)}`, {name: name});
  return value;
}
function _rt_check_type(name, value, cls) {
  if (!(value instanceof cls)) {
    throw new OutOfBounds(`${name}必须是${cls.name}，得到${_rt_type_name(value)}`, {name: name});
  }
  return value;
}
function _rt_require_specified(entry, what) {
  if (entry.not_specified !== null) {
    throw new NotSpecifiedBySource(`${what}“${entry.name}”在原文中没有给出具体规则：${entry.not_specified}`,
                                   {entry: entry.id});
  }
  return entry;
}
// Check a procedure's inputs in order and throw the first problem (generated code tests them
// inline and calls this only when one fails): ['int', name, value, lo, hi], ['bool', name, value],
// ['type', name, value, cls], ['entry', name, entry].
function _rt_check_inputs(specs) {
  for (const spec of specs) {
    if (spec[0] === 'int') _rt_check_int(spec[1], spec[2], spec[3], spec[4]);
    else if (spec[0] === 'bool') _rt_check_bool(spec[1], spec[2]);
    else if (spec[0] === 'type') _rt_check_type(spec[1], spec[2], spec[3]);
    else _rt_require_specified(spec[2], spec[1]);
  }
}
function _rt_not_given() { throw new NotSpecifiedBySource('未指定的条目没有公式'); }

// difflib.SequenceMatcher(None, a, b).ratio() exactly as CPython computes it (a and b are arrays
// of code points; b's popular elements are dropped from b2j when b has 200 or more, autojunk).
function _rt_ratio(a, b) {
  const b2j = new Map();
  for (let j = 0; j < b.length; j++) {
    const list = b2j.get(b[j]);
    if (list === undefined) b2j.set(b[j], [j]);
    else list.push(j);
  }
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [elt, idxs] of Array.from(b2j.entries())) if (idxs.length > ntest) b2j.delete(elt);
  }
  const nothing = [];
  function longest(alo, ahi, blo, bhi) {
    let besti = alo, bestj = blo, bestsize = 0, j2len = new Map();
    for (let i = alo; i < ahi; i++) {
      const newj2len = new Map();
      for (const j of (b2j.get(a[i]) || nothing)) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) || 0) + 1;
        newj2len.set(j, k);
        if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k; }
      }
      j2len = newj2len;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; bestsize++; }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return [besti, bestj, bestsize];
  }
  let matches = 0;
  const queue = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const q = queue.pop(), m = longest(q[0], q[1], q[2], q[3]), i = m[0], j = m[1], k = m[2];
    if (k) {
      matches += k;
      if (q[0] < i && q[2] < j) queue.push([q[0], i, q[2], j]);
      if (i + k < q[1] && j + k < q[3]) queue.push([i + k, q[1], j + k, q[3]]);
    }
  }
  const total = a.length + b.length;
  return total ? 2.0 * matches / total : 1.0;
}
function _rt_code_point_less(x, y) {  // Python's str < (by code point, not UTF-16 unit)
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return x.length < y.length;
}
// difflib.get_close_matches(key, names, n=1)[0], or null: the best ratio of at least 0.6, a tie
// going to the greater name (heapq.nlargest over (ratio, name)).
function _rt_close_match(key, names) {
  const b = Array.from(key, c => c.codePointAt(0));
  let best = null, bestPoints = null, score = -1;
  for (const n of names) {
    const points = Array.from(n, c => c.codePointAt(0));
    const r = _rt_ratio(points, b);
    if (r < 0.6) continue;
    if (r > score || (r === score && _rt_code_point_less(bestPoints, points))) {
      best = n; bestPoints = points; score = r;
    }
  }
  return best;
}
// Public: the closest of `names` to `key` as difflib.get_close_matches(key, names, n=1) finds it
// (a ratio of at least 0.6), or null; for tools that check words from chat text.
function close_match(key, names) {
  if (typeof key !== 'string') throw new OutOfBounds(`key必须是文本，得到${_rt_type_name(key)}`);
  return _rt_close_match(key, Array.from(names, String));
}
// Find an entry by object, id or Chinese name (core.lookup).
function _rt_lookup(table, key, what, cls) {
  if (key instanceof cls) return key;
  if (typeof key === 'string') {
    const entry = table.get(key);
    if (entry !== undefined) return entry;
    for (const candidate of table.values()) {
      if (candidate.name === key) return candidate;
    }
    const names = Array.from(table.keys()).concat(Array.from(table.values()).map(e => e.name));
    const close = _rt_close_match(key, names);
    const hint = close !== null ? `，是否想找“${close}”？` : '';
    throw new UnknownEntry(`没有名为“${key}”的${what}${hint}`, {key: key});
  }
  throw new UnknownEntry(`${what}必须是编号、名称或条目对象，得到${_rt_type_name(key)}`);
}
function _rt_index(table, key, what) {
  const entry = table.get(key);
  if (entry === undefined) throw new UnknownEntry(`没有${what}为${key}的条目`, {key: key});
  return entry;
}

// A table of the rules: a Map that cannot be changed (get, has, keys, values, entries, forEach,
// size, for...of); set, delete and clear throw a TypeError, and Map.prototype.set.call cannot
// reach its entries (they live in a WeakMap of this runtime), so one importer cannot change a
// table under another.
const _rt_FROZEN = new WeakMap();
class FrozenMap {
  constructor(entries) { _rt_FROZEN.set(this, new Map(entries)); Object.freeze(this); }
  get size() { return _rt_FROZEN.get(this).size; }
  get(key) { return _rt_FROZEN.get(this).get(key); }
  has(key) { return _rt_FROZEN.get(this).has(key); }
  keys() { return _rt_FROZEN.get(this).keys(); }
  values() { return _rt_FROZEN.get(this).values(); }
  entries() { return _rt_FROZEN.get(this).entries(); }
  forEach(fn, thisArg) { _rt_FROZEN.get(this).forEach((v, k) => fn.call(thisArg, v, k, this)); }
  [Symbol.iterator]() { return _rt_FROZEN.get(this).entries(); }
  set() { throw new TypeError('规则表是只读的：不能修改（set）'); }
  delete() { throw new TypeError('规则表是只读的：不能删除条目（delete）'); }
  clear() { throw new TypeError('规则表是只读的：不能清空（clear）'); }
  toJSON() { const out = {}; for (const kv of this.entries()) out[kv[0]] = kv[1]; return out; }
}
Object.freeze(FrozenMap.prototype);
function _rt_is_table(table) { return table instanceof Map || table instanceof FrozenMap; }

// ---- values, sentences, records ----
function _rt_plain(value) {
  if (value !== null && typeof value === 'object') {
    if (typeof value.toDict === 'function') return value.toDict();
    if (Array.isArray(value)) return value.map(_rt_plain);
    const out = {};
    for (const k of Object.keys(value)) out[k] = _rt_plain(value[k]);
    return out;
  }
  return value;
}
// A value as it reads in a trace sentence (core.fmt).
function _rt_fmt(value) {
  if (value === true) return '是';
  if (value === false) return '否';
  if (value === null || value === undefined) return '无';
  if (typeof value === 'object' && typeof value.name === 'string') return value.name;
  return String(value);
}
// An outcome value in the rules' words: 是/否, a number, or the name of the entry of `table` an id names.
function shown(value, table) {
  if (_rt_is_table(table) && typeof value === 'string') {
    return value === '' ? '—' : table.has(value) ? _rt_fmt(table.get(value)) : value;
  }
  return _rt_fmt(value);
}
function _rt_faces_text(faces, added) {
  added = added || [];
  if (faces.length === 1 && added.length === 0) return `[${faces[0]}]`;
  if (!added.some(a => a)) return '[' + faces.join(', ') + ']';
  return '[' + faces.map((f, i) => (added[i] ? `${f}+` : String(f))).join(', ') + ']';
}
function _rt_signed(n) { return n >= 0 ? `+${n}` : String(n); }

// One line of a resolution trace: a step kind, a sentence and its numbers.
class TraceStep {
  constructor(kind, text, values) { this.kind = kind; this.text = text; this.values = values; Object.freeze(this); }
  toJSON() { return this.toDict(); }
  toDict() {
    const values = {};
    for (const kv of this.values) values[kv[0]] = _rt_plain(kv[1]);
    return {kind: this.kind, text: this.text, values: values};
  }
}
// What every procedure's result has besides its fields (core.Result).
class Result {
  outcome() { return this.constructor.FIELDS.map(f => this[f]); }
  // The trace as sentences, one per line; with gm = true also the lines only the game master sees.
  text(gm) {
    return this.trace.filter(s => gm || s.kind !== 'gm').map(s => s.text).join('\n');
  }
  toJSON() { return this.toDict(); }
  toDict() {
    const out = {procedure: this.constructor.PROCEDURE};
    for (const f of this.constructor.FIELDS) out[f] = _rt_plain(this[f]);
    out.rolls = this.rolls.map(r => r.toDict());
    out.trace = this.trace.map(s => s.toDict());
    return out;
  }
}
function _rt_result(cls, values, rolls, trace) {
  const out = new cls();
  const fields = cls.FIELDS;
  for (let i = 0; i < fields.length; i++) out[fields[i]] = values[i];
  out.rolls = Object.freeze(rolls);
  out.trace = Object.freeze(trace);
  return Object.freeze(out);
}

// ---- dice sources (sources.py) ----
// A dice expression from the rules, e.g. 2d6+3: its text, dice terms and flat bonus.
class DiceValue {
  constructor(text, terms, flat) { this.text = text; this.terms = terms; this.flat = flat; Object.freeze(this); }
  toJSON() { return this.toDict(); }
  toDict() { return this.text; }
}
function _rt_dice_value(row) { return row === null ? null : new DiceValue(row[0], row[1], row[2]); }
function _rt_dice_count(value) {
  if (value === null) return 0;
  const terms = value.terms;
  if (terms.length === 1) return terms[0][0];
  let n = 0;
  for (const t of terms) n += t[0];
  return n;
}
const _rt_MADE = new Map();
function _rt_make_dice(count, sides) {
  const key = count + 'd' + sides;
  let value = _rt_MADE.get(key);
  if (value === undefined) {
    if (count < 0 || sides < 1) throw new RuleError(`无法掷${count}d${sides}：骰子数不能为负，面数至少为1`);
    value = new DiceValue(`${count}d${sides}`, count ? [[count, sides]] : [], 0);
    if (_rt_MADE.size < 4096) _rt_MADE.set(key, value);
  }
  return value;
}

// The Mersenne Twister exactly as CPython's random.Random seeds and draws it: SeededDice(seed)
// here rolls the same faces as SeededDice(seed) in the Python package.
class _MersenneTwister {
  constructor(key) {  // key: the seed's absolute value as 32-bit words, least significant first
    this.mt = new Uint32Array(624);
    this.index = 624;
    this.seedArray(key);
  }
  seedArray(key) {
    const mt = this.mt;
    mt[0] = 19650218;
    for (let i = 1; i < 624; i++) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = Math.imul(1812433253, p) + i;
    }
    let i = 1, j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1664525)) >>> 0) + key[j] + j;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const p = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(p, 1566083941)) >>> 0) - i;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
  }
  next32() {
    const mt = this.mt;
    if (this.index >= 624) {
      let kk = 0, y;
      for (; kk < 227; kk++) {
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk + 397] ^ (y >>> 1) ^ ((y & 1) * 0x9908b0df);
      }
      for (; kk < 623; kk++) {
        y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
        mt[kk] = mt[kk - 227] ^ (y >>> 1) ^ ((y & 1) * 0x9908b0df);
      }
      y = (mt[623] & 0x80000000) | (mt[0] & 0x7fffffff);
      mt[623] = mt[396] ^ (y >>> 1) ^ ((y & 1) * 0x9908b0df);
      this.index = 0;
    }
    let y = mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }
  random() {
    const a = this.next32() >>> 5, b = this.next32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}
// An integer seed's absolute value as 32-bit words, least significant first (as CPython's
// init_by_array takes it); ES2015 arithmetic only, so a BigInt goes through its decimal digits.
function _rt_seed_words(seed) {
  let digits;
  if (typeof seed === 'number') {
    if (!Number.isInteger(seed) || Math.abs(seed) > 9007199254740991) {
      throw new OutOfBounds(`种子必须是整数（超过2^53的用BigInt或十进制数字串），得到${_rt_repr(seed)}`);
    }
    digits = String(Math.abs(seed));
  } else if (typeof seed === 'bigint' || (typeof seed === 'string' && /^-?[0-9]{1,4000}$/.test(seed))) {
    digits = String(seed).replace(/^-/, '');
  } else {
    throw new OutOfBounds(`种子必须是整数（超过2^53的用BigInt或十进制数字串），得到${_rt_repr(seed)}`);
  }
  const words = [0];
  for (let i = 0; i < digits.length; i++) {  // words = words * 10 + digit, with carries
    let carry = digits.charCodeAt(i) - 48;
    for (let w = 0; w < words.length; w++) {
      const v = words[w] * 10 + carry;
      words[w] = v % 4294967296;
      carry = Math.floor(v / 4294967296);
    }
    if (carry) words.push(carry);
  }
  while (words.length > 1 && words[words.length - 1] === 0) words.pop();
  return words;
}
// Random faces from a Mersenne Twister seeded like Python's random.Random(seed): the same seed
// replays the same rolls, in either language. A face is Math.floor(random() * sides) + 1.
// The seed is an integer of any size: a safe integer Number, a BigInt, or its decimal digits as a
// string ('123456789012345678901234', a QQ or Discord id), all seeding as Python's int would.
class SeededDice {
  constructor(seed) {
    if (seed === undefined || seed === null) seed = Math.floor(Math.random() * 9007199254740991);
    const twister = new _MersenneTwister(_rt_seed_words(seed));
    this.random = () => twister.random();
    // Read-only, so its faces are always in 1..sides and _rt_dice_source can trust it (a subclass
    // is a source of its own, checked like any other).
    if (new.target === SeededDice) Object.freeze(this);
  }
  die(sides) { return Math.floor(this.random() * sides) + 1; }
}
// Faces given in advance, consumed in order; for tests and worked examples.
class FixedDice {
  constructor(faces) {
    this.faces = Array.from(faces); this.used = 0;
    if (new.target === FixedDice) Object.seal(this);  // no own die can replace the checking one
  }
  die(sides) {
    if (this.used >= this.faces.length) {
      throw new DiceExhausted(`固定骰面已用完：第${this.used + 1}个骰子（d${sides}）没有给出骰面`,
                              {needed: this.used + 1, given: this.faces.length});
    }
    const face = this.faces[this.used];
    if (typeof face !== 'number' || !Number.isInteger(face) || face < 1 || face > sides) {
      throw new BadFace(`第${this.used + 1}个骰面${_rt_repr(face)}不是d${sides}能掷出的点数`, {index: this.used});
    }
    this.used += 1;
    return face;
  }
  get remaining() { return this.faces.length - this.used; }
}

// ---- the success-counting pool (pool.py) ----
class PoolSpec {
  constructor(sides, successAt, addAt, prefix, botDefaultAddAt) {
    this.sides = sides;
    this.success_at = successAt;
    this.add_at = addAt > 0 ? addAt : sides + 1;
    this.prefix = prefix;
    this.bot_default_add_at = botDefaultAddAt;
  }
  command(dice, extras) {
    let text = `${this.prefix}${dice}`;
    if (this.add_at !== this.bot_default_add_at && this.add_at <= this.sides) text += `a${this.add_at}`;
    if (extras > 0) text += `+${extras}`;
    else if (extras < 0) text += `${extras}`;
    return text;
  }
}
class PoolRoll {
  constructor(dice, extras, faces, added, successes, command, allSucceed) {
    this.dice = dice; this.extras = extras; this.faces = faces; this.added = added;
    this.successes = successes; this.command = command; this.all_succeed = allSucceed;
    Object.freeze(this);
  }
  toJSON() { return this.toDict(); }
  toDict() {
    return {kind: 'pool', command: this.command, dice: this.dice, extras: this.extras, faces: this.faces.slice(),
            added: this.added.slice(), successes: this.successes, all_succeed: this.all_succeed};
  }
}
// The default of the pool engine's dice.limits.added_dice (pool.ADDED_DICE): generated code passes
// its ruleset's declared limit, and no pool is ever rolled without one.
const _rt_ADDED_DICE = 1000;
function _rt_too_many_added(maxAdded) {
  return new LimitExceeded(`一次骰池检定的加骰超过${maxAdded}个，超过规则集的上限（added_dice）：` +
                           '公平的骰子几乎不可能如此（概率低于10⁻¹⁶），请检查骰子来源', {limit: maxAdded});
}
function _rt_roll_pool(source, spec, dice, extras, allSucceed, maxAdded) {
  if (maxAdded === undefined) maxAdded = _rt_ADDED_DICE;
  const command = spec.command(dice, extras);
  if (allSucceed) return new PoolRoll(dice, extras, [], [], dice, command, true);
  const faces = [], added = [];
  let successes = 0, pending = dice, rolled = 0, left = maxAdded;
  while (pending > 0) {
    pending -= 1;
    const face = source.die(spec.sides);
    faces.push(face);
    added.push(rolled >= dice);
    rolled += 1;
    if (face >= spec.success_at) successes += 1;
    if (face >= spec.add_at) {
      if (!(left > 0)) throw _rt_too_many_added(maxAdded);
      left -= 1;
      pending += 1;
    }
  }
  return new PoolRoll(dice, extras, faces, added, successes, command, false);
}
function _rt_pool_successes(dice, n, sides, successAt, addAt, maxAdded) {
  if (maxAdded === undefined) maxAdded = _rt_ADDED_DICE;
  let successes = 0, left = maxAdded;
  while (n > 0) {
    n -= 1;
    const face = dice.die(sides);
    if (face >= successAt) successes += 1;
    if (face >= addAt) {
      if (!(left > 0)) throw _rt_too_many_added(maxAdded);
      left -= 1;
      n += 1;
    }
  }
  return successes;
}
function _rt_pool_sentence(label, roll) {
  if (roll.all_succeed) return `${label}：${roll.command}，所有${roll.dice}个骰子均视为成功（不加骰）`;
  const extras = roll.extras ? `（另有附加成功${roll.extras}）` : '';
  if (roll.dice === 0) return `${label}：没有骰子可掷，成功数${roll.successes}${extras}`;
  return `${label}：掷${roll.command}，骰面${_rt_faces_text(roll.faces, roll.added)}，成功数${roll.successes}${extras}`;
}

// ---- the d20 with advantage layers (d20.py) ----
class D20Roll {
  constructor(faces, natural, layers) { this.faces = faces; this.natural = natural; this.layers = layers; Object.freeze(this); }
  toJSON() { return this.toDict(); }
  toDict() { return {kind: 'd20', faces: this.faces.slice(), natural: this.natural, layers: this.layers}; }
}
function _rt_roll_d20(source, layers) {
  if (layers === 0) {
    const face = source.die(20);
    return new D20Roll([face], face, 0);
  }
  const faces = [];
  for (let i = 0; i < Math.abs(layers) + 1; i++) faces.push(source.die(20));
  return new D20Roll(faces, layers >= 0 ? Math.max.apply(null, faces) : Math.min.apply(null, faces), layers);
}
function _rt_d20_natural(dice, layers) {
  if (layers === 0) return dice.die(20);
  let kept = dice.die(20);
  for (let i = layers > 0 ? layers : -layers; i > 0; i--) {
    const face = dice.die(20);
    if (layers > 0 ? face > kept : face < kept) kept = face;
  }
  return kept;
}
function _rt_d20_sentence(label, roll) {
  if (roll.layers === 0) return `${label}：掷d20得${roll.natural}`;
  const mode = `${Math.abs(roll.layers)}重${roll.layers > 0 ? '优势' : '劣势'}`;
  return `${label}：${mode}，掷${roll.faces.length}个d20 ${_rt_faces_text(roll.faces)}，取${roll.natural}`;
}

// ---- damage dice (damage.py) ----
class DamageRoll {
  constructor(faces, total, crit, expression) {
    this.faces = faces; this.total = total; this.crit = crit; this.expression = expression; Object.freeze(this);
  }
  toJSON() { return this.toDict(); }
  toDict() {
    return {kind: 'damage', expression: this.expression, faces: this.faces.slice(), total: this.total, crit: this.crit};
  }
}
function _rt_terms_text(terms, crit) {
  const mult = crit ? 2 : 1;
  return terms.map(t => `${t[0] * mult}d${t[1]}`).join('+') || '0';
}
function _rt_roll_damage(source, terms, crit) {
  const faces = [];
  for (let pass = crit ? 2 : 1; pass > 0; pass--) {
    for (const t of terms) for (let i = 0; i < t[0]; i++) faces.push(source.die(t[1]));
  }
  let total = 0;
  for (const f of faces) total += f;
  return new DamageRoll(faces, total, crit, _rt_terms_text(terms, crit));
}
function _rt_damage_total(dice, terms, crit) {
  if (terms.length === 1 && terms[0][0] === 1) {  // one die: the common weapon
    const sides = terms[0][1];
    return crit ? dice.die(sides) + dice.die(sides) : dice.die(sides);
  }
  let total = 0;
  for (let pass = crit ? 2 : 1; pass > 0; pass--) {
    for (let j = 0; j < terms.length; j++) {
      const count = terms[j][0], sides = terms[j][1];
      for (let i = 0; i < count; i++) total += dice.die(sides);
    }
  }
  return total;
}
function _rt_damage_sentence(label, roll, flat) {
  const bonus = flat ? _rt_signed(flat) : '';
  const crit = roll.crit ? '（重击，伤害骰掷两次）' : '';
  return `${label}：掷${roll.expression}${bonus}${crit}，骰面${_rt_faces_text(roll.faces)}，合计${roll.total + flat}`;
}

// ---- exact odds (odds.py) ----
const _rt_TAIL = 1e-16;
const _rt_NEGLIGIBLE = 1e-15;
class PoolOdds {
  constructor(probs, dropped) {
    this.probs = probs;
    this.dropped = dropped;
    this._items = [];
    let skipped = dropped;
    for (let m = 0; m < probs.length; m++) {
      if (probs[m] >= _rt_NEGLIGIBLE) this._items.push([m, probs[m]]);
    }
    let small = 0;
    for (const p of probs) if (p < _rt_NEGLIGIBLE) small += p;
    this.skipped = skipped + small;
  }
  items() { return this._items; }
  mean() { let s = 0; for (let m = 0; m < this.probs.length; m++) s += m * this.probs[m]; return s; }
}
const _rt_LOG_FACTORIALS = [0];
function _rt_log_factorial(n) {
  while (_rt_LOG_FACTORIALS.length <= n) {
    const k = _rt_LOG_FACTORIALS.length;
    _rt_LOG_FACTORIALS.push(_rt_LOG_FACTORIALS[k - 1] + Math.log(k));
  }
  return _rt_LOG_FACTORIALS[n];
}
function _rt_binom(n, k) {
  if (k < 0 || k > n) return 0;
  k = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= k; i++) c = c * (n - k + i) / i;
  return Math.round(c) < 9007199254740992 ? Math.round(c) : c;
}
function _rt_log_binom(n, k) { return _rt_log_factorial(n) - _rt_log_factorial(k) - _rt_log_factorial(n - k); }
function _rt_xlogy(x, y) {
  if (x === 0) return 0;
  return y > 0 ? x * Math.log(y) : -Infinity;
}
function _rt_exp(x) { return x > -745 ? Math.exp(x) : 0; }
const _rt_POOL_CACHE = new Map();
// The exact distribution of raw successes of `dice` dice (add_at <= 0: no added dice), a PoolOdds
// (`probs[m]` = P(m successes), `dropped` the tail left out); public, as odds.pool_distribution is.
function pool_distribution(dice, sides, successAt, addAt, cached) {
  for (const v of [dice, sides, successAt, addAt]) {
    if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > 100000) {
      throw new OutOfBounds(`骰池参数必须是绝对值不超过100000的整数，得到${_rt_repr(v)}`);
    }
  }
  if (sides < 1) throw new OutOfBounds(`骰子面数至少为1，得到${sides}`);
  return cached === false ? _rt_pool_distribution_uncached(dice, sides, successAt, addAt, _rt_TAIL)
    : _rt_pool_distribution(dice, sides, successAt, addAt);
}
function _rt_pool_distribution(dice, sides, successAt, addAt) {
  const key = dice + ',' + sides + ',' + successAt + ',' + addAt;
  let found = _rt_POOL_CACHE.get(key);
  if (found === undefined) {
    found = _rt_pool_distribution_uncached(dice, sides, successAt, addAt, _rt_TAIL);
    if (_rt_POOL_CACHE.size >= 4096) _rt_POOL_CACHE.clear();
    _rt_POOL_CACHE.set(key, found);
  }
  return found;
}
function _rt_pool_distribution_uncached(dice, sides, successAt, addAt, tail) {
  if (dice <= 0) return new PoolOdds([1.0], 0.0);
  if (addAt <= 0 || addAt > sides) addAt = sides + 1;
  let nS = 0, nQ = 0, nR = 0;
  for (let f = 1; f <= sides; f++) {
    const s = f >= successAt, a = f >= addAt;
    if (s && !a) nS++;
    else if (s && a) nQ++;
    else if (a) nR++;
  }
  const nF = sides - nS - nQ - nR;
  if (nQ + nR >= sides) throw new RuleError('every face adds a die: the pool never ends');
  const pF = nF / sides, pS = nS / sides, q = nQ / sides, r = nR / sides;
  const d = 1.0 - r, n = dice, ratio = q / d;
  const inFloats = n * -Math.log(pF + pS) < 600;
  const a = [], b = [];
  if (inFloats && n <= 1000) {
    for (let j = 0; j <= n; j++) a.push(_rt_binom(n, j) * Math.pow(pF, n - j) * Math.pow(pS, j));
    b.push(Math.pow(d, -n));
  } else if (inFloats) {  // C(n, j) alone overflows past about 1,030 dice: a_j from its logarithm
    for (let j = 0; j <= n; j++) a.push(_rt_exp(_rt_log_binom(n, j) + _rt_xlogy(n - j, pF) + _rt_xlogy(j, pS)));
    b.push(Math.pow(d, -n));
  } else {
    for (let j = 0; j <= n; j++) a.push(_rt_log_binom(n, j) + _rt_xlogy(n - j, pF / d) + _rt_xlogy(j, pS / d));
    b.push(0.0);
  }
  const logRatio = ratio > 0 ? Math.log(ratio) : -Infinity;
  const probs = [];
  let dropped = 0.0, m = 0;
  for (;;) {
    while (b.length <= m) {
      const k = b.length, prev = b[k - 1];
      b.push(inFloats ? prev * (n + k - 1) / k * ratio : prev + Math.log((n + k - 1) / k) + logRatio);
    }
    let pm = 0.0;
    const lo = Math.max(0, m - b.length + 1), hi = Math.min(n, m);
    if (inFloats) {
      for (let j = lo; j <= hi; j++) pm += a[j] * b[m - j];
    } else {
      for (let j = lo; j <= hi; j++) pm += _rt_exp(a[j] + b[m - j]);
    }
    probs.push(pm);
    m += 1;
    if (m > n) {
      if (ratio === 0.0) break;
      const k = m - n, rho = (n + k) / (k + 1) * ratio;
      if (rho < 1.0) {
        const bound = pm * rho / (1.0 - rho);
        if (bound <= tail) { dropped = bound; break; }
      }
    }
  }
  while (probs.length > 1 && probs[probs.length - 1] === 0.0) probs.pop();
  return new PoolOdds(probs, dropped);
}
function _rt_all_succeed_distribution(dice) {
  const n = Math.max(dice, 0), probs = [];
  for (let i = 0; i <= n; i++) probs.push(i === n ? 1.0 : 0.0);
  return new PoolOdds(probs, 0.0);
}
const _rt_D20_CACHE = new Map();
function _rt_d20_distribution(layers) {
  let out = _rt_D20_CACHE.get(layers);
  if (out === undefined) {
    const n = Math.abs(layers) + 1, denom = Math.pow(20, n);
    out = [];
    for (let v = 1; v <= 20; v++) {
      const p = layers >= 0 ? (Math.pow(v, n) - Math.pow(v - 1, n)) / denom
        : (Math.pow(21 - v, n) - Math.pow(20 - v, n)) / denom;
      out.push([v, p]);
    }
    _rt_D20_CACHE.set(layers, out);
  }
  return out;
}
function _rt_window(probs, sides, total) {
  const out = [];
  let window = 0.0;
  for (let i = 0; i < total; i++) {
    if (i < probs.length) window += probs[i];
    if (i >= sides) window -= probs[i - sides];
    out.push(window);
  }
  return out;
}
function _rt_add_die(probs, sides) {
  const share = 1.0 / sides, total = probs.length + sides - 1;
  const up = _rt_window(probs, sides, total);
  const down = _rt_window(probs.slice().reverse(), sides, total).reverse();
  let peak = 0;
  for (let i = 1; i < total; i++) if (up[i] > up[peak]) peak = i;
  const out = [];
  for (let i = 0; i < total; i++) out.push((i <= peak ? up[i] : down[i]) * share);
  return out;
}
function _rt_dice_sum_distribution(terms, crit) {
  let probs = [1.0], low = 0;
  const mult = crit ? 2 : 1;
  for (const t of terms) {
    for (let i = 0; i < t[0] * mult; i++) { probs = _rt_add_die(probs, t[1]); low += 1; }
  }
  return probs.map((p, i) => [low + i, p]);
}
const _rt_DICE_ITEMS = new Map();
function _rt_dice_items(terms, flat, crit) {
  const key = JSON.stringify(terms) + ',' + flat + ',' + crit;
  let out = _rt_DICE_ITEMS.get(key);
  if (out === undefined) {
    out = _rt_dice_sum_distribution(terms, crit).map(tp => [tp[0] + flat, tp[1]]);
    if (_rt_DICE_ITEMS.size >= 1024) _rt_DICE_ITEMS.clear();
    _rt_DICE_ITEMS.set(key, out);
  }
  return out;
}
function _rt_count_distribution(single, need, times) {
  let p = 0;
  for (let m = 0; m < single.probs.length; m++) if (m >= need) p += single.probs[m];
  p = Math.min(1.0, Math.max(0.0, p));
  times = Math.max(times, 0);
  const probs = [];
  for (let k = 0; k <= times; k++) {
    probs.push(times <= 1000 ? _rt_binom(times, k) * Math.pow(p, k) * Math.pow(1.0 - p, times - k)
      : _rt_exp(_rt_log_binom(times, k) + _rt_xlogy(k, p) + _rt_xlogy(times - k, 1.0 - p)));
  }
  return new PoolOdds(probs, single.dropped * times);
}
const _rt_CERTAIN_ZERO = new PoolOdds([1.0], 0.0);
const _rt_ZERO_ITEMS = [[0, 1.0]];

function _rt_sort_values(values) {
  return values.sort((x, y) => (typeof x === 'string' ? (x < y ? -1 : x > y ? 1 : 0) : Number(x) - Number(y)));
}
// The exact outcome distribution of one procedure call (odds.Odds): `outcomes` is a list of
// [outcome array, probability]; hitProbability and expectedDamage read the fields the procedure
// declares as its hit and damage; `dropped` is the tail mass left out.
class Odds {
  constructor(fields, outcomes, dropped, hit, damage) {
    this.fields = fields; this.outcomes = outcomes; this.dropped = dropped; this.hit = hit; this.damage = damage;
    Object.freeze(this);
  }
  total() { let s = 0; for (const o of this.outcomes) s += o[1]; return s; }
  probability(where) {
    const idx = Object.keys(where).map(k => [this._field(k), where[k]]);
    let s = 0;
    for (const o of this.outcomes) if (idx.every(iv => o[0][iv[0]] === iv[1])) s += o[1];
    return s;
  }
  marginal(field) {
    const i = this._field(field), acc = new Map();
    for (const o of this.outcomes) acc.set(o[0][i], (acc.get(o[0][i]) || 0) + o[1]);
    const out = new Map();
    for (const v of _rt_sort_values(Array.from(acc.keys()))) out.set(v, acc.get(v));
    return out;
  }
  expected(field) {
    const i = this._field(field);
    let s = 0;
    for (const o of this.outcomes) s += Number(o[0][i]) * o[1];
    return s;
  }
  get hit_probability() { return this.hit !== null ? this.probability({[this.hit]: true}) : NaN; }
  get expected_damage() { return this.damage !== null ? this.expected(this.damage) : NaN; }
  _field(name) {
    const i = this.fields.indexOf(name);
    if (i < 0) throw new RuleError(`没有结果字段“${name}”`);
    return i;
  }
  toJSON() { return this.toDict(); }
  toDict() {
    return {
      fields: this.fields.slice(),
      outcomes: this.outcomes.map(o => {
        const outcome = {};
        this.fields.forEach((f, i) => { outcome[f] = o[0][i]; });
        return {outcome: outcome, probability: o[1]};
      }),
      hit_field: this.hit, damage_field: this.damage,
      hit_probability: this.hit === null ? null : this.hit_probability,
      expected_damage: this.damage === null ? null : this.expected_damage,
      dropped_tail_mass: this.dropped,
    };
  }
}
// Accumulates weighted outcomes inside a generated odds function; past `budget` outcomes it
// throws LimitExceeded (an enumeration too big to finish in interactive time).
class OddsBuilder {
  constructor(fields, hit, damage, budget) {
    this.fields = fields; this.acc = new Map(); this.dropped = 0.0; this.hit = hit; this.damage = damage;
    this.left = budget;
  }
  add(outcome, p) {
    if (--this.left < 0) OddsBuilder.exceeded();
    const key = JSON.stringify(outcome);
    const found = this.acc.get(key);
    if (found === undefined) this.acc.set(key, [outcome, p]);
    else found[1] += p;
  }
  outcomes(p, dist) { this.drop(p * dist.skipped); return dist.items(); }
  drop(p) {
    if (--this.left < 0) OddsBuilder.exceeded();
    this.dropped += p;
  }
  static exceeded() {
    throw new LimitExceeded('概率枚举的分支过多（超过规则集的上限odds_branches），无法精确计算；请改用模拟');
  }
  build() { return new Odds(this.fields, Array.from(this.acc.values()), this.dropped, this.hit, this.damage); }
}

// ---- calls ----
// The options object of a call: Python's keyword arguments; a key the procedure does not take is refused.
// The result has no prototype: a property another script added to Object.prototype (a shared
// engine such as SealDice's) can never stand in for an option that was not given.
function _rt_options(options, keys) {
  const out = Object.create(null);
  if (options === undefined || options === null) return out;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new OutOfBounds(`选项必须是一个对象（名称: 值），得到${_rt_type_name(options)}`);
  }
  for (const k of Object.keys(options)) {
    if (keys.indexOf(k) < 0) throw new OutOfBounds(`未知的选项“${k}”（可用：${keys.join('、')}）`, {key: k});
    out[k] = options[k];
  }
  return out;
}
// The one entry point of a dice argument into generated code (sources.dice_source): a SeededDice
// or FixedDice (exactly those classes, whose instances cannot be changed to roll anything else)
// as it is; any other object with a die method wrapped, once per call, in a _CheckedDice that
// checks every face; anything else is OutOfBounds.
function _rt_dice_source(dice) {
  if (dice !== null && dice !== undefined) {
    const proto = Object.getPrototypeOf(dice);
    if (proto === SeededDice.prototype || proto === FixedDice.prototype || proto === _CheckedDice.prototype) {
      return dice;
    }
  }
  if (dice === null || dice === undefined || (typeof dice !== 'object' && typeof dice !== 'function')
      || typeof dice.die !== 'function') {
    throw new OutOfBounds(`dice必须是有die(sides)方法的骰子来源（SeededDice、FixedDice或自定义），得到${_rt_type_name(dice)}`,
                          {name: 'dice'});
  }
  return new _CheckedDice(dice);
}
// A face a source gave, short enough for a message whatever it is (sources._face_text).
function _rt_face_text(face) {
  if (typeof face === 'number') {
    if (Number.isInteger(face)) return Math.abs(face) < 1e12 ? String(face) : '超出范围的整数';
    return Number.isNaN(face) ? 'nan' : face === Infinity ? 'inf' : face === -Infinity ? '-inf' : String(face);
  }
  if (typeof face === 'string') return _rt_repr(face.length > 20 ? face.slice(0, 20) + '…' : face);
  if (face === null || face === undefined || typeof face === 'boolean') return _rt_repr(face);
  return `${_rt_type_name(face)}类型的值`;
}
// A dice source of the caller's own, with every face checked: an integer from 1 to sides, else BadFace.
class _CheckedDice {
  constructor(source) { this.source = source; this.given = 0; }
  die(sides) {
    const face = this.source.die(sides);
    this.given += 1;
    if (typeof face !== 'number' || !Number.isInteger(face) || face < 1 || face > sides) {
      throw new BadFace(`骰子来源给出的第${this.given}个骰面${_rt_face_text(face)}不是d${sides}能掷出的点数`,
                        {index: this.given - 1});
    }
    return face;
  }
}

// ---- combatants ----
// stats: [[id, Chinese name, 'int' | 'bool', default, min, max], ...]
function _rt_combatant_init(self, stats, given) {
  given = given === undefined || given === null ? {} : given;
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new OutOfBounds(`属性必须是一个映射（名称: 数值），得到${_rt_type_name(given)}`);
  }
  const known = stats.map(s => s[0]);
  for (const key of Object.keys(given)) {
    if (known.indexOf(key) < 0) throw new OutOfBounds(`未知的属性“${key}”`, {key: key});
  }
  for (const s of stats) {
    const own = Object.prototype.hasOwnProperty.call(given, s[0]);  // never an inherited property
    const value = own && given[s[0]] !== undefined ? given[s[0]] : s[3];
    if (s[2] === 'int') _rt_check_int(s[1], value, s[4], s[5]);
    else _rt_check_bool(s[1], value);
    self[s[0]] = value;
  }
  Object.freeze(self);
}
function _rt_stats_from_dict(data, names, stats) {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new OutOfBounds(`属性必须是一个映射（名称: 数值），得到${_rt_type_name(data)}`);
  }
  const known = stats.map(s => s[0]), values = {};
  for (const key of Object.keys(data)) {
    const stat = Object.prototype.hasOwnProperty.call(names, key) ? names[key] : key;
    if (known.indexOf(stat) < 0) throw new OutOfBounds(`未知的属性“${key}”`, {key: key});
    if (Object.prototype.hasOwnProperty.call(values, stat)) {
      throw new OutOfBounds(`属性“${key}”给出了两次（编号与名称各一次）`, {key: key});
    }
    values[stat] = data[key];
  }
  return values;
}
function _rt_combatant_dict(self, stats) {
  const out = {};
  for (const s of stats) out[s[0]] = self[s[0]];
  return out;
}
