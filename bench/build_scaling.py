"""Build scaling: synthetic packs of 1,000 / 10,000 / 50,000 weapons against the bare-library floor.

The floor is the same work done with the libraries alone, measured in the same
run: libyaml composing the same files, one cached jsonschema validator over the
same documents, and Jinja rendering the same model template.
"""

from __future__ import annotations

import gc
import glob
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from bench.make_pack import make_pack

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "bench" / "packs"

Row = tuple[str, str, str, str, str]


def _time(fn, repeats: int) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _floor(pack: Path, schema_path: Path) -> float:
    """The same work with the bare libraries: libyaml composing the same files, one cached
    jsonschema validator over the same table documents, and Jinja rendering the same reference
    templates from ready-made view models (their preparation is not counted). Python code is
    written by rulec's own code writer, which has no library counterpart, so the floor leaves it out."""
    from markupsafe import Markup

    from rulec.emit.env import Markdown, render_html, render_markdown
    from rulec.emit.quick_sheet import add_to_view
    from rulec.emit.reference import _where_ranges
    from rulec.emit.reference_view import entry_view, ruleset_view
    from rulec.build.facade import compile_rules

    files = sorted(pack.glob("*.yaml")) + sorted((ROOT / "rules" / "dp").rglob("*.yaml"))
    validator = Draft202012Validator(json.loads(schema_path.read_text(encoding="utf-8")))
    build = compile_rules([ROOT / "rules" / "dp", pack])
    rs = build.rulesets[0]
    ref = ruleset_view(rs, build.digests[rs.id], build.odds[rs.id])
    add_to_view(ref, rs)  # the quick sheet's part of the view, as emit_reference adds it
    _where_ranges(ref)
    texts = [p.read_text(encoding="utf-8") for p in files]
    row_views = [entry_view(e, table["table"], table["names"])
                 for table in ref["tables"] for group in table["groups"] for e in group["entries"]]
    gc.disable()  # as compile_rules does: the comparison is of the work, not of the cyclic collector
    start = time.perf_counter()
    n_pack = len(list(pack.glob("*.yaml")))
    for i, text in enumerate(texts):  # each file parsed once: composed (with positions), then constructed
        loader = yaml.CSafeLoader(text)
        try:
            data = loader.construct_document(loader.get_single_node())
        finally:
            loader.dispose()
        if i < n_pack and isinstance(data, dict) and data.get("kind") == "table":
            for _ in validator.iter_errors(data):
                pass
    md_rows, html_rows = _row_macros()  # Jinja macros of the same rows (bench/templates/)
    done = iter(row_views)
    for table in ref["tables"]:
        for group in table["groups"]:
            rows = []
            for _ in group["entries"]:
                v = next(done)
                rows.append({"md_row": Markdown(md_rows.row(v)), "md_note": Markdown(md_rows.note(v)),
                             "html_row": html_rows.row(v)})
            group["entries"] = rows
    for section in ref["odds"]:
        for group in section["groups"]:
            for kind, macros in (("md", md_rows), ("html", html_rows)):
                for name, until in (("rows", False), ("until_rows", True)):
                    text = "\n".join(str(macros.odds(row, until)) for row in group["rows"])
                    group[f"{kind}_{name}"] = Markdown(text) if kind == "md" else Markup(text)
    render_markdown("reference.md.j2", rs=ref)
    render_html("reference.html.j2", rs=ref)
    elapsed = time.perf_counter() - start
    gc.enable()
    return elapsed


