"""The `rulec` commands that compile: build, validate, import and the rest (I/O and exit codes
only; the passes are the facade's). `resolve`, `odds` and `test` live in play_cmd.py; both register on
the group of shell.py, which holds the exit codes."""

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
from .shell import EXIT_INVALID, EXIT_OK, FORMAT, guarded, main, report
from ..build.freshness import remember, snapshot
from ..build.stamp import STAMP, input_digest, is_fresh, stamp_packs
from ..load.paths import display_path
from ..build.write import TreeDiff, WriteError, build_stamp, check_target, diff_tree, write_build
from ..messages import say
from .output import project_config

if TYPE_CHECKING:
    from ..build.result import Build


def ir_json(value: Any, shown: dict[str, str] | None = None) -> Any:
    """The IR as plain JSON: records (mutable ones and dataclasses too) as objects, spans as
    'file:line:col' (the file as the user opens it, through `shown`: the build's names for the
    files it read)."""
    from ..diagnostics import Span
    from ..record import MutableRecord, Record, field_names

    names = shown or {}
    if isinstance(value, Span):
        return f"{names.get(value.file, value.file)}:{value.line}:{value.col}"
    record = isinstance(value, (Record, MutableRecord))
    if record or dataclasses.is_dataclass(value) and not isinstance(value, type):
        keys = field_names(value) if record else [f.name for f in dataclasses.fields(value)]
        fields = {name: ir_json(getattr(value, name), names) for name in keys}
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
        label = say(f"cli.stage.{stage}") if stage in _STAGES else stage
        text = f"rulec: {label} {done}/{total}" if stage == "load" and total > 1 else f"rulec: {label}…"
        out = raw(sys.stderr)  # the line's own \r and erase codes; `text` holds no user text
        out.write("\r\x1b[2K" + text)
        out.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            raw(sys.stderr).write("\r\x1b[2K")
            raw(sys.stderr).flush()


_STAGES = ("load", "validate", "lower", "optimise", "emit")  # each names its catalogue line, cli.stage.<stage>


def _compile(paths: list[Path], stop_after: str = "emit", targets: tuple[str, ...] = ("python", "js"),
             uncached: bool = False, previous: Path | None = None) -> Build:
    """Run the passes; `uncached`: with no memo at all, so that nothing read from the cache folder
    can take part (`rulec build --check`); `previous`: the output folder the build will replace,
    whose unchanged rulesets' files it may reuse (build/reuse.py)."""
    # Imported here: the compiler's passes pull in YAML, jsonschema and Jinja, which an
    # unchanged rebuild (a stamp check) never needs.
    from ..build import resident
    from ..build.facade import compile_rules
    from ..memo import Memo

    progress = _Progress()
    try:
        session = resident.session(paths, targets) if not uncached and stop_after == "emit" else None
        if session is not None:  # in a build server (cli/server.py): its resident build of these rules
            return session.build(progress)
        return compile_rules(paths, progress=progress, stop_after=stop_after, targets=targets,
                             memo=Memo() if uncached else None, previous=None if uncached else previous)
    finally:
        progress.close()


BUNDLED_OUT = Path("generated")


def _packs_given(paths: list[Path]) -> list[str]:
    """The names of the homebrew packs among the rule paths (folders with pack.yaml)."""
    from ..load.sources import discover

    folders, _ = discover(paths)
    return [f.name for f in folders if f.is_pack]


@main.command(help=say("help.cmd.validate"))
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--rules", multiple=True, type=click.Path(path_type=Path),
              help=say("help.cli.ruleset-folders-packs-as"))
@FORMAT
@click.option("--dump-ir", is_flag=True, help=say("help.cli.print-lowered-ir-each"))
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
        click.echo(say("cli.ok-ruleset-valid", n_rulesets=len(build.rulesets)), err=True)
    return EXIT_OK if build.ok else EXIT_INVALID


@main.command(help=say("help.cmd.build"))
@click.option("--rules", "rules", multiple=True, type=click.Path(path_type=Path),
              help=say("help.cli.rules-folder-ruleset-folder"))
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help=say("help.cli.output-folder-belongs-build"))
@click.option("--check", is_flag=True, help=say("help.cli.write-nothing-exit-1"))
@click.option("--target", "target", default="python,js", show_default=True,
              help=say("help.cli.packages-write-comma-separated"))
@click.option("--watch", is_flag=True,
              help=say("help.cli.keep-running-build-now"))
