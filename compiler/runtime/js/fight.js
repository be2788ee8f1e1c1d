// ---- a fight: combatants whose state carries from one action to the next (fight.py, fight_carried.py) ----
// An immutable value: resolve(procedure, roles, options) -> Action; apply(action) and next_turn()
// return a new Fight; the same log lines, statuses, errors and bounds as the Python runtime.
// Here: building, reading, resolving and storing; the files after this one add Fight's other
// methods to its prototype (applying and the next turn: fight_apply.js; status and toDict:
// fight_shown.js; the turn budget, conditions, ...: fight_budget.js, fight_carried.js, ...).

const _RT_NONE = Object.freeze([]);  // an empty list, shared
// A resolved action: which procedure, who played which role, its result, and the state that
// changed the stats it was resolved with (one sentence each).
class FightAction {
  constructor(procedure, roles, result, applied, used, plan) {
    this.procedure = procedure;
    this.plan = plan || null;  // what it costs its actor's turn (null: no turn budget)
    this.roles = Object.freeze(roles.map(r => Object.freeze(r.slice())));
    this.result = result;
    this.applied = Object.freeze(applied || []);
    this.used = used && used.length ? Object.freeze(used.map(u => Object.freeze(u.slice()))) : _RT_NONE;
    Object.freeze(this);
  }
  text(gm) { return this.applied.concat([this.result.text(gm)]).join('\n'); }
  toDict() {
    const roles = {};
    for (const r of this.roles) roles[r[0]] = r[1];
    return {procedure: this.procedure, roles: roles, result: this.result.toDict(), applied: this.applied.slice(),
            used: this.used.map(u => u.slice())};  // (as given: an action built by hand too)
  }
  toJSON() { return this.toDict(); }
}
// The actions this module's fights resolved (resolve(), and a plan's steps): Fight.apply takes no
// other, so an object made to look like one (Object.create(FightAction.prototype), or a
// FightAction built by hand with a junk result) is refused, not half applied.
const _rt_RESOLVED = new WeakSet();
function _rt_resolved_action(procedure, roles, result, applied, used, plan) {
  const action = new FightAction(procedure, roles, result, applied, used, plan);
  _rt_RESOLVED.add(action);
  return action;
}