def _build(pack: Path, out: Path) -> float:
    # The peak of this process's own memory (VmHWM, reset by exec): getrusage's ru_maxrss of a child
    # keeps the RSS of the parent it was forked from, which made a big parent look like a big build.
    peak = ("def _peak_kb():\n"
            "    import resource\n"
            "    try:\n"
            "        for line in open('/proc/self/status'):\n"
            "            if line.startswith('VmHWM:'):\n"
            "                return int(line.split()[1])\n"
            "    except OSError:\n"
            "        pass\n"
            "    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n")
    code = peak + ("import sys, time; from pathlib import Path; from rulec.build.facade import compile_rules; "
            "from rulec.build.stamp import STAMP, stamp_bytes; from rulec.build.write import write_tree; t = time.perf_counter(); "
            f"b = compile_rules([Path({str(ROOT / 'rules' / 'dp')!r}), Path({str(pack)!r})]); "
            f"assert b.ok, b.diagnostics[:3]; write_tree(Path({str(out)!r}), {{**b.files, STAMP: stamp_bytes('', b.files)}}); "
            "print(time.perf_counter() - t, _peak_kb())")
    env = {**os.environ, "RULEC_CACHE_DIR": "off"}  # a full build: nothing from the parse cache
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                            env=env)
    seconds, rss_kb = result.stdout.split()
    _build.last_rss_mb = int(rss_kb) / 1024  # type: ignore[attr-defined]
    return float(seconds)


def _cli_build(pack: Path, out: Path, cache: Path | str = "off") -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulec", "build", "--rules", "rules/dp", "--rules", str(pack),
                    "--out", str(out)], cwd=ROOT, check=True, capture_output=True,
                   env={**os.environ, "RULEC_CACHE_DIR": str(cache)})
    return time.perf_counter() - start


_EDIT = "original.replace('notes: 第3000件合成武器', f'notes: 第3000件合成武器（改{i}）')"
_APPEND = ("original + ''.join(f'  - {{id: added{j}, name: 新加{j}, attack_type: melee, damage: 3, "
           "damage_type: lethal}}\\n' for j in range(i + 1))")


def _resident(pack: Path, out: Path, cache: Path, repeats: int, edit: str = _EDIT) -> tuple[float, float]:
    """The median time from an edit of one weapon file (`edit`: its new text, from `original` and
    the repeat `i`) to its output written, in a resident build, as `rulec build --watch` does
    after each edit (cli/main.py `_watch`: `Session.build`, then `write_build` of the Build, which
    stamps it with the digest of the bytes it read): (CPU seconds of the process, user + system as
    the full builds it is compared with are counted; wall-clock seconds)."""
    target = pack / "weapons_003.yaml"
    code = (
        "import statistics, sys, time; from pathlib import Path; from rulec.build.session import Session; "
        "from rulec.build.write import write_build; "
        f"paths = [Path('rules/dp'), Path({str(pack)!r})]; out = Path({str(out)!r}); "
        f"target = Path({str(target)!r}); original = target.read_text(encoding='utf-8'); s = Session(paths)\n"
        "def build():\n"
        "    b = s.build(); assert b.ok; write_build(out, b, sources=paths)\n"
        "build(); times, cpu = [], []\n"
        f"for i in range({repeats}):\n"
        f"    target.write_text({edit}, encoding='utf-8')\n"
        "    t, c = time.perf_counter(), time.process_time(); build()\n"
        "    times.append(time.perf_counter() - t); cpu.append(time.process_time() - c)\n"
        "target.write_text(original, encoding='utf-8'); print(statistics.median(cpu), statistics.median(times))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                            env={**os.environ, "RULEC_CACHE_DIR": str(cache)})
    cpu, wall = result.stdout.split()
    return float(cpu), float(wall)


def _import_time(out: Path, name: str = "dp") -> float:
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(out / name)], check=True, capture_output=True)
    code = (f"import sys, time; sys.path.insert(0, {str(out / name)!r}); t = time.perf_counter(); "
            f"import rulec_{name}; "
            "print(time.perf_counter() - t)")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return statistics.median(float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                                  text=True).stdout) for _ in range(5))


