// Runs fight sequences of generated JavaScript modules for tests/test_js_fight.py: reads
// {"runs": [{"module": path, "sequences": [[step, ...], ...]}, ...]} on stdin and writes, per run
// and sequence, one record per step as JSON on stdout (the same records the test makes in Python).
// Steps: {"op": "start", "combatants": [[name, stats], ...], "turns"}, {"op": "ready", "name", "action"}, {"op": "act", "proc", "roles",
// "options", "dice": {"seed": n} | {"fixed": [faces]}}, {"op": "next"}, {"op": "remove_state",
// "name", "state"}, {"op": "load", "data"} (fight_from_dict of stored data), {"op": "roundtrip"},
// {"op": "until_state", "proc", "roles", "target", "track", "options"}, {"op": "until", "proc",
// "field", "threshold", "positional", "options"}, {"op": "until_plan", "plan", "target", "options"},
// {"op": "expected_until", "plan", "target", "options"}, {"op": "reached", "target"},
// {"op": "initiative", "entries", "seed"}; a
// combatant is {"$combatant": {stats by id}}.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const request = JSON.parse(readFileSync(0, 'utf8'));
let m = null;

function value(v) {
  if (v !== null && typeof v === 'object' && v.$combatant !== undefined) return new m.Combatant(v.$combatant);
  return v;
}
function snapshot(fight) {
  const status = {}, effective = {};
  for (const mb of fight.members) {
    status[mb.name] = fight.status(mb.name);
    effective[mb.name] = fight.effective(mb.name).toDict();
  }
  return {dict: JSON.parse(JSON.stringify(fight)), status: status, effective: effective, round: fight.round,
          actor: fight.actor};
}
function odds(u) { return {probabilities: u.probabilities.slice(), tail: u.tail, expected: u.expected}; }

function step(state, s) {
  if (s.op === 'start') {
    const given = new Map(s.combatants.map(nc => [nc[0], new m.Combatant(nc[1])]));
    state.fight = m.start_fight(given, s.turns === undefined ? false : s.turns);
    return snapshot(state.fight);
  }
  if (s.op === 'load') {
    state.fight = m.fight_from_dict(s.data);
    return snapshot(state.fight);
  }
  if (s.op === 'roundtrip') {
    state.fight = m.fightFromDict(JSON.parse(JSON.stringify(state.fight.toDict())));
    return snapshot(state.fight);
  }
  if (s.op === 'ready') { state.fight = state.fight.ready(s.name, s.action); return snapshot(state.fight); }
  if (s.op === 'next') { state.fight = state.fight.next_turn(); return snapshot(state.fight); }
  if (s.op === 'remove_state') { state.fight = state.fight.remove_state(s.name, s.state); return snapshot(state.fight); }
  if (s.op === 'until_state') {
    return odds(state.fight.until_state(s.proc, s.roles, s.target, s.track, s.options));
  }
  if (s.op === 'until_plan') return odds(state.fight.until_plan(s.plan, s.target, s.options));
  if (s.op === 'expected_until') return {expected: state.fight.expected_until(s.plan, s.target, s.options)};
  if (s.op === 'reached') return {reached: state.fight.reached(s.target)};
  if (s.op === 'initiative') {
    const r = m.initiative_order(s.entries, {dice: new m.SeededDice(s.seed)});
    return {order: r[0], trace: r[1]};
  }
  if (s.op === 'until') {
    return odds(m.until(s.proc, s.field, s.threshold, ...s.positional.map(value), s.options));
  }
  const options = Object.assign({}, s.options);
  options.dice = s.dice.fixed ? new m.FixedDice(s.dice.fixed) : new m.SeededDice(s.dice.seed);
  const out = state.fight.act(s.proc, s.roles, options);
  state.fight = out[1];
  return Object.assign({text: out[0].text(true), applied: out[0].applied.slice(),
                        used: out[0].used.map(u => u.slice())}, snapshot(state.fight));
}

const out = [];
for (const run of request.runs) {
  m = await import(pathToFileURL(run.module).href);
  const results = [];
  for (const sequence of run.sequences) {
    const state = {fight: null}, records = [];
    for (const s of sequence) {
      try {
        records.push(step(state, s));
      } catch (err) {
        if (err instanceof m.RuleError) records.push({error: err.code, message: err.message});
        else records.push({crash: String(err && err.stack || err)});
      }
    }
    results.push(records);
  }
  out.push(results);
}
process.stdout.write(JSON.stringify(out));