// The members an action is changing, by name, in the fight's order (apply): a fight has at most
// MAX_MEMBERS, and scanning their names costs less than building a Map at every action.
class _rt_Roster {
  constructor(members) { this.list = _rt_copy(members); }
  index(name) {
    const list = this.list;
    for (let i = 0; i < list.length; i++) if (list[i].name === name) return i;
    return -1;
  }
  get(name) { const i = this.index(name); return i < 0 ? undefined : this.list[i]; }
  set(name, m) { this.list[this.index(name)] = m; }
  names() { return this.list.map(m => m.name); }
}
// The name playing `role` among an action's [role, name] pairs (undefined: none).
function _rt_role_name(roles, role) {
  for (let i = 0; i < roles.length; i++) if (roles[i][0] === role) return roles[i][1];
  return undefined;
}
// Whether any of `members` holds a condition.
function _rt_any_conditions(members) {
  for (let i = 0; i < members.length; i++) if (members[i].conditions.length) return true;
  return false;
}
// A frozen array of `items` (frozen already: as it is; else a frozen copy).
function _rt_frozen(items) { return Object.isFrozen(items) ? items : Object.freeze(items.slice()); }
// Member -> [rules, its effective stats, without debuffs, relations] (Fight._effective).
const _rt_EFFECTIVE = new WeakMap();
// Base stats -> the effective stats made from them: [rules, modifiers, conditions, relations, what
// else they read (name, states, debuffs, resources), stats], the last _RT_STATS_KEPT (a member an
// action makes shares its base, modifiers and conditions with the one before it: Python's
// fight_stats remembers the same by identity).
const _rt_STATS = new WeakMap();
const _RT_STATS_KEPT = 16;
// A Combatant of class `cls` from `values` already within their ranges, without running its checks
// (fight_state.trusted): _effective keeps every value it derives in range (it clamps each), so the
// checked constructor could only accept them; its keys in the stats' order, as the constructor's.
function _rt_trusted(cls, values) {
  const made = Object.create(cls.prototype);
  for (const k in values) made[k] = values[k];
  return Object.freeze(made);
}
// A fight's log: lines [start, end) of a buffer that later fights share. The first fight to add
// lines at a buffer's end appends them in place; any other copies its own lines first. Adding a
// line costs the line, not the log (Python's tuple copy is a C loop; here it made a fight of n
// actions cost n x MAX_LOG). `fight.log` is the frozen array, made when it is read, once.
// `written` counts every line written to it, those dropped past MAX_LOG too (Log.written of the
// Python runtime): what a later log holds that an earlier one did not is told by it (`since`).
class _rt_Log {
  constructor(buf, start, end, written) {
    this.buf = buf; this.start = start; this.end = end; this.written = written; this.shown = null;
  }
  static of(lines) {
    if (lines instanceof _rt_Log) return lines;
    lines = lines || [];
    const buf = lines.length > MAX_LOG ? lines.slice(lines.length - MAX_LOG) : lines.slice();
    return new _rt_Log(buf, 0, buf.length, lines.length);
  }
  lines() {
    if (this.shown === null) this.shown = Object.freeze(this.buf.slice(this.start, this.end));
    return this.shown;
  }
  // The lines written after `earlier` (a log this one was extended from), as many as it still holds.
  since(earlier) {
    const n = Math.min(this.written - earlier.written, this.end - this.start);
    return n > 0 ? Object.freeze(this.buf.slice(this.end - n, this.end)) : _RT_NONE;
  }
}
// `log` with `lines` added (at most MAX_LOG kept).
function _rt_log_add(log, lines) {
  if (!lines.length) return log;
  let buf = log.buf, start = log.start;
  if (buf.length !== log.end) { buf = buf.slice(start, log.end); start = 0; }
  for (let i = 0; i < lines.length; i++) buf.push(lines[i]);
  let end = buf.length;
  if (end - start > MAX_LOG) start = end - MAX_LOG;
  if (start > MAX_LOG) { buf = buf.slice(start); end -= start; start = 0; }  // the dropped lines, once in a while
  return new _rt_Log(buf, start, end, log.written + lines.length);
}
// A fight's rules and log are kept under symbols: no key of toDict, JSON or Object.keys (cheaper
// to set than a non-enumerable property, at every step of every action), read through getters.
const _rt_RULES = Symbol('rules'), _rt_LOG = Symbol('log');
class Fight {
  constructor(rules, members, turn, relations, log) {
    this[_rt_RULES] = rules;
    this.members = _rt_frozen(members);
    this.turn = turn || 0;
    relations = relations || [];
    this.relations = Object.isFrozen(relations) ? relations
      : Object.freeze(relations.map(r => (Object.isFrozen(r) ? r : Object.freeze(r.slice()))));
    this[_rt_LOG] = _rt_Log.of(log);
    Object.freeze(this);
  }
  get rules() { return this[_rt_RULES]; }
  get _log() { return this[_rt_LOG]; }
  get log() { return this._log.lines(); }
  // The lines said of the fight since `earlier`, the fight this one was made from (by act, apply,
  // next_turn, ...): what a bot shows after a command. Not log.slice(earlier.log.length), which is
  // empty once the log holds its MAX_LOG lines and drops one for each it adds (fight.py log_since).
  log_since(earlier) {
    if (!(earlier instanceof Fight)) throw new OutOfBounds('log_since 需要本场战斗之前的一个 Fight', {key: 'earlier'});
    return this._log.since(earlier._log);
  }

  // ---- building ----
  // A fight between `combatants` (name -> Combatant, a Map or an object), who act in the order given.
  static start(rules, combatants, turns) {
    _rt_known_rules(rules);
    if (turns === undefined) turns = false;
    if (turns !== true && turns !== false) throw new OutOfBounds('turns 应为是或否', {key: 'turns'});
    if (!turns) rules = _rt_without_turn(rules);
    const pairs = combatants instanceof Map ? Array.from(combatants.entries())
      : _rt_is_mapping(combatants) ? Object.keys(combatants).map(k => [k, combatants[k]]) : null;
    if (pairs === null || pairs.length < 1 || pairs.length > MAX_MEMBERS) {
      throw new OutOfBounds(`一场战斗要有1至${MAX_MEMBERS}名角色`, {key: 'combatants'});
    }
    const members = [];
    for (const kv of pairs) {
      _rt_check_name(kv[0]);
      if (kv[1] === null || typeof kv[1] !== 'object' || Object.getPrototypeOf(kv[1]) !== rules.combatant.prototype) {
        throw new OutOfBounds(`${_rt_repr(kv[0])}不是 Combatant`, {key: kv[0]});
      }
      members.push(new _rt_Member(kv[0], kv[1], [], [], [], []));
    }
    return new Fight(rules, members);
  }
  _with(c) {
    const v = k => (_rt_has(c, k) ? c[k] : this[k]);
    return new Fight(this.rules, v('members'), v('turn'), v('relations'), _rt_has(c, 'log') ? c.log : this._log);
  }

