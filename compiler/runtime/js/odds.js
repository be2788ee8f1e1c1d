// Exact odds (odds.py in JavaScript): distributions of pools, d20 layers and damage dice, and the
// enumeration of a procedure's outcomes. Part of the runtime every generated JavaScript module carries.
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
  if (dice > 10000) throw new LimitExceeded(`骰池最多10000个骰子，得到${dice}`);  // O(dice²) in a JavaScript loop
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
  if (nQ + nR >= sides) throw new OutOfBounds('每个骰面都会加骰：这个骰池永远掷不完');
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
    if (where === null || typeof where !== 'object' || Array.isArray(where)) {
      throw new OutOfBounds(`条件必须是结果字段到值的映射，得到${_rt_repr(where)}`, {key: 'where'});
    }
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
  expected(field) {  // the mean of a numeric (whole number or true/false) field; OutOfBounds for any other
    const i = this._field(field);
    let s = 0;
    for (const o of this.outcomes) {
      const v = o[0][i];
      if (typeof v !== 'number' && typeof v !== 'boolean') {
        throw new OutOfBounds(`结果字段${_rt_repr(field)}不是数值`, {key: 'field'});
      }
      s += Number(v) * o[1];
    }
    return s;
  }
  get hit_probability() { return this.hit !== null ? this.probability({[this.hit]: true}) : NaN; }
  get expected_damage() { return this.damage !== null ? this.expected(this.damage) : NaN; }
  _field(name) {
    const i = typeof name === 'string' ? this.fields.indexOf(name) : -1;
    if (i < 0) throw new OutOfBounds(`没有结果字段${_rt_repr(name)}`, {key: 'field'});
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
// Accumulates weighted outcomes inside a generated odds function. Every outcome a roll's loop
// enumerates is charged to `budget` as the loop opens (`outcomes`, `each`): past it the call throws
// LimitExceeded (an enumeration too big to finish in interactive time), before the work. The
// innermost loop's body puts one outcome, uncharged: bounded by the charged loops around it.
class OddsBuilder {
  constructor(fields, hit, damage, budget) {
    this.fields = fields; this.acc = new Map(); this.dropped = 0.0; this.hit = hit; this.damage = damage;
    this.left = budget;
  }
  put(outcome, p) {
    const key = JSON.stringify(outcome);
    const found = this.acc.get(key);
    if (found === undefined) this.acc.set(key, [outcome, p]);
    else found[1] += p;
  }
  outcomes(p, dist) {
    const items = dist.items();
    if ((this.left -= items.length) < 0) OddsBuilder.exceeded();
    if (dist.skipped) this.dropped += p * dist.skipped;
    return items;
  }
  each(items) {
    if ((this.left -= items.length) < 0) OddsBuilder.exceeded();
    return items;
  }
  drop(p) {
    if (--this.left < 0) OddsBuilder.exceeded();
    this.dropped += p;
  }
  static exceeded() {
    throw new LimitExceeded('概率枚举的分支过多（超过规则集的上限odds_branches），无法精确计算；请改用模拟');
  }
  build() { return new Odds(this.fields, Array.from(this.acc.values()), this.dropped, this.hit, this.damage); }
}

