// ---- a ruleset's fight data, and conditions (fight_state.FightRules, fight_conditions.py) ----
// The generated module passes its fight data to _rt_fight_rules as arrays of [key, value] pairs
// (the Python package's tuples); lookups go through Maps, so no key can reach a prototype.
const _rt_ACTION_NAMES = new Map([['standard', '标准动作'], ['move', '移动动作'], ['swift', '迅捷动作'],
                                  ['free', '自由动作'], ['reflex', '反射动作'], ['full_round', '整轮动作'],
                                  ['bonus', '附赠动作'], ['', '动作']]);
const _rt_NATURE_NAMES = new Map([['physical', '物理'], ['mental', '精神'], ['', '']]);
const Refused = _rt_error_class('Refused', 'refused');

function _rt_scope(s) {
  return Object.freeze({procedures: Object.freeze(s[0]), role: s[1], source_role: s[2], when: s[3]});
}
function _rt_scope_any(s) { return s.procedures.length > 0 || !!s.role || !!s.source_role || !!s.when; }
const _rt_MADE_RULES = new WeakSet();  // the fight rules this module made (Fight.start and from_dict take no others)
function _rt_known_rules(rules) {
  if (rules === null || typeof rules !== 'object' || !_rt_MADE_RULES.has(rules)) {
    throw new OutOfBounds('战斗规则必须是本模块的 FIGHT_RULES', {key: 'rules'});
  }
}
function _rt_fight_rules(d) {
  const made = _rt_make_fight_rules(d);
  _rt_MADE_RULES.add(made);
  return made;
}
function _rt_make_fight_rules(d) {
  const map = pairs => new Map(pairs);
  const actions = new Map(d.actions.map(kv => {
    const a = kv[1];
    return [kv[0], Object.freeze({
      name: a.name, call: a.call, positional: Object.freeze(a.positional), roles: Object.freeze(a.roles),
      effects: Object.freeze(a.effects.map(e => Object.freeze({kind: e[0], role: e[1], key: e[2], field: e[3],
                                                               sign: e[4], duration: e[5], when: e[6], other: e[7]}))),
      odds: a.odds, params: map(a.params), action: a.action, action_from: a.action_from || '', nature: a.nature,
      costs: Object.freeze((a.costs || []).map(kv => Object.freeze(kv.slice()))),
      subject: a.subject,
      required: Object.freeze(a.required || []),
      checks: Object.freeze((a.checks || []).map(c => Object.freeze({check: c[0], role: c[1], lowers: c[2], top: c[3],
                                                                     when: c[4]})))})];
  }));
  const conditions = new Map(d.conditions.map(kv => {
    const c = kv[1];
    return [kv[0], Object.freeze({
      name: c[0], sets: c[1], adds: c[2], options: c[3], applies: _rt_scope(c[4]), forbids: c[5],
      forbids_actions: c[6],
      ends: c[7].map(x => Object.freeze({kind: x[0], of: x[1], nth: x[2], scope: _rt_scope(x[3]), stat: x[4]})),
      max_value: c[8], stack: c[9], rules: c[10], as_states: c[11] || [], then: c[12] || [], turn_pools: c[13] || []})];
  }));
  const relationSpecs = new Map(d.relation_specs.map(kv => [kv[0], Object.freeze({
    name: kv[1][0], held: kv[1][1], holder: kv[1][2], ends_holder: kv[1][3], ends_held: kv[1][4],
    clears: kv[1][5], ends_if_held_by: kv[1][6] || []})]));
  return Object.freeze({
    combatant: d.combatant, stat_count: d.stat_count, stats: map(d.stats), counters: map(d.counters),
    tracks: map(d.tracks), accumulate: d.accumulate, state_names: map(d.state_names),
    state_stats: map(d.state_stats), relations: map(d.relations), actions: actions, state_index: d.state_index,
    on_damage: d.on_damage, track_states: map(d.track_states), track_debuffs: map(d.track_debuffs),
    debuff_index: d.debuff_index, points_max: d.points_max, taken_max: d.taken_max, flag_names: map(d.flag_names),
    conditions: conditions, relation_specs: relationSpecs, check_names: map(d.check_names || []),
    track_debuff_checks: map(d.track_debuff_checks || []), wake_tracks: d.wake_tracks || [],
    state_spared: map(d.state_spared || []), turn: d.turn ? _rt_turn_spec(d.turn) : null,
    resources: new Map((d.resources || []).map(kv => [kv[0], Object.freeze({
      name: kv[1][0], start: kv[1][1], top: kv[1][2], stat: kv[1][3], on_empty: kv[1][4], knocks: kv[1][5],
      lifts: kv[1][6], rules: kv[1][7]})])),
    track_inputs: map(d.track_inputs || []), capacity_param: d.capacity_param || '', lowered_max: d.lowered_max || 0,
  });
}
// A turn structure [pools, kinds, refuse, ready, owes, rules] (fight_state.TurnSpec); a cost is
// [[pool, amount], ...] sorted by pool.
function _rt_turn_spec(t) {
  const pools = t[0].map(p => Object.freeze({id: p[0], name: p[1], per_turn: p[2], unit: p[3], per_unit: p[4],
                                             stat: p[5] || ''}));
  const order = t[1].map(k => k[0]);
  const kinds = new Map(t[1].map(k => [k[0], Object.freeze({own: k[1], off: k[2], next: k[3]})]));
  return Object.freeze({pools: pools, order: order, kinds: kinds, refuse: t[2], ready: t[3], owes: t[4], rules: t[5],
                        stat_pools: pools.some(p => p.stat), names: new Map(t[6] || [])});
}
// What the ruleset calls a kind of action (its own name, else the common one): TurnSpec.kind_name.
function _rt_kind_name(turn, action) {
  return turn.names.has(action) ? turn.names.get(action) : _rt_name_of(_rt_ACTION_NAMES, action);
}
const _rt_UNTIMED = new WeakMap();  // rules -> the same rules without the turn budget
function _rt_without_turn(rules) {
  if (rules.turn === null) return rules;
  if (!_rt_UNTIMED.has(rules)) {
    const untimed = Object.freeze(Object.assign({}, rules, {turn: null}));
    _rt_MADE_RULES.add(untimed);
    _rt_UNTIMED.set(rules, untimed);
  }
  return _rt_UNTIMED.get(rules);
}
// ---- the checks a track's debuff lowers (fight_checks.py) ----
function _rt_check_matches(options, param, values, dflt) {
  if (!_rt_has(options, param)) return dflt;
  const given = options[param];
  if (typeof given === 'string' || typeof given === 'number' || typeof given === 'boolean') {
    return values.some(v => typeof v === typeof given && v === given);
  }
  return given !== null && typeof given === 'object' && values.indexOf(given.id) >= 0;  // a table entry
}
// [parameter -> penalty, its keys in order, sentences] for the checks an action rolls
// (amounts(name): [track, amount] of each debuff name suffers now).
function _rt_check_penalties(rules, checks, roles, amounts, options) {
  const penalties = new _rt_Dict(), keys = [], said = [];
  for (const use of checks) {
    if (_rt_has(options, use.lowers) || !use.when.every(w => _rt_check_matches(options, w[0], w[1], w[2]))) continue;
    const name = roles[use.role];
    for (const ta of amounts(name)) {
      const track = ta[0], amount = ta[1];
      if (amount > 0 && (rules.track_debuff_checks.get(track) || []).indexOf(use.check) >= 0) {
        const before = _rt_has(penalties, use.lowers) ? penalties[use.lowers] : 0;
        if (!_rt_has(penalties, use.lowers)) keys.push(use.lowers);
        penalties[use.lowers] = Math.min(use.top, before + amount);
        const top = before + amount > use.top ? `，已达上限${use.top}` : '';
        said.push(_rt_line(`${name}的${_rt_name_of(rules.tracks, track)}减益：`
                           + `${_rt_name_of(rules.check_names, use.check)}-${amount}${top}`));
      }
    }
  }
  return [penalties, keys, said];
}
// A sentence for each debuff `name` suffers that lowers kinds of check.
function _rt_lowered_checks(rules, amounts, name) {
  const out = [];
  for (const ta of amounts) {
    const kinds = (rules.track_debuff_checks.get(ta[0]) || []).map(k => _rt_name_of(rules.check_names, k));
    if (kinds.length) out.push(_rt_line(`${name}的${_rt_name_of(rules.tracks, ta[0])}减益：${kinds.join('、')}-${ta[1]}`));
  }
  return out;
}
// A procedure called with Python's keyword arguments: its positional parameters (by name) in
// order, everything else in the trailing options object (no prototype: no key reaches one).
function _rt_fight_call(fn, positional, kw) {
  const options = new _rt_Dict();
  for (const k of Object.keys(kw)) if (positional.indexOf(k) < 0) options[k] = kw[k];
  return _rt_call_with(fn, positional, kw, options);
}
// `fn` called with `kw`'s values of its `positional` parameters, in their order, then `options`.
function _rt_call_with(fn, positional, kw, options) {
  const args = [];
  for (let i = 0; i < positional.length; i++) args.push(_rt_has(kw, positional[i]) ? kw[positional[i]] : undefined);
  args.push(options);
  return fn.apply(null, args);
}
// The accumulation (or recovery) rule's fast form, [fn, positional], with its creature and track.
// `kw`: an object made for this call (every caller writes a literal), taken as the options
// object when it names neither positional parameter: the commonest call copies nothing.
function _rt_rule_call(rule, creature, track, kw) {
  const positional = rule[1];
  if (positional.length === 2) {  // the creature and the track: what _rt_fight_call makes of `all` below
    if (!_rt_has(kw, positional[0]) && !_rt_has(kw, positional[1])) {
      kw.dice = _rt_no_dice();
      return rule[0](creature, track, kw);
    }
    const options = new _rt_Dict();
    let first = creature, second = track;
    for (const k of Object.keys(kw)) {
      if (k === positional[0]) first = kw[k];
      else if (k === positional[1]) second = kw[k];
      else options[k] = kw[k];
    }
    options.dice = _rt_no_dice();
    return rule[0](first, second, options);
  }
  const all = new _rt_Dict();
  all[rule[1][0]] = creature;
  all[rule[1][1]] = track;
  for (const k of Object.keys(kw)) all[k] = kw[k];
  all.dice = _rt_no_dice();  // the rule rolls nothing: a roll would be DiceExhausted, never a hang
  return _rt_fight_call(rule[0], rule[1], all);
}
let _rt_NO_DICE = null;
function _rt_no_dice() {  // one empty source for every rule call (it holds no faces, so nothing of it is used up)
  if (_rt_NO_DICE === null) _rt_NO_DICE = new FixedDice([]);
  return _rt_NO_DICE;
}
function _rt_mod(a, n) { return ((a % n) + n) % n; }  // Python's a % n