  // ---- reading ----
  get round() { return Math.floor(this.turn / this.members.length) + 1; }
  get actor() { return this.members[this.turn % this.members.length].name; }  // whose turn it is
  member(name) {
    for (const m of this.members) if (m.name === name) return m;
    throw new OutOfBounds(`战斗中没有${_rt_repr(name)}`, {key: name});
  }
  // `name`'s stats as the rules see them now: modifiers, states, conditions and debuffs applied.
  effective(name) { return this._effective(this.member(name)); }
  _effective(m, debuffs, applying) {
    const rules = this.rules, at = debuffs === false ? 2 : 1;
    if (applying !== undefined && applying !== null) {  // only a condition that changes a stat changes them
      const changing = applying.filter(cs => cs[1].sets.length || cs[1].adds.length || cs[1].as_states.length);
      if (changing.length) return this._effective_made(m, changing, debuffs === false ? [] : this._debuffs(m));
      // (昏迷 forbids actions, it sets none): the stats with no condition applying, remembered below (a
      // condition of no scope applies to every action, so none of those changes a stat either)
    }
    // what applies depends only on the member (immutable), the relations and the rules: remembered
    let kept = _rt_EFFECTIVE.get(m);
    if (kept === undefined || kept[0] !== rules || kept[3] !== this.relations) {
      kept = [rules, undefined, undefined, this.relations];
      _rt_EFFECTIVE.set(m, kept);
    }
    if (kept[at] !== undefined) return kept[at];
    const lowered = debuffs === false ? [] : this._debuffs(m);
    // a new member (an action made it) whose stats read the same as an earlier one's: the same stats
    const key = JSON.stringify([at, m.name, m.states, lowered, m.resources]);
    let seen = _rt_STATS.get(m.base);
    if (seen === undefined) _rt_STATS.set(m.base, seen = []);
    for (const e of seen) {
      if (e[0] === rules && e[1] === m.modifiers && e[2] === m.conditions && e[3] === this.relations && e[4] === key) {
        return (kept[at] = e[5]);
      }
    }
    applying = m.conditions.length || this.relations.length || m.states.length ? this._applying(m) : [];
    const made = this._effective_made(m, applying, lowered);
    if (seen.length >= _RT_STATS_KEPT) seen.shift();
    seen.push([rules, m.modifiers, m.conditions, this.relations, key, made]);
    return (kept[at] = made);
  }
  _effective_made(m, applying, lowered) {
    const rules = this.rules;
    if (!m.modifiers.length && !m.states.length && !lowered.length && !applying.length && !m.resources.length) return m.base;
    const values = m.base.toDict();
    for (const sa of lowered) values[sa[0]] = Math.max(rules.stats.get(sa[0])[1], values[sa[0]] - sa[1]);
    for (const mod of m.modifiers) {
      const nlh = rules.stats.get(mod.stat);
      if (nlh !== undefined) values[mod.stat] = Math.max(nlh[1], Math.min(nlh[2], values[mod.stat] + mod.delta));
    }
    if (m.resources.length) _rt_resource_reflect(rules, m, values);  // what is left, as the stat procedures read
    for (const state of m.states) {
      const spared = rules.state_spared.get(state);
      if (spared !== undefined && values[spared] === true) continue;  // another working sense keeps the defenses
      for (const stat of rules.state_stats.get(state) || []) {
        if (rules.stats.has(stat)) values[stat] = rules.stats.get(stat)[1];
      }
    }
    for (const cs of applying) {
      for (const state of cs[1].as_states) {  // counted as in a state: the stats it takes away at their minimum
        for (const stat of rules.state_stats.get(state) || []) {
          if (rules.stats.has(stat)) values[stat] = rules.stats.get(stat)[1];
        }
      }
      for (const sf of cs[1].sets) values[sf[0]] = sf[1];
      for (const sp of cs[1].adds) {
        const nlh = rules.stats.get(sp[0]);
        values[sp[0]] = Math.max(nlh[1], Math.min(nlh[2], values[sp[0]] + sp[1] * cs[0].value));
      }
    }
    return _rt_trusted(rules.combatant, values);
  }
  // [stat, amount] for each stat a track's debuff lowers (by the ruleset's accumulation rule).
  _debuffs(m) {
    const out = [];
    for (const ta of this._debuff_amounts(m)) {
      for (const stat of this.rules.track_debuffs.get(ta[0]) || []) if (this.rules.stats.has(stat)) out.push([stat, ta[1]]);
    }
    return out;
  }
  // [track, amount] for each track whose debuff `m` suffers: points past the capacity.
  _debuff_amounts(m) {
    const rules = this.rules;
    if (!(rules.track_debuffs.size || rules.track_debuff_checks.size) || rules.accumulate === null || !m.points.length) {
      return [];
    }
    const out = [];
    let plain = null;
    for (const tp of m.points) {
      if (tp[1] <= 0 || (!rules.track_debuffs.has(tp[0]) && !rules.track_debuff_checks.has(tp[0]))) continue;
      if (plain === null) plain = this._effective(m, false);
      const amount = Math.trunc(Number(_rt_rule_call(rules.accumulate, plain, tp[0],
                                                      _rt_capacity_kw(rules, m, tp[0], {current: tp[1], gained: 0}))[rules.debuff_index]));
      if (amount > 0) out.push([tp[0], amount]);
    }
    return out;
  }
  // `name`'s conditions now: its own, those its relations give it, its states'.
  active_conditions(name) {
    for (const m of this.members) if (m.name === name) return this._active(m);
    return [];
  }
  holds(relation, holder, held) {
    return this.relations.some(r => r[0] === relation && r[1] === holder && r[2] === held);
  }
  // What `name` has left of resource `rid`.
  resource(name, rid) {
    if (typeof rid !== 'string' || !this.rules.resources.has(rid)) throw new OutOfBounds('没有这个资源', {key: 'resource'});
    return _rt_resource_amount(this.rules, this.member(name), rid);
  }

