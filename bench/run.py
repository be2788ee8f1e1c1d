"""Every benchmark of rulec in one run; prints and saves (bench/out/results.md) a Markdown table.

    python -m bench            # all benchmarks
    python -m bench --quick    # fewer repeats, smaller synthetic packs
    python -m bench --only resolvers odds build
    python -m bench --only floor    # rulec build against the library floor, whole processes

Anchors (the `d20` and `icepool` libraries) come from the `bench` extra:
`pip install -e '.[bench]'`. Every figure is a median over repeats; every
target is a ratio of two things measured in the same run (the resolver
ratios: in each of several fresh processes, then the median).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
import importlib.util
import json
import math
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from bench import baselines
from bench.harness import Timing, compare

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"

Row = tuple[str, str, str, str, str]  # benchmark, what, median, ratio, target


def load_generated(name: str, folder: Path = ROOT / "generated") -> ModuleType:
    """Import generated/<name>/rulec_<name> under an alias unique to `folder` (benchmarks load several builds)."""
    alias = f"rulec_bench_{name}_{abs(hash(str(folder)))}"
    if alias in sys.modules:
        return sys.modules[alias]
    package = folder / name / f"rulec_{name}"
    spec = importlib.util.spec_from_file_location(alias, package / "__init__.py",
                                                  submodule_search_locations=[str(package)])
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return module


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}×"


def d20_timings(repeats: int) -> dict[str, float]:
    """Seconds per call of the d20 attack forms and their anchors, medians in one process."""
    import d20 as d20lib

    g = load_generated("d20")
    fighter = g.Combatant(strength=16, dexterity=14, proficiency=2)
    target = g.Combatant(armor_class=15)
    sword = g.get_weapon("longsword")
    seeded = g.SeededDice(1)
    die = seeded.die

    def lib_attack() -> object:
        r = d20lib.roll("1d20+5")
        if r.total >= 15:
            return d20lib.roll("2d8+3" if r.crit == d20lib.CritType.CRIT else "1d8+3").total
        return 0

    def lib_attack_log() -> str:
        r = d20lib.roll("1d20+5")
        text = str(r)
        if r.total >= 15:
            text += str(d20lib.roll("2d8+3" if r.crit == d20lib.CritType.CRIT else "1d8+3"))
        return text

    prepared = g.attack_prepare(fighter, target, sword)
    t = compare({
        "generated prepared": lambda: prepared(seeded),
        "hand-written specialised": lambda: baselines.d20_specialised_dice(seeded),
        "generated fast": lambda: g.attack_fast(fighter, target, sword, dice=seeded),
        "hand-written full rule": lambda: baselines.d20_attack(die, fighter, target, sword),
        "d20 library": lib_attack,
        "generated traced": lambda: g.attack(fighter, target, sword, dice=seeded).text(),
        "d20 library + log": lib_attack_log,
    }, repeats)
    return {name: timing.per_call for name, timing in t.items()}


def dp_timings(repeats: int) -> dict[str, float]:
    """Seconds per call of the dp attack forms and their hand-written baselines, in one process."""
    g = load_generated("dp")
    wang = g.Combatant(strength=5, martial=8, specialty=7, attack_extras=5)
    wu = g.Combatant(basic_defense=8, armor_defense=4, parry_defense=6, basic_extras=2, armor_extras=1, parry_extras=1)
    sword = g.get_weapon("long_sword")
    seeded = g.SeededDice(1)
    rnd = seeded.random
    fist = g.get_weapon("fist")
    kw = dict(extra_speed=2, extra_armor_piercing=8)
    prepared = g.attack_prepare(wang, wu, fist, **kw)
    t = compare({
        "generated prepared": lambda: prepared(seeded),
        "hand-written specialised": lambda: baselines.dp_specialised(rnd),
        "generated fast": lambda: g.attack_fast(wang, wu, sword, dice=seeded),
        "hand-written full rule": lambda: baselines.dp_attack(rnd, wang, wu, sword),
    }, repeats)
    return {name: timing.per_call for name, timing in t.items()}


TIMINGS = {"d20": d20_timings, "dp": dp_timings}


class _Runs:
    """One resolver benchmark run in several fresh processes.

    A process's memory layout alone moves a sub-microsecond timing by several percent, the
    same in every repeat inside it, so one process cannot tell a 1.1× ratio from a 1.2× one.
    Each process times every form (interleaved repeats); a time is the median over processes
    and a ratio the median of the per-process ratios.
    """

    def __init__(self, kind: str, repeats: int, processes: int) -> None:
        command = [sys.executable, "-m", "bench", "--timings", kind, "--repeats", str(repeats)]
        self.samples = [json.loads(subprocess.run(command, cwd=ROOT, check=True, capture_output=True,
                                                  text=True).stdout) for _ in range(processes)]

    def time(self, name: str) -> Timing:
        values = [s[name] for s in self.samples]
        med = statistics.median(values)
        return Timing(name, med, (max(values) - min(values)) / med)

    def ratio(self, a: str, b: str) -> str:
        return f"{statistics.median(s[a] / s[b] for s in self.samples):.2f}×"


def bench_d20(repeats: int, processes: int = 5) -> list[Row]:
    r = _Runs("d20", repeats, processes)
    prep, spec, fast, hand = (r.time(n) for n in ("generated prepared", "hand-written specialised",
                                                   "generated fast", "hand-written full rule"))
    lib, traced, liblog = r.time("d20 library"), r.time("generated traced"), r.time("d20 library + log")
    return [
        ("d20 attack + damage", "generated `attack_prepare(...)` per roll", prep.human(), r.ratio("generated prepared", "hand-written specialised") + " of hand-written", "≤ 1.2×"),
        ("d20 attack + damage", "hand-written specialised (+5 vs AC 15, 1d8+3; the same dice object)", spec.human(),
         "", ""),
        ("d20 attack + damage", "generated `attack_fast` (all options each call)", fast.human(), r.ratio("generated fast", "hand-written full rule") + " of hand-written full rule", ""),
        ("d20 attack + damage", "hand-written full rule with options", hand.human(), "", ""),
        ("d20 attack + damage", "`d20` library rolling the same", lib.human(), r.ratio("d20 library", "generated prepared") + " slower than prepared", "≥ 25×"),
        ("d20 attack + trace", "generated `attack(...).text()`", traced.human(), r.ratio("d20 library + log", "generated traced") + " faster than d20 + log", "≥ 5×"),
        ("d20 attack + trace", "`d20` library with its log string", liblog.human(), "", ""),
    ]


def bench_dp(repeats: int, processes: int = 5) -> list[Row]:
    r = _Runs("dp", repeats, processes)
    prep, spec = r.time("generated prepared"), r.time("hand-written specialised")
    fast, hand = r.time("generated fast"), r.time("hand-written full rule")
    return [
        ("dp melee attack (王马 vs 吴)", "generated `attack_prepare(...)` per roll", prep.human(), r.ratio("generated prepared", "hand-written specialised") + " of hand-written", "≤ 1.2×"),
        ("dp melee attack (王马 vs 吴)", "hand-written specialised", spec.human(), "", ""),
        ("dp melee attack", "generated `attack_fast` (all options each call)", fast.human(), r.ratio("generated fast", "hand-written full rule") + " of hand-written full rule", ""),
        ("dp melee attack", "hand-written rule (fewer options)", hand.human(), "", ""),
        ("dp melee attack", "resolutions per second: prepared / fast", f"{1 / prep.per_call:,.0f}/s / {1 / fast.per_call:,.0f}/s", "", ""),
    ]


def bench_pool(repeats: int) -> list[Row]:
    from rulec.runtime.pool import pool_successes, pool_successes_random
    from rulec.runtime.sources import SeededDice
    from rulec.runtime.odds import pool_distribution

    seeded = SeededDice(2)
    rnd = seeded.random
    table = pool_distribution(20, 10, 8, 10)
    rng = random.Random(3)
    batch = 10_000
    t = compare({
        "generated (random source)": lambda: pool_successes_random(rnd, 20, 10, 8, 10),
        "generated (any source)": lambda: pool_successes(seeded.die, 20, 10, 8, 10),
        "hand-written faithful": lambda: baselines.faithful_pool(rnd, 20),
        "batch from exact table": lambda: table.sample(rng, batch),
    }, repeats)
    gen, any_, hand, bat = (t["generated (random source)"], t["generated (any source)"],
                            t["hand-written faithful"], t["batch from exact table"])
    per_sample = bat.per_call / batch
    return [
        ("20-die .ww pool roll", "generated, SeededDice", gen.human(), _ratio(gen.per_call, hand.per_call) + " of hand-written", "≤ 1.2×"),
        ("20-die .ww pool roll", "generated, any DiceSource (FixedDice path)", any_.human(), _ratio(any_.per_call, hand.per_call) + " of hand-written", ""),
        ("20-die .ww pool roll", "hand-written faithful roller", hand.human(), "", ""),
        ("20-die .ww pool roll", "batch sampling from the exact table", f"{per_sample * 1e9:.0f} ns/sample",
         _ratio(hand.per_call, per_sample) + " faster than faithful", "≥ 10×"),
    ]


def bench_odds(repeats: int) -> list[Row]:
    import icepool

    from rulec.runtime.odds import pool_distribution

    def ice(depth: int) -> Callable[[], object]:
        def run() -> object:
            chain = icepool.Die({0: 7, 1: 2, 100: 1}).explode([100], depth=depth).map(lambda v: v // 100 + v % 100)
            return 50 @ chain
        return run

    ref = ice(25)()
    ours = pool_distribution.__wrapped__(50, 10, 8, 10)
    err = max(abs((ours.probs[m] if m < len(ours.probs) else 0.0) - float(ref.probability(m)))
              for m in set(range(len(ours.probs))) | set(ref.outcomes()))
    # icepool at explosion depths 9, 15 and 25 (rulec's own cut-off is by tail mass, 1e-15), each
    # against rulec in the same interleaved run
    t = compare({
        "rulec": lambda: pool_distribution.__wrapped__(50, 10, 8, 10),
        "icepool9": ice(9), "icepool15": ice(15), "icepool25": ice(25),
        "rulec1000": lambda: pool_distribution.__wrapped__(1000, 10, 8, 10),
    }, max(3, repeats // 2), target=0.2)
    rows = [("exact 50-die pool distribution", "rulec (uncached)", t["rulec"].human(),
             f"max |Δp| {err:.1e} against icepool at depth 25", "≥ 50×, ≤ 1e-12")]
    for depth in (9, 15, 25):
        rows.append(("exact 50-die pool distribution", f"icepool, explosion depth {depth}",
                     t[f"icepool{depth}"].human(),
                     "rulec " + _ratio(t[f"icepool{depth}"].per_call, t["rulec"].per_call) + " faster", ""))
    rows.append(("exact 1,000-die pool distribution", "rulec (uncached, no overflow)", t["rulec1000"].human(), "",
                 "≤ 50 ms"))
    return rows


def bench_imports(repeats: int, folder: Path = ROOT / "generated", label: str = "bundled") -> list[Row]:
    rows = []
    names = [p.name for p in sorted(folder.iterdir()) if (p / "pyproject.toml").is_file()]
    code = ("import sys, time; sys.path.insert(0, {folder!r}); t = time.perf_counter(); import rulec_{name}; "
            "print(time.perf_counter() - t)")
    for name in names:
        # this machine sets PYTHONDONTWRITEBYTECODE, so write the .pyc files explicitly
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / name)], check=True,
                       capture_output=True)
        times = [float(subprocess.run([sys.executable, "-c", code.format(folder=str(folder / name), name=name)],
                                      check=True, capture_output=True, text=True).stdout)
                 for _ in range(max(5, repeats))]
        med = statistics.median(times)
        rows.append((f"import generated `{name}` ({label})", "from .pyc, median", f"{med * 1e3:.1f} ms", "",
                     "≤ 50 ms" if label == "bundled" else "≤ 100 ms"))
    return rows


def bench_worst(repeats: int) -> list[Row]:
    from bench.worst_case import worst_calls

    return [(f"slowest call of `{rs}` over its declared ranges", which, f"{seconds * 1e3:.0f} ms", "", "< 0.5 s")
            for rs, seconds, which in worst_calls(load_generated, samples=10 * repeats)]


def bench_fight(repeats: int) -> list[Row]:
    """Issues 18 and 34: the fight's runtime against the same work by hand (bench/fight_bench.py)."""
    from bench.fight_bench import bench_fight as run

    return run(load_generated, repeats)


