// rulec JavaScript runtime: errors, values and trace records. The compiler copies it verbatim into
// every generated JavaScript module, followed by sources.js (dice sources), engines.js (the dice
// engines), odds.js (exact odds) and calls.js (call options, combatants), then the files its step
// kinds and fight add (the Python runtime is compiler/runtime/*.py; each function here names its
// Python twin). ES2015 syntax only, and no API newer than ES2015, so the single-file script runs in
// SealDice's engine.
'use strict';

// ---- dictionaries keyed by a caller's text ----
// `new _rt_Dict()`: an object with no inherited property (its prototype is an empty frozen object
// whose own prototype is null), so a key such as "__proto__" or "constructor" is an own key like
// any other, as in Object.create(null); unlike Object.create(null), whose objects V8 keeps in its
// slow dictionary mode, it gets V8's fast properties (filling and enumerating one costs a third).
function _rt_Dict() {}
_rt_Dict.prototype = Object.freeze(Object.create(null));

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
  if (proto === null || proto === Object.prototype || proto === _rt_Dict.prototype) return '映射';
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

// `items` (an array or other iterable, but not text) as an array of at most `limit` items
// (core.bounded_list): OutOfBounds for anything else, LimitExceeded past the limit, found before
// more is read.
function _rt_bounded_list(what, items, limit) {
  if (Array.isArray(items)) {
    if (items.length > limit) throw new LimitExceeded(`${what}最多${limit}个，得到${items.length}个`);
    return items.slice();
  }
  if (items === null || items === undefined || typeof items === 'string' || typeof items[Symbol.iterator] !== 'function') {
    throw new OutOfBounds(`${what}必须是列表，得到${_rt_repr(items)}`);
  }
  const out = [];
  for (const item of items) {
    if (out.length >= limit) throw new LimitExceeded(`${what}最多${limit}个`);
    out.push(item);
  }
  return out;
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
// `b2j`: `_rt_b2j(b)`, when many a are measured against one b.
function _rt_ratio(a, b, b2j) {
  if (b2j === undefined) b2j = _rt_b2j(b);
  const nothing = [];
  // difflib's j2len and newj2len dictionaries as two arrays indexed by j + 1 (0: no entry), each
  // cleared through the indices it was given: no Map made per element of a (slow in goja).
  let j2len = new Array(b.length + 1).fill(0), newj2len = new Array(b.length + 1).fill(0);
  let given = [], newGiven = [];
  function longest(alo, ahi, blo, bhi) {
    let besti = alo, bestj = blo, bestsize = 0;
    for (let i = alo; i < ahi; i++) {
      const js = b2j.get(a[i]) || nothing;
      for (let t = 0; t < js.length; t++) {
        const j = js[t];
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = j2len[j] + 1;  // j2len.get(j - 1, 0) + 1
        newj2len[j + 1] = k;
        newGiven.push(j + 1);
        if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k; }
      }
      for (let t = 0; t < given.length; t++) j2len[given[t]] = 0;
      given.length = 0;
      const rows = j2len; j2len = newj2len; newj2len = rows;
      const was = given; given = newGiven; newGiven = was;
    }
    for (let t = 0; t < given.length; t++) j2len[given[t]] = 0;
    given.length = 0;
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
function _rt_points(text) {  // a string's code points (a loop: Array.from with a function is slow in goja)
  const out = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i);
    out.push(c);
    if (c > 0xffff) i++;
  }
  return out;
}
function _rt_b2j(b) {
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
  return b2j;
}
function _rt_code_point_less(x, y) {  // Python's str < (by code point, not UTF-16 unit)
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return x.length < y.length;
}
// difflib.get_close_matches(key, names, n=1)[0], or null: the best ratio of at least 0.6, a tie
// going to the greater name (heapq.nlargest over (ratio, name)). The same name, found with less
// work (a table of 10,000 entries was 20,000 ratios for every unknown word a chat user sent): as
// difflib does, a name is measured only when two upper bounds of its ratio reach 0.6
// (real_quick_ratio, by the lengths; quick_ratio, by the code points both hold), against the
// key's b2j made once; and the names are measured by decreasing quick_ratio, until the best ratio
// found is above every bound left (a ratio is at most its quick_ratio, so no name left can reach
// or tie it). `points`: each name's code points, when known.
function _rt_close_match(key, names, points) {
  const b = _rt_points(key), b2j = _rt_b2j(b);
  const slot = new Map(), counts = [];
  for (const x of b) {
    let s = slot.get(x);
    if (s === undefined) { s = counts.length; slot.set(x, s); counts.push(0); }
    counts[s]++;
  }
  const avail = counts.slice(), byBound = new Map();  // quick_ratio -> [[name index, code points], ...]
  for (let k = 0; k < names.length; k++) {
    const a = points !== undefined ? points[k] : _rt_points(names[k]);
    const total = a.length + b.length;
    if (total && 2.0 * Math.min(a.length, b.length) / total < 0.6) continue;
    for (let s = 0; s < counts.length; s++) avail[s] = counts[s];
    let common = 0;
    for (let i = 0; i < a.length; i++) {
      const s = slot.get(a[i]);
      if (s !== undefined && avail[s] > 0) { avail[s]--; common++; }
    }
    const bound = total ? 2.0 * common / total : 1.0;
    if (bound < 0.6) continue;
    const same = byBound.get(bound);
    if (same === undefined) byBound.set(bound, [[k, a]]);
    else same.push([k, a]);
  }
  let best = null, bestPoints = null, score = -1;
  for (const bound of Array.from(byBound.keys()).sort((x, y) => y - x)) {
    if (bound < score) break;
    for (const [k, a] of byBound.get(bound)) {
      const r = _rt_ratio(a, b, b2j);
      if (r < 0.6) continue;
      if (r > score || (r === score && _rt_code_point_less(bestPoints, a))) {
        best = names[k]; bestPoints = a; score = r;
      }
    }
  }
  return best;
}
// Public: the closest of `names` to `key` as difflib.get_close_matches(key, names, n=1) finds it
// (a ratio of at least 0.6), or null; for tools that check words from chat text.
function close_match(key, names) {
  if (typeof key !== 'string') throw new OutOfBounds(`key必须是文本，得到${_rt_type_name(key)}`);
  return _rt_close_match(key, _rt_bounded_list('名称', names, 100000).map(String));
}
// Find an entry by object, id or Chinese name (core.lookup). A table of the rules (a FrozenMap,
// which never changes) is read by name through `_rt_named`: a chat user's every command names
// entries, and a 10,000-weapon pack was a scan of them all.
function _rt_lookup(table, key, what, cls) {
  if (key instanceof cls) return key;
  if (typeof key === 'string') {
    const entry = table.get(key);
    if (entry !== undefined) return entry;
    const named = table instanceof FrozenMap ? _rt_named(table) : null;
    if (named !== null) {
      const found = named.byName.get(key);
      if (found !== undefined) return table.get(found);
    } else {
      for (const candidate of table.values()) {
        if (candidate.name === key) return candidate;
      }
    }
    const long = Array.from(key).length > 100;  // no close match looked for (core.MAX_CLOSE)
    let close = null;
    if (!long && named === null) close = _rt_close_match(key, _rt_table_names(table));
    else if (!long) {
      if (named.names === null) {
        named.names = _rt_table_names(table);
        named.points = named.names.map(_rt_points);
      }
      close = _rt_close_match(key, named.names, named.points);
    }
    const hint = close !== null ? `，是否想找“${close}”？` : '';
    throw new UnknownEntry(`没有名为${_rt_repr(key)}的${what}${hint}`, {key: Array.from(key).slice(0, 100).join('')});
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
// A table of the rules by its entries' names (the id of the first entry of each name, as a scan
// finds it), and its ids and names with their code points for a close match: made when first
// asked, kept while the table lives (a FrozenMap never changes).
const _rt_NAMED = new WeakMap();
// The tables whose entries are made when first read (columns.js `_rt_LazyMap`), each with the
// name of the entry a value of its Map stands for (an entry not made yet is its row's place).
const _rt_LAZY_NAME = new WeakMap();
function _rt_table_names(table) {  // its ids, then its entries' names: what a close match is looked for among
  return Array.from(table.keys()).concat(_rt_entry_names(table));
}
function _rt_entry_names(table) {  // the entries' names, in order, none of a lazy table's made for it
  const nameOf = _rt_LAZY_NAME.get(table);
  if (nameOf === undefined) return Array.from(table.values(), e => e.name);
  return Array.from(_rt_FROZEN.get(table).values(), nameOf);
}
function _rt_named(table) {
  let found = _rt_NAMED.get(table);
  if (found === undefined) {
    const byName = new Map(), ids = Array.from(table.keys()), names = _rt_entry_names(table);
    for (let i = 0; i < ids.length; i++) if (!byName.has(names[i])) byName.set(names[i], ids[i]);
    found = {byName: byName, names: null, points: null};
    _rt_NAMED.set(table, found);
  }
  return found;
}
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

