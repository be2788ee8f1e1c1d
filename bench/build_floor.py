"""`rulec build` against the library floor, both as whole processes (issue 34).

Each repeat runs `python bench/floor.py` (libyaml + fastjsonschema + Jinja2 over the same
inputs, start-up and imports included: bench/floor.py) and `rulec build` into a fresh folder,
one after the other, and reads each child's CPU time (user + system, `os.wait4`); a ratio is the
median of the per-repeat ratios, so a noisy neighbour slows both sides of a ratio alike. Both
sides load their own modules from bytecode (this machine sets PYTHONDONTWRITEBYTECODE, so it
is written first). The floor's validators are generated ahead (`floor.py --prepare`): the
stricter floor; the floor compiling its 29 schemas in the process is reported beside it.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.make_pack import make_pack

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "bench" / "packs"
FLOOR = ROOT / "bench" / "floor.py"

Row = tuple[str, str, str, str, str]


def cpu_seconds(command: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> float:
    """The CPU time (user + system) of one child process running `command` (from the repo root)."""
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"{command[:3]} failed: {err.decode(errors='replace')[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def compare(folders: list[Path], repeats: int, tmp: Path, validators: Path) -> dict[str, float]:
    """Median CPU seconds of the floor (validators ahead / compiled in process) and of `rulec build`
    with the cache off, on and empty (a user's first build) and warm, and the medians of the
    per-repeat ratios."""
    rulec = [str(Path(sys.executable).parent / "rulec"), "build", *[x for f in folders for x in ("--rules", str(f))]]
    cache = tmp / "cache"
    off = {**os.environ, "RULEC_CACHE_DIR": "off"}
    warm = {**os.environ, "RULEC_CACHE_DIR": str(cache)}
    cpu_seconds(rulec + ["--out", str(tmp / "first")], warm)  # fills the cache
    samples: dict[str, list[float]] = {"floor": [], "floor_compiling": [], "off": [], "cold": [], "warm": []}
    for i in range(repeats):
        floor_out = tmp / f"floor{i}"
        samples["floor"].append(cpu_seconds([sys.executable, str(FLOOR), "--validators", str(validators),
                                             str(floor_out), *map(str, folders)]))
        samples["off"].append(cpu_seconds(rulec + ["--out", str(tmp / f"off{i}")], off))
        samples["floor_compiling"].append(cpu_seconds([sys.executable, str(FLOOR), str(floor_out),
                                                       *map(str, folders)]))
        samples["warm"].append(cpu_seconds(rulec + ["--out", str(tmp / f"warm{i}")], warm))
        # a user's first build: the cache on, and empty
        cold = {**os.environ, "RULEC_CACHE_DIR": str(tmp / f"cold-cache{i}")}
        samples["cold"].append(cpu_seconds(rulec + ["--out", str(tmp / f"cold{i}")], cold))
        for name in ("off", "warm", "cold", "cold-cache"):
            shutil.rmtree(tmp / f"{name}{i}", ignore_errors=True)
    out = {k: statistics.median(v) for k, v in samples.items()}
    for side in ("off", "cold", "warm"):
        out[f"{side}/floor"] = statistics.median(a / b for a, b in zip(samples[side], samples["floor"]))
        out[f"{side}/floor_compiling"] = statistics.median(
            a / b for a, b in zip(samples[side], samples["floor_compiling"]))
    return out


def prepare(tmp: Path) -> Path:
    """Bytecode for rulec's modules and the floor's validators, generated ahead."""
    validators = tmp / "validators"
    subprocess.run([sys.executable, str(FLOOR), "--prepare", str(validators)], cwd=ROOT, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "compiler"), str(validators)],
                   check=True, capture_output=True)
    return validators


CASES = [("bundled rulesets only (d20, dp, tracks)", 0, "≤ 2×"), ("dp + 1,000-weapon pack", 1000, "≤ 2×"),
         ("dp + 10,000-weapon pack", 10000, "≤ 1.3×")]


def bench_build_floor(repeats: int = 5, sizes: tuple[int, ...] = (0, 1000, 10000)) -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="rulec-bench-floor-") as name:
        tmp = Path(name)
        validators = prepare(tmp)
        for label, n, target in CASES:
            if n not in sizes:
                continue
            if n:
                pack = PACKS / f"w{n}"
                if not pack.exists():
                    make_pack(n, pack)
                folders = [ROOT / "rules" / "dp", pack]
            else:
                folders = [ROOT / "rules"]
            case = tmp / f"case{n}"
            case.mkdir()
            r = compare(folders, repeats if n < 10000 else max(3, repeats - 2), case, validators)
            rows += [
                (f"`rulec build`, {label}", "CPU of the process, parse cache off, fresh output folder",
                 f"{r['off']:.2f} s", f"{r['off/floor']:.2f}× of the floor ({r['floor']:.2f} s)", target),
                (f"`rulec build`, {label}", "CPU of the process, a first build: cache on and empty",
                 f"{r['cold']:.2f} s", f"{r['cold/floor']:.2f}× of the floor", ""),
                (f"`rulec build`, {label}", "CPU of the process, parse cache warm, fresh output folder",
                 f"{r['warm']:.2f} s", f"{r['warm/floor']:.2f}× of the floor", ""),
                (f"library floor, {label}", "`python bench/floor.py`, validators compiled in the process",
                 f"{r['floor_compiling']:.2f} s", f"rulec (cache off) {r['off/floor_compiling']:.2f}× of it", ""),
            ]
    return rows


def _build_cpu(tree: Path, args: list[str], out: Path, env: dict[str, str]) -> float:
    """CPU seconds of `python -m compiler build ARGS --out OUT` run in `tree` (its own compiler)."""
    return cpu_seconds([sys.executable, "-m", "compiler", "build", *args, "--out", str(out)], env, cwd=tree)


def bench_before_after(before: Path, repeats: int, sizes: tuple[int, ...]) -> None:
    """The floor, the compiler of another tree (`before`, e.g. `git archive main | tar -x -C DIR`) and
    this tree's, alternated, parse cache off, each `python -m compiler build` in its own tree."""
    off = {**os.environ, "RULEC_CACHE_DIR": "off"}
    with tempfile.TemporaryDirectory(prefix="rulec-bench-before-") as name:
        tmp = Path(name)
        validators = prepare(tmp)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(before / "compiler")], check=True,
                       capture_output=True)
        for n in sizes:
            folders = [ROOT / "rules"]
            if n:
                pack = PACKS / f"w{n}"
                if not pack.exists():
                    make_pack(n, pack)
                folders = [ROOT / "rules" / "dp", pack]
            args = [x for f in folders for x in ("--rules", str(f))]
            s: dict[str, list[float]] = {"floor": [], "before": [], "after": []}
            for i in range(repeats):
                s["floor"].append(cpu_seconds([sys.executable, str(FLOOR), "--validators", str(validators),
                                               str(tmp / f"floor{n}_{i}"), *map(str, folders)]))
                for side, tree in (("before", before), ("after", ROOT)):
                    s[side].append(_build_cpu(tree, args, tmp / f"{side}{n}_{i}", off))
                    shutil.rmtree(tmp / f"{side}{n}_{i}", ignore_errors=True)
            med = {k: statistics.median(v) for k, v in s.items()}
            ratio = {k: statistics.median(a / b for a, b in zip(s[k], s["floor"])) for k in ("before", "after")}
            change = statistics.median(a / b for a, b in zip(s["after"], s["before"]))
            print(f"{n} weapons: floor {med['floor']:.2f} s, before {med['before']:.2f} s ({ratio['before']:.2f}×), "
                  f"after {med['after']:.2f} s ({ratio['after']:.2f}×), after/before {change:.3f}")
            print("   samples:", {k: [round(x, 2) for x in v] for k, v in s.items()})


if __name__ == "__main__":
    if "--before" in sys.argv:  # python -m bench.build_floor 3 --before DIR [--sizes 0,1000]
        at = sys.argv.index("--before")
        chosen = sys.argv[sys.argv.index("--sizes") + 1] if "--sizes" in sys.argv else "0"
        bench_before_after(Path(sys.argv[at + 1]).resolve(), int(sys.argv[1]) if sys.argv[1].isdigit() else 3,
                           tuple(int(x) for x in chosen.split(",")))
    else:
        for row in bench_build_floor(repeats=int(sys.argv[1]) if len(sys.argv) > 1 else 5):
            print(" | ".join(row))
