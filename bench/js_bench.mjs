// The JavaScript benchmarks (issues 19, 31 and 34), run by `python -m bench --only js`: medians of
// interleaved samples in one Node process, each pair measured side by side; the bodies are in
// bench/js_bench_common.js (plain ES2015, which bench/run.py also runs in QuickJS). Prints JSON.
//   prepared, hand:            the generated d20 attack_prepare closure against a hand-written function;
//   pool50:                    the exact 50-die pool distribution, uncached;
//   fight_apply, fight_hand_apply, fight_act, fight_hand_act:
//                              the tracks fight's apply and act against the same effects applied
//                              by hand to plain objects (only when the generated JS has the fight);
//   fight_length:              a fight of 10 to 3,000 actions: seconds per length and the growth exponent.
import { readFileSync } from 'node:fs';
import { pathToFileURL, fileURLToPath } from 'node:url';
import path from 'node:path';

const generated = process.argv[2];
const repeats = Number(process.argv[3] || 15);
const here = path.dirname(fileURLToPath(import.meta.url));
const common = (0, eval)(readFileSync(path.join(here, 'js_bench_common.js'), 'utf8') +
                         '\n({medians, preparedBench, fightBench, fightLength})');
const load = id => import(pathToFileURL(path.join(generated, 'js', id, 'index.js')).href);
const [d20, dp, tracks] = await Promise.all([load('d20'), load('dp'), load('tracks')]);
const t0 = process.hrtime.bigint();
const now = () => Number(process.hrtime.bigint() - t0) / 1e9;

const out = common.preparedBench(d20, now, repeats, 200000);
out.pool50 = common.medians({pool50: () => dp.pool_distribution(50, 10, 8, 10, false)}, now, repeats, 200).pool50;
if (typeof tracks.start_fight === 'function') {
  const fight = common.fightBench(tracks, now, repeats, 2000);
  for (const k of Object.keys(fight)) out[`fight_${k}`] = fight[k];
  if (process.argv[4] !== 'short') out.fight_length = common.fightLength(tracks, now, Math.max(3, Math.floor(repeats / 3)));
}
process.stdout.write(JSON.stringify(out));
