// ---- conditions beyond their turn-bound expiry (fight_events.py) ----
// `takes:` endings (a counter of the holder grew, or it gained points on a track or any track),
// what follows an expiry (`then:` a condition or a state), and the turn a condition shortens
// (`turn_pools:`, read by the turn budget).
const _rt_ANY_TRACK = 'any_track';
// What `after` took since `before` that ends `spec` ('所受伤害+3'; '' when nothing did).
function _rt_taken(rules, spec, before, after) {
  for (const x of spec.ends) {
    if (x.kind !== 'takes') continue;
    if (rules.counters.has(x.stat)) {
      const gained = _rt_get(after.counters, x.stat) - _rt_get(before.counters, x.stat);
      if (gained > 0) return `${rules.counters.get(x.stat)}+${gained}`;
      continue;
    }
    for (const tp of after.points) {
      const gained = tp[1] - _rt_get(before.points, tp[0]);
      if (gained > 0 && (x.stat === _rt_ANY_TRACK || x.stat === tp[0])) {
        return `${_rt_name_of(rules.tracks, tp[0])}+${gained}`;
      }
    }
  }
  return '';
}
// End, in `members` (a Map: the action's result so far), each condition its holder held before
// the action (not one the action set) whose holder took what ends it.
function _rt_end_on_taking(rules, before, members, log) {
  const old = new Map(before.map(m => [m.name, m]));
  for (const m of members.list) {
    const name = m.name;
    if (!m.conditions.length || !old.has(name) || !old.get(name).conditions.length) continue;
    const held = old.get(name).conditions;
    const kept = [];
    for (const c of m.conditions) {
      const spec = rules.conditions.get(c.id);
      const was = held.some(d => d.id === c.id && d.source === c.source);
      const why = was && spec.ends.some(x => x.kind === 'takes') ? _rt_taken(rules, spec, old.get(name), m) : '';
      if (why) log.push(_rt_line(`${name}的${spec.name}结束（${why}）`));
      else kept.push(c);
    }
    if (kept.length !== m.conditions.length) members.set(name, _rt_member_with(m, {conditions: kept}));
  }
}
// The states `m` is in now: its own and those its conditions count it as being in.
function _rt_states_of(fight, m) {
  const out = new Set(m.states);
  for (const c of fight._active(m)) for (const s of fight.rules.conditions.get(c.id).as_states) out.add(s);
  return out;
}
// Whether a `stat` or `state` ending of `spec` holds: null when none does, else what to say
// ('' for a stat, the state's name).
function _rt_settled(rules, spec, stats, states) {
  for (const x of spec.ends) {
    if (x.kind === 'stat' && stats[x.stat] === true) return '';
    if (x.kind === 'state' && states.has(x.stat)) return _rt_name_of(rules.state_names, x.stat);
  }
  return null;
}
// Set on each holder what follows its lapsed conditions (`then:`); `fight` is at the new turn.
// Whether anything followed.
function _rt_follow_lapsed(fight, members, lapsed, log) {
  const rules = fight.rules;
  let followed = false;
  for (const ic of lapsed) {
    const i = ic[0];
    for (const kv of rules.conditions.get(ic[1].id).then) {
      const m = members[i];
      if (kv[0] === 'condition') {
        members[i] = fight._set_condition(m, kv[1], 1, '', i, -1, log);
      } else if (m.states.indexOf(kv[1]) < 0) {
        members[i] = _rt_member_with(m, {states: _rt_append(m.states, kv[1]).sort(_rt_text_cmp)});
        log.push(_rt_line(`${m.name}进入${_rt_name_of(rules.state_names, kv[1])}`));
      }
      followed = true;
    }
  }
  return followed;
}
const _rt_SHORT_TURNS = new WeakMap();  // turn spec -> (lowered pools' key -> the turn spec with them)
// `turn` with each pool held in a stat (d20's movement: its speed) at `m`'s effective value of it,
// within 0 and the pool's most.
function _rt_turn_from_stats(fight, m, turn) {
  const stats = fight._effective(m);
  const pools = turn.pools.map(p => (!p.stat ? p
    : Object.freeze(Object.assign({}, p, {per_turn: _rt_clamp(Math.trunc(Number(stats[p.stat])), 0, p.per_turn)}))));
  return Object.freeze(Object.assign({}, turn, {pools: Object.freeze(pools)}));
}
// What `m`'s turn holds now: the ruleset's turn, a pool held in a stat at `m`'s effective value of
// it, each pool lowered to the least its active conditions' `turn_pools` allow (null without a turn budget).
function _rt_turn_for(fight, m) {
  let turn = fight.rules.turn;
  if (turn === null) return turn;
  if (turn.stat_pools) turn = _rt_turn_from_stats(fight, m, turn);
  if (!(m.conditions.length || m.states.length || fight.relations.length)) return turn;
  const low = new Map();
  for (const c of fight._active(m)) {
    for (const pm of fight.rules.conditions.get(c.id).turn_pools) {
      low.set(pm[0], low.has(pm[0]) ? Math.min(low.get(pm[0]), pm[1]) : pm[1]);
    }
  }
  if (!low.size) return turn;
  const pools = turn.pools.map(p => (!low.has(p.id) ? p
    : Object.freeze(Object.assign({}, p, {per_turn: Math.min(p.per_turn, low.get(p.id))}))));
  const key = pools.map(p => p.per_turn).join(',');
  if (!_rt_SHORT_TURNS.has(turn)) _rt_SHORT_TURNS.set(turn, new Map());
  const known = _rt_SHORT_TURNS.get(turn);
  if (!known.has(key)) known.set(key, Object.freeze(Object.assign({}, turn, {pools: Object.freeze(pools)})));
  return known.get(key);
}
