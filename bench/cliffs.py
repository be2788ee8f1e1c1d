"""No cliffs (issue 34): each figure against its neighbour or its baseline, in the same run.

* pool odds at 1,001 dice against 1,000 (the exact distribution, uncached);
* the public `attack_odds` of the built dp package at a 50-die pool against the runtime's
  `pool_distribution(50, ...)` it enumerates, both with the distribution computed afresh (the
  cache cleared before each call), so the ratio is the generated wrapper's own cost;
* the public `attack_odds` of d20 with a greatsword and 20 extra d6 (额外伤害骰) against the
  runtime's distribution of those 22 dice, with and without a crit, both afresh: the two rolls are
  enumerated as one (optimise/fuse.py), and the package built with them nested, for comparison;
* `until` at doubling thresholds: the growth exponent of the exact chain;
* importing the built dp package against `import jinja2`, whole processes (CPU of the child),
  with the bundled rules and with a 10,000-weapon build;
* with that build, what a chat user's command costs when it names a weapon: an unknown word's
  suggestion (是否想找) in the Python package and in the script in QuickJS (an engine without a JIT,
  as SealDice's goja), against CPython's `difflib.get_close_matches` over the same ids and names,
  and a weapon found by its Chinese name in QuickJS against one found by id.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType


Row = tuple[str, str, str, str, str]


def _ratios(a: Callable[[], object], b: Callable[[], object], repeats: int, number: int) -> tuple[float, float, float]:
    """Median seconds per call of `a` and `b`, interleaved, and the median of the per-repeat ratios."""
    xs: list[float] = []
    ys: list[float] = []
    for _ in range(repeats):
        for fn, out in ((a, xs), (b, ys)):
            start = time.process_time()
            for _ in range(number):
                fn()
            out.append((time.process_time() - start) / number)
    return statistics.median(xs), statistics.median(ys), statistics.median(x / y for x, y in zip(xs, ys))


def bench_pool_cliff(repeats: int) -> list[Row]:
    from rulec.runtime.odds import pool_distribution

    raw = pool_distribution.__wrapped__
    a, b, r = _ratios(lambda: raw(1001, 10, 8, 10), lambda: raw(1000, 10, 8, 10), max(5, repeats), 3)
    return [("exact pool odds, 1,000 → 1,001 dice", "`pool_distribution` uncached, 1,001 dice",
             f"{a * 1e3:.1f} ms", f"{r:.2f}× of 1,000 dice ({b * 1e3:.1f} ms)", "≤ 1.2×")]


def bench_public_odds(load: Callable[[str], ModuleType], repeats: int) -> list[Row]:
    dp = load("dp")
    runtime = sys.modules[dp.__name__ + "._runtime.odds"]
    clear = runtime.pool_distribution.cache_clear
    attacker = dp.Combatant(strength=10, martial=20, specialty=20)  # a 50-die pool against no defense
    defender = dp.Combatant()
    assert set(dp.attack_odds(attacker, defender, "拳").marginal("dice")) == {50}

    def public() -> object:
        clear()
        return dp.attack_odds(attacker, defender, "拳")

    def bare() -> object:
        clear()
        return runtime.pool_distribution(50, 10, 8, 10)

    a, b, r = _ratios(public, bare, max(7, repeats), 50)
    return [("public `*_odds` against the runtime", "dp `attack_odds` at 50 dice (its distribution afresh)",
             f"{a * 1e6:.0f} µs", f"{r:.2f}× of `pool_distribution(50)` ({b * 1e6:.0f} µs)", "≤ 1.3×")]


def _nested_d20(root: Path, tmp: Path) -> ModuleType:
    """d20's package built with the odds form's rolls left nested (no optimise/fuse.py), imported."""
    from unittest import mock

    from bench.run import load_generated
    from rulec.build.facade import compile_rules
    from rulec.build.stamp import STAMP, stamp_bytes
    from rulec.build.write import write_tree

    with mock.patch("rulec.emit.python.many_rolls.joined_sums", lambda steps, outputs, in_setup: (steps, outputs)):
        result = compile_rules([root / "rules" / "d20"], targets=("python",))
    assert result.ok
    write_tree(tmp, {**result.files, STAMP: stamp_bytes("", result.files)})
    return load_generated("d20", tmp)


def bench_joined_odds(load: Callable[[str], ModuleType], root: Path, repeats: int) -> list[Row]:
    d20 = load("d20")
    runtime = sys.modules[d20.__name__ + "._runtime.odds"]
    dice = ((2, 6), (20, 6))
    assert d20.get_weapon("greatsword").damage_dice.terms == dice[:1]
    with tempfile.TemporaryDirectory(prefix="rulec-bench-nested-") as tmp:
        nested = _nested_d20(root, Path(tmp))
    assert "_rt_join_dice" in d20.procedures.attack_odds.__code__.co_names
    assert "_rt_join_dice" not in nested.procedures.attack_odds.__code__.co_names
    runtimes = (runtime, sys.modules[nested.__name__ + "._runtime.odds"])

    def clear() -> None:
        for rt in runtimes:
            rt.dice_items.cache_clear()
            rt.dice_sum_distribution.cache_clear()

    def call(m: ModuleType) -> Callable[[], object]:
        attacker, defender = m.Combatant(crit_range=20), m.Combatant()

        def run() -> object:
            clear()
            return m.attack_odds(attacker, defender, "greatsword", sneak_dice=20)
        return run

    def bare() -> object:
        clear()
        return runtime.dice_items(dice, 0, True), runtime.dice_items(dice, 0, False)

    samples: dict[str, list[float]] = {"joined": [], "nested": [], "bare": []}
    for _ in range(max(7, repeats)):  # CPU time, interleaved (the machine is shared)
        for label, fn in (("joined", call(d20)), ("nested", call(nested)), ("bare", bare)):
            start = time.process_time()
            for _ in range(10):
                fn()
            samples[label].append((time.process_time() - start) / 10)
    joined, nest, base = (statistics.median(samples[k]) for k in ("joined", "nested", "bare"))
    r = statistics.median(a / b for a, b in zip(samples["joined"], samples["bare"]))
    rn = statistics.median(a / b for a, b in zip(samples["nested"], samples["bare"]))
    return [("two rolls read as their sum", "d20 `attack_odds`, greatsword, 20 extra d6, crit range 20 (afresh)",
             f"{joined * 1e3:.2f} ms (nested {nest * 1e3:.2f} ms)",
             f"{r:.2f}× of the distribution of its 22 dice ({base * 1e3:.2f} ms); nested {rn:.2f}×", "")]


def bench_until(load: Callable[[str], ModuleType], repeats: int) -> list[Row]:
    tracks = load("tracks")
    attacker = tracks.Combatant(strength=6, fighting=5)
    defender = tracks.Combatant(dexterity=4, perception=2)
    thresholds = (20, 40, 80, 160)
    fns = {t: (lambda t=t: tracks.until("attack", "points", t, attacker, defender, "fist", part="jaw",
                                        max_attacks=400)) for t in thresholds}
    samples: dict[int, list[float]] = {t: [] for t in thresholds}
    for _ in range(max(3, repeats // 2)):  # CPU time, interleaved (the machine is shared)
        for t, fn in fns.items():
            start = time.process_time()
            for _ in range(3):
                fn()
            samples[t].append((time.process_time() - start) / 3)
    secs = [statistics.median(samples[t]) for t in thresholds]
    slope = _slope([math.log(t) for t in thresholds], [math.log(s) for s in secs])
    return [("`until` against the threshold", f"tracks attack points, thresholds {', '.join(map(str, thresholds))}",
             " / ".join(f"{s * 1e3:.1f} ms" for s in secs), f"grows as threshold^{slope:.2f}",
             "≤ 1 or bounded (see docs/benchmarks.md)")]


def _slope(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def _cpu(code: str, path: Path) -> float:
    child = subprocess.Popen([sys.executable, "-c", code], cwd=path)
    _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, code
    return usage.ru_utime + usage.ru_stime


def bench_import(folder: Path, label: str, repeats: int) -> list[Row]:
    """`import rulec_dp` against `import jinja2`, fresh processes alternated, from bytecode."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "dp")], check=True, capture_output=True)
    _cpu("import rulec_dp", folder / "dp")
    ours, theirs = [], []
    for _ in range(max(7, repeats)):
        ours.append(_cpu("import rulec_dp", folder / "dp"))
        theirs.append(_cpu("import jinja2", folder / "dp"))
    ratio = statistics.median(a / b for a, b in zip(ours, theirs))
    return [(f"import generated `dp` ({label})", "CPU of a process that imports it (start-up included)",
             f"{statistics.median(ours) * 1e3:.0f} ms",
             f"{ratio:.2f}× of `import jinja2` ({statistics.median(theirs) * 1e3:.0f} ms)",
             "≤ 1.5× (10,000)" if "10,000" in label else "")]


