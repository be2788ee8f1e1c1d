// ---- conditions and relations (fight_carried.py) ----
// What a combatant carries from one action into later ones: which conditions it has now (its own,
// its relations', its states'), which apply to an action, what they forbid, and how they are set,
// used up and ended. Fight's methods, as the Python runtime's Carried mixin.
const _rt_CARRIED = {
  // `m`'s conditions: its own, those its relations give it, and its states declared as conditions.
  _active(m) {
    const rules = this.rules, out = _rt_copy(m.conditions);
    for (const r of this.relations) {
      const spec = rules.relation_specs.get(r[0]);
      if (spec === undefined) continue;
      if (spec.held && r[2] === m.name && !_rt_has_condition(m, spec.held, r[1])) out.push(new _rt_Condition(spec.held, 1, r[1], -1));
      if (spec.holder && r[1] === m.name && !_rt_has_condition(m, spec.holder, r[2])) {
        out.push(new _rt_Condition(spec.holder, 1, r[2], -1));
      }
    }
    for (const s of m.states) if (rules.conditions.has(s)) out.push(new _rt_Condition(s, 1, '', -1));
    const counted = out.slice();  // counted as in a state: its forbids
    for (const c of counted) {
      for (const s of rules.conditions.get(c.id).as_states) {
        if (rules.conditions.has(s) && m.states.indexOf(s) < 0) out.push(new _rt_Condition(s, 1, c.source, -1));
      }
    }
    return out;
  },
  // The [condition, spec] pairs of `m` that apply: in an action, those whose scope it falls in;
  // outside one, those with no scope.
  _applying(m, procedure, byName) {
    const out = [];
    for (const c of this._active(m)) {
      const spec = this.rules.conditions.get(c.id);
      if (procedure === undefined || procedure === null || byName === undefined || byName === null) {
        if (!_rt_scope_any(spec.applies)) out.push([c, spec]);
      } else if (_rt_matches(spec.applies, procedure, _rt_role(byName, m.name), c.source ? _rt_role(byName, c.source) : null)) {
        out.push([c, spec]);
      }
    }
    return out;
  },
  // Refuse an action the actor's conditions forbid (Refused, saying which and what).
  _refuse(m, procedure, spec, byName) {
    for (const c of this._active(m)) {
      const cs = this.rules.conditions.get(c.id);
      if (_rt_scope_any(cs.applies) && !_rt_matches(cs.applies, procedure, _rt_role(byName, m.name),
                                                    c.source ? _rt_role(byName, c.source) : null)) continue;
      const what = _rt_forbidding(cs, procedure, spec.action, spec.nature);
      if (what) throw new Refused(`${m.name}处于${cs.name}状态，不能进行${what}（${spec.name}）`, {key: procedure});
    }
  },
  // `m` with condition `cid` (from `source`) set, or its value replaced or added to.
  _set_condition(m, cid, value, source, holder, src, log) {
    const spec = this.rules.conditions.get(cid), n = this.members.length;
    const turns = spec.ends.filter(x => _rt_TURN_BOUND.indexOf(x.kind) >= 0).map(x => _rt_expiry(x, this.turn, n, holder, src));
    const expires = turns.length ? Math.min(Math.min.apply(null, turns), MAX_VALUE) : -1;
    let old = null;
    for (const c of m.conditions) if (c.id === cid && c.source === source) { old = c; break; }
    if (old !== null && spec.stack === 'add') value = old.value + value;
    value = _rt_clamp(value, 0, spec.max_value);
    const kept = m.conditions.filter(c => c !== old);
    if (old === null && kept.length >= MAX_CONDITIONS) {
      log.push(_rt_line(`${m.name}身上的条件已达上限${MAX_CONDITIONS}个，${spec.name}未生效`));
      return m;
    }
    const shown = spec.adds.length || spec.options.some(ov => ov[1] === 'value') ? `（${value}）` : '';
    const by = source ? `，来自${source}` : '';
    log.push(_rt_line(`${m.name}进入${spec.name}${shown}${by}`));
    return _rt_member_with(m, {conditions: _rt_append(kept, new _rt_Condition(cid, value, source, expires))});
  },
  // End the conditions the action used up, and those whose holder's part in it ends them.
  _end_used(action, spec, members, log) {
    const byName = new Map();
    for (let i = action.roles.length - 1; i >= 0; i--) byName.set(action.roles[i][1], action.roles[i][0]);
    const seen = [];
    for (const rn of action.roles) if (seen.indexOf(rn[1]) < 0) seen.push(rn[1]);
    for (const name of seen) {
      const m = members.get(name), kept = [];
      for (const c of m.conditions) {
        const cs = this.rules.conditions.get(c.id);
        let ends = action.used.some(u => u[0] === name && u[1] === c.id && u[2] === c.source);
        for (const x of cs.ends) {
          if (x.kind === 'acts' && _rt_matches(x.scope, action.procedure, _rt_role(byName, name),
                                               c.source ? _rt_role(byName, c.source) : null)) {
            ends = ends || !x.scope.when || !!action.result[x.scope.when];
          }
        }
        if (ends) log.push(_rt_line(`${name}的${cs.name}结束（${spec.name}）`));
        else kept.push(c);
      }
      if (kept.length !== m.conditions.length) members.set(name, _rt_member_with(m, {conditions: kept}));
    }
  },
  // This fight after the conditions and relations that a true/false stat ends have ended, with `log` added.
  _settle(log, before) {
    const rules = this.rules;
    const bySettle = x => x.kind === 'stat' || x.kind === 'state';  // the endings settling looks at
    if (!this.relations.length && !before.length &&  // nothing a stat can end: the same fight, its log added
        !this.members.some(m => m.conditions.some(c => rules.conditions.get(c.id).ends.some(bySettle)))) {
      return this._with({log: _rt_log_add(this._log, log)});
    }
    const members = _rt_copy(this.members);
    let relations = this.relations;
    let current = null;  // the fight as the members and relations now stand (made again after a change)
    const now = () => (current === null ? (current = this._with({members: members.slice(), relations: relations})) : current);
    for (let depth = 0; depth < 3; depth++) {  // an ending can end another: a fixed, small depth
      let changed = false;
      for (let i = 0; i < members.length; i++) {
        const m = members[i];
        // only a condition that a stat ends needs the stats (the same answer, without making them)
        const ended = m.conditions.some(c => rules.conditions.get(c.id).ends.some(bySettle));
        const stats = ended ? now()._effective(m) : null, states = ended ? _rt_states_of(now(), m) : null;
        const why = !ended ? [] : m.conditions.map(c => _rt_settled(rules, rules.conditions.get(c.id), stats, states));
        const kept = !ended ? m.conditions : m.conditions.filter((c, j) => why[j] === null);
        m.conditions.forEach((c, j) => {  // a state says which ('乙的专注中结束（震慑）')
          if (!ended || why[j] === null) return;
          log.push(_rt_line(`${m.name}的${rules.conditions.get(c.id).name}结束${why[j] ? `（${why[j]}）` : ''}`));
        });
        if (kept.length !== m.conditions.length) {
          members[i] = _rt_member_with(m, {conditions: kept});
          changed = true;
          current = null;
        }
      }
      const byName = new Map(members.map(m => [m.name, m]));
      const live = [];
      for (const rel of relations) {
        const spec = rules.relation_specs.get(rel[0]);
        let why = '';
        if (spec !== undefined) {
          const h = now();
          const hs = h._effective(byName.get(rel[1])), ds = h._effective(byName.get(rel[2]));
          const a = spec.ends_holder.filter(x => hs[x] === true), b = spec.ends_held.filter(x => ds[x] === true);
          why = a.length ? _rt_name_of(rules.flag_names, a[0]) : '';
          if (!why && b.length) why = _rt_name_of(rules.flag_names, b[0]);
          const c = spec.ends_if_held_by.filter(x => relations.some(o => o[0] === x && o[1] === rel[2] && o[2] === rel[1]));
          if (!why && c.length) why = `被${rel[2]}${rules.relations.get(c[0])}`;
        }
        if (why) {
          log.push(_rt_line(`${rel[1]}对${rel[2]}的${rules.relations.get(rel[0])}结束（${why}）`));
          changed = true;
        } else {
          live.push(rel);
        }
      }
      if (live.length !== relations.length) current = null;
      relations = live;
      if (!changed) break;
    }
    const seen = new Set();
    for (const rel of before.concat(this.relations)) {
      const k = rel.join('\u0000');
      if (seen.has(k)) continue;
      seen.add(k);
      const spec = rules.relation_specs.get(rel[0]);
      if (spec === undefined || relations.some(r => r.join('\u0000') === k)) continue;
      for (let i = 0; i < members.length; i++) {  // what the relation gave ends with it
        const m = members[i];
        const other = m.name === rel[2] ? rel[1] : m.name === rel[1] ? rel[2] : '';
        const ids = m.name === rel[2] ? spec.clears.concat([spec.held]) : m.name === rel[1] ? [spec.holder] : [];
        const kept = m.conditions.filter(c => !(c.source === other && ids.indexOf(c.id) >= 0));
        for (const c of m.conditions) if (kept.indexOf(c) < 0) log.push(_rt_line(`${m.name}的${rules.conditions.get(c.id).name}结束`));
        members[i] = _rt_member_with(m, {conditions: kept});
      }
    }
    return this._with({members: members, relations: relations, log: _rt_log_add(this._log, log)});
  }
};
for (const key of Object.keys(_rt_CARRIED)) {
  Object.defineProperty(Fight.prototype, key, {value: _rt_CARRIED[key], writable: false, enumerable: false,
                                               configurable: false});
}
Object.freeze(Fight.prototype);