  // ---- acting ----
  // Resolve `procedure` with the named combatants in its roles ({attacker: '甲', ...}) and the
  // procedure's options (its other parameters and `dice`); the fight is unchanged.
  resolve(procedure, roles, options) {
    const prepared = this._prepare(procedure, roles, options);
    const result = _rt_checked_call(prepared[0], procedure, prepared[0].call, prepared[1]);
    if (prepared[0].action_from || prepared[0].costs.length) {  // what its result spends, refused when it does not fit
      const priced = this._priced(prepared[0], prepared[5], result);
      prepared[4] = priced[0];
      for (const s of priced[1]) prepared[2].push(s);
    }
    if (this.rules.resources.size) _rt_refuse_spends(this, prepared[0], prepared[5], result, prepared[2]);  // fight_resources.js
    return _rt_resolved_action(procedure, prepared[0].roles.map(r => [r, prepared[5][r]]), result, prepared[2],
                               prepared[3], prepared[4]);
  }
  // What an action whose result decides what it spends (the kind of action: action_from; amounts of
  // the turn's pools: costs) costs its actor, and the sentence when it does not fit but the ruling
  // lets it through: [plan, sentences]; Refused when refused.
  _priced(spec, roles, result) {
    if (this.rules.turn === null) return [null, []];
    const action = spec.action_from ? String(result[spec.action_from]) : undefined;
    const extra = spec.costs.map(kv => [kv[0], Math.max(0, Math.trunc(Number(result[kv[1]])))]);
    const plan = this._plan(this.member(roles[spec.roles[spec.subject]]), spec, action, extra);
    return [plan, plan !== null && plan.over ? [_rt_line(`${plan.over}：按裁定仍然进行`)] : []];
  }
  // What resolve calls the procedure with: [its spec, the arguments (every role's effective stats,
  // the options its conditions supply, then the caller's), the sentences of the state that applied,
  // the conditions it uses up, the roles]; Refused when the actor's conditions forbid it.
  _prepare(procedure, roles, options) {
    const rules = this.rules;
    const spec = typeof procedure === 'string' ? rules.actions.get(procedure) : undefined;
    if (spec === undefined) throw new OutOfBounds('没有可在战斗中使用的这个过程', {key: 'procedure'});
    if (roles instanceof Map) roles = _rt_object(roles);
    if (!_rt_is_mapping(roles)) throw new OutOfBounds(`“${spec.name}”的角色应为映射（角色: 名字）`, {key: 'roles'});
    const given = Object.keys(roles);
    // (keys are distinct: as many keys as roles, every role among them, is exactly the roles)
    if (given.length !== spec.roles.length || !_rt_has_all(roles, spec.roles)) {
      throw new OutOfBounds(`“${spec.name}”的角色是 ${spec.roles.join(', ')}`, {key: procedure});
    }
    options = _rt_fight_options(options);
    const keys = Object.keys(options);
    for (const key of keys) {
      if (spec.roles.indexOf(key) >= 0) throw new OutOfBounds(`“${key}”是角色，不是选项`, {key: key});
    }
    const found = new _rt_Dict();  // role -> member: every combatant named exists before anything is refused
    for (const r of given) found[r] = this.member(roles[r]);
    if (!this.relations.length && rules.turn === null) {
      // nothing changes their stats or applies to them, and no turn budget: their base stats, as
      // fight.py's `_checked` tells it (nothing can refuse the action, nothing to say)
      const kwargs = new _rt_Dict();
      let plain = true;
      for (const role of spec.roles) {
        const m = found[role];
        if (m.modifiers.length || m.states.length || m.conditions.length || m.points.length || m.resources.length) {
          plain = false;
          break;
        }
        kwargs[role] = m.base;
      }
      if (plain) {
        for (const k of keys) kwargs[k] = options[k];
        return [spec, kwargs, [], [], null, roles];
      }
    }
    const byName = new Map();
    for (let i = spec.roles.length - 1; i >= 0; i--) byName.set(roles[spec.roles[i]], spec.roles[i]);
    this._refuse(this.member(roles[spec.roles[spec.subject]]), procedure, spec, byName);
    const plan = spec.action_from || spec.costs.length ? null  // else _priced
      : this._plan(this.member(roles[spec.roles[spec.subject]]), spec);
    const kwargs = new _rt_Dict(), supplied = new _rt_Dict(), suppliedKeys = [];
    const used = [], applied = plan !== null && plan.over ? [_rt_line(`${plan.over}：按裁定仍然进行`)] : [];
    for (const role of spec.roles) {
      const m = this.member(roles[role]);
      const applying = this._applying(m, procedure, byName);
      kwargs[role] = this._effective(m, true, applying);
      for (const s of this.applied_to(m.name, applying)) applied.push(s);
      for (const cs of applying) {
        const c = cs[0], spc = cs[1];
        for (const pv of spc.options) {
          if (spec.params.has(pv[0]) && !_rt_has(options, pv[0]) && !_rt_has(supplied, pv[0])) {
            supplied[pv[0]] = pv[1] === 'value' ? c.value : pv[1];
            suppliedKeys.push(pv[0]);
            applied.push(_rt_line(`${m.name}的${spc.name}：${spec.params.get(pv[0])}为${_rt_shown_option(supplied[pv[0]])}`));
          }
        }
        if (spc.ends.some(x => x.kind === 'used') && m.conditions.some(d => _rt_same_condition(d, c))) {
          used.push([m.name, c.id, c.source]);
        }
      }
    }
    if (spec.checks.length) {  // the debuffs on the checks it rolls (TR-60..TR-70)
      const pks = _rt_check_penalties(rules, spec.checks, roles, who => this._debuff_amounts(this.member(who)), options);
      for (const s of pks[2]) applied.push(s);
      for (const k of pks[1]) kwargs[k] = pks[0][k];
    }
    for (const k of suppliedKeys) kwargs[k] = supplied[k];
    if (rules.track_inputs.size) {  // a track's points and capacity loss, from the fight (fight_resources.js)
      for (const kv of _rt_track_inputs(rules, procedure, this.member(roles[spec.roles[spec.subject]]), options)) kwargs[kv[0]] = kv[1];
    }
    for (const k of Object.keys(options)) kwargs[k] = options[k];
    return [spec, kwargs, applied, used, plan, roles];
  }
  // Resolve and apply in one call: [action, fight].
  act(procedure, roles, options) {
    const action = this.resolve(procedure, roles, options);
    return [action, this.apply(action)];
  }

