// ---- resources and lowered capacities (fight_resources.py) ----
// A resource spec is {name, start, top, stat, on_empty, knocks, lifts, rules}: start and top a whole
// number or a stat's id. A member keeps only the amounts that changed (resources) and how far each
// track's capacity is lowered (lowered), as [key, value] pairs sorted by key.
function _rt_resource_top(spec, base) {
  return Math.max(0, typeof spec.top === 'number' ? spec.top : Math.trunc(Number(base[spec.top])));
}
// What `m` has left of resource `rid`: what it changed to, else its starting amount.
function _rt_resource_amount(rules, m, rid) {
  for (const kv of m.resources) if (kv[0] === rid) return kv[1];
  const spec = rules.resources.get(rid);
  const start = typeof spec.start === 'number' ? spec.start : Math.trunc(Number(m.base[spec.start]));
  return _rt_clamp(start, 0, _rt_resource_top(spec, m.base));
}
// The stats the procedures read as what is left, set to it (within each stat's range).
function _rt_resource_reflect(rules, m, values) {
  for (const kv of m.resources) {
    const spec = rules.resources.get(kv[0]);
    if (spec !== undefined && spec.stat) {
      const nlh = rules.stats.get(spec.stat);
      values[spec.stat] = _rt_clamp(_rt_resource_amount(rules, m, kv[0]), nlh[1], nlh[2]);
    }
  }
}
// The accumulation and recovery procedures' options, with the capacity parameter for `track` when lowered.
function _rt_capacity_kw(rules, m, track, options) {
  const loss = m.lowered.length ? _rt_get(m.lowered, track) : 0;
  if (loss && rules.capacity_param) options[rules.capacity_param] = loss;
  return options;
}
function _rt_resource_spent(e, result) {
  return Math.max(0, e.field ? Math.trunc(Number(result[e.field])) : parseInt(e.duration || '0', 10));
}
function _rt_resource_refusal(rules, m, rid, wanted, what) {
  const spec = rules.resources.get(rid);
  return new Refused(`${m.name}的${spec.name}只剩${_rt_resource_amount(rules, m, rid)}，不能再消耗${wanted}（${what}）`,
                     {key: 'resource'});
}
// What the action spends of each resource, one sentence each (pushed to `applied`); Refused when it
// spends more than its holder has left.
function _rt_refuse_spends(fight, spec, roles, result, applied) {
  const wanted = new Map();
  for (const e of spec.effects) {
    if (e.kind === 'resource' && e.sign < 0 && (!e.when || result[e.when])) {
      const key = roles[e.role] + '\u0000' + e.key;
      wanted.set(key, (wanted.has(key) ? wanted.get(key) : 0) + _rt_resource_spent(e, result));
    }
  }
  for (const kv of wanted) {
    const parts = kv[0].split('\u0000'), m = fight.member(parts[0]);
    const left = _rt_resource_amount(fight.rules, m, parts[1]);
    if (kv[1] > left) throw _rt_resource_refusal(fight.rules, m, parts[1], kv[1], spec.name);
    if (kv[1]) applied.push(_rt_line(`${parts[0]}消耗${fight.rules.resources.get(parts[1]).name}${kv[1]}（剩余${left - kv[1]}）`));
  }
}
// The options the fight gives a procedure that reads a track's points and capacity loss.
function _rt_track_inputs(rules, procedure, m, options) {
  const inputs = rules.track_inputs.get(procedure), out = [];
  if (inputs === undefined) return out;
  let track = _rt_has(options, inputs[0]) ? options[inputs[0]] : inputs[3];
  if (track !== null && typeof track === 'object') track = track.id;
  if (typeof track !== 'string' || !rules.tracks.has(track)) return out;
  if (inputs[1] && !_rt_has(options, inputs[1])) out.push([inputs[1], _rt_get(m.points, track)]);
  if (inputs[2] && !_rt_has(options, inputs[2])) out.push([inputs[2], _rt_get(m.lowered, track)]);
  return out;
}
// `m` after a resource or capacity effect of an action named `what` (a sentence each).
function _rt_resource_effect(fight, m, e, result, what, log) {
  const rules = fight.rules;
  if (e.kind === 'capacity') {
    const track = String(result[e.key] || ''), n = _rt_resource_spent(e, result);
    if (!n || !rules.tracks.has(track)) return m;
    const before = _rt_get(m.lowered, track), loss = _rt_clamp(before + n * -e.sign, 0, rules.lowered_max);
    if (loss === before) return m;
    log.push(_rt_line(`${m.name}的${rules.tracks.get(track)}累积槽${_rt_signed_int(before - loss)}（${what}，共降低${loss}）`));
    return _rt_member_with(m, {lowered: _rt_put(m.lowered, track, loss).filter(kv => kv[1])});
  }
  const spec = rules.resources.get(e.key), n = _rt_resource_spent(e, result);
  if (!n) return m;
  const before = _rt_resource_amount(rules, m, e.key), most = _rt_resource_top(spec, m.base);
  if (e.sign < 0 && n > before) throw _rt_resource_refusal(rules, m, e.key, n, what);
  const after = e.sign < 0 ? before - n : Math.min(most, before + n);
  const full = e.sign > 0 && before + n >= most ? '，已满' : '';
  log.push(_rt_line(`${m.name}的${spec.name}${_rt_signed_int(after - before)}（${what}，剩余${after}${full}）`));
  m = _rt_member_with(m, {resources: _rt_put(m.resources, e.key, after)});
  if (spec.on_empty && spec.knocks) {
    const names = fight.members.map(x => x.name);
    const has = m.conditions.some(c => c.id === spec.on_empty);
    const spared = !!(e.other && result[e.other]);
    if (after === 0 && before > 0 && !has && !spared) {
      log.push(_rt_line(`${m.name}的${spec.name}已空`));
      m = fight._set_condition(m, spec.on_empty, 1, '', names.indexOf(m.name), -1, log);
    } else if (after > 0 && has && spec.lifts) {
      m = _rt_member_with(m, {conditions: m.conditions.filter(c => c.id !== spec.on_empty)});
      log.push(_rt_line(`${m.name}的${rules.conditions.get(spec.on_empty).name}结束（${spec.name}恢复）`));
    }
  }
  return m;
}
// What `m` has left of each resource and each lowered capacity, for status.
function _rt_resources_shown(rules, m) {
  const out = [];
  for (const kv of rules.resources) {
    const left = _rt_resource_amount(rules, m, kv[0]);
    if (left || m.resources.some(x => x[0] === kv[0])) out.push(`${kv[1].name}${left}/${_rt_resource_top(kv[1], m.base)}`);
  }
  for (const kv of m.lowered) if (kv[1]) out.push(`${_rt_name_of(rules.tracks, kv[0])}累积槽-${kv[1]}`);
  return out;
}
// (resources, lowered) of a stored member, each checked (fight_state.py _resources).
function _rt_read_resources(rules, m, base) {
  const names = new Map(Array.from(rules.resources.entries()).map(kv => [kv[0], kv[1].name]));
  const resources = _rt_pairs(_rt_get_or(m, 'resources', {}), '资源', names, 0, MAX_VALUE);
  if (resources.some(kv => kv[1] > _rt_resource_top(rules.resources.get(kv[0]), base))) throw _rt_bad('资源超过其上限');
  const lowered = _rt_pairs(_rt_get_or(m, 'lowered', {}), '累积槽降低', rules.capacity_param ? rules.tracks : new Map(), 1,
                            Math.max(1, rules.lowered_max));
  return [resources, lowered];
}
