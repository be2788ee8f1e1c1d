// ---- the turn as a budget (fight_budget.py) ----
// What one combatant's turn holds (the ruleset's fight: turn: pools) and what each kind of action
// costs from it, on its actor's own turn and off it, and what it takes from the next turn. Each
// member carries `spent`, `owed` and `ready`; resolve refuses an action that does not fit when the
// ruling says so (else lets it through with a sentence); apply spends it; a member's turn start
// resets its budget to what it owed.
function _rt_budget_amount(pool, value) {
  const whole = Math.floor(value / pool.per_unit), part = value - whole * pool.per_unit;
  const text = !part ? String(whole) : (whole ? `${whole}又` : '') + `${part}/${pool.per_unit}`;
  return `${pool.name}${text}${pool.unit}`;
}
function _rt_shown_cost(turn, cost) {
  return turn.pools.filter(p => _rt_get(cost, p.id)).map(p => _rt_budget_amount(p, _rt_get(cost, p.id))).join('、')
    || '不耗费';
}
function _rt_budget_left(turn, spent) { return turn.pools.map(p => [p.id, p.per_turn - _rt_get(spent, p.id)]); }
function _rt_left_text(turn, spent) {
  const left = _rt_budget_left(turn, spent);
  return turn.pools.map((p, i) => _rt_budget_amount(p, left[i][1])).join('、');
}
function _rt_fits(turn, spent, cost) {
  const per = new Map(turn.pools.map(p => [p.id, p.per_turn]));
  return cost.every(kv => _rt_get(spent, kv[0]) + kv[1] <= (per.has(kv[0]) ? per.get(kv[0]) : 0));
}
function _rt_budget_add(turn, pairs, cost) {
  const per = new Map(turn.pools.map(p => [p.id, p.per_turn]));
  for (const kv of cost) pairs = _rt_put(pairs, kv[0], _rt_clamp(_rt_get(pairs, kv[0]) + kv[1], 0, per.has(kv[0]) ? per.get(kv[0]) : 0));
  return pairs;
}
function _rt_budget_merged(cost, extra) {  // `cost` and `extra` together, sorted by pool
  const out = new Map(cost);
  for (const kv of extra) out.set(kv[0], (out.has(kv[0]) ? out.get(kv[0]) : 0) + kv[1]);
  return Array.from(out.entries()).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
function _rt_budget_plan(name, cost, owes, readied, over) {
  return Object.freeze({name: name, cost: cost, owes: owes, readied: readied, over: over});
}
const _rt_BUDGET = {
  // What `spec` costs `m` now (null: no turn budget, or not an action of a turn); Refused when it
  // does not fit and the ruling refuses. `action`: the kind its result named (spec.action_from);
  // `extra`: what its result spends beyond its kind (spec.costs: d20's feet), added to each alternative.
  _plan(m, spec, action, extra) {
    const turn = _rt_turn_for(this, m);  // the ruleset's turn, as m's conditions shorten it (fight_events)
    if (action === undefined) action = spec.action;
    if (turn === null || !action) return null;
    const kind = turn.kinds.get(action);
    if (kind === undefined) return null;
    const what = _rt_kind_name(turn, action), own = m.name === this.actor;
    if (!own && m.ready && m.ready === action) {  // the readied action, triggered
      const readyKind = turn.kinds.get(m.ready);
      const owes = turn.owes && readyKind !== undefined && readyKind.own.length ? readyKind.own[0] : [];
      return _rt_budget_plan(m.name, kind.off.length ? kind.off[0] : [], owes, true, '');
    }
    let options = own ? kind.own : kind.off;
    if (extra !== undefined && extra.length) options = options.map(c => _rt_budget_merged(c, extra));
    if (!options.length) {
      const where = !own ? '在自己的回合外' : '在自己的回合';
      const allowed = turn.order.filter(k => (!own ? turn.kinds.get(k).off : turn.kinds.get(k).own).length)
        .map(k => _rt_kind_name(turn, k));
      const over = `${m.name}${where}不能进行${what}（${spec.name}）；可以进行：${allowed.join('、') || '无'}`;
      return this._over(_rt_budget_plan(m.name, [], kind.next, false, over));
    }
    for (const cost of options) if (_rt_fits(turn, m.spent, cost)) return _rt_budget_plan(m.name, cost, kind.next, false, '');
    const over = `${m.name}本回合剩余${_rt_left_text(turn, m.spent)}，不能进行${what}（${_rt_shown_cost(turn, options[0])}）`;
    return this._over(_rt_budget_plan(m.name, options[0], kind.next, false, over));
  },
  _over(plan) {
    if (this.rules.turn.refuse) throw new Refused(plan.over, {key: 'turn'});
    return plan;
  },
  // `m` after paying for an action (a sentence saying what it spent and what is left).
  _spend(m, plan, log) {
    const turn = _rt_turn_for(this, m);
    if (plan === null || plan === undefined || turn === null) return m;
    const spent = _rt_budget_add(turn, m.spent, plan.cost), owed = _rt_budget_add(turn, m.owed, plan.owes);
    if (plan.over) log.push(_rt_line(`${plan.over}：按裁定仍然进行`));
    if (plan.cost.length) {
      log.push(_rt_line(`${m.name}用去${_rt_shown_cost(turn, plan.cost)}（本回合剩余${_rt_left_text(turn, spent)}）`));
    }
    if (plan.owes.length) log.push(_rt_line(`${m.name}的下一回合被占用${_rt_shown_cost(turn, plan.owes)}`));
    if (plan.readied) log.push(_rt_line(`${m.name}触发准备好的${_rt_kind_name(turn, m.ready)}`));
    return _rt_member_with(m, {spent: spent, owed: owed, ready: plan.readied ? '' : m.ready});
  },
  // A new fight in which `name`, on its own turn, readies an action of kind `action`.
  ready(name, action) {
    const m = this.member(name), turn = _rt_turn_for(this, m);
    const kind = turn !== null && typeof action === 'string' ? turn.kinds.get(action) : undefined;
    if (turn === null || kind === undefined || !kind.own.length) throw new Refused(`不能准备这种动作：${action}`, {key: 'action'});
    if (name !== this.actor) throw new Refused(`${name}只能在自己的回合宣言准备动作`, {key: 'action'});
    const what = _rt_kind_name(turn, action), options = turn.ready.length ? turn.ready : kind.own;
    let cost = null;
    for (const c of options) if (_rt_fits(turn, m.spent, c)) { cost = c; break; }
    const log = [];
    if (cost === null) {
      const plan = this._over(_rt_budget_plan(name, options[0], [], false,
        `${name}本回合剩余${_rt_left_text(turn, m.spent)}，不能宣言准备${what}（${_rt_shown_cost(turn, options[0])}）`));
      cost = plan.cost;
      log.push(_rt_line(`${plan.over}：按裁定仍然进行`));
    }
    const spent = _rt_budget_add(turn, m.spent, cost);
    log.push(_rt_line(`${name}准备一个${what}，用去${_rt_shown_cost(turn, cost)}（本回合剩余${_rt_left_text(turn, spent)}）`));
    return this._with({members: this.members.map(x => (x.name === name ? _rt_member_with(x, {spent: spent, ready: action}) : x)),
                       log: _rt_log_add(this._log, log)});
  },
  // At the start of the turn `turn`, its actor's budget: what it owed; a readied action lapses.
  _new_turn(members, turn, log) {
    if (this.rules.turn === null) return;
    const i = turn % members.length, m = members[i];
    if (m.ready) log.push(_rt_line(`${m.name}准备的${_rt_kind_name(this.rules.turn, m.ready)}未被触发，失效`));
    if (m.spent.length || m.owed.length || m.ready) members[i] = _rt_member_with(m, {spent: m.owed, owed: [], ready: ''});
    if (m.owed.length) log.push(_rt_line(`${m.name}本回合已被占用${_rt_shown_cost(this.rules.turn, m.owed)}`));
  },
  // What `name` has left of its turn, in the rules' words ('' without a turn budget).
  left(name) {
    if (this.rules.turn === null) return '';
    const m = this.member(name);
    return _rt_left_text(_rt_turn_for(this, m), m.spent);
  },
};
for (const key of Object.keys(_rt_BUDGET)) {
  Object.defineProperty(Fight.prototype, key, {value: _rt_BUDGET[key], writable: false, enumerable: false,
                                               configurable: false});
}
