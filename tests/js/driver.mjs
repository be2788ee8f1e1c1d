// Runs calls of a generated JavaScript module for tests/test_js_conformance.py: reads
// {"module": path, "calls": [...]} on stdin and writes one result per call as JSON on stdout.
// A call: {"proc", "form": "traced" | "odds", "positional": [...], "options": {...},
// "dice": {"fixed": [faces]} | {"seed": n}}; a combatant is {"$combatant": {stats by id}} or
// {"$from_dict": {stats by id or Chinese name}}.
// A call of form "hostile" (tests/test_dice_sources.py) runs the traced, fast and prepared forms
// with the dice source named by "source" (HOSTILE below) and gives each form's error code or "ok".
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const request = JSON.parse(readFileSync(0, 'utf8'));
const m = await import(pathToFileURL(request.module).href);

function value(v) {
  if (v !== null && typeof v === 'object' && v.$combatant !== undefined) return new m.Combatant(v.$combatant);
  if (v !== null && typeof v === 'object' && v.$from_dict !== undefined) return m.Combatant.fromDict(v.$from_dict);
  return v;
}

// Dice sources that are not fair, or not dice sources at all, by name.
const HOSTILE = {
  highest: () => ({die: sides => sides}), zero: () => ({die: () => 0}), nan: () => ({die: () => NaN}),
  str5: () => ({die: () => '5'}), none: () => ({die: () => null}), half: () => ({die: () => 2.5}),
  over: () => ({die: sides => sides + 1}), number: () => 5, text: () => 'x', object: () => ({}),
  die_not_function: () => ({die: 5}), null: () => null,
};
function hostile(call, args, options) {
  const entry = {};
  const forms = {
    traced: src => m[call.proc](...args, Object.assign({}, options, {dice: src})),
    fast: src => m[call.proc + '_fast'](...args, Object.assign({}, options, {dice: src})),
    prepared: src => m[call.proc + '_prepare'](...args, options)(src),
  };
  for (const form of Object.keys(forms)) {
    try {
      forms[form](HOSTILE[call.source]());
      entry[form] = 'ok';
    } catch (err) {
      entry[form] = err instanceof m.RuleError ? err.code : 'crash: ' + String(err && err.stack || err);
    }
  }
  return entry;
}

const out = [];
for (const call of request.calls) {
  const args = call.positional.map(value);
  const options = {};
  for (const k of Object.keys(call.options)) options[k] = value(call.options[k]);
  try {
    if (call.form === 'hostile') {
      out.push(hostile(call, args, options));
    } else if (call.form === 'odds') {
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
