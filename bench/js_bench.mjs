// The JavaScript benchmarks (issue 19), run by `python -m bench --only js`: medians of interleaved
// samples in one Node process, each pair measured side by side. Prints JSON on stdout.
//   prepared: the generated d20 attack_prepare closure against a hand-written function doing the
//             same attack (+5 vs AC 15, 1d8+3, crit on 20) through the same dice object;
//   pool:     the exact 50-die pool distribution, uncached;
//   fight:    the tracks fight's apply of an attack (damage, track points, the state check by the
//             accumulation rule, a log line each) against a hand-written immutable update doing the
//             same through the same accumulation function.
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const generated = process.argv[2];
const repeats = Number(process.argv[3] || 15);
const d20 = await import(pathToFileURL(path.join(generated, 'js', 'd20', 'index.js')).href);
const dp = await import(pathToFileURL(path.join(generated, 'js', 'dp', 'index.js')).href);
const tracks = await import(pathToFileURL(path.join(generated, 'js', 'tracks', 'index.js')).href);

function handWritten(dice) {
  const natural = dice.die(20);
  const total = natural + 5;
  if (total < 15) return [false, false, 0, 'slashing', natural, total, false];
  if (natural >= 20) return [true, true, dice.die(8) + dice.die(8) + 3, 'slashing', natural, total, false];
  return [true, false, dice.die(8) + 3, 'slashing', natural, total, false];
}

function timeIt(fn, n) {
  const start = process.hrtime.bigint();
  let sink = 0;
  for (let i = 0; i < n; i++) sink += fn() ? 1 : 0;
  return [Number(process.hrtime.bigint() - start) / 1e9 / n, sink];
}

function compare(fns, n) {
  const samples = Object.fromEntries(Object.keys(fns).map(k => [k, []]));
  for (const k of Object.keys(fns)) timeIt(fns[k], n);  // warm up (JIT)
  for (let r = 0; r < repeats; r++) {
    for (const k of Object.keys(fns)) samples[k].push(timeIt(fns[k], n)[0]);
  }
  const median = xs => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(Object.keys(fns).map(k => [k, median(samples[k])]));
}

const fighter = new d20.Combatant({strength: 16, dexterity: 14, proficiency: 2});
const target = new d20.Combatant({armor_class: 15});
const prepared = d20.attack_prepare(fighter, target, 'longsword');
const seeded = new d20.SeededDice(1);
const check = new d20.FixedDice([20, 3, 4, 10, 2, 5]), check2 = new d20.FixedDice([20, 3, 4, 10, 2, 5]);
for (let i = 0; i < 3; i++) {
  const a = JSON.stringify(prepared(check)), b = JSON.stringify(handWritten(check2));
  if (a !== b) throw new Error(`the baseline differs from the generated attack: ${a} ${b}`);
}
const attack = compare({prepared: () => prepared(seeded), hand: () => handWritten(seeded)}, 200000);
const pool = compare({pool50: () => dp.pool_distribution(50, 10, 8, 10, false)}, 200);

const striker = new tracks.Combatant({strength: 6, fighting: 5}), struck = new tracks.Combatant({dexterity: 4, perception: 2});
const fight = tracks.start_fight({甲: striker, 乙: struck});
const action = fight.resolve('attack', {attacker: '甲', defender: '乙'}, {weapon: 'fist', part: 'jaw',
                                                                          dice: new tracks.FixedDice(Array(30).fill(9))});
const r = action.result, state0 = Object.freeze({counters: {}, points: {}, states: [], log: []});
function handApply(state) {  // the same changes, written by hand for this one action
  const counters = Object.assign({}, state.counters), points = Object.assign({}, state.points), log = state.log.slice();
  counters.damage = (counters.damage || 0) + r.damage;
  log.push(`乙的所受伤害+${r.damage}（共${counters.damage}）`);
  const before = points[r.track] || 0;
  points[r.track] = before + r.points;
  log.push(`乙的${r.track}+${r.points}（共${points[r.track]}）`);
  const out = tracks.add_points_fast(struck, r.track, {current: before, gained: r.points, dice: new tracks.FixedDice([])});
  const states = out[3] && state.states.indexOf(out[3]) < 0 ? state.states.concat([out[3]]) : state.states;
  return Object.freeze({counters: counters, points: points, states: states, log: log});
}
if (!r.track || !r.points || !r.damage) throw new Error('the fight benchmark\'s attack deals no damage or points');
const applied = compare({apply: () => fight.apply(action), hand: () => handApply(state0)}, 20000);
process.stdout.write(JSON.stringify({prepared: attack.prepared, hand: attack.hand, pool50: pool.pool50,
                                     fight_apply: applied.apply, fight_hand: applied.hand}));
