"""The `rulec` commands that compile: build, validate, import and the rest (I/O and exit codes
only; the passes are the facade's). `resolve` and `odds` live in cli_play.py; both register on
the group of cli_shell.py, which holds the exit codes."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .terminal import raw
from .cli_shell import EXIT_INVALID, EXIT_OK, FORMAT, guarded, main, report
from .config import project_config
from .freshness import remember, snapshot
from .stamp import STAMP, input_digest, is_fresh
from .load.paths import display_path
from .write import TreeDiff, WriteError, build_stamp, check_target, diff_tree, write_build

if TYPE_CHECKING:
    from .facade import Build


def ir_json(value: Any, shown: dict[str, str] | None = None) -> Any:
    """The IR as plain JSON: dataclasses as objects, spans as 'file:line:col' (the file as the user
    opens it, through `shown`: the build's names for the files it read)."""
    from .diagnostics import Span

    names = shown or {}
    if isinstance(value, Span):
        return f"{names.get(value.file, value.file)}:{value.line}:{value.col}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: ir_json(getattr(value, f.name), names) for f in dataclasses.fields(value)
                  if f.metadata.get("dump", True)}
        return {"kind": type(value).__name__, **fields} if "kind" not in fields else fields
    if isinstance(value, dict):
        return {str(k): ir_json(v, names) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [ir_json(v, names) for v in items]
    return value


class _Progress:
    """On a terminal, once a build has run for a second: one status line naming the pass (and
    the share of files read while loading), rewritten in place and cleared at the end."""

    DELAY = 1.0

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or time.monotonic() - self.start < self.DELAY:
            return
        label = _STAGES.get(stage, stage)
        text = f"rulec: {label} {done}/{total}" if stage == "load" and total > 1 else f"rulec: {label}…"
        out = raw(sys.stderr)  # the line's own \r and erase codes; `text` holds no user text
        out.write("\r\x1b[2K" + text)
        out.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            raw(sys.stderr).write("\r\x1b[2K")
            raw(sys.stderr).flush()


_STAGES = {"load": "reading rule files", "validate": "checking the rules", "lower": "building the IR",
           "optimise": "optimising", "emit": "writing packages and pages"}


def _compile(paths: list[Path], stop_after: str = "emit", targets: tuple[str, ...] = ("python", "js"),
             uncached: bool = False) -> Build:
    """Run the passes; `uncached`: with no memo at all, so that nothing read from the cache folder
    can take part (`rulec build --check`)."""
    # Imported here: the compiler's passes pull in YAML, jsonschema and Jinja, which an
    # unchanged rebuild (a stamp check) never needs.
    from .facade import compile_rules
    from .memo import NO_MEMO

    progress = _Progress()
    try:
        return compile_rules(paths, progress=progress, stop_after=stop_after, targets=targets,
                             memo=NO_MEMO if uncached else None)
    finally:
        progress.close()


BUNDLED_OUT = Path("generated")


def _packs_given(paths: list[Path]) -> list[str]:
    """The names of the homebrew packs among the rule paths (folders with pack.yaml)."""
    from .load.sources import discover

    folders, _ = discover(paths)
    return [f.name for f in folders if f.is_pack]


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--rules", multiple=True, type=click.Path(path_type=Path),
              help="Ruleset folders and packs, as for build (the same as giving them as arguments).")
@FORMAT
@click.option("--dump-ir", is_flag=True, help="Print the lowered IR of each ruleset as JSON (stop after lowering).")
@guarded
def validate(paths: tuple[Path, ...], rules: tuple[Path, ...], fmt: str, dump_ir: bool) -> int:
    """Check rule folders or files (default: the project config's rules, else rules/) and print every problem."""
    config = project_config(fmt)
    if config is None:
        return EXIT_INVALID
    build = _compile(list(paths) + list(rules) or list(config.rules) or [Path("rules")], stop_after="lower")
    report(build.diagnostics, fmt)
    if dump_ir and build.ok:
        click.echo(json.dumps([ir_json(rs, build.shown) for rs in build.rulesets], ensure_ascii=False, indent=1))
    if build.ok and fmt == "text":
        click.echo(f"ok: {len(build.rulesets)} ruleset(s) valid", err=True)
    return EXIT_OK if build.ok else EXIT_INVALID