def bench_js(repeats: int) -> list[Row]:
    """Issue 19's targets: the JavaScript prepared d20 attack against a hand-written JavaScript
    function through the same dice object, and the exact 50-die pool distribution in Node against
    Python's, medians measured in the same run (bench/js_bench.mjs; Node from the system)."""
    import shutil

    from rulec.runtime.odds import pool_distribution

    node = shutil.which("node")
    if node is None:
        return [("JavaScript", "Node.js is not installed", "-", "", "")]
    runs = []
    python_pool = []
    for _ in range(3):  # alternate the Node process and the Python timing
        done = subprocess.run([node, str(ROOT / "bench" / "js_bench.mjs"), str(ROOT / "generated"),
                               str(max(5, repeats))], capture_output=True, text=True, check=True, timeout=600)
        runs.append(json.loads(done.stdout))
        t = compare({"py": lambda: pool_distribution.__wrapped__(50, 10, 8, 10)}, max(3, repeats // 2), target=0.2)
        python_pool.append(t["py"].per_call)
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if k != "fight_length"}
    ratio = statistics.median(r["prepared"] / r["hand"] for r in runs)
    py = statistics.median(python_pool)
    rows: list[Row] = [
        ("JavaScript d20 prepared attack", "`attack_prepare(...)(dice)` in Node", f"{med['prepared'] * 1e9:.0f} ns",
         f"{ratio:.2f}× of hand-written JS ({med['hand'] * 1e9:.0f} ns)", "≤ 1.5×"),
        ("JavaScript exact 50-die pool", "`pool_distribution(50, 10, 8, 10, false)` in Node",
         f"{med['pool50'] * 1e6:.1f} µs", f"{med['pool50'] / py:.2f}× of Python's ({py * 1e6:.1f} µs)", "≤ 2×"),
    ]
    if "fight_apply" in med:
        for key, what, target in (("apply", "`fight.apply(action)` (damage, track points, state check)", "≤ 2×"),
                                  ("act", "`fight.act(...)` (effective stats, attack, apply)", "≤ 1.3×")):
            r = statistics.median(x[f"fight_{key}"] / x[f"fight_hand_{key}"] for x in runs)
            rows.append((f"JavaScript fight: {key}", what + " in Node", f"{med[f'fight_{key}'] * 1e6:.2f} µs",
                         f"{r:.2f}× of hand-written JS ({med[f'fight_hand_{key}'] * 1e6:.2f} µs)", target))
    if "fight_length" in runs[0]:
        lengths = runs[0]["fight_length"]["lengths"]
        secs = [statistics.median(r["fight_length"]["seconds"][i] for r in runs) for i in range(len(lengths))]
        slopes = sorted(r["fight_length"]["slope"] for r in runs)
        per = " / ".join(f"{s / n * 1e6:.0f}" for n, s in zip(lengths, secs))
        rows.append(("JavaScript fight: per-action cost against its length",
                     f"`act` + two `next_turn` in Node, {', '.join(f'{n:,}' for n in lengths)} actions "
                     "(µs per action; 乙 past its 眩晕 capacity from the 4th)", per,
                     f"total time grows as actions^{statistics.median(slopes):.2f} "
                     f"({slopes[0]:.2f}–{slopes[-1]:.2f} over {len(slopes)} runs; "
                     f"{math.log(secs[-1] / secs[2]) / math.log(lengths[-1] / lengths[2]):.2f} "
                     f"from {lengths[2]:,} to {lengths[-1]:,})", "≤ 1.1"))
    return rows + _bench_quickjs(repeats)


def _bench_quickjs(repeats: int) -> list[Row]:
    """The same bodies (bench/js_bench_common.js) in QuickJS (the `quickjs` package, an engine
    without a JIT, as SealDice's goja has none), as context: each against its hand-written JS
    there. The single-file scripts (`rulec_<id>.user.js`) as a SealDice host loads them."""
    try:
        import quickjs  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return [("JavaScript in QuickJS", "the quickjs package is not installed", "-", "", "")]
    context = quickjs.Context()
    context.set_time_limit(600)
    context.set_memory_limit(1 << 30)
    for rs in ("d20", "tracks"):
        context.eval((ROOT / "generated" / "js" / rs / f"rulec_{rs}.user.js").read_text(encoding="utf-8"))
    context.eval((ROOT / "bench" / "js_bench_common.js").read_text(encoding="utf-8"))
    fight = "typeof rulec_tracks.start_fight === 'function'"
    out = json.loads(context.eval(
        "(function () { var now = function () { return Date.now() / 1000; };"
        f" var out = preparedBench(rulec_d20, now, {max(3, repeats // 3)}, 20000);"
        f" if ({fight}) Object.assign(out, fightBench(rulec_tracks, now, {max(3, repeats // 3)}, 300));"
        " return JSON.stringify(out); })()"))
    rows: list[Row] = [
        ("QuickJS d20 prepared attack (context)", "`attack_prepare(...)(dice)`", f"{out['prepared'] * 1e9:.0f} ns",
         f"{out['prepared'] / out['hand']:.2f}× of hand-written JS ({out['hand'] * 1e9:.0f} ns)", ""),
    ]
    for key in ("apply", "act"):
        if key in out:
            rows.append((f"QuickJS fight: {key} (context)", f"`fight.{key}(...)`", f"{out[key] * 1e6:.1f} µs",
                         f"{out[key] / out[f'hand_{key}']:.2f}× of hand-written JS ({out[f'hand_{key}'] * 1e6:.1f} µs)",
                         ""))
    return rows


def _process_seconds(argv: list[str], runs: int, cwd: Path = ROOT) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, cwd=cwd, capture_output=True, check=True)
        out.append(time.perf_counter() - start)
    return out