def bench_cliffs(load: Callable[[str], ModuleType], root: Path, repeats: int) -> list[Row]:
    rows = bench_pool_cliff(repeats) + bench_public_odds(load, repeats) + bench_joined_odds(load, root, repeats)
    rows += bench_until(load, repeats)
    rows += bench_import(root / "generated", "bundled", repeats)
    from bench.make_pack import make_pack

    pack = root / "bench" / "packs" / "w10000"
    if not pack.exists():
        make_pack(10000, pack)
    with tempfile.TemporaryDirectory(prefix="rulec-bench-import-") as tmp:  # a 10,000-weapon build
        subprocess.run([str(Path(sys.executable).parent / "rulec"), "build", "--target", "python,js", "--rules",
                        str(root / "rules" / "dp"), "--rules", str(pack), "--out", tmp], cwd=root, check=True,
                       capture_output=True, env={**os.environ, "RULEC_CACHE_DIR": "off"})
        rows += bench_import(Path(tmp), "10,000-weapon pack", repeats)
        rows += bench_lookup(Path(tmp), repeats)
    return rows


# Unknown words a chat user might send with the 10,000-weapon pack: like many names, like few, none.
MISSES = ["长箭", "拳头x", "自制武器99999x", "自制武器12345x", "自制武器", "w00999"]