@click.option("--interval", type=click.FloatRange(0.05, 60), default=0.5, show_default=True,
              help=say("help.cli.with-watch-seconds-between"))
@FORMAT
@guarded
def build(rules: tuple[Path, ...], out: Path | None, check: bool, target: str, watch: bool, interval: float,
          fmt: str) -> int:
    """Compile rules into Python and JavaScript packages and reference pages."""
    config = project_config(fmt)  # defaults for --rules and --out (rulec.toml, [tool.rulec])
    if config is None:
        return EXIT_INVALID
    chosen_by_config = out is None and config.out is not None
    paths, out = list(rules) or list(config.rules) or [Path("rules")], out or config.out
    if out is None:
        packs = _packs_given(paths)
        if packs:  # generated/ is the bundled rules' committed build: a pack build never lands there unasked
            click.echo(say("cli.rulec-build-with-homebrew", packs=', '.join(packs)), err=True)
            return EXIT_INVALID
        out = BUNDLED_OUT
    elif chosen_by_config and not check:
        # A config file may have come with a pack from someone else: the folder it names is not
        # taken from another build (the bundled rules', another pack's) without --out saying so.
        held = stamp_packs(out)
        if held is not None and sorted(held) != sorted(_packs_given(paths)):
            click.echo(say("cli.config-out-holds-another-build", out=out, file=config.file,
                           packs=", ".join(held) or say("cli.no-packs")), err=True)
            return EXIT_INVALID
    targets = tuple(t for t in ("python", "js") if t in {x.strip() for x in target.split(",")})
    unknown = sorted({x.strip() for x in target.split(",")} - {"python", "js"})
    if unknown or not targets:
        click.echo(say("cli.rulec-unknown-target-targets", value=', '.join(unknown) or repr(target)), err=True)
        return EXIT_INVALID
    if watch and check:
        click.echo(say("cli.rulec-watch-writes-cannot"), err=True)
        return EXIT_INVALID
    if not check:
        try:
            check_target(out, paths)
        except WriteError as exc:
            click.echo(say("cli.rulec-nothing-was-written", exc=exc), err=True)
            return EXIT_INVALID
    if watch:
        return _watch(paths, out, targets, fmt, interval)
    before = None if check else snapshot(out, paths, targets)
    inputs = input_digest(paths, targets)
    if not check and is_fresh(out, inputs):
        remember(out, before)
        click.echo(say("cli.unchanged-inputs-outputs-match", out=out), err=True)
        return EXIT_OK
    result = _compile(paths, targets=targets, uncached=check, previous=out)  # --check trusts no cache entry
    report(result.diagnostics, fmt)
    if not result.ok:
        click.echo(say("cli.build-failed-nothing-was"), err=True)
        return EXIT_INVALID
    if check:
        diff = diff_tree(out, {**result.files, STAMP: build_stamp(result)})
        if diff:
            for line in diff.lines():
                click.echo(f"{out}/{line.split(': ', 1)[1].strip()}: {line.split(':')[0]}", err=True)
            click.echo(say("cli.stale-file-differ-from", out=out, n_lines=len(diff.lines())), err=True)
            return EXIT_INVALID
        click.echo(say("cli.up-date-files-stamp", out=out, number=len(result.files) + 1), err=True)
        return EXIT_OK
    try:
        diff = write_build(out, result, sources=paths)
    except WriteError as exc:
        click.echo(say("cli.rulec-2", exc=exc), err=True)
        return EXIT_INVALID
    _wrote(out, diff, len(result.files))
    return EXIT_OK


def _wrote(out: Path, diff: TreeDiff, files: int, took: str = "") -> None:
    for note in diff.notes:
        click.echo(say("cli.rulec", note=note), err=True)
    if diff:
        click.echo(say("cli.wrote-changed-new-removed", out=out, n_changed=len(diff.changed), n_added=len(diff.added), n_removed=len(diff.removed), took=took), err=True)
    else:
        click.echo(say("cli.unchanged-files-stamp-with", out=out, number=files + 1, took=took), err=True)


