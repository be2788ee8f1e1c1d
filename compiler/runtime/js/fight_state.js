// ---- the fight's values, their ranges, and the checked reader of stored fights (fight_state.py) ----
// Every value of a fight has a declared range, kept by Fight.apply/next_turn and enforced by
// _rt_read_fight on stored data, with the same limits and messages as the Python runtime.
const MAX_MEMBERS = 100;
const MAX_LOG = 1000;
const MAX_LOG_LINE = 500;  // characters (code points) of one log line (longer lines are cut with "…")
const MAX_VALUE = 1000000000;  // counters, modifier amounts and expiry turns
const MAX_TURN = 1000000;
const MAX_NAME = 100;  // characters of a combatant's name
const MAX_MODIFIERS = 100;  // active modifiers per combatant
const MAX_CONDITIONS = 100;  // conditions per combatant

// The code points Python's unicodedata (Unicode 14) puts in the categories Cc, Cf, Cs, Co, Cn, Zl
// and Zp (control, format, surrogate, private, unassigned, line and paragraph separators): ranges
// as base-36 pairs (start after the previous range's end, length - 1).
const _rt_HIDDEN_TEXT = [
  '0 v 2o w e 0 jv 1 7 3 8 0 2 0 l 0 b2 0 13 1 1f 1 4 0 1k 7 s 3 7 g n 0 5d 0 1d 1 1o 1 2u d 1o 1',
  '1e 1 g 0 t 1 2 0 c 4 w 8 23 0 4i 0 9 1 3 1 n 0 8 0 2 2 5 1 a 1 3 1 5 7 2 3 3 0 6 1 q 1 4 0 7 3 3',
  '1 n 0 8 0 3 0 3 0 3 1 2 0 6 3 3 1 4 2 2 6 5 0 2 6 i 9 4 0 a 0 4 0 n 0 8 0 3 0 6 1 b 0 4 0 4 1 2',
  'e 5 1 d 6 8 0 4 0 9 1 3 1 n 0 8 0 3 0 6 1 a 1 3 1 4 6 4 3 3 0 6 1 j 9 3 0 7 2 4 0 5 2 3 0 2 0 3',
  '2 3 2 4 2 d 3 6 2 4 0 5 1 2 5 2 d m 4 e 0 4 0 o 0 h 1 a 0 4 0 5 6 3 0 4 1 2 1 5 1 b 6 n 0 4 0 o',
  '0 b 0 6 1 a 0 4 0 5 6 3 5 3 0 5 1 b 0 3 c e 0 4 0 1g 0 4 0 7 3 h 1 r 0 4 0 j 2 p 0 a 0 2 1 8 2 2',
  '3 7 0 2 0 9 5 b 1 4 b 1n 3 u 10 3 0 2 0 6 0 p 0 2 0 o 1 6 0 2 0 7 1 b 1 5 v 21 0 11 3 14 0 11 0',
  'g 0 e 10 5j 0 2 4 2 1 ai 0 5 1 8 0 2 0 5 1 16 0 5 1 y 0 5 1 8 0 2 0 5 1 g 0 1m 0 5 1 1w 1 x 2 r',
  '5 2f 1 7 1 im 2 2i 6 n 8 p 8 l b e 0 4 0 3 b 2n 1 b 5 b 5 f 0 c 5 2i 6 18 4 1z 9 w 0 d 3 d 3 2 2',
  '17 1 6 a 19 3 r 5 c 2 1r 1 1u 0 u 1 c 5 b 5 f 1 w 1c 26 2 1c 0 39 7 1p 2 g 2 1p 6 18 1 c 7 18 4',
  'ev 1 7 1 13 1 7 1 9 0 2 0 2 0 2 0 w 1 1i 0 g 0 f 1 7 0 k 1 4 0 a 0 c 4 p 6 1e f 3 1 s 0 e 2 y e',
  'y e 3x 3 ig o c k 1ed 1 x 0 9q 4 1a 0 2 4 2 1 1l 6 3 d p 8 8 0 8 0 8 0 8 0 8 0 8 0 8 0 8 0 3j x',
  'r 0 2i b 5z p d 3 1t 0 2f 1 2w 4 18 0 2n 0 2d b 1c 0 mlq 2 1k 8 9p j 55 7 5o 4 3 0 2 0 6 n 1o 2',
  'b 5 1l 7 1z 7 d 5 39 a v 2 27 0 c 3 y 0 1k 8 f 1 b 1 2w n t 9 7 1 7 1 7 8 8 0 8 0 1p 3 3j 1 b 5',
  '8md b o 3 1e 6ir a7 1 2z 11 8 b 6 4 r 0 6 0 2 0 3 0 3 0 3i f ce 1 1j 6 2 v 17 5 1g 0 k 0 5 3 6 0',
  '3s 3 5b 2 7 1 7 1 7 1 4 2 8 0 8 c 3 1 d 0 r 0 k 0 3 0 g 1 f x 3g 4 4 3 1a 2 2h 0 e 2 2 1a 1b 3l',
  'u 2 1e e t 3 11 8 v 4 18 4 v 0 12 3 f 15 4f 1 b 5 11 3 11 3 15 7 1h a d 0 g 0 8 0 3 0 c 0 g 0 8',
  '0 3 1u 8o 8 n 9 9 n 7 0 17 0 a 1w 7 1 2 0 19 0 3 2 2 1 o 0 21 7 a 1b k 0 3 4 y 2 s 4 2 1r 1l 3 l',
  '1 1f 0 3 4 9 0 4 0 u 1 4 3 b 6 a 6 1t v 14 3 d 8 1j 2 u 1 s 4 r 6 5 b 8 27 22 1i 1g c 1g 6 1b 7',
  'b 85 w 0 17 0 4 1 3 25 15 7 17 l r 11 t j o 8 27 3 11 8 1r 0 6 c q 6 b 5 1i 0 j 7 14 8 2p 0 l a',
  'j 0 19 1s 8 0 2 0 5 0 g 0 c 5 1o 4 b 5 5 0 9 1 3 1 n 0 8 0 3 0 6 0 b 1 3 1 4 1 2 5 2 4 8 1 8 2 6',
  '3u 2l 0 6 t 21 7 b 4l 1j 1 13 x 1y a b 5 e i 1n 5 b 1h s 1 g 3 o 54 1p 2r 2c b 9 1 2 1 9 0 3 0 v',
  '0 3 1 d 8 b 1x 9 1 1b 1 c q 21 7 2c c 22 7a a 0 1a 0 f 9 u 2 x 1 n 0 f 20 8 0 3 0 19 2 2 0 3 0 a',
  '7 b 5 7 0 3 0 12 0 3 0 7 6 b 8l q 52 2 e 1f c po 2t 34 0 6 a 5h 217 2s c ts 34g g8 6ns fu 6 w 0',
  'b 3 2a 0 b 5 v 1 7 9 1z 9 b 0 8 0 m 4 k j3 2k 2s 24 3 1m 6 i 1r 6 a 3 d 4qh 7 yf 15 a 6w6 5 0 8',
  '0 3 0 84 18 4 g 5 7 b1 1s3 30 4 e 2 a 6 b 1 5 3mn 1b 1 o 8 39 1n 6v 9 14 1 23 7 35 k 1z 49 l b',
  '2g 8 q 3q 2e 0 20 0 3 1 2 1 3 1 5 0 d 0 2 0 8 0 1u 0 5 1 9 0 8 0 t 0 5 0 6 0 2 2 8 0 9h 1 85 1',
  'jj e 6 0 g un w 68 8 0 i 1 8 0 3 0 6 5w 1a 2 f 1 b 3 3 8v w g 1n 4 2 yn 8 0 5 0 3 0 g 0 5i 1 h',
  '14 25 3 b 3 3 ls 1x 23 1q 5d 5 0 s 0 3 0 2 1 2 0 b 0 5 0 2 0 2 5 2 3 2 0 2 0 2 0 4 0 3 0 2 1 2 0',
  '2 0 2 0 2 0 2 0 3 0 2 1 5 0 8 0 5 0 5 0 2 0 b 0 i 4 4 0 6 0 i 1f 3 7h 19 3 2t b g 1 g 0 g 0 12 9',
  '4v 1j u c 19 3 a 6 3 d 7 49 rd 4 h 2 e 2 39 b 2i 6 d 3 2 e d 3 1l 7 b 5 15 7 v 1 3 25 9h b f 1 6',
  '2 6 2 8 8 u 2 c 4 7 9 b 5 9 7 8 8 44 0 1k 10 b sl wyp v 37e 6 67 1 4g3 d 5rm 2e6 f3 15t 3t8 fcms',
  '6p 47bj'
].join(' ');
let _rt_HIDDEN = null;  // [start, end, start, end, ...], decoded once
function _rt_hidden(cp) {
  if (_rt_HIDDEN === null) {
    const parts = _rt_HIDDEN_TEXT.split(' ').map(x => parseInt(x, 36)), out = [];
    let at = 0;
    for (let i = 0; i < parts.length; i += 2) {
      const start = at + parts[i];
      at = start + parts[i + 1];
      out.push(start, at);
    }
    _rt_HIDDEN = out;
  }
  let lo = 0, hi = _rt_HIDDEN.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < _rt_HIDDEN[2 * mid]) hi = mid - 1;
    else if (cp > _rt_HIDDEN[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}
// Whether a string has more than `limit` characters (code points, as Python's len counts them).
// Its UTF-16 length bounds that count from above: a text no longer than `limit` units is not
// counted (a stored fight's thousand log lines are read at every chat message; goja iterates a
// string by code points slowly).
function _rt_over(text, limit) {
  if (text.length <= limit) return false;
  let n = 0;
  for (const _c of text) if (++n > limit) return true;  // eslint-disable-line no-unused-vars
  return false;
}
// Python's str < : by code point (UTF-16 units reordered so that surrogates sort above U+FFFF).
function _rt_text_less(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xD800) x = x >= 0xE000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xD800) y = y >= 0xE000 ? y - 0x800 : y + 0x2000;
    return x < y;
  }
  return a.length < b.length;
}
function _rt_text_cmp(a, b) { return a === b ? 0 : _rt_text_less(a, b) ? -1 : 1; }
function _rt_tuple_cmp(x, y) {  // tuples of strings, as Python compares them
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = _rt_text_cmp(x[i], y[i]);
    if (c) return c;
  }
  return x.length - y.length;
}
function _rt_signed_int(n) { return n >= 0 ? `+${n}` : String(n); }  // Python's f"{n:+d}"