def bench_build(quick: bool = False, repeats: int = 3) -> list[Row]:
    sizes = [1000, 10000] if quick else [1000, 10000, 50000, 100000]
    rows: list[Row] = []
    full: dict[int, float] = {}
    memory: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="rulec-bench-") as tmp:
        for n in sizes:
            pack = PACKS / f"w{n}"
            if not pack.exists():
                make_pack(n, pack)
            out = Path(tmp) / f"out{n}"
            reps = 1 if n >= 50000 else repeats  # medians; one 50,000 build takes half a minute
            builds, floors = [], []
            for _ in range(reps):  # alternated, so that a noisy neighbour slows both alike
                builds.append(_build(pack, out))
                if n < 100000:  # the 100,000 build is there for its memory
                    floors.append(_floor(pack, ROOT / "generated" / "schema" / "dp" / "weapons.schema.json"))
            full[n] = statistics.median(builds)
            memory[n] = rss = _build.last_rss_mb  # type: ignore[attr-defined]
            if floors:
                floor = statistics.median(floors)
                rows.append((f"build dp + {n:,}-weapon pack", "compile_rules + write (fresh process)",
                             f"{full[n]:.2f} s", f"{full[n] / floor:.2f}× of library floor ({floor:.2f} s)",
                             "≤ 1.5× (10,000)" if n == 10000 else ""))
            else:
                rows.append((f"build dp + {n:,}-weapon pack", "compile_rules + write (fresh process)",
                             f"{full[n]:.2f} s", "", ""))
            rows.append((f"build dp + {n:,}-weapon pack", "peak memory", f"{rss:.0f} MiB", "",
                         "< 600 MiB (100,000)" if n == 100000 else ""))
            if n == 10000:
                cache_dir = Path(tmp) / "cache"  # starts empty: the first build is a cold one
                shutil.rmtree(out, ignore_errors=True)
                first = _cli_build(pack, out, cache_dir)
                noop = statistics.median(_cli_build(pack, out, cache_dir) for _ in range(repeats))
                rows.append(("rebuild, nothing changed (10,000)", "`rulec build` twice", f"{noop:.2f} s",
                             f"{noop / first * 100:.1f}% of a full CLI build ({first:.2f} s)", "≤ 5%"))
                target = pack / "weapons_003.yaml"
                original = target.read_text(encoding="utf-8")
                target.write_text(original.replace("notes: 第3000件合成武器", "notes: 第3000件合成武器（改）"),
                                  encoding="utf-8")
                one = _cli_build(pack, out, cache_dir)
                target.write_text(original, encoding="utf-8")
                rows.append(("rebuild after editing one weapon file (10,000)", "`rulec build` (parse cache warm)",
                             f"{one:.2f} s", f"{one / first * 100:.1f}% of a full CLI build", "≤ 15%"))
                resident = _resident(pack, Path(tmp) / "resident", cache_dir, 7)[1]
                rows.append(("rebuild after editing one weapon file (10,000)",
                             "`rulec build --watch` (resident), median, wall", f"{resident:.2f} s",
                             f"{resident / first * 100:.1f}% of a full CLI build (wall)", "≤ 5%"))
                added = _resident(pack, Path(tmp) / "resident", cache_dir, 7, _APPEND)[1]
                rows.append(("rebuild after adding weapons at the end of a file (10,000)",
                             "`rulec build --watch` (resident), median, wall", f"{added:.2f} s",
                             f"{added / first * 100:.1f}% of a full CLI build (wall)", ""))
                rows.append(("import generated `dp` with 10,000-weapon pack", "from .pyc, median",
                             f"{_import_time(out) * 1e3:.1f} ms", "", "≤ 100 ms"))
        if 50000 in full:
            rows.append(("scaling 10,000 → 50,000 weapons", "full build time ratio", "",
                         f"{full[50000] / full[10000]:.2f}×", "≤ 5.2×"))
        if 100000 in memory:
            rows.append(("memory 50,000 → 100,000 weapons", "peak memory growth per 1,000 weapons",
                         f"{(memory[100000] - memory[50000]) / 50:.2f} MiB",
                         f"{memory[100000] / memory[50000]:.2f}× for 2× the weapons", "linear"))
    return rows