def _cli_project(folder: Path, pack: int) -> Path:
    """A working folder with the bundled rules (and a synthetic pack of `pack` weapons inside
    rules/), built, with every module compiled to .pyc as on a machine that writes bytecode (this
    one sets PYTHONDONTWRITEBYTECODE), and its stat record written (freshness.py waits until the
    files are two seconds old)."""
    from bench.make_pack import make_pack

    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(ROOT / "rules", folder / "rules")
    shutil.copytree(ROOT / "examples" / "dp", folder / "examples")
    if pack:
        make_pack(pack, folder / "rules" / f"w{pack}")
    rulec = str(Path(sys.executable).parent / "rulec")
    # --out: a build with a pack never lands in generated/ unasked (the CLI refuses it without --out)
    subprocess.run([rulec, "build", "--target", "python,js", "--out", "generated"], cwd=folder, capture_output=True,
                   check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "compiler"), str(folder / "generated" / "dp")],
                   capture_output=True, check=True)
    time.sleep(2.2)
    subprocess.run([rulec, "resolve", "examples/wang_vs_wu_miss.yaml"], cwd=folder, capture_output=True, check=True)
    return folder


def bench_cli(repeats: int) -> list[Row]:
    """Issue 20's interactive target: `rulec resolve` and `rulec odds` of a scenario on an up-to-date
    build against a Python process that imports the built package and makes the same call; fresh
    processes, alternated, both loading every module from .pyc; the bundled rules alone and with a
    10,000-weapon pack."""
    scenario = "examples/wang_vs_wu_miss.yaml"
    call = ("import sys; sys.path.insert(0, 'generated/dp'); import rulec_dp as m; "
            "a = m.Combatant.from_dict({'力量': 5, '武技': 8, '专业': 7, '攻击附加成功': 5}); "
            "d = m.Combatant.from_dict({'基础防御': 8, '盔甲防御': 4, '格挡防御': 6, '基础附加成功': 2, "
            "'盔甲附加成功': 1, '格挡附加成功': 1}); ")
    bare = {"resolve": call + ("print(m.attack(a, d, '拳', extra_speed=2, extra_armor_piercing=8, "
                               "dice=m.FixedDice([8, 9, 10, 1, 2, 3, 4, 5, 6])).text())"),
            "odds": call + "o = m.attack_odds(a, d, '拳', extra_speed=2, extra_armor_piercing=8); print(o.to_dict())"}
    rulec = [str(Path(sys.executable).parent / "rulec")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="rulec-bench-cli-") as tmp:
        for pack, label in ((0, "bundled rules"), (10_000, "10,000-weapon pack")):
            folder = _cli_project(Path(tmp) / f"p{pack}", pack)
            for command in ("resolve", "odds"):
                ours: list[float] = []
                theirs: list[float] = []
                for _ in range(max(7, repeats)):
                    ours += _process_seconds(rulec + [command, scenario], 1, folder)
                    theirs += _process_seconds([sys.executable, "-c", bare[command]], 1, folder)
                mine, base = statistics.median(ours), statistics.median(theirs)
                ratio = statistics.median(a / b for a, b in zip(ours, theirs))
                rows.append((f"`rulec {command}` on an up-to-date build", f"dp scenario, {label}, fresh process",
                             f"{mine * 1e3:.0f} ms", f"{ratio:.2f}× of a bare process ({base * 1e3:.0f} ms)",
                             "≤ 1.3×"))
    return rows


