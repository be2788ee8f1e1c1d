// ---- showing a fight (fight_shown.py) ----
// A combatant's state in one line of the rules' language, what its state does to its stats, and
// the plain data toDict writes (from_dict reads it back). Fight's methods, as the Python runtime's
// Shown mixin.
const _rt_SHOWN = {
  // One line of `name`'s state in the rules' language.
  status(name) {
    const rules = this.rules, m = this.member(name);
    const parts = m.counters.map(kv => `${rules.counters.get(kv[0])}${kv[1]}`);
    for (const kv of m.points) if (kv[1]) parts.push(`${_rt_name_of(rules.tracks, kv[0])}${kv[1]}`);
    const names = new Map(Array.from(rules.actions.entries()).map(kv => [kv[0], kv[1].name]));
    for (const s of m.states) {
      const forbids = rules.conditions.has(s) ? _rt_forbids_text(rules.conditions.get(s), names) : '';
      parts.push(_rt_name_of(rules.state_names, s) + (forbids ? `（${forbids}）` : ''));
    }
    for (const x of m.modifiers) parts.push(`${rules.stats.get(x.stat)[0]}${_rt_signed_int(x.delta)}`);
    for (const c of m.conditions) {
      const spec = rules.conditions.get(c.id);
      const more = spec.adds.length || spec.options.some(ov => ov[1] === 'value') ? [String(c.value)] : [];
      if (c.source) more.push(`来自${c.source}`);
      if (c.expires >= 0) more.push(`还剩${Math.max(0, c.expires - this.turn)}个回合`);
      const forbids = _rt_forbids_text(spec, names);
      if (forbids) more.push(forbids);
      parts.push(spec.name + (more.length ? `（${more.join('，')}）` : ''));
    }
    if (rules.resources.size || m.lowered.length) for (const s of _rt_resources_shown(rules, m)) parts.push(s);
    for (const r of this.relations) if (r[1] === name) parts.push(`${rules.relations.get(r[0])}${r[2]}`);
    for (const r of this.relations) if (r[2] === name) parts.push(`被${r[1]}${rules.relations.get(r[0])}`);
    if (rules.turn !== null && (m.spent.length || m.owed.length || m.ready)) {
      parts.push(`本回合剩余${this.left(name)}`);
      if (m.owed.length) parts.push(`下一回合被占用${_rt_shown_cost(rules.turn, m.owed)}`);
      if (m.ready) parts.push(`准备了${_rt_kind_name(this.rules.turn, m.ready)}`);
    }
    return `${name}：` + (parts.length ? parts.join('，') : '无变化');
  },
  // What `name`'s state does to its stats now (or in an action: the conditions `applying`).
  applied_to(name, applying) {
    const rules = this.rules, m = this.member(name), out = [];
    for (const x of m.modifiers) {
      if (rules.stats.has(x.stat)) out.push(`${name}的${rules.stats.get(x.stat)[0]}${_rt_signed_int(x.delta)}（${x.source}）`);
    }
    for (const state of m.states) {
      const spared = rules.state_spared.get(state);
      if (spared && m.base[spared] === true) continue;
      const taken = (rules.state_stats.get(state) || []).filter(s => rules.stats.has(s)).map(s => rules.stats.get(s)[0]);
      if (taken.length) out.push(`${name}处于${_rt_name_of(rules.state_names, state)}：${taken.join('、')}视为最低`);
    }
    for (const sa of this._debuffs(m)) out.push(`${name}的减益：${rules.stats.get(sa[0])[0]}-${sa[1]}`);
    if (applying === undefined || applying === null) {  // in an action, only the checks it rolls are said
      for (const x of _rt_lowered_checks(rules, this._debuff_amounts(m), name)) out.push(x);
    }
    for (const cs of applying === undefined || applying === null ? this._applying(m) : applying) {
      const c = cs[0], spec = cs[1];
      const changes = spec.sets.map(sf => (sf[1] ? _rt_name_of(rules.flag_names, sf[0])
                                                  : `非${_rt_name_of(rules.flag_names, sf[0])}`));
      for (const sp of spec.adds) {
        if (sp[1] * c.value) changes.push(`${rules.stats.get(sp[0])[0]}${_rt_signed_int(sp[1] * c.value)}`);
      }
      for (const x of spec.as_states) changes.push(`视为${_rt_name_of(rules.state_names, x)}`);
      if (changes.length) {
        const by = c.source ? `，来自${c.source}` : '';
        out.push(_rt_line(`${name}处于${spec.name}（${changes.join('、')}${by}）`));
      }
    }
    return out;
  },
  toDict() {
    const pairs = ps => { const out = {}; for (const kv of ps) out[kv[0]] = kv[1]; return out; };
    return {
      turn: this.turn, turns: this.rules.turn !== null,
      members: this.members.map(m => {
        const out = {
          name: m.name, stats: m.base.toDict(), counters: pairs(m.counters), points: pairs(m.points),
          states: _rt_copy(m.states), modifiers: m.modifiers.map(x => x.toJSON()),
          conditions: m.conditions.map(c => c.toJSON()), spent: pairs(m.spent), owed: pairs(m.owed), ready: m.ready};
        if (m.resources.length) out.resources = pairs(m.resources);  // only what changed (fight_resources.js)
        if (m.lowered.length) out.lowered = pairs(m.lowered);
        return out;
      }),
      relations: this.relations.map(r => _rt_copy(r)), log: _rt_copy(this.log),
    };
  },
  toJSON() { return this.toDict(); },
};
for (const key of Object.keys(_rt_SHOWN)) {
  Object.defineProperty(Fight.prototype, key, {value: _rt_SHOWN[key], writable: false, enumerable: false,
                                               configurable: false});
}