def _cpu_build(pack: Path, out: Path, cache: Path | str) -> float:
    """The CPU time (user + system, from `os.wait4`) of one whole `rulec build` process: what a
    user waits for on a quiet machine, steadier than wall time on a loaded one."""
    proc = subprocess.Popen([sys.executable, "-m", "rulec", "build", "--rules", "rules/dp", "--rules", str(pack),
                             "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "RULEC_CACHE_DIR": str(cache)})
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise RuntimeError(f"rulec build failed ({status})")
    return usage.ru_utime + usage.ru_stime


def bench_rebuild(repeats: int = 3) -> list[Row]:
    """Issue 34: the one-shot `rulec build` after an edit, against a full build of the same tree,
    whole processes, CPU time, in one run: the bundled rulesets after one weapon of `rules/dp` is
    edited (`bundled_rebuild`), and a 10,000-weapon pack after one of its weapon files is (each
    round builds with the cache off, then edits the file and builds into the same folder, then
    puts it back and builds: what it reuses comes from the sealed cache and, checked by digest,
    from that output folder: compiler/build/reuse.py); then, in each round, the same edit in
    `--watch` (a resident process of five edits), its ratio taken to that round's full build."""
    pack = PACKS / "w10000"
    if not pack.exists():
        make_pack(10000, pack)
    target = pack / "weapons_003.yaml"
    original = target.read_text(encoding="utf-8")
    edited = original.replace("notes: 第3000件合成武器", "notes: 第3000件合成武器（改）")
    full, edit, back, watched = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="rulec-bench-") as tmp:
        cache, out = Path(tmp) / "cache", Path(tmp) / "out"
        _cpu_build(pack, out, cache)  # fills the cache
        try:
            for _ in range(repeats):
                shutil.rmtree(out, ignore_errors=True)
                full.append(_cpu_build(pack, out, "off"))
                target.write_text(edited, encoding="utf-8")
                edit.append(_cpu_build(pack, out, cache))
                target.write_text(original, encoding="utf-8")
                back.append(_cpu_build(pack, out, cache))
                # a resident build beside each full build: a neighbour's load slows both sides of its ratio
                watched.append(_resident(pack, Path(tmp) / "resident", cache, 5))
        finally:
            target.write_text(original, encoding="utf-8")
    f, e, b = statistics.median(full), statistics.median(edit), statistics.median(back)
    resident, resident_wall = statistics.median(w[0] for w in watched), statistics.median(w[1] for w in watched)
    share = statistics.median(w[0] / x for w, x in zip(watched, full))  # the median of the per-repeat ratios
    bf, be = bundled_rebuild(repeats)["this tree"]
    start = oneshot_start(repeats)
    sc, se, sf = served_rebuild(max(5, repeats))
    pc, pe, pf = served_rebuild(repeats, 10000)
    return [
        ("full build, bundled rulesets", "`rulec build`, cache off, CPU", f"{bf:.2f} s", "", ""),
        ("one-shot rebuild after editing one weapon of `rules/dp` (bundled)", "`rulec build`, cache warm, CPU",
         f"{be:.2f} s", f"{be / bf * 100:.1f}% of the full build", "≤ 15%"),
        ("start-up and imports of that one-shot, nothing run", "a process importing every module it imports, CPU",
         f"{start:.2f} s", f"{start / bf * 100:.1f}% of the full build", ""),
        ("full build, dp + 10,000 weapons", "`rulec build`, cache off, CPU", f"{f:.2f} s", "", ""),
        ("one-shot rebuild after editing one weapon file (10,000)", "`rulec build`, cache warm, CPU",
         f"{e:.2f} s", f"{e / f * 100:.1f}% of the full build", "≤ 15%"),
        ("one-shot rebuild after putting it back (10,000)", "`rulec build`, cache warm, CPU",
         f"{b:.2f} s", f"{b / f * 100:.1f}% of the full build", "≤ 15%"),
        ("rebuild after editing one weapon file (10,000)", "`rulec build --watch` (resident), median, CPU",
         f"{resident:.3f} s", f"{share * 100:.1f}% of the full build beside it (wall: {resident_wall:.3f} s, "
         f"{resident_wall / f * 100:.1f}% of a full build's CPU)", "≤ 5%"),
        ("full build, bundled rulesets (beside the server's rows)", "`rulec build`, cache off, CPU",
         f"{sc:.2f} s", "", ""),
        ("one-shot after editing one weapon of `rules/dp`, build server on", "`RULEC_SERVER=on rulec build`, "
         "CPU of the client and of the server", f"{se:.2f} s", f"{se / sc * 100:.1f}% of the full build", "≤ 15%"),
        ("the first build through the server (it starts the server)", "the same", f"{sf:.2f} s",
         f"{sf / sc * 100:.0f}% of the full build", ""),
        ("full build, dp + 10,000 weapons (beside the server's rows)", "`rulec build`, cache off, CPU",
         f"{pc:.2f} s", "", ""),
        ("one-shot after editing one weapon file (10,000), build server on", "the same", f"{pe:.2f} s",
         f"{pe / pc * 100:.1f}% of the full build", "≤ 15%"),
    ]


def oneshot_start(repeats: int) -> float:
    """What any one-shot `rulec build` process costs before it builds anything: the median CPU of a
    process that imports exactly the modules a one-shot build of the bundled rulesets imports
    after one weapon edit (listed by running that build in a child once), and runs nothing else.
    The part of the one-shot target no work saved in the build itself can reach."""
    listing = ("import atexit, runpy, sys\n"
               "listed = sys.argv[1]\n"
               "def dump():\n"
               "    names = [m for m in sys.modules if m not in ('__main__', 'compiler.__main__')\n"
               "             and not m.startswith('_rulec_')]\n"
               "    open(listed, 'w').write('\\n'.join(names))\n"
               "atexit.register(dump)\n"
               "sys.argv = ['rulec', 'build', '--rules', sys.argv[2], '--out', sys.argv[3]]\n"
               "runpy.run_module('compiler', run_name='__main__')\n")
    importing = ("import importlib, sys\n"
                 "for name in open(sys.argv[1]).read().split():\n"
                 "    try:\n"
                 "        importlib.import_module(name)\n"
                 "    except ImportError:\n"
                 "        pass\n")
    from bench.build_floor import cpu_seconds

    with tempfile.TemporaryDirectory(prefix="rulec-bench-") as tmp:
        home = Path(tmp)
        shutil.copytree(ROOT / "rules", home / "rules")
        env = {**os.environ, "RULEC_CACHE_DIR": str(home / "cache")}
        _tree_build(ROOT, home, "out", "cache")  # fills the cache and the folder
        target = home / "rules" / "dp" / "tables" / "weapons.yaml"
        target.write_text(target.read_text(encoding="utf-8").replace("notes: ", "notes: 改：", 1), encoding="utf-8")
        modules = home / "modules.txt"
        cpu_seconds([sys.executable, "-c", listing, str(modules), str(home / "rules"), str(home / "out")], env)
        return statistics.median(cpu_seconds([sys.executable, "-c", importing, str(modules)], env)
                                 for _ in range(max(3, repeats)))


def bundled_rebuild(repeats: int, trees: dict[str, Path] | None = None) -> dict[str, tuple[float, float]]:
    """The build users run most: the bundled rulesets (a copy of rules/), cold (cache off, a fresh
    folder), and again after editing one weapon's notes in `dp/tables/weapons.yaml` (the README's
    first homebrew step; cache on, the same folder), whole processes, CPU, alternated between the
    `trees` (name -> a checkout whose compiler runs as `python -m compiler`; default this one);
    medians (cold, edited) for each tree."""
    def copy(tree: Path, home: Path) -> None:
        shutil.copytree(tree / "rules", home / "rules")

    return _alternated(repeats, trees or {"this tree": ROOT}, copy, Path("rules") / "dp" / "tables" / "weapons.yaml")


def pack_rebuild(repeats: int, trees: dict[str, Path], size: int = 10000) -> dict[str, tuple[float, float]]:
    """`bundled_rebuild` for dp with a pack of `size` weapons, one weapon's notes of the pack's
    fourth file (or its last) edited each round (the trees alternated, each with its own cache and
    folder)."""
    pack = PACKS / f"w{size}"
    if not pack.exists():
        make_pack(size, pack)
    files = sorted(pack.glob("weapons_*.yaml"))

    def copy(tree: Path, home: Path) -> None:
        shutil.copytree(ROOT / "rules" / "dp", home / "dp")
        shutil.copytree(pack, home / "pack")

    return _alternated(repeats, trees, copy, Path("pack") / files[min(3, len(files) - 1)].name)


def _alternated(repeats: int, trees: dict[str, Path], copy: Callable[[Path, Path], None],
                edited: Path) -> dict[str, tuple[float, float]]:
    """For each tree, a home folder with the rules `copy` puts there, built once (filling its cache
    and folder); then, each round and each tree in turn, a cold build (cache off, a fresh folder)
    and a one-shot build after one more edit of the notes in `edited` (cache on, the same folder).
    Medians (cold, edited) for each tree."""
    samples: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in trees}
    with tempfile.TemporaryDirectory(prefix="rulec-bench-") as tmp:
        for n, tree in enumerate(trees.values()):
            # each tree's modules from bytecode, as a user's install (this machine sets PYTHONDONTWRITEBYTECODE)
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "compiler")], check=True,
                           capture_output=True)
            home = Path(tmp) / str(n)
            copy(tree, home)
            _tree_build(tree, home, "out", "cache")  # fills the cache and the folder
        for i in range(repeats):
            for n, (name, tree) in enumerate(trees.items()):
                home = Path(tmp) / str(n)
                shutil.rmtree(home / "cold", ignore_errors=True)
                samples[name][0].append(_tree_build(tree, home, "cold", "off"))
                target = home / edited
                target.write_text(target.read_text(encoding="utf-8").replace("notes: ", f"notes: 第{i}次修改：", 1),
                                  encoding="utf-8")
                samples[name][1].append(_tree_build(tree, home, "out", "cache"))
    return {name: (statistics.median(cold), statistics.median(edit)) for name, (cold, edit) in samples.items()}