def _span(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1e3:.0f} ms (slowest {max(seconds) * 1e3:.0f} ms)"


def bench_lookup(folder: Path, repeats: int) -> list[Row]:
    """An unknown word's suggestion and a lookup by name, with dp and a 10,000-weapon pack built
    into `folder` (each median over MISSES, alternated with the baseline)."""
    import difflib

    from rulec.emit.python import loader

    dp = loader.import_folder("dp", folder / "dp")[0]
    names = list(dp.WEAPONS) + [e.name for e in dp.WEAPONS.values()]

    def miss(key: str) -> Callable[[], object]:
        def call() -> object:
            try:
                return dp.get_weapon(key)
            except dp.RuleError as exc:
                return exc
        return call

    py, base = [], []
    for key in MISSES:
        a, b, _ = _ratios(miss(key), lambda key=key: difflib.get_close_matches(key, names, n=1), max(3, repeats // 2), 1)
        py.append(a)
        base.append(b)
    rows = [("an unknown word's suggestion (是否想找), dp + 10,000 weapons", "Python `get_weapon`, median and "
             f"slowest of {len(MISSES)} words", _span(py), f"slowest {max(py) / max(base):.2f}× of "
             f"`difflib.get_close_matches`'s slowest ({max(base) * 1e3:.0f} ms)", "")]
    try:
        import quickjs
    except ImportError:
        return rows
    script = (folder / "js" / "dp" / "rulec_dp.user.js").read_text(encoding="utf-8")
    texts = [f.read_text(encoding="utf-8") for f in sorted((folder / "dp" / "rulec_dp" / "_rows").glob("*.json"))]
    parse = "".join(f"JSON.parse({json.dumps(text)});\n" for text in texts)
    load, floor = [], []
    for _ in range(max(3, repeats // 2)):  # a bot loading the plugin, against parsing its rows' JSON alone
        for program, into in ((script, load), (parse, floor)):
            fresh = quickjs.Context()
            start = time.process_time()
            fresh.eval(program)
            into.append(time.process_time() - start)
    context = quickjs.Context()
    context.eval(script)
    context.eval("function miss(k) { try { rulec_dp.get_weapon(k); } catch (e) { return e.message; } }\n"
                 "function found(k, n) { for (let i = 0; i < n; i++) rulec_dp.get_weapon(k); }")
    context.eval("miss('长箭')")  # the table's name index and code points, made once a process
    js = []
    for key in MISSES:
        start = time.process_time()
        context.eval(f"miss({key!r})")
        js.append(time.process_time() - start)
    last = dp.WEAPONS[list(dp.WEAPONS)[-1]]
    by_name, by_id, ratio = _ratios(lambda: context.eval(f"found({last.name!r}, 200)"),
                                    lambda: context.eval(f"found({last.id!r}, 200)"), max(3, repeats // 2), 1)
    rows += [("an unknown word's suggestion (是否想找), dp + 10,000 weapons", "the script in QuickJS (no JIT, as "
              f"SealDice's goja), median and slowest of {len(MISSES)} words", _span(js),
              f"slowest {max(js) / max(base):.2f}× of CPython's difflib's slowest", ""),
             ("a weapon by its Chinese name, dp + 10,000 weapons (the last one)", "the script in QuickJS",
              f"{by_name / 200 * 1e6:.1f} µs", f"{ratio:.2f}× of by its id ({by_id / 200 * 1e6:.1f} µs)", ""),
             ("the script loaded (a bot loading the plugin), dp + 10,000 weapons", "QuickJS, a fresh context, CPU, "
              "median", f"{statistics.median(load) * 1e3:.0f} ms", f"{statistics.median(load) / statistics.median(floor):.2f}× "
              f"of `JSON.parse` of its rows files alone ({statistics.median(floor) * 1e3:.0f} ms)", "")]
    return rows