class _rt_Modifier {
  constructor(stat, delta, expires, source) {
    this.stat = stat; this.delta = delta; this.expires = expires; this.source = source;
    Object.freeze(this);
  }
  toJSON() { return [this.stat, this.delta, this.expires, this.source]; }
}
class _rt_Condition {
  constructor(id, value, source, expires) {
    this.id = id; this.value = value; this.source = source; this.expires = expires;
    Object.freeze(this);
  }
  toJSON() { return [this.id, this.value, this.source, this.expires]; }
}
function _rt_same_condition(a, b) {
  return a.id === b.id && a.value === b.value && a.source === b.source && a.expires === b.expires;
}
// One combatant of a fight: counters and points as [key, value] pairs sorted by key.
class _rt_Member {
  // `frozen`: every array given is frozen already (a member made from another: _rt_with_counters).
  constructor(name, base, counters, points, states, modifiers, conditions, spent, owed, ready, resources, lowered,
              frozen) {
    this.name = name; this.base = base;
    if (frozen === true) {
      this.counters = counters; this.points = points; this.states = states; this.modifiers = modifiers;
      this.conditions = conditions; this.spent = spent; this.owed = owed; this.ready = ready;
      this.resources = resources; this.lowered = lowered;
      Object.freeze(this);
      return;
    }
    this.counters = Object.freeze(counters); this.points = Object.freeze(points);
    this.states = Object.freeze(states); this.modifiers = Object.freeze(modifiers);
    this.conditions = Object.freeze(conditions || []);
    this.spent = Object.freeze(spent || []);  // of its turn budget since its own turn began: [pool, amount]
    this.owed = Object.freeze(owed || []);  // taken from its next turn (a reflex's second)
    this.ready = ready || '';  // the kind of action it has readied ('' none)
    this.resources = Object.freeze(resources || []);  // what is left of the resources that changed (fight_resources.js)
    this.lowered = Object.freeze(lowered || []);  // how far each track's capacity is lowered: [track, loss > 0]
    Object.freeze(this);
  }
  counter(key) { return _rt_get(this.counters, key); }
  track_points(key) { return _rt_get(this.points, key); }
}
// `m` with its counters (or its points) changed: `_rt_member_with`'s commonest changes, without its lookups.
// (The rest of `m` is frozen already: only the new pairs are frozen here.)
function _rt_with_counters(m, counters) {
  return new _rt_Member(m.name, m.base, Object.freeze(counters), m.points, m.states, m.modifiers, m.conditions, m.spent,
                        m.owed, m.ready, m.resources, m.lowered, true);
}
function _rt_with_points(m, points) {
  return new _rt_Member(m.name, m.base, m.counters, Object.freeze(points), m.states, m.modifiers, m.conditions, m.spent,
                        m.owed, m.ready, m.resources, m.lowered, true);
}
function _rt_member_with(m, changes) {
  const v = k => (Object.prototype.hasOwnProperty.call(changes, k) ? changes[k] : m[k]);
  return new _rt_Member(m.name, m.base, v('counters'), v('points'), v('states'), v('modifiers'), v('conditions'),
                        v('spent'), v('owed'), v('ready'), v('resources'), v('lowered'));
}
// Whether `obj` has every one of `keys` as its own.
function _rt_has_all(obj, keys) {
  for (let i = 0; i < keys.length; i++) if (!_rt_has(obj, keys[i])) return false;
  return true;
}
function _rt_get(pairs, key) {
  for (const kv of pairs) if (kv[0] === key) return kv[1];
  return 0;
}
// A new array of `items`, and one with `item` added: slice() and concat() of a frozen array take a
// path of V8 ten times slower than these loops (and spreading one is slow in goja, which runs the
// loops as fast as slice()). Every copy of a fight's frozen lists goes through them.
function _rt_copy(items) {
  const n = items.length, out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = items[i];
  return out;
}
function _rt_append(items, item) {
  const n = items.length, out = new Array(n + 1);
  for (let i = 0; i < n; i++) out[i] = items[i];
  out[n] = item;
  return out;
}
// `pairs` (sorted by key) with `key` set to `value`.
function _rt_put(pairs, key, value) {
  const n = pairs.length;
  if (!n || n === 1 && pairs[0][0] === key) return [[key, value]];  // the common case
  const out = [];
  let i = 0;
  while (i < n && _rt_text_less(pairs[i][0], key)) out.push(pairs[i++]);
  out.push([key, value]);
  if (i < n && pairs[i][0] === key) i++;
  while (i < n) out.push(pairs[i++]);
  return out;
}
// A log line within MAX_LOG_LINE characters.
function _rt_line(text) {
  if (text.length <= MAX_LOG_LINE) return text;
  const chars = Array.from(text);
  return chars.length <= MAX_LOG_LINE ? text : chars.slice(0, MAX_LOG_LINE - 1).join('') + '…';
}
function _rt_check_name(name) {
  let ok = typeof name === 'string';
  if (ok) {
    ok = name.length >= 1 && !_rt_over(name, MAX_NAME);
    if (ok) for (const c of name) if (_rt_hidden(c.codePointAt(0))) { ok = false; break; }
  }
  if (!ok) throw new OutOfBounds(`角色的名字必须是1至${MAX_NAME}个字的文字，不含控制字符`, {key: 'name'});
  return name;
}