def served_rebuild(repeats: int, size: int = 0) -> tuple[float, float, float]:
    """The one-shot `rulec build` with the build server on (`RULEC_SERVER=on`, build/server.py):
    the bundled rulesets (or dp with a pack of `size` weapons) in a home folder, built through the
    server once (which starts it); then, each round, a cold build in the process (cache off, a
    fresh folder, no server) and a served build after one more edit of one weapon's notes. A
    served build costs the client process (CPU from `os.wait4`) and the server's share (the CPU
    the server process spent meanwhile, from /proc/PID/task/*/schedstat): both are counted.
    Medians (cold, served edit, the first served build)."""
    from bench.build_floor import cpu_seconds
    from compiler.cli import server_link

    with tempfile.TemporaryDirectory(prefix="rulec-bench-") as tmp:
        home = Path(tmp)
        if size:
            pack = PACKS / f"w{size}"
            if not pack.exists():
                make_pack(size, pack)
            shutil.copytree(ROOT / "rules" / "dp", home / "dp")
            shutil.copytree(pack, home / "pack")
            rules = ["--rules", str(home / "dp"), "--rules", str(home / "pack")]
            files = sorted(pack.glob("weapons_*.yaml"))
            edited = home / "pack" / files[min(3, len(files) - 1)].name
        else:
            shutil.copytree(ROOT / "rules", home / "rules")
            rules = ["--rules", str(home / "rules")]
            edited = home / "rules" / "dp" / "tables" / "weapons.yaml"
        build = [sys.executable, "-m", "compiler", "build", *rules, "--out"]
        served_env = {**os.environ, "RULEC_SERVER": "on", "RULEC_CACHE_DIR": str(home / "cache"),
                      "RULEC_SERVER_IDLE": "600"}
        alone_env = {k: v for k, v in os.environ.items() if k != "RULEC_SERVER"} | {"RULEC_CACHE_DIR": "off"}
        first_client = cpu_seconds(build + [str(home / "out")], served_env)
        (sock,) = (home / "cache" / "server").glob("*.sock")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.connect(str(sock))
            ids = server_link.peer_ids(probe)
        assert ids is not None
        pid = ids[0]
        first = first_client + _process_cpu(pid)  # the server's CPU so far: its start and that build
        cold, served = [], []
        try:
            for i in range(repeats):
                shutil.rmtree(home / "cold", ignore_errors=True)
                cold.append(cpu_seconds(build + [str(home / "cold")], alone_env))
                edited.write_text(edited.read_text(encoding="utf-8").replace("notes: ", f"notes: 第{i}次修改：", 1),
                                  encoding="utf-8")
                before = _process_cpu(pid)
                client = cpu_seconds(build + [str(home / "out")], served_env)
                served.append(client + _process_cpu(pid) - before)
        finally:
            subprocess.run([sys.executable, "-m", "compiler", "server", "stop"], cwd=ROOT, env=served_env,
                           capture_output=True)
    return statistics.median(cold), statistics.median(served), first