  // ---- what applying changes in a member (fight_stats.py) ----
  // `m` with modifier `next`: added to one of the same stat, expiry and source, else appended
  // (past MAX_MODIFIERS distinct ones it does not take effect, and the log says so).
  static _modify(m, next, log) {
    for (let i = 0; i < m.modifiers.length; i++) {
      const x = m.modifiers[i];
      if (x.stat === next.stat && x.expires === next.expires && x.source === next.source) {
        const merged = new _rt_Modifier(x.stat, _rt_clamp(x.delta + next.delta, -MAX_VALUE, MAX_VALUE), x.expires, x.source);
        const modifiers = _rt_copy(m.modifiers);
        modifiers[i] = merged;
        return _rt_member_with(m, {modifiers: modifiers});
      }
    }
    if (m.modifiers.length >= MAX_MODIFIERS) {
      log.push(_rt_line(`${m.name}身上的临时修正已达上限${MAX_MODIFIERS}个，这一项未生效`));
      return m;
    }
    return _rt_member_with(m, {modifiers: _rt_append(m.modifiers, next)});
  }
  // The ruleset's recovery rule for a combatant whose counter grew.
  _recover(m, taken, log) {
    const rules = this.rules, od = rules.on_damage;
    for (const tp of m.points) {
      const track = tp[0], points = tp[1];
      const state = rules.track_states.get(track);
      if (points <= 0 || state === undefined || m.states.indexOf(state) < 0) continue;
      const out = _rt_rule_call([od[1], od[2]], this._effective(m, false), track,
                                _rt_capacity_kw(rules, m, track, {current: points, taken: taken}));
      const left = Math.trunc(Number(out[od[3]])), awake = !!out[od[4]];
      if (left !== points) {
        m = _rt_member_with(m, {points: _rt_put(m.points, track, left)});
        log.push(_rt_line(`${m.name}的${_rt_name_of(rules.tracks, track)}${_rt_signed_int(left - points)}（${od[5]}，共${left}）`));
      }
      if (awake) {
        m = _rt_member_with(m, {states: m.states.filter(s => s !== state)});
        log.push(_rt_line(`${m.name}的${_rt_name_of(rules.state_names, state)}解除`));
      }
    }
    return m;
  }