// ---- the checked reader of stored fights ----
const _rt_TOP_KEYS = ['turn', 'turns', 'members', 'relations', 'log'];
const _rt_MEMBER_KEYS = ['name', 'stats', 'counters', 'points', 'states', 'modifiers', 'conditions', 'spent', 'owed',
                         'ready', 'resources', 'lowered'];
function _rt_has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
function _rt_bad(what) { return new OutOfBounds(`战斗记录无效：${what}`, {key: 'fight'}); }
function _rt_is_mapping(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map);
}
function _rt_mapping(value, what, keys, limit) {
  limit = limit === undefined ? 1000 : limit;
  if (!_rt_is_mapping(value)) throw _rt_bad(`${what}应为映射`);
  const own = Object.keys(value);
  if (own.length > limit) throw _rt_bad(`${what}的条目超过${limit}个`);
  if (keys !== null && own.some(k => keys.indexOf(k) < 0)) throw _rt_bad(`${what}有未知的键`);
  return value;
}
function _rt_list(value, what, limit) {
  if (!Array.isArray(value)) throw _rt_bad(`${what}应为列表`);
  if (value.length > limit) throw _rt_bad(`${what}超过${limit}项`);
  return value.slice();
}
function _rt_int(value, what, lo, hi) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi) {
    throw _rt_bad(`${what}必须是${lo}至${hi}的整数`);
  }
  return value;
}
function _rt_text(value, what, limit) {
  if (typeof value !== 'string' || _rt_over(value, limit)) throw _rt_bad(`${what}必须是至多${limit}个字的文字`);
  return value;
}
function _rt_get_or(obj, key, dflt) { return _rt_has(obj, key) ? obj[key] : dflt; }
function _rt_pairs(value, what, known, lo, hi) {
  const keys = Array.from(known.keys());
  const raw = _rt_mapping(value, what, keys, keys.length);
  const out = Object.keys(raw).map(k => [k, _rt_int(raw[k], `${what}“${k}”`, lo, hi)]);
  return out.sort((a, b) => _rt_tuple_cmp([a[0]], [b[0]]));
}
function _rt_fight_stats(rules, value) {
  const raw = _rt_mapping(value, '属性', null, 2 * Math.max(1, rules.stat_count));
  for (const k of Object.keys(raw)) {
    _rt_text(k, '属性名', MAX_NAME);
    if (typeof raw[k] !== 'boolean') _rt_int(raw[k], `属性“${k}”`, -MAX_VALUE, MAX_VALUE);
  }
  return rules.combatant.fromDict(raw);  // each stat's own range: the package's OutOfBounds
}
// [members, turn, relations, log] of a stored fight, every value checked (OutOfBounds).
function _rt_read_fight(rules, data) {
  const top = _rt_mapping(data, '战斗记录', _rt_TOP_KEYS);
  if (!_rt_has(top, 'members')) throw _rt_bad('缺少 members');
  const rawMembers = _rt_list(top.members, '角色', MAX_MEMBERS);
  if (!rawMembers.length) throw _rt_bad(`一场战斗要有1至${MAX_MEMBERS}名角色`);
  const sources = new Set(Array.from(rules.actions.values()).map(a => a.name));
  const members = [], names = new Set();
  for (const raw of rawMembers) {
    const m = _rt_mapping(raw, '角色', _rt_MEMBER_KEYS);
    if (!_rt_has(m, 'name') || !_rt_has(m, 'stats')) throw _rt_bad('角色缺少 name 或 stats');
    const name = _rt_check_name(m.name);
    if (names.has(name)) throw _rt_bad(`角色“${name}”出现了两次`);
    names.add(name);
    const base = _rt_fight_stats(rules, m.stats);
    const counters = _rt_pairs(_rt_get_or(m, 'counters', {}), '计数', rules.counters, -MAX_VALUE, MAX_VALUE);
    const points = _rt_pairs(_rt_get_or(m, 'points', {}), '负面点数', rules.tracks, 0, rules.points_max);
    const states = [];
    for (const s of _rt_list(_rt_get_or(m, 'states', []), '状态', rules.state_names.size)) {
      if (typeof s !== 'string' || !rules.state_names.has(s) || states.indexOf(s) >= 0) throw _rt_bad('状态未知或重复');
      states.push(s);
    }
    const mods = [];
    for (const x of _rt_list(_rt_get_or(m, 'modifiers', []), '临时修正', MAX_MODIFIERS)) {
      const parts = _rt_list(x, '临时修正', 4);
      if (parts.length !== 4 || typeof parts[0] !== 'string' || typeof parts[3] !== 'string'
          || !rules.stats.has(parts[0]) || !sources.has(parts[3])) {
        throw _rt_bad('临时修正应为（属性, 数值, 到期回合, 来源过程）');
      }
      mods.push(new _rt_Modifier(parts[0], _rt_int(parts[1], '修正值', -MAX_VALUE, MAX_VALUE),
                             _rt_int(parts[2], '到期回合', -1, MAX_VALUE), parts[3]));
    }
    states.sort(_rt_text_cmp);
    const budget = _rt_read_budget(rules, m), held = _rt_read_resources(rules, m, base);
    members.push(new _rt_Member(name, base, counters, points, states, mods,
                                _rt_read_conditions(rules, _rt_get_or(m, 'conditions', [])), budget[0], budget[1],
                                budget[2], held[0], held[1]));
  }
  const n = members.length, relations = [];
  for (const x of _rt_list(_rt_get_or(top, 'relations', []), '关系', Math.max(1, rules.relations.size) * n * n)) {
    const parts = _rt_list(x, '关系', 3);
    if (parts.length !== 3 || parts.some(p => typeof p !== 'string') || !rules.relations.has(parts[0])
        || !names.has(parts[1]) || !names.has(parts[2])) {
      throw _rt_bad('关系应为（关系, 角色, 角色），且都已声明');
    }
    if (relations.some(r => r[0] === parts[0] && r[1] === parts[1] && r[2] === parts[2])) throw _rt_bad('关系重复');
    relations.push(Object.freeze([parts[0], parts[1], parts[2]]));
  }
  for (const m of members) {
    if (m.conditions.some(c => c.source && !names.has(c.source))) throw _rt_bad('条件的来源不是战斗中的角色');
  }
  const log = _rt_list(_rt_get_or(top, 'log', []), '战斗记录行', MAX_LOG).map(x => _rt_text(x, '记录行', MAX_LOG_LINE));
  const turn = _rt_int(_rt_get_or(top, 'turn', 0), '回合', 0, MAX_TURN);
  if (typeof _rt_get_or(top, 'turns', false) !== 'boolean') throw _rt_bad('turns 应为是或否');
  return [members, turn, relations.sort(_rt_tuple_cmp), log];
}
function _rt_read_conditions(rules, value) {
  const out = [];
  for (const x of _rt_list(value, '条件', MAX_CONDITIONS)) {
    const parts = _rt_list(x, '条件', 4);
    if (parts.length !== 4 || typeof parts[0] !== 'string' || !rules.conditions.has(parts[0])) {
      throw _rt_bad('条件应为（条件, 数值, 来源, 到期回合），且条件已声明');
    }
    const spec = rules.conditions.get(parts[0]);
    const c = new _rt_Condition(parts[0], _rt_int(parts[1], '条件数值', 0, spec.max_value),
                            _rt_text(parts[2], '条件来源', MAX_NAME), _rt_int(parts[3], '到期回合', -1, MAX_VALUE));
    if (out.some(d => d.id === c.id && d.source === c.source)) throw _rt_bad('条件重复');
    out.push(c);
  }
  return out;
}
// [spent, owed, ready] of a stored member: each pool within 0 to what a turn holds, a readied kind
// one the turn declares (fight_state._budget).
function _rt_read_budget(rules, m) {
  const turn = rules.turn;
  const pools = new Map(turn !== null ? turn.pools.map(p => [p.id, p.name || p.id]) : []);
  const top = turn !== null && turn.pools.length ? Math.max.apply(null, turn.pools.map(p => p.per_turn)) : 0;
  const spent = _rt_pairs(_rt_get_or(m, 'spent', {}), '本回合已用', pools, 0, top);
  const owed = _rt_pairs(_rt_get_or(m, 'owed', {}), '下一回合被占用', pools, 0, top);
  const per = new Map(turn !== null ? turn.pools.map(p => [p.id, p.per_turn]) : []);
  if (spent.concat(owed).some(kv => kv[1] > per.get(kv[0]))) throw _rt_bad('回合预算超出每回合的量');
  const ready = _rt_text(_rt_get_or(m, 'ready', ''), '准备动作', MAX_NAME);
  if (ready && (turn === null || !turn.kinds.has(ready))) throw _rt_bad('准备的动作种类未声明');
  return [spent, owed, ready];
}