def _process_cpu(pid: int) -> float:
    """CPU seconds another process has spent, summed over its threads (nanoseconds, from schedstat)."""
    return sum(int(Path(f).read_text().split()[0]) for f in glob.glob(f"/proc/{pid}/task/*/schedstat")) / 1e9


def _tree_build(tree: Path, home: Path, out: str, cache: str) -> float:
    """CPU seconds of `tree`'s `python -m compiler build` of `home/rules` (or, when it has one,
    `home/dp` and `home/pack`) into `home/out`, with the cache `home/cache` (or off)."""
    from bench.build_floor import _build_cpu

    env = {**os.environ, "RULEC_CACHE_DIR": cache if cache == "off" else str(home / cache)}
    rules = ["--rules", str(home / "dp"), "--rules", str(home / "pack")] if (home / "pack").is_dir() else [
        "--rules", str(home / "rules")]
    return _build_cpu(tree, rules, home / out, env)




def _row_macros() -> tuple[Any, Any]:
    """The Jinja macros of the pages' table rows, which the floor renders: what rulec did before it
    wrote the rows itself (compiler/emit/reference_rows.py), and what a Jinja site generator does."""
    import jinja2

    from rulec.emit.env import _finalize_markdown, md_code

    loader = jinja2.FileSystemLoader(str(Path(__file__).resolve().parent / "templates"))
    md = jinja2.Environment(loader=loader, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                            finalize=_finalize_markdown)
    md.filters["code"] = md_code
    html = jinja2.Environment(loader=loader, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              autoescape=True)
    return md.get_template("reference_rows.md.j2").module, html.get_template("reference_rows.html.j2").module


if __name__ == "__main__":
    if "--rebuild" in sys.argv:  # python -m bench.build_scaling --rebuild [--before DIR] [--pack SIZE] [N]
        before = sys.argv[sys.argv.index("--before") + 1] if "--before" in sys.argv else None
        size = int(sys.argv[sys.argv.index("--pack") + 1]) if "--pack" in sys.argv else None
        counts = [int(a) for a in sys.argv[1:] if a.isdigit() and a != str(size)]
        trees = {"before": Path(before), "after": ROOT} if before else None
        found = (pack_rebuild(counts[0] if counts else 3, trees or {"this tree": ROOT}, size) if size
                 else bundled_rebuild(counts[0] if counts else 3, trees))
        for name, (cold, edit) in found.items():
            print(f"{name}: cold build {cold:.2f} s, after one weapon edit {edit:.2f} s ({edit / cold * 100:.0f}%)")
        sys.exit(0)
    for row in bench_build(quick="--quick" in sys.argv):
        print(" | ".join(row))
    shutil.rmtree(PACKS, ignore_errors=True) if "--clean" in sys.argv else None