@main.command()
@click.option("--rules", "rules", multiple=True, type=click.Path(path_type=Path),
              help="A rules folder, ruleset folder or homebrew pack (repeatable). Default: rules/")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output folder; it belongs to the build. Default: generated/ (a build with packs must name its own).")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 and list every file that differs.")
@click.option("--target", "target", default="python,js", show_default=True,
              help="The packages to write, comma-separated: python (generated/<ruleset>/), js (generated/js/<ruleset>/).")
@click.option("--watch", is_flag=True,
              help="Keep running: build now, then again each time a rule file changes (Ctrl-C stops). "
                   "A rebuild redoes only the work the edit touched.")
@click.option("--interval", type=click.FloatRange(0.05, 60), default=0.5, show_default=True,
              help="With --watch: seconds between looks at the rule files.")
@FORMAT
@guarded
def build(rules: tuple[Path, ...], out: Path | None, check: bool, target: str, watch: bool, interval: float,
          fmt: str) -> int:
    """Compile rules into Python and JavaScript packages and reference pages."""
    config = project_config(fmt)  # defaults for --rules and --out (rulec.toml, [tool.rulec])
    if config is None:
        return EXIT_INVALID
    paths, out = list(rules) or list(config.rules) or [Path("rules")], out or config.out
    if out is None:
        packs = _packs_given(paths)
        if packs:  # generated/ is the bundled rules' committed build: a pack build never lands there unasked
            click.echo(f"rulec: a build with homebrew packs ({', '.join(packs)}) needs an output folder of its own: "
                       "add --out DIR (generated/ holds the build of the bundled rules); nothing was written", err=True)
            return EXIT_INVALID
        out = BUNDLED_OUT
    targets = tuple(t for t in ("python", "js") if t in {x.strip() for x in target.split(",")})
    unknown = sorted({x.strip() for x in target.split(",")} - {"python", "js"})
    if unknown or not targets:
        click.echo(f"rulec: unknown target {', '.join(unknown) or repr(target)}; the targets are python and js", err=True)
        return EXIT_INVALID
    if watch and check:
        click.echo("rulec: --watch writes; it cannot be combined with --check", err=True)
        return EXIT_INVALID
    if not check:
        try:
            check_target(out, paths)
        except WriteError as exc:
            click.echo(f"rulec: {exc}; nothing was written", err=True)
            return EXIT_INVALID
    if watch:
        return _watch(paths, out, targets, fmt, interval)
    before = None if check else snapshot(out, paths, targets)
    inputs = input_digest(paths, targets)
    if not check and is_fresh(out, inputs):
        remember(out, before)
        click.echo(f"{out} unchanged (inputs and outputs match its build stamp)", err=True)
        return EXIT_OK
    result = _compile(paths, targets=targets, uncached=check)  # --check trusts no cache entry
    report(result.diagnostics, fmt)
    if not result.ok:
        click.echo("build failed; nothing was written", err=True)
        return EXIT_INVALID
    if check:
        diff = diff_tree(out, {**result.files, STAMP: build_stamp(result)})
        if diff:
            for line in diff.lines():
                click.echo(f"{out}/{line.split(': ', 1)[1].strip()}: {line.split(':')[0]}", err=True)
            click.echo(f"{out} is stale: {len(diff.lines())} file(s) differ from a fresh build; "
                       "run `rulec build`", err=True)
            return EXIT_INVALID
        click.echo(f"{out} is up to date ({len(result.files) + 1} files, the stamp with them)", err=True)
        return EXIT_OK
    try:
        diff = write_build(out, result, sources=paths)
    except WriteError as exc:
        click.echo(f"rulec: {exc}", err=True)
        return EXIT_INVALID
    _wrote(out, diff, len(result.files))
    return EXIT_OK


def _wrote(out: Path, diff: TreeDiff, files: int, took: str = "") -> None:
    for note in diff.notes:
        click.echo(f"rulec: {note}", err=True)
    if diff:
        click.echo(f"wrote {out}: {len(diff.changed)} changed, {len(diff.added)} new, "
                   f"{len(diff.removed)} removed{took}", err=True)
    else:
        click.echo(f"{out} unchanged ({files + 1} files, the stamp with them){took}", err=True)