GROUPS = {
    "resolvers": lambda r: bench_d20(r, processes=3 if r < 7 else 5) + bench_dp(r, processes=3 if r < 7 else 5),
    "pool": bench_pool,
    "odds": bench_odds,
    "imports": bench_imports,
    "worst": bench_worst,
    "fight": bench_fight,
    "plan": lambda r: _plan_group(r),
    "js": bench_js,
    "cli": bench_cli,
    "floor": lambda r: _floor_group(r),
    "cliffs": lambda r: _cliffs_group(r),
    "rebuild": lambda r: _rebuild_group(r),
}


def _rebuild_group(repeats: int) -> list[Row]:
    """Issues 28 and 34: the one-shot and the resident rebuild after one edit (bench/build_scaling.py)."""
    from bench.build_scaling import bench_rebuild

    return bench_rebuild(repeats=max(3, repeats - 4))


def _plan_group(repeats: int) -> list[Row]:
    """Issue 29: exact odds over a plan for the pages' configurations (bench/plan_bench.py)."""
    from bench.plan_bench import bench_plans

    return bench_plans(load_generated, repeats)


def _cliffs_group(repeats: int) -> list[Row]:
    """Issue 34: no cliffs (bench/cliffs.py)."""
    from bench.cliffs import bench_cliffs

    return bench_cliffs(load_generated, ROOT, repeats)