  // ---- storing ----
  // The fight toDict wrote (a bot keeps one between chat messages): every value is checked.
  static from_dict(rules, data) {
    _rt_known_rules(rules);
    let read;
    try {
      if (!(_rt_is_mapping(data) && _rt_get_or(data, 'turns', false) === true)) rules = _rt_without_turn(rules);
      read = _rt_read_fight(rules, data);
    } catch (err) {
      if (err instanceof RuleError) throw err;
      throw new OutOfBounds('无法读取战斗记录', {key: 'fight'});
    }
    return new Fight(rules, read[0], read[1], read[2], read[3]);
  }

  // Exactly: how many more times `procedure` must hit the combatant in role `target` until its
  // points on `track` put it into the track's state (fight_until.py; options: the procedure's
  // options and max_attacks).
  until_state(procedure, roles, target, track, options) { return _rt_until_state(this, procedure, roles, target, track, options); }

  // Exactly: how many actions of `plan` (an opening, then its cycle again and again) until `target`
  // is reached, following the whole fight state (fight_plan.py; options: max_actions, negligible).
  until_plan(plan, target, options) { return _rt_until_plan(this, plan, target, options); }
  // The exact mean number of actions of `plan` until `target`; null when it may never be reached, or
  // not within max_actions (fight_plan.py; options: max_actions, 1000 unless given).
  expected_until(plan, target, options) { return _rt_expected_until(this, plan, target, options); }
  // Whether the fight has reached `target` (as until_plan takes it).
  reached(target) { return _rt_reached(this, _rt_read_targets(this.rules, this.members.map(m => m.name), target)); }
}

function _rt_has_condition(m, cid, source) { return m.conditions.some(c => c.id === cid && c.source === source); }
function _rt_role(byName, name) { return byName.has(name) ? byName.get(name) : null; }
function _rt_name_of(names, key) { return names.has(key) ? names.get(key) : key; }
function _rt_object(map) {
  const out = new _rt_Dict();
  for (const kv of map.entries()) out[kv[0]] = kv[1];
  return out;
}
// The options of a fight's call (the Python keyword arguments): a plain object, copied without a prototype.
function _rt_fight_options(options) {
  if (options === undefined || options === null) return new _rt_Dict();
  if (!_rt_is_mapping(options)) throw new OutOfBounds(`选项必须是一个对象（名称: 值），得到${_rt_type_name(options)}`);
  const out = new _rt_Dict();
  for (const k of Object.keys(options)) out[k] = options[k];
  return out;
}