def _watch(paths: list[Path], out: Path, targets: tuple[str, ...], fmt: str, interval: float,
           stop: Callable[[], bool] = lambda: False) -> int:
    """`rulec build --watch`: a resident build (session.py), rebuilt after every edit."""
    from .session import Session, edits

    session = Session(paths, targets)
    click.echo(f"rulec: watching {', '.join(display_path(p) for p in paths)} (Ctrl-C stops)", err=True)
    try:
        for changed in edits(paths, interval, stop):
            if changed:  # the time and what changed, so a log of a long session reads on its own
                more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
                click.echo(f"[{time.strftime('%H:%M:%S')}] changed: {', '.join(changed[:3])}{more}", err=True)
            start = time.perf_counter()
            result = session.build()  # stamped with the bytes it read: an edit during it is built again
            report(result.diagnostics, fmt)
            if not result.ok:
                click.echo("build failed; nothing was written (waiting for the next edit)", err=True)
                continue
            try:
                diff = write_build(out, result, sources=paths)
            except WriteError as exc:
                click.echo(f"rulec: {exc}", err=True)
                continue
            _wrote(out, diff, len(result.files), f" in {(time.perf_counter() - start) * 1000:.0f} ms "
                   f"at {time.strftime('%H:%M:%S')}")
    except KeyboardInterrupt:
        click.echo("rulec: stopped watching", err=True)
    return EXIT_OK


@main.group("import")
def import_group() -> None:
    """Turn third-party data into rules YAML."""


@import_group.command("5e-srd")
@click.argument("source", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--into", "into", required=True, type=click.Path(path_type=Path, dir_okay=False),
              help="The table file to write, inside a ruleset or pack folder, e.g. rules/d20/tables/weapons.yaml.")
@click.option("--rules", "bases", multiple=True, type=click.Path(path_type=Path),
              help="When --into is in a pack: the rulesets it extends (default: rules/).")
@FORMAT
@guarded
def import_srd_command(source: Path, into: Path, bases: tuple[Path, ...], fmt: str) -> int:
    """Import the weapons of a 5e SRD equipment JSON file (2014 or 2024 layout) into a d20 weapons
    table file. Re-importing merges by id; a hand-written file is never overwritten; a result that
    would not validate is never written."""
    from .importers import srd_write
    from .importers.srd import import_srd
    from .load import display_path

    entries, diags = import_srd(source, display_path(source))
    plan = None
    if entries is not None:
        plan, diags = srd_write.plan(into, entries)
    if plan is not None:
        diags = srd_write.check(into, plan.text, list(bases) or [Path("rules")])
    if plan is None or any(d.severity == "error" for d in diags):
        report(diags, fmt)
        click.echo("import failed; nothing was written", err=True)
        return EXIT_INVALID
    report(diags, fmt)
    srd_write.write(into, plan.text)
    click.echo(f"wrote {display_path(into)}: {plan.imported} weapons from the SRD", err=True)
    if plan.kept:
        click.echo(f"kept {len(plan.kept)} entries that are not in the SRD file: {', '.join(plan.kept)}", err=True)
    if plan.replaced:
        click.echo(f"replaced {len(plan.replaced)} entries that differed from the SRD data: "
                   f"{', '.join(plan.replaced)}", err=True)
    return EXIT_OK




@main.group("new")
def new_group() -> None:
    """Start something new from a template."""


@new_group.command("pack")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--extends", default="dp", show_default=True, help="The ruleset the pack extends.")
@click.option("--rules", "rules", type=click.Path(path_type=Path), default=None,
              help="The folder of the rulesets (default: the project config's, else rules/).")
@click.option("--id", "pid", default=None, help="The pack id (default: from the folder's name).")
@guarded
def new_pack_command(folder: Path, extends: str, rules: Path | None, pid: str | None) -> int:
    """Write a working homebrew pack folder: manifest, rulec.toml, tables, a scenario, a README."""
    from .scaffold import ScaffoldError, new_pack

    config = project_config()
    if config is None:
        return EXIT_INVALID
    bases = [rules] if rules else [p for p in config.rules if (p / extends / "ruleset.yaml").is_file()]
    try:
        written = new_pack(folder, (bases or [Path("rules")])[0], extends, pid)
    except ScaffoldError as exc:
        click.echo(f"rulec: {exc}; nothing was written", err=True)
        return EXIT_INVALID
    click.echo(f"wrote {display_path(folder)}/: {', '.join(p.relative_to(folder).as_posix() for p in written)}\n"
               f"next: cd {display_path(folder)} && rulec build && rulec test", err=True)
    return EXIT_OK


from . import cli_play as _cli_play  # noqa: E402,F401  (registers `resolve` and `odds` on `main`)