def _watch(paths: list[Path], out: Path, targets: tuple[str, ...], fmt: str, interval: float,
           stop: Callable[[], bool] = lambda: False) -> int:
    """`rulec build --watch`: a resident build (session.py), rebuilt after every edit."""
    from ..build.session import Session, edits

    session = Session(paths, targets)
    click.echo(say("cli.rulec-watching-ctrl-c", names=', '.join(display_path(p) for p in paths)), err=True)
    try:
        for changed in edits(paths, interval, stop):
            if changed:  # the time and what changed, so a log of a long session reads on its own
                more = say("cli.watch-more", n=len(changed) - 3) if len(changed) > 3 else ""
                click.echo(say("cli.watch-changed", time=time.strftime('%H:%M:%S'), names=tuple(changed[:3]),
                               more=more), err=True)
            start = time.perf_counter()
            result = session.build()  # stamped with the bytes it read: an edit during it is built again
            report(result.diagnostics, fmt)
            if not result.ok:
                click.echo(say("cli.build-failed-nothing-was-2"), err=True)
                continue
            try:
                diff = write_build(out, result, sources=paths)
            except WriteError as exc:
                click.echo(say("cli.rulec-3", exc=exc), err=True)
                continue
            _wrote(out, diff, len(result.files), say("cli.took", ms=(time.perf_counter() - start) * 1000,
                                                          time=time.strftime("%H:%M:%S")))
    except KeyboardInterrupt:
        click.echo(say("cli.rulec-stopped-watching"), err=True)
    return EXIT_OK


@main.group("server", help=say("help.cmd.server"))
def server_group() -> None:
    """The build server behind RULEC_SERVER=on (server_link.py, server.py)."""


@server_group.command("stop", help=say("help.cmd.server-stop"))
@guarded
def server_stop() -> int:
    from . import server_link

    click.echo(say("cli.server-stopped" if server_link.stop() else "cli.server-none"), err=True)
    return EXIT_OK


@main.group("import", help=say("help.cmd.import"))
def import_group() -> None:
    """Turn third-party data into rules YAML."""


@import_group.command("5e-srd", help=say("help.cmd.import-srd"))
@click.argument("source", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--into", "into", required=True, type=click.Path(path_type=Path, dir_okay=False),
              help=say("help.cli.table-file-write-inside"))
@click.option("--rules", "bases", multiple=True, type=click.Path(path_type=Path),
              help=say("help.cli.when-into-pack-rulesets"))
@FORMAT
@guarded
def import_srd_command(source: Path, into: Path, bases: tuple[Path, ...], fmt: str) -> int:
    """Import the weapons of a 5e SRD equipment JSON file (2014 or 2024 layout) into a d20 weapons
    table file. Re-importing merges by id; a hand-written file is never overwritten; a result that
    would not validate is never written."""
    from ..importers import srd_write
    from ..importers.srd import import_srd
    from ..load import display_path

    entries, diags = import_srd(source, display_path(source))
    plan = None
    if entries is not None:
        plan, diags = srd_write.plan(into, entries)
    if plan is not None:
        diags = srd_write.check(into, plan.text, list(bases) or [Path("rules")])
    if plan is None or any(d.severity == "error" for d in diags):
        report(diags, fmt)
        click.echo(say("cli.import-failed-nothing-was"), err=True)
        return EXIT_INVALID
    report(diags, fmt)
    srd_write.write(into, plan.text)
    click.echo(say("cli.wrote-weapons-from-srd", into=display_path(into), imported=plan.imported), err=True)
    if plan.kept:
        click.echo(say("cli.kept-entries-that-are", n_kept=len(plan.kept), kept=', '.join(plan.kept)), err=True)
    if plan.replaced:
        click.echo(say("cli.replaced-entries-that-differed", n_replaced=len(plan.replaced), replaced=', '.join(plan.replaced)), err=True)
    return EXIT_OK




@main.group("new", help=say("help.cmd.new"))
def new_group() -> None:
    """Start something new from a template."""


@new_group.command("pack", help=say("help.cmd.new-pack"))
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--extends", default="dp", show_default=True, help=say("help.new.extends"))
@click.option("--rules", "rules", type=click.Path(path_type=Path), default=None,
              help=say("help.new.rules"))
@click.option("--id", "pid", default=None, help=say("help.new.id"))
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
        click.echo(say("cli.rulec-nothing-was-written", exc=exc), err=True)
        return EXIT_INVALID
    click.echo(say("new.wrote", folder=display_path(folder),
                   files=", ".join(p.relative_to(folder).as_posix() for p in written)), err=True)
    return EXIT_OK


from . import play_cmd as _play_cmd  # noqa: E402,F401  (registers `resolve` and `odds` on `main`)
from .diff import command as _diff_command  # noqa: E402,F401  (registers `diff` on `main`)
