// ---- exact odds over a plan (fight_plan.py) ----
// How many actions of an opening sequence and then a repeated cycle until a target is reached
// (Fight.until_plan), following the whole fight state: the chain's states are fights (without their
// logs); each action maps a state to the states its outcomes lead to, by the procedure's exact odds
// with the stats and options the fight supplies in that state (Fight._prepare) and Fight.apply of
// each outcome. Every Map keeps Python's dict order, so the sums run in the same order.
const MAX_PLAN_STEPS = 100;
const MAX_PLAN_STATES = 20000;
const MAX_PLAN_WORK = 20000;
const MAX_PLAN_MOVES = 600000;  // (state, next state, total) steps of the chain in one call
const _rt_MAX_PLAN_OPTIONS = 50;
const _rt_PLAN_KEYS = ['procedure', 'roles', 'options', 'end_turn'];
const _rt_TARGET_KINDS = ['condition', 'state', 'counter', 'points'];
const _rt_KIND_NAMES = {condition: '条件', state: '状态', counter: '计数', points: '累积槽'};

function _rt_cut20(value) { return Array.from(String(value)).slice(0, 20).join(''); }
function _rt_plan_step(rules, names, raw) {
  if (!_rt_is_mapping(raw) || Object.keys(raw).some(k => _rt_PLAN_KEYS.indexOf(k) < 0) || !_rt_has(raw, 'procedure')) {
    throw new OutOfBounds('计划的每一步是 {procedure, roles, options, end_turn} 的映射', {key: 'plan'});
  }
  const procedure = raw.procedure;
  const spec = typeof procedure === 'string' ? rules.actions.get(procedure) : undefined;
  if (spec === undefined) throw new OutOfBounds('没有可在战斗中使用的这个过程', {key: 'procedure'});
  if (!spec.odds) throw new OutOfBounds(`“${spec.name}”没有精确概率，不能用于计划`, {key: procedure});
  const roles = _rt_get_or(raw, 'roles', null);
  const given = _rt_is_mapping(roles) ? Object.keys(roles) : null;
  if (given === null || given.length !== spec.roles.length || given.some(r => spec.roles.indexOf(r) < 0)) {
    throw new OutOfBounds(`“${spec.name}”的角色是 ${spec.roles.join(', ')}`, {key: procedure});
  }
  for (const r of given) {
    const name = roles[r];
    if (typeof name !== 'string' || names.indexOf(name) < 0) {
      throw new OutOfBounds(`战斗中没有“${name}”`, {key: _rt_cut20(name)});
    }
  }
  const options = _rt_get_or(raw, 'options', null) || {};
  if (!_rt_is_mapping(options) || Object.keys(options).length > _rt_MAX_PLAN_OPTIONS) {
    throw new OutOfBounds('选项应为映射', {key: 'options'});
  }
  for (const key of Object.keys(options)) {
    if (!spec.params.has(key)) throw new OutOfBounds(`“${spec.name}”没有选项“${_rt_cut20(key)}”`, {key: _rt_cut20(key)});
    const v = options[key];
    if (v !== null && typeof v !== 'boolean' && typeof v !== 'number' && typeof v !== 'string') {
      throw new OutOfBounds(`选项“${spec.params.get(key)}”应为数、真假或文字`, {key: key});
    }
  }
  const endTurn = _rt_get_or(raw, 'end_turn', false);
  if (typeof endTurn !== 'boolean') throw new OutOfBounds('end_turn 应为真或假', {key: 'end_turn'});
  const opts = new _rt_Dict();
  for (const key of Object.keys(options)) opts[key] = options[key];
  return Object.freeze({procedure: procedure, roles: spec.roles.map(r => [r, roles[r]]), options: opts,
                        end_turn: endTurn});
}
// [opening, cycle] of a plan: {opening: [step, ...], cycle: [step, ...]} (the cycle not empty) or a list of steps.
function _rt_read_plan(rules, names, plan) {
  let opening, cycle;
  if (Array.isArray(plan)) {
    opening = []; cycle = plan;
  } else if (_rt_is_mapping(plan) && Object.keys(plan).every(k => k === 'opening' || k === 'cycle')
             && _rt_has(plan, 'cycle')) {
    opening = _rt_get_or(plan, 'opening', null) || []; cycle = plan.cycle;
  } else {
    throw new OutOfBounds('计划应为 {opening: [...], cycle: [...]}，或一列步骤', {key: 'plan'});
  }
  if (!Array.isArray(opening) || !Array.isArray(cycle) || !cycle.length) {
    throw new OutOfBounds('计划的循环部分至少要有一步', {key: 'plan'});
  }
  if (opening.length + cycle.length > MAX_PLAN_STEPS) throw new OutOfBounds(`计划最多${MAX_PLAN_STEPS}步`, {key: 'plan'});
  return [opening.map(s => _rt_plan_step(rules, names, s)), cycle.map(s => _rt_plan_step(rules, names, s))];
}
function _rt_plan_target(rules, names, raw) {
  if (!_rt_is_mapping(raw) || !_rt_has(raw, 'who')) {
    throw new OutOfBounds('目标应为 {who, condition | state | counter | points, at_least} 的映射', {key: 'target'});
  }
  const kinds = _rt_TARGET_KINDS.filter(k => _rt_has(raw, k));
  const allowed = ['who', 'at_least'].concat(_rt_TARGET_KINDS);
  if (kinds.length !== 1 || Object.keys(raw).some(k => allowed.indexOf(k) < 0)) {
    throw new OutOfBounds('目标要且只要给出 condition、state、counter、points 之一', {key: 'target'});
  }
  const who = raw.who, kind = kinds[0], key = raw[kind];
  if (typeof who !== 'string' || names.indexOf(who) < 0) throw new OutOfBounds(`战斗中没有“${_rt_cut20(who)}”`, {key: 'who'});
  const known = {condition: rules.conditions, state: rules.state_names, counter: rules.counters, points: rules.tracks}[kind];
  if (typeof key !== 'string' || !known.has(key)) throw new OutOfBounds(`没有这个${_rt_KIND_NAMES[kind]}`, {key: kind});
  const atLeast = _rt_get_or(raw, 'at_least', 1);
  if (kind === 'counter' || kind === 'points') {
    if (!_rt_is_int(atLeast) || atLeast < 1 || atLeast > MAX_VALUE) {
      throw new OutOfBounds(`at_least 必须是1至${MAX_VALUE}的整数`, {key: 'at_least'});
    }
  } else if (_rt_has(raw, 'at_least')) {
    throw new OutOfBounds('at_least 只用于 counter 与 points', {key: 'at_least'});
  }
  return Object.freeze({who: who, kind: kind, key: key, at_least: atLeast});
}
// One target or a list of them (reaching any is reaching the target).
function _rt_read_targets(rules, names, target) {
  const raw = Array.isArray(target) ? target.slice() : [target];
  if (raw.length < 1 || raw.length > _rt_MAX_PLAN_OPTIONS) {
    throw new OutOfBounds(`目标应有1至${_rt_MAX_PLAN_OPTIONS}个`, {key: 'target'});
  }
  return raw.map(t => _rt_plan_target(rules, names, t));
}
function _rt_reached(fight, targets) {
  for (const t of targets) {
    const m = fight.member(t.who);
    if (t.kind === 'state' && m.states.indexOf(t.key) >= 0) return true;
    if (t.kind === 'condition' && fight._active(m).some(c => c.id === t.key)) return true;
    if (t.kind === 'counter' && m.counter(t.key) >= t.at_least) return true;
    if (t.kind === 'points' && m.track_points(t.key) >= t.at_least) return true;
  }
  return false;
}
// What tells two states of one chain apart (the combatants' base stats never change).
function _rt_plan_key(fight) {
  return JSON.stringify([fight.members.map(m => [m.counters, m.points, m.states, m.modifiers, m.conditions, m.resources,
                                                  m.lowered]),
                         fight.turn, fight.relations]);
}
// `fight` with the counted total set aside (its counter at 0).
function _rt_plan_zero(fight, counted) {
  return fight._with({members: fight.members.map(m => (m.name === counted.who
    ? _rt_member_with(m, {counters: m.counters.filter(kv => kv[0] !== counted.key)}) : m))});
}
// The fight after the step: without its log, at the actor's next turn when the step ends the turn,
// its turn counted from the start of the round (every expiry moved with it).
function _rt_plan_end(fight, step) {
  if (step.end_turn) {
    const spec = fight.rules.actions.get(step.procedure);
    const actor = step.roles[spec.subject][1];
    for (let i = 0; i < fight.members.length; i++) {
      fight = fight.next_turn();
      if (fight.actor === actor) break;
    }
  }
  const n = fight.members.length, shift = Math.floor(fight.turn / n) * n;
  if (!shift) return fight._with({log: []});
  const members = fight.members.map(m => _rt_member_with(m, {
    modifiers: m.modifiers.map(x => (x.expires >= 0 ? new _rt_Modifier(x.stat, x.delta, x.expires - shift, x.source) : x)),
    conditions: m.conditions.map(c => (c.expires >= 0 ? new _rt_Condition(c.id, c.value, c.source, c.expires - shift) : c)),
  }));
  return fight._with({members: members, turn: fight.turn - shift, log: []});
}
// The outcome fields of an action of `spec` that Fight.apply reads: its effects' amounts, gates and
// tracks, the gates of the conditions an action ends, and the kind of action it spends.
function _rt_fields_read(rules, spec) {
  const read = [];
  for (const c of rules.conditions.values()) for (const x of c.ends) if (x.kind === 'acts' && x.scope.when) read.push(x.scope.when);
  if (spec.action_from) read.push(spec.action_from);  // the kind of action it spends
  for (const pf of spec.costs) read.push(pf[1]);  // what it spends of the turn's pools
  for (const e of spec.effects) for (const f of [e.field, e.when, e.kind === 'track' ? e.key : '']) if (f) read.push(f);
  return read.filter((f, i) => read.indexOf(f) === i);
}
// The steps of one until_plan call: each state's successors at each place in the plan, and each
// procedure's odds for the arguments a state gives it, computed once.
class _rt_PlanChain {
  constructor(rules, counted) {
    this.rules = rules; this.counted = counted; this.steps = new Map(); this.odds = new Map(); this.work = 0;
    this.moves = 0;
    this.read = new Map();  // procedure -> the outcome fields apply reads, when asked
  }
  moving(moves) {  // count the steps of the chain about to be taken (MAX_PLAN_MOVES)
    if (this.moves + moves > MAX_PLAN_MOVES) {
      throw new LimitExceeded(`计划的计算量超过${MAX_PLAN_MOVES}次状态转移：请减少最多行动次数`);
    }
    this.moves += moves;
  }
  step(fight, key, place, step) {
    const cacheKey = key + '\u0000' + place;
    const kept = this.steps.get(cacheKey);
    if (kept !== undefined) return kept;
    const merged = new Map();
    let prepared = null;
    try {
      prepared = fight._prepare(step.procedure, _rt_object(new Map(step.roles)), step.options);
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
    }
    if (prepared === null) {
      this._add(merged, _rt_plan_end(fight, step), 1.0);
    } else {
      const outcomes = this._outcomes(step.procedure, prepared[0], prepared[1]);
      if (this.work + outcomes.length > MAX_PLAN_WORK) {
        throw new LimitExceeded(`计划的计算量超过${MAX_PLAN_WORK}次结算：请减少最多行动次数`);
      }
      this.work += outcomes.length;
      for (const oq of outcomes) {
        let plan = prepared[4];
        if (prepared[0].action_from || prepared[0].costs.length) {  // what this outcome spends (refused: the step ends)
          try {
            plan = fight._priced(prepared[0], prepared[5], oq[0])[0];
          } catch (err) {
            if (!(err instanceof Refused)) throw err;
            this._add(merged, _rt_plan_end(fight, step), oq[1]);
            continue;
          }
        }
        const action = _rt_resolved_action(step.procedure, step.roles, oq[0], prepared[2], prepared[3], plan);
        this._add(merged, _rt_plan_end(fight.apply(action), step), oq[1]);
      }
    }
    const out = Array.from(merged.values()).map(v => [v[0], v[1], v[2], v[3]]);
    this.steps.set(cacheKey, out);
    return out;
  }
  _add(merged, after, q) {
    let delta = 0;
    if (this.counted !== null) {
      delta = after.member(this.counted.who).counter(this.counted.key);
      if (delta) after = _rt_plan_zero(after, this.counted);
    }
    const key = _rt_plan_key(after), k2 = key + '\u0000' + delta;
    const have = merged.get(k2);
    merged.set(k2, [after, key, delta, have === undefined ? q : have[3] + q]);
  }
  // What one action adds to the counted total when it leaves the state as it was but for that
  // total (told without applying it, plain_gains, else from its applied outcomes), so that the
  // chain is the plain one over the total; null when some outcome changes the state or lowers it.
  cycle_gains(fight, step) {
    const plain = this.plain_gains(fight, step);
    if (plain !== null) return plain;
    const key = _rt_plan_key(fight), steps = this.step(fight, key, 0, step);
    if (!steps.every(s => s[1] === key && s[2] >= 0)) return null;
    const gains = new Map();
    for (const s of steps) gains.set(s[2], (gains.has(s[2]) ? gains.get(s[2]) : 0.0) + s[3]);
    return gains;
  }
  // What one action adds to the counted total, when it can be told without applying it: nobody
  // carries anything (no modifier, state, condition, points, relation, turn budget) and every
  // outcome's effects but the counted counter's do nothing; then the action leaves the state as it
  // was and the chain is the plain one. null when that cannot be told this way.
  plain_gains(fight, step) {
    const counted = this.counted;
    if (counted === null || fight.relations.length || fight.rules.turn !== null) return null;
    if (fight.members.some(m => m.modifiers.length || m.states.length || m.conditions.length || m.points.length)) return null;
    let prepared;
    try {
      prepared = fight._prepare(step.procedure, _rt_object(new Map(step.roles)), step.options);
    } catch (err) {
      if (err instanceof Refused) return null;
      throw err;
    }
    if (prepared[4] !== null && prepared[4] !== undefined) return null;
    const spec = prepared[0], roles = new Map(step.roles), gains = new Map();
    for (const oq of this._outcomes(step.procedure, spec, prepared[1])) {
      const outcome = oq[0];
      let delta = 0;
      for (const e of spec.effects) {
        if (e.when && !outcome[e.when]) continue;
        const amount = e.field ? Math.trunc(Number(outcome[e.field])) * e.sign : 0;
        if (e.kind === 'counter' && e.key === counted.key && roles.get(e.role) === counted.who) delta += amount;
        else if ((e.kind === 'counter' || e.kind === 'modifier') && amount === 0) continue;
        else if (e.kind === 'track' && (amount === 0 || !outcome[e.key])) continue;
        else if (e.kind === 'clear') continue;  // nobody has a condition to clear
        else if ((e.kind === 'resource' || e.kind === 'capacity') && _rt_resource_spent(e, outcome) === 0) continue;
        else return null;
      }
      if (delta < 0) return null;
      gains.set(delta, (gains.has(delta) ? gains.get(delta) : 0.0) + oq[1]);
    }
    return gains;
  }
  _outcomes(procedure, spec, kwargs) {
    let cacheKey = null;
    try {
      cacheKey = JSON.stringify([procedure, Object.keys(kwargs).sort().map(k => [k, kwargs[k]])]);
    } catch (err) {
      cacheKey = null;
    }
    if (cacheKey !== null && this.odds.has(cacheKey)) return this.odds.get(cacheKey);
    const odds = _rt_checked_call(spec, procedure, spec.odds, kwargs);
    if (!this.read.has(procedure)) this.read.set(procedure, _rt_fields_read(this.rules, spec));
    const fields = odds.fields, wanted = this.read.get(procedure);
    const read = fields.filter(f => wanted.indexOf(f) >= 0), at = read.map(f => fields.indexOf(f));
    const grouped = new Map();
    for (const op of odds.outcomes) {
      if (op[1] <= 0.0) continue;
      const projected = at.map(i => op[0][i]), k = JSON.stringify(projected);
      const have = grouped.get(k);
      if (have === undefined) grouped.set(k, [projected, op[1]]);
      else have[1] += op[1];
    }
    const out = Array.from(grouped.values()).map(vp => {
      const outcome = {};
      read.forEach((f, i) => { outcome[f] = vp[0][i]; });
      return [Object.freeze(outcome), vp[1]];
    });
    if (cacheKey !== null) this.odds.set(cacheKey, out);
    return out;
  }
}
function _rt_until_plan(fight, plan, target, options) {
  const rules = fight.rules, names = fight.members.map(m => m.name);
  const read = _rt_read_plan(rules, names, plan), opening = read[0], cycle = read[1];
  const targets = _rt_read_targets(rules, names, target);
  options = _rt_options(options, ['max_actions', 'negligible']);
  const maxActions = options.max_actions === undefined ? 200 : options.max_actions;
  const negligible = options.negligible === undefined ? 1e-15 : options.negligible;
  if (!_rt_is_int(maxActions) || maxActions < 1 || maxActions > MAX_ATTACKS) {
    throw new OutOfBounds(`最多行动次数必须是1至${MAX_ATTACKS}的整数`, {key: 'max_actions'});
  }
  if (_rt_reached(fight, targets)) throw new OutOfBounds('战斗已经达到这个目标', {key: 'target'});
  // A lone counter target is carried beside the state rather than in it (counters feed no stat).
  const counted = targets.length === 1 && targets[0].kind === 'counter' ? targets[0] : null;
  let start = fight._with({log: []}), total0 = 0;
  if (counted !== null) {
    total0 = start.member(counted.who).counter(counted.key);
    start = _rt_plan_zero(start, counted);
  }
  let dist = new Map([[_rt_plan_key(start), [start, new Map([[total0, 1.0]])]]]);
  const chain = new _rt_PlanChain(rules, counted), out = [];
  if (counted !== null && !opening.length && cycle.length === 1) {
    // one action again and again that leaves the state as it was (but for the total): the plain
    // chain over the total (attacks_until)
    const gains = chain.cycle_gains(start, cycle[0]);
    if (gains !== null) {
      const u = attacks_until(gains, counted.at_least - total0, maxActions, negligible);
      return new UntilOdds(u.probabilities.slice(), u.tail, counted.at_least);
    }
  }
  let alive = 1.0;
  for (let k = 0; k < maxActions; k++) {
    const place = k < opening.length ? k : opening.length + (k - opening.length) % cycle.length;
    const step = place < opening.length ? opening[place] : cycle[place - opening.length];
    const nxt = new Map();
    let absorbed = 0.0;
    for (const kv of dist.entries()) {
      const totals = kv[1][1];
      const following = chain.step(kv[1][0], kv[0], place, step);
      chain.moving(following.length * totals.size);
      for (const next of following) {
        const after = next[0], key = next[1], delta = next[2], q = next[3];
        if (counted === null && _rt_reached(after, targets)) {
          let s = 0;
          for (const p of totals.values()) s += p;
          absorbed += q * s;
          continue;
        }
        let have = nxt.get(key);
        if (have === undefined) { have = [after, new Map()]; nxt.set(key, have); }
        const into = have[1];
        for (const tp of totals.entries()) {
          const total = tp[0] + delta;
          if (counted !== null && total >= counted.at_least) absorbed += tp[1] * q;
          else into.set(total, (into.has(total) ? into.get(total) : 0.0) + tp[1] * q);
        }
      }
    }
    let live = 0;
    for (const v of nxt.values()) live += v[1].size;
    if (live > MAX_PLAN_STATES) {
      throw new LimitExceeded(`计划的战斗状态有${live}种，超过上限${MAX_PLAN_STATES}：请减少最多行动次数`);
    }
    out.push(absorbed);
    dist = new Map(Array.from(nxt.entries()).filter(kv => kv[1][1].size > 0));
    alive = 0;
    for (const v of dist.values()) for (const p of v[1].values()) alive += p;
    if (alive < negligible) break;
  }
  return new UntilOdds(out, Math.max(0.0, alive), targets.length === 1 ? targets[0].at_least : 1);
}
// The exact mean number of actions of `plan` until `target` (Fight.expected_until): solved for the
// mean where one action repeated leaves the state as it was (expected_attacks, no cut-off), else
// from until_plan's distribution; null when the target may never be reached, or not within
// max_actions (more than 1e-9 of the chance left).
function _rt_expected_until(fight, plan, target, options) {
  const rules = fight.rules, names = fight.members.map(m => m.name);
  const read = _rt_read_plan(rules, names, plan), opening = read[0], cycle = read[1];
  const targets = _rt_read_targets(rules, names, target);
  options = _rt_options(options, ['max_actions']);
  const maxActions = options.max_actions === undefined ? 1000 : options.max_actions;
  if (targets.length === 1 && targets[0].kind === 'counter' && !opening.length && cycle.length === 1) {
    const counted = targets[0];
    const start = _rt_plan_zero(fight._with({log: []}), counted);
    const gains = new _rt_PlanChain(rules, counted).cycle_gains(start, cycle[0]);
    const need = counted.at_least - fight.member(counted.who).counter(counted.key);
    if (gains !== null && need >= 1) return expected_attacks(gains, need);
  }
  const odds = _rt_until_plan(fight, plan, target, {max_actions: maxActions});
  return odds.tail <= 1e-9 ? odds.expected : null;
}
