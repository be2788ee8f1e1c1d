// The calculator page's expected attacks (static, like calculator.js, and inlined before it):
// until a running damage total, and until each state one attack can lead to, through the
// generated module `M` and the form's data block `DATA`. No value of the rules is written here.
function rulecCalcUntil(M, DATA) {
  "use strict";
  var MAX_UNTIL = 1000;  // attacks: past this "—" (as the reference page)
  var MAX_CHAIN_WORK = 2000000;  // threshold x outcomes, as the runtime's expected_attacks

  function expectedAttacks(marginal, threshold) {
    // The exact mean number of attacks until the running damage reaches `threshold` (the same
    // recurrence as the runtime's fight_odds.expected_attacks); null when it can never grow.
    var stay = 0, values = [], probs = [];
    marginal.forEach(function (p, v) {
      if (v <= 0) stay += p; else if (p > 0) { values.push(Number(v)); probs.push(p); }
    });
    if (!values.length || stay >= 1 || threshold * values.length > MAX_CHAIN_WORK) return null;
    var top = Math.max.apply(null, values);
    var e = new Array(threshold + top).fill(0);
    var scale = 1 - stay;
    for (var t = threshold - 1; t >= 0; t--) {
      var sum = 0;
      for (var i = 0; i < values.length; i++) sum += probs[i] * e[t + values[i]];
      e[t] = (1 + sum) / scale;
    }
    return e[0] > MAX_UNTIL ? null : e[0];
  }
  // ---- the expected attacks until each state (emit/until_states.py, the same states in the same order) ----
  var PLAN_ACTIONS = 200, PLAN_TAIL = 1e-9, MAX_STATES = 40;
  function possible(odds, field) {
    var out = new Map();
    try { odds.marginal(field).forEach(function (p, v) { if (p > 0) out.set(v, p); }); } catch (err) { /* no such outcome */ }
    return out;
  }
  function fightNames(roles) {
    var names = {};
    roles.forEach(function (r, i) { names[r] = "角色" + (i + 1); });
    return names;
  }
  // [{label, target or null}] for one attack of `procedure` with `odds` its exact odds.
  function stateTargets(rules, procedure, odds, untilAt, untilName) {
    var spec = rules.actions.get(procedure);
    if (!spec) return [];
    var names = fightNames(spec.roles), out = [], seen = {};
    var actor = spec.subject >= 0 && spec.subject < spec.roles.length ? spec.roles[spec.subject] : "";
    function add(label, who, kind, key, reachable, atLeast) {
      var id = JSON.stringify([who, kind, key]);
      if (seen[id] || out.length >= MAX_STATES) return;
      seen[id] = true;
      var target = {who: names[who]};
      target[kind] = key;
      if (atLeast) target.at_least = atLeast;
      out.push({label: label, target: reachable ? target : null});
    }
    spec.effects.forEach(function (e) {
      var gate = !e.when || (possible(odds, e.when).get(true) || 0) > 0;
      if (e.kind === "counter" && untilAt && e.field === odds.damage) {
        var grows = false;
        possible(odds, e.field).forEach(function (p, v) { if (typeof v === "number" && v > 0) grows = true; });
        add(untilName, e.role, "counter", e.key, gate && grows, untilAt);
      } else if (e.kind === "track") {
        var named = possible(odds, e.key);
        rules.track_states.forEach(function (state, track) {
          var label = (rules.state_names.get(state) || state) + "（" + (rules.tracks.get(track) || track) + "）";
          add(label, e.role, "state", state, gate && named.has(track));
        });
      } else if (e.role === actor) {
        return;  // the actor's own stance (格挡, 瞄准) is no state the attack leads to
      } else if (e.kind === "condition" && rules.conditions.has(e.key)) {
        add(rules.conditions.get(e.key).name, e.role, "condition", e.key, gate);
      } else if (e.kind === "state") {
        add(rules.state_names.get(e.key) || e.key, e.role, "state", e.key, gate);
      }
    });
    return out;
  }
  // [[label, expected attacks or null]]: a fight of the procedure's roles, one attack a turn, the
  // options the form sets (those left at their default are the fight's to supply).
  function untilStates(proc, read, odds) {
    var rules = M.FIGHT_RULES, spec = rules ? rules.actions.get(proc.id) : undefined;
    if (!spec || !spec.odds) return [];
    var at = read.until !== null && read.until >= 1 && read.until <= 100000 && Math.floor(read.until) === read.until
      ? read.until : 0;
    var name = proc.until && at === proc.until.at ? proc.until.name : "累计伤害达到" + at;
    var names = fightNames(spec.roles), combatants = {}, options = {};
    proc.params.forEach(function (prm) {
      if (prm.type === "combatant") {
        var stats = {};
        DATA.stats.forEach(function (s) { stats[s.id] = read[prm.id + "." + s.id]; });
        if (names[prm.id]) combatants[names[prm.id]] = M.Combatant.fromDict(stats);
        return;
      }
      var v = read[prm.id];
      if (DATA.tables[prm.type] && v === "") v = null;
      if (v !== undefined && v !== null && v !== prm.default) options[prm.id] = v;
    });
    var step = {procedure: proc.id, roles: names, options: options, end_turn: true};
    var fight = null;
    return stateTargets(rules, proc.id, odds, at, name).map(function (st) {
      var value = null;
      if (st.target) {
        try {
          if (fight === null) fight = M.start_fight(combatants);
          var chain = fight.until_plan([step], st.target, {max_actions: PLAN_ACTIONS});
          value = chain.tail <= PLAN_TAIL ? chain.expected : null;
        } catch (err) { value = null; }
      }
      return [st.label, value];
    });
  }
  return {expectedAttacks: expectedAttacks, untilStates: untilStates, PLAN_ACTIONS: PLAN_ACTIONS};
}
