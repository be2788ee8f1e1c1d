// ---- applying an action, and the next turn (fight.py) ----
// What a resolved action's declared effects change (counters, tracks, modifiers, states, conditions,
// resources, relations), the next combatant's turn, and a state the game master lifts: each a new
// Fight. Fight's methods, as Fight.apply, next_turn and remove_state of the Python runtime.
const _rt_APPLY = {
  // A new fight with the action's declared effects applied (a sentence for each change).
  apply(action) {
    const rules = this.rules;
    const spec = _rt_RESOLVED.has(action) ? rules.actions.get(action.procedure) : undefined;
    if (spec === undefined) throw new OutOfBounds('只能应用本场战斗 resolve() 得到的行动', {key: 'action'});
    const roles = action.roles;  // [role, name] pairs, read by _rt_role_name
    const result = action.result;
    const members = new _rt_Roster(this.members);
    for (const r of roles) if (members.index(r[1]) < 0) throw new OutOfBounds(`战斗中没有${_rt_repr(r[1])}`, {key: r[1]});
    let relations = null;  // made by the first relation effect (as fight.py)
    const log = [];
    const n = this.members.length;
    let names = null;  // the members' names in order, made by the first effect that needs them
    // whether a role holds a condition the action may use up or end
    const holding = _rt_any_conditions(this.members) && roles.some(r => members.get(r[1]).conditions.length);
    if (holding) this._end_used(action, spec, members, log);
    if (action.plan !== null) members.set(action.plan.name, this._spend(members.get(action.plan.name), action.plan, log));
    for (const e of spec.effects) {
      if (e.when && !result[e.when]) continue;
      const who = _rt_role_name(roles, e.role);
      let m = members.get(who);
      const amount = e.field ? Math.trunc(Number(result[e.field])) * e.sign : 0;
      if (e.kind === 'counter') {
        if (amount === 0) continue;
        const total = _rt_clamp(_rt_get(m.counters, e.key) + amount, -MAX_VALUE, MAX_VALUE);
        m = _rt_with_counters(m, _rt_put(m.counters, e.key, total));
        const top = Math.abs(total) === MAX_VALUE ? '，已达上限' : '';
        log.push(_rt_line(`${who}的${rules.counters.get(e.key)}${_rt_signed_int(amount)}（共${total}${top}）`));
        if (rules.on_damage !== null && rules.on_damage[0] === e.key && amount > 0 && m.states.length) {
          m = this._recover(m, Math.min(amount, rules.taken_max), log);
        }
        members.set(who, m);
      } else if (e.kind === 'track') {
        const track = String(result[e.key] || '');
        if (!track || amount === 0 || !rules.tracks.has(track)) continue;
        const before = _rt_get(m.points, track);
        const total = _rt_clamp(before + amount, 0, rules.points_max);
        m = _rt_with_points(m, _rt_put(m.points, track, total));
        const top = before + amount > rules.points_max ? `，已达上限${rules.points_max}` : '';
        log.push(_rt_line(`${who}的${rules.tracks.get(track)}${_rt_signed_int(amount)}（共${total}${top}）`));
        if (rules.accumulate !== null) {
          // its stats without debuffs: its base stats when nothing can change them (as fight.py)
          const plain = m.modifiers.length || m.states.length || m.conditions.length || m.resources.length
            || this.relations.length ? this._effective(m, false) : m.base;
          const out = _rt_rule_call(rules.accumulate, plain, track, _rt_capacity_kw(rules, m, track,
                                    {current: Math.min(before, total), gained: Math.max(0, total - before)}));
          const state = String(out[rules.state_index] || '');
          if (state && m.states.indexOf(state) < 0) {
            m = _rt_member_with(m, {states: _rt_append(m.states, state).sort(_rt_text_cmp)});
            log.push(_rt_line(`${who}进入${_rt_name_of(rules.state_names, state)}`));
          } else if (total < before && !state && m.states.indexOf(rules.track_states.get(track)) >= 0) {
            const gone = rules.track_states.get(track);  // recovered below the state's threshold (TR-F14)
            m = _rt_member_with(m, {states: m.states.filter(s => s !== gone)});
            log.push(_rt_line(`${who}的${_rt_name_of(rules.state_names, gone)}解除`));
          }
        }
        if (rules.wake_tracks.indexOf(track) >= 0 && rules.on_damage !== null && total > before && m.states.length) {
          m = this._recover(m, Math.min(total - before, rules.taken_max), log);  // pain wakes as damage does
        }
        members.set(who, m);
      } else if (e.kind === 'modifier') {
        if (amount === 0) continue;
        if (names === null) names = this.members.map(x => x.name);
        const index = names.indexOf(who);
        let expires = -1;
        if (e.duration === 'next_turn') expires = this.turn + 1 + _rt_mod(index - this.turn - 1, n);
        else if (e.duration.slice(0, 7) === 'rounds:') expires = this.turn + parseInt(e.duration.slice(7), 10) * n;
        m = Fight._modify(m, new _rt_Modifier(e.key, amount, Math.min(expires, MAX_VALUE), spec.name), log);
        members.set(who, m);
        const until = e.duration === 'next_turn' ? '，直到其下一回合开始' : '';
        log.push(_rt_line(`${who}的${rules.stats.get(e.key)[0]}${_rt_signed_int(amount)}（${spec.name}${until}）`));
      } else if (e.kind === 'state') {
        if (m.states.indexOf(e.key) < 0) {
          members.set(who, _rt_member_with(m, {states: _rt_append(m.states, e.key).sort(_rt_text_cmp)}));
          log.push(_rt_line(`${who}进入${_rt_name_of(rules.state_names, e.key)}`));
        }
      } else if (e.kind === 'condition') {
        const value = e.field ? amount : 1;
        const source = e.other ? _rt_role_name(roles, e.other) || '' : '';
        if (names === null) names = this.members.map(x => x.name);
        members.set(who, this._set_condition(m, e.key, value, source, names.indexOf(who),
                                             source ? names.indexOf(source) : -1, log));
      } else if (e.kind === 'clear') {  // on the target, or on everyone (duration "everyone")
        for (const name of e.duration === 'everyone' ? members.names() : [who]) {
          const mm = members.get(name), kept = mm.conditions.filter(c => c.id !== e.key);
          if (kept.length !== mm.conditions.length) {
            members.set(name, _rt_member_with(mm, {conditions: kept}));
            log.push(_rt_line(`${name}的${rules.conditions.get(e.key).name}结束（${spec.name}）`));
          }
        }
      } else if (e.kind === 'resource' || e.kind === 'capacity') {
        members.set(who, _rt_resource_effect(this, m, e, result, spec.name, log));
      } else if (e.kind === 'relation') {
        if (relations === null) relations = new Map(this.relations.map(r => [r.join('\u0000'), r]));
        const held = _rt_role_name(roles, e.other);
        const key = [e.key, who, held], k = key.join('\u0000');
        if (e.duration === 'start' && !relations.has(k)) {
          relations.set(k, key);
          log.push(_rt_line(`${who}${rules.relations.get(e.key)}${held}`));
        } else if (e.duration === 'end' && relations.has(k)) {
          relations.delete(k);
          log.push(_rt_line(`${who}对${held}的${rules.relations.get(e.key)}结束`));
        }
      }
    }
    if (holding) _rt_end_on_taking(rules, this.members, members, log);  // what a holder took may end a condition it held
    const changed = members.list;  // this call's own array, in the fight's order
    if (relations === null && !this.relations.length && !_rt_any_conditions(changed)) {
      // what _settle would return: no condition or relation can end (`changed` is this call's own: frozen in place)
      return new Fight(rules, Object.freeze(changed), this.turn, this.relations, _rt_log_add(this._log, log));
    }
    const same = relations === null || relations.size === this.relations.length
      && this.relations.every(r => relations.has(r.join('\u0000')));
    const after = this._with({members: changed,
                              relations: same ? this.relations : Array.from(relations.values()).sort(_rt_tuple_cmp)});
    return after._settle(log, this.relations);
  },
  // The next combatant's turn (a new round after the last); modifiers and conditions that last
  // until the start of this turn lapse.
  next_turn() {
    const rules = this.rules, turn = this.turn + 1;
    if (turn > MAX_TURN) {
      throw new OutOfBounds(`战斗已进行${MAX_TURN}个回合，不能再推进（行动仍可结算）`, {key: 'turn'});
    }
    const log = [], members = [], lapsed = [];  // the lines this adds
    for (const m of this.members) {
      if (!m.modifiers.length && !m.conditions.length) {  // nothing of it lapses (as fight.py)
        members.push(m);
        continue;
      }
      let kept = m.modifiers.filter(x => x.expires < 0 || x.expires > turn);
      for (const gone of m.modifiers) {
        if (kept.indexOf(gone) < 0) log.push(_rt_line(`${m.name}的${rules.stats.get(gone.stat)[0]}恢复（${gone.source}）`));
      }
      let lasting = m.conditions.filter(c => c.expires < 0 || c.expires > turn);
      for (const c of m.conditions) {
        if (lasting.indexOf(c) < 0) {
          log.push(_rt_line(`${m.name}的${rules.conditions.get(c.id).name}结束`));
          lapsed.push([members.length, c]);
        }
      }
      if (kept.length === m.modifiers.length) kept = m.modifiers;  // the same, kept as they were (their identity
      if (lasting.length === m.conditions.length) lasting = m.conditions;  // keys what the stats remember)
      members.push(kept === m.modifiers && lasting === m.conditions ? m
        : _rt_member_with(m, {modifiers: kept, conditions: lasting}));
    }
    const followed = lapsed.length > 0 && _rt_follow_lapsed(this._with({turn: turn}), members, lapsed, log);  // `then:`
    this._new_turn(members, turn, log);
    const n = this.members.length;
    if (turn % n === 0) log.push(`第${Math.floor(turn / n) + 1}轮`);
    const after = this._with({members: members, turn: turn, log: _rt_log_add(this._log, log)});
    return followed ? after._settle([], []) : after;
  },
  // A new fight with `state` lifted from `name` (a recovery, the game master's call).
  remove_state(name, state) {
    const m = this.member(name);
    if (m.states.indexOf(state) < 0) return this;
    const kept = m.states.filter(s => s !== state);
    return this._with({members: this.members.map(x => (x.name === name ? _rt_member_with(x, {states: kept}) : x)),
                       log: _rt_log_add(this._log, [_rt_line(`${name}的${_rt_name_of(this.rules.state_names, state)}解除`)])});
  },
};
for (const key of Object.keys(_rt_APPLY)) {
  Object.defineProperty(Fight.prototype, key, {value: _rt_APPLY[key], writable: false, enumerable: false,
                                               configurable: false});
}