// Whether an action (its procedure, the role the holder plays, the role the source plays) falls in `scope`.
function _rt_matches(scope, procedure, holderRole, sourceRole) {
  if (scope.procedures.length && scope.procedures.indexOf(procedure) < 0) return false;
  if (scope.role && holderRole !== scope.role) return false;
  if (scope.source_role && sourceRole !== scope.source_role) return false;
  return true;
}
// The endings a turn or round ends (fight_conditions.TURN_BOUND).
const _rt_TURN_BOUND = ['turn_start', 'turn_end', 'next_turn_end', 'rounds', 'round_end'];
// The absolute turn at whose start a turn-bound ending lapses (fight_conditions.expiry).
function _rt_expiry(ending, turn, n, holder, source) {
  if (ending.kind === 'rounds') return turn + ending.nth * n;
  if (ending.kind === 'round_end') return (Math.floor(turn / n) + ending.nth) * n;  // the round after the nth
  const who = ending.of === 'source' && source >= 0 ? source : holder;
  if (ending.kind === 'turn_start' || ending.kind === 'next_turn_end') {  // the nth start after now (or its end)
    return turn + 1 + _rt_mod(who - turn - 1, n) + (ending.nth - 1) * n + (ending.kind === 'next_turn_end' ? 1 : 0);
  }
  const first = turn + _rt_mod(who - turn, n);
  return first + (ending.nth - 1) * n + 1;
}
// The words of what `spec` forbids this action ('' when it does not).
function _rt_forbidding(spec, procedure, action, nature) {
  if (spec.forbids.indexOf(procedure) >= 0) return '这个行动';
  if (!action) return '';
  for (const kn of spec.forbids_actions) {
    if ((!kn[0] || kn[0] === action) && (!kn[1] || kn[1] === nature)) {
      const what = _rt_NATURE_NAMES.has(nature) ? _rt_NATURE_NAMES.get(nature) : '';
      return what + (_rt_ACTION_NAMES.has(action) ? _rt_ACTION_NAMES.get(action) : '动作');
    }
  }
  return '';
}
// What `spec` forbids, in words ('不能进行物理标准动作、物理移动动作'; '' when nothing): fight_conditions.forbids_text.
function _rt_forbids_text(spec, procedureNames) {
  const parts = [];
  for (const kn of spec.forbids_actions) {
    parts.push(kn[0] || kn[1] ? (_rt_NATURE_NAMES.has(kn[1]) ? _rt_NATURE_NAMES.get(kn[1]) : '')
      + (_rt_ACTION_NAMES.has(kn[0]) ? _rt_ACTION_NAMES.get(kn[0]) : '动作') : '任何行动');
  }
  for (const p of spec.forbids) parts.push(procedureNames.has(p) ? procedureNames.get(p) : p);
  const unique = parts.filter((x, i) => parts.indexOf(x) === i);
  return unique.length ? `不能进行${unique.join('、')}` : '';
}
// `fn` (the action's procedure or its odds) called as _rt_fight_call calls it, after the check
// that it is not called without an option it requires, nor with one it does not take
// (fight_state.bad_options: Python's TypeError of the call): the keys are read once for both.
function _rt_checked_call(spec, procedure, fn, kwargs) {
  const positional = spec.positional, options = new _rt_Dict();
  let bad = false;
  for (const k of Object.keys(kwargs)) {
    if (k !== 'dice' && !spec.params.has(k) && spec.roles.indexOf(k) < 0) bad = true;
    if (positional.indexOf(k) < 0) options[k] = kwargs[k];
  }
  for (const k of spec.required) if (!_rt_has(kwargs, k)) bad = true;
  if (bad) {
    throw new OutOfBounds(`“${spec.name}”的选项不全或有误：${Array.from(spec.params.values()).join('、')}`, {key: procedure});
  }
  return _rt_call_with(fn, positional, kwargs, options);
}
function _rt_shown_option(value) { return value === true ? '是' : value === false ? '否' : String(value); }
