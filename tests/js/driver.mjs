// Runs calls of a generated JavaScript module for tests/test_js_conformance.py: reads
// {"module": path, "calls": [...]} on stdin and writes one result per call as JSON on stdout.
// A call: {"proc", "form": "traced" | "odds", "positional": [...], "options": {...},
// "dice": {"fixed": [faces]} | {"seed": n}}; a combatant is {"$combatant": {stats by id}} or
// {"$from_dict": {stats by id or Chinese name}}.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const request = JSON.parse(readFileSync(0, 'utf8'));
const m = await import(pathToFileURL(request.module).href);

function value(v) {
  if (v !== null && typeof v === 'object' && v.$combatant !== undefined) return new m.Combatant(v.$combatant);
  if (v !== null && typeof v === 'object' && v.$from_dict !== undefined) return m.Combatant.fromDict(v.$from_dict);
  return v;
}

const out = [];
for (const call of request.calls) {
  const args = call.positional.map(value);
  const options = {};
  for (const k of Object.keys(call.options)) options[k] = value(call.options[k]);
  try {
    if (call.form === 'odds') {
      const odds = m[call.proc + '_odds'](...args, options);
      const outcomes = {};
      for (const [o, p] of odds.outcomes) outcomes[JSON.stringify(o)] = p;
      out.push({outcomes: outcomes, dropped: odds.dropped});
    } else {
      if (call.dice) options.dice = call.dice.fixed ? new m.FixedDice(call.dice.fixed) : new m.SeededDice(call.dice.seed);
      const result = m[call.proc](...args, options);
      const entry = {result: result.toDict(), text: result.text(true), outcome: result.outcome()};
      if (call.dice.seed !== undefined) {  // the fast and prepared forms, from the same seed
        const rest = Object.assign({}, options);
        delete rest.dice;
        entry.fast = m[call.proc + '_fast'](...args, Object.assign({}, rest, {dice: new m.SeededDice(call.dice.seed)}));
        entry.prepared = m[call.proc + '_prepare'](...args, rest)(new m.SeededDice(call.dice.seed));
      }
      out.push(entry);
    }
  } catch (err) {
    if (!(err instanceof m.RuleError)) out.push({crash: String(err && err.stack || err)});
    else out.push({error: err.code, message: err.message});
  }
}
process.stdout.write(JSON.stringify(out));
