// ---- exact sequences of actions (fight_odds.py, fight_until.py) ----
// How many identical actions until an outcome's running total reaches a threshold, as an
// absorbing chain over the total; the sums run in the same order as the Python runtime's, so the
// odds agree to the last few bits. Bounded by MAX_THRESHOLD, MAX_ATTACKS and MAX_CHAIN_WORK.
const MAX_ATTACKS = 10000;
const MAX_THRESHOLD = 100000;
const MAX_CHAIN_WORK = 2000000;
const _rt_CHAIN_OVERHEAD = 16;

// The distribution of the number of actions until a running total reaches a threshold.
class UntilOdds {
  constructor(probabilities, tail, threshold) {
    this.probabilities = Object.freeze(probabilities); this.tail = tail; this.threshold = threshold;
    Object.freeze(this);
  }
  // The mean number of actions, counting the tail as reached at the cut-off.
  get expected() {
    let s = 0;
    for (let k = 0; k < this.probabilities.length; k++) s += (k + 1) * this.probabilities[k];
    return s + (this.probabilities.length + 1) * this.tail;
  }
  at_most(n) {
    let s = 0;
    for (let k = 0; k < Math.min(Math.max(0, n), this.probabilities.length); k++) s += this.probabilities[k];
    return s;
  }
  get median() {
    let total = 0;
    for (let k = 0; k < this.probabilities.length; k++) {
      total += this.probabilities[k];
      if (total >= 0.5) return k + 1;
    }
    return this.probabilities.length + 1;
  }
  toDict() {
    return {probabilities: this.probabilities.slice(), tail: this.tail, threshold: this.threshold,
            expected: this.expected, median: this.median};
  }
  toJSON() { return this.toDict(); }
}
function _rt_is_int(v) { return typeof v === 'number' && Number.isInteger(v); }
function _rt_chain_check(threshold, maxAttacks) {
  if (!_rt_is_int(threshold) || threshold < 1 || threshold > MAX_THRESHOLD) {
    throw new OutOfBounds(`阈值必须是1至${MAX_THRESHOLD}的整数`, {key: 'threshold'});
  }
  if (!_rt_is_int(maxAttacks) || maxAttacks < 1 || maxAttacks > MAX_ATTACKS) {
    throw new OutOfBounds(`最多攻击次数必须是1至${MAX_ATTACKS}的整数`, {key: 'max_attacks'});
  }
}
function _rt_too_much(work) {
  return new OutOfBounds(`阈值×结果种数×攻击次数的计算量${work}超过${MAX_CHAIN_WORK}：请降低阈值或最多攻击次数`,
                         {key: 'threshold'});
}
// A Map value -> probability (its insertion order kept) as one total's step [values, probs, stay].
function _rt_chain_row(gains) {
  if (!(gains instanceof Map)) {
    throw new OutOfBounds(`每次行动的增量必须是从增量到概率的映射，得到${_rt_repr(gains)}`, {key: 'gains'});
  }
  const values = [], probs = [];
  let stay = 0.0;
  for (const vp of gains.entries()) {
    if (!_rt_finite_number(vp[0]) || !_rt_finite_number(vp[1])) {
      throw new OutOfBounds('每次行动的增量和概率必须是有限的数', {key: 'gains'});
    }
    const gained = Math.max(0, Math.trunc(vp[0])), chance = Number(vp[1]);
    if (chance <= 0.0) continue;
    if (gained === 0) stay += chance;
    else { values.push(gained); probs.push(chance); }
  }
  return [values, probs, stay];
}
function _rt_as_map(marginal) {
  if (marginal instanceof Map) return marginal;
  if (_rt_is_mapping(marginal)) return new Map(Object.keys(marginal).map(k => [Number(k), marginal[k]]));
  throw new OutOfBounds('累计的结果必须是非负整数', {key: 'marginal'});
}
// Exactly: the number of independent actions, each adding a value drawn from `marginal` (a Map
// value -> probability), until the running total reaches `threshold`.
function attacks_until(marginal, threshold, maxAttacks, negligible) {
  maxAttacks = maxAttacks === undefined ? 200 : maxAttacks;
  marginal = _rt_as_map(marginal);
  for (const v of marginal.keys()) if (!_rt_is_int(v) || v < 0) throw new OutOfBounds('累计的结果必须是非负整数', {key: 'marginal'});
  _rt_chain_check(threshold, maxAttacks);
  return _rt_chain([[0, threshold, _rt_chain_row(marginal)]], threshold, maxAttacks,
                   negligible === undefined ? 1e-15 : negligible);
}
// attacks_until where each running total has its own distribution (`gains(total)`, a Map; a
// total that returns the same Map object as the one before shares its step).
function _rt_finite_number(x) { return typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x)); }
function chain_until(gains, threshold, maxAttacks, negligible) {
  maxAttacks = maxAttacks === undefined ? 200 : maxAttacks;
  _rt_chain_check(threshold, maxAttacks);
  if (typeof gains !== 'function') throw new OutOfBounds(`gains必须是函数，得到${_rt_repr(gains)}`, {key: 'gains'});
  if (threshold * maxAttacks > MAX_CHAIN_WORK) throw _rt_too_much(threshold * maxAttacks);
  const rows = new Map(), runs = [];
  for (let total = 0; total < threshold; total++) {
    const g = gains(total);
    let row = rows.get(g);
    if (row === undefined) { row = _rt_chain_row(g); rows.set(g, row); }
    if (runs.length && runs[runs.length - 1][2] === row) runs[runs.length - 1][1] = total + 1;
    else runs.push([total, total + 1, row]);
  }
  return _rt_chain(runs, threshold, maxAttacks, negligible === undefined ? 1e-15 : negligible);
}
function _rt_chain(runs, threshold, maxAttacks, negligible) {
  let per = 0;
  for (const run of runs) per += (run[2][0].length + 1) * (run[1] - run[0] + _rt_CHAIN_OVERHEAD);
  const work = maxAttacks * per;
  if (work > MAX_CHAIN_WORK) throw _rt_too_much(work);
  let top = 0;
  for (const run of runs) for (const v of run[2][0]) if (v > top) top = v;
  let dist = new Array(threshold).fill(0.0);
  dist[0] = 1.0;
  let hi = 0, alive = 1.0;
  const out = [];
  for (let step = 0; step < maxAttacks; step++) {
    const nxt = new Array(threshold).fill(0.0);
    let absorbed = 0.0, moved = false, fresh = 0;
    for (const run of runs) {
      const start = run[0];
      if (start > hi) break;
      const stop = Math.min(run[1], hi + 1), values = run[2][0], probs = run[2][1], stay = run[2][2];
      const n = stop - start;
      if (stay && start >= fresh) {
        for (let i = 0; i < n; i++) nxt[start + i] = stay * dist[start + i];
      } else if (stay) {
        for (let i = 0; i < n; i++) nxt[start + i] = nxt[start + i] + stay * dist[start + i];
      }
      fresh = stop + top;
      for (let j = 0; j < values.length; j++) {
        const p = probs[j], at = start + values[j];
        moved = true;
        const inside = threshold - at;  // how many of the run's totals stay below the threshold
        for (let i = 0; i < Math.min(n, inside); i++) nxt[at + i] = nxt[at + i] + p * dist[start + i];
        if (inside < n) {
          let s = 0;
          for (let i = Math.max(0, inside); i < n; i++) s += dist[start + i];
          absorbed += p * s;
        }
      }
    }
    if (!moved) {
      for (let k = step; k < maxAttacks; k++) out.push(0.0);
      break;
    }
    out.push(absorbed);
    dist = nxt;
    hi = Math.min(threshold - 1, hi + top);
    alive = 0;
    for (const x of dist) alive += x;
    if (alive < negligible) break;
  }
  return new UntilOdds(out, Math.max(0.0, alive), threshold);
}
// The exact mean number of actions until the running total reaches `threshold` (null when the
// total can never grow).
function expected_attacks(marginal, threshold) {
  marginal = _rt_as_map(marginal);
  _rt_chain_check(threshold, 1);
  let stay = 0;
  const steps = [];
  for (const vp of marginal.entries()) {
    if (vp[0] <= 0) stay += vp[1];
    else if (vp[1] > 0) steps.push([Math.trunc(vp[0]), Number(vp[1])]);
  }
  if (threshold * Math.max(1, steps.length) > MAX_CHAIN_WORK) {
    throw new OutOfBounds(`阈值×结果种数超过${MAX_CHAIN_WORK}`, {key: 'threshold'});
  }
  if (!steps.length || stay >= 1.0) return null;
  let top = 0;
  for (const s of steps) if (s[0] > top) top = s[0];
  const e = new Array(threshold + top).fill(0.0), scale = 1.0 - stay;
  for (let t = threshold - 1; t >= 0; t--) {
    let s = 0;
    for (const vp of steps) s += vp[1] * e[t + vp[0]];
    e[t] = (1.0 + s) / scale;
  }
  return e[0];
}
// attacks_until over the marginal of `field` in the exact odds of one action (`odds()`).
function _rt_sequence_odds(odds, field, threshold, maxAttacks) {
  _rt_chain_check(threshold, maxAttacks);
  if (typeof field !== 'string' || _rt_over(field, 100)) throw new OutOfBounds('结果字段必须是文字', {key: 'field'});
  const result = odds();
  if (result.fields.indexOf(field) < 0) throw new OutOfBounds(`没有结果${_rt_repr(field)}`, {key: field});
  const marginal = result.marginal(field);
  for (const v of marginal.keys()) {
    if (!_rt_is_int(v)) throw new OutOfBounds(`${_rt_repr(field)}不是整数结果，无法累计`, {key: field});
  }
  return attacks_until(marginal, threshold, maxAttacks);
}
// The package's `until(procedure, field, threshold, ...args, options)`: args and options as
// `<procedure>_odds` takes them, plus max_attacks (default 200) in the options.
function _rt_until(rules, procedure, field, threshold, args) {
  const spec = typeof procedure === 'string' ? rules.actions.get(procedure) : undefined;
  if (spec === undefined || !spec.odds) throw new OutOfBounds('没有可累计的过程', {key: 'procedure'});
  args = args.slice();
  const last = args.length ? args[args.length - 1] : undefined;
  const options = _rt_is_plain(last) ? _rt_fight_options(args.pop()) : new _rt_Dict();
  let maxAttacks = 200;
  if (_rt_has(options, 'max_attacks')) { maxAttacks = options.max_attacks; delete options.max_attacks; }
  const kw = new _rt_Dict();
  const positional = spec.positional;
  for (let i = 0; i < args.length; i++) {
    if (i < positional.length) kw[positional[i]] = args[i];
  }
  for (const k of Object.keys(options)) kw[k] = options[k];
  if (args.length > positional.length) {
    throw new OutOfBounds(`“${spec.name}”最多有${positional.length}个位置参数`, {key: 'args'});
  }
  return _rt_sequence_odds(() => _rt_fight_call(spec.odds, positional, kw), field, threshold, maxAttacks);
}
function _rt_is_plain(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype || proto === _rt_Dict.prototype;
}
// The fewest points on `track` that put `creature` into the track's state (0 when none up to `limit`).
function _rt_state_threshold(rules, creature, track, limit, m) {
  if (rules.accumulate === null) return 0;
  if (typeof track !== 'string' || !rules.tracks.has(track)) throw new OutOfBounds('没有这个累积槽', {key: 'track'});
  limit = Math.min(limit === undefined ? MAX_THRESHOLD : limit, rules.points_max);
  const kw = points => (m === undefined ? {current: 0, gained: points}  // m: the member whose lowered capacity counts
    : _rt_capacity_kw(rules, m, track, {current: 0, gained: points}));
  const reaches = points => !!_rt_rule_call(rules.accumulate, creature, track, kw(points))[rules.state_index];
  let hi = 1;
  while (!reaches(hi)) {
    if (hi >= limit) return 0;
    hi = Math.min(limit, hi * 2);
  }
  let lo = Math.floor(hi / 2);
  while (lo + 1 < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (reaches(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
// Fight.until_state: the chain over the target's points, each total with its own odds.
function _rt_until_state(fight, procedure, roles, target, track, options) {
  const rules = fight.rules;
  const spec = typeof procedure === 'string' ? rules.actions.get(procedure) : undefined;
  if (roles instanceof Map) roles = _rt_object(roles);
  if (spec === undefined || !spec.odds || typeof target !== 'string' || !_rt_is_mapping(roles) || !_rt_has(roles, target)) {
    throw new OutOfBounds(`${_rt_repr(procedure)}不能在战斗中计算累积概率`, {key: procedure});
  }
  const effect = spec.effects.filter(e => e.kind === 'track' && e.role === target)[0];
  if (effect === undefined || rules.accumulate === null) {
    throw new OutOfBounds(`“${spec.name}”不给${target}累积负面点数`, {key: procedure});
  }
  if (typeof track !== 'string' || !rules.tracks.has(track)) throw new OutOfBounds('没有这个累积槽', {key: 'track'});
  options = _rt_fight_options(options);
  let maxAttacks = 200;
  if (_rt_has(options, 'max_attacks')) { maxAttacks = options.max_attacks; delete options.max_attacks; }
  const m = fight.member(roles[target]);
  const start = m.track_points(track);
  const needed = _rt_state_threshold(rules, fight._effective(m, false), track, undefined, m);
  if (needed <= 0) throw new OutOfBounds(`“${_rt_name_of(rules.tracks, track)}”没有负面状态`, {key: track});
  const others = new _rt_Dict();
  for (const role of Object.keys(roles)) if (role !== target) others[role] = fight.effective(roles[role]);
  const cache = new Map();
  const gains = total => {
    const seen = fight._effective(_rt_member_with(m, {points: _rt_put(m.points, track, start + total)}));
    const key = JSON.stringify(seen.toDict());
    if (!cache.has(key)) {
      const kw = new _rt_Dict();
      kw[target] = seen;
      for (const k of Object.keys(others)) kw[k] = others[k];
      for (const k of Object.keys(options)) kw[k] = options[k];
      const odds = _rt_fight_call(spec.odds, spec.positional, kw);
      const atTrack = odds.fields.indexOf(effect.key), atPoints = odds.fields.indexOf(effect.field);
      const dist = new Map();
      for (const op of odds.outcomes) {
        const gained = op[0][atTrack] === track ? Math.trunc(op[0][atPoints]) : 0;
        dist.set(gained, (dist.has(gained) ? dist.get(gained) : 0.0) + op[1]);
      }
      cache.set(key, dist);
    }
    return cache.get(key);
  };
  return chain_until(gains, Math.max(1, needed - start), maxAttacks);
}