def _floor_group(repeats: int) -> list[Row]:
    """Issue 34: `rulec build` against the library floor, whole processes (bench/build_floor.py)."""
    from bench.build_floor import bench_build_floor

    return bench_build_floor(repeats=max(3, repeats - 2))


def build_group(quick: bool, repeats: int) -> list[Row]:
    from bench.build_scaling import bench_build

    return bench_build(quick=quick, repeats=repeats)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and smaller packs")
    parser.add_argument("--only", nargs="*", choices=[*GROUPS, "build"], help="run only these groups")
    parser.add_argument("--timings", choices=sorted(TIMINGS), help=argparse.SUPPRESS)  # one resolver process
    parser.add_argument("--repeats", type=int, default=7, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.timings:
        print(json.dumps(TIMINGS[args.timings](args.repeats)))
        return
    repeats = 3 if args.quick else 7
    rows: list[Row] = []
    for name in args.only or [*GROUPS, "build"]:
        started = time.perf_counter()
        rows += build_group(args.quick, repeats) if name == "build" else GROUPS[name](repeats)
        print(f"[{name}: {time.perf_counter() - started:.1f} s]", file=sys.stderr)
    table = ["| benchmark | measured | median | ratio (same run) | target |", "|---|---|---|---|---|"]
    table += ["| " + " | ".join(r) + " |" for r in rows]
    text = "\n".join(table) + "\n"
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "results.md").write_text(text, encoding="utf-8")
    print(text)
