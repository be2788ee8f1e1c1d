"""The `rulec` command: a thin click shell over `compiler.build` (I/O and exit codes only).

Exit codes: 0 ok; 1 invalid rules, a refused request or a stale `generated/`;
2 usage; 3 an internal error (a rulec bug, never a user's file).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from . import __version__
from .diagnostics import Diagnostic, format_json, format_text
from .stamp import STAMP, input_digest, is_fresh, stamp_bytes
from .terminal import SafeStream
from .write import WriteError, check_target, diff_tree, write_tree

if TYPE_CHECKING:
    from .facade import Build

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def ir_json(value: Any) -> Any:
    """The IR as plain JSON: dataclasses as objects, spans as 'file:line:col'."""
    from .diagnostics import Span

    if isinstance(value, Span):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: ir_json(getattr(value, f.name)) for f in dataclasses.fields(value)
                  if f.metadata.get("dump", True)}
        return {"kind": type(value).__name__, **fields} if "kind" not in fields else fields
    if isinstance(value, dict):
        return {str(k): ir_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [ir_json(v) for v in items]
    return value


def use_color(stream: Any) -> bool:
    return "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()


def report(diags: list[Diagnostic], fmt: str, *, verbose: bool = True) -> None:
    if fmt == "json":
        click.echo(format_json(diags))
    elif diags:
        click.echo(format_text(diags, color=use_color(sys.stderr)), err=True)


def guarded(fn: Callable[..., int]) -> Callable[..., None]:
    """Run a command body; turn any unexpected exception into a one-line internal error."""

    def wrapper(*args: Any, **kwargs: Any) -> None:
        streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)  # type: ignore[assignment]
        try:
            code = fn(*args, **kwargs)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted; nothing was written", err=True)
            code = 130
        except BrokenPipeError:  # output piped into `head` and the like
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            code = EXIT_OK
        except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
            if os.environ.get("RULEC_DEBUG"):
                traceback.print_exc()
            click.echo(f"rulec: internal error: {type(exc).__name__}: {exc} "
                       "(this is a rulec bug; set RULEC_DEBUG=1 for details)", err=True)
            code = EXIT_INTERNAL
        finally:
            sys.stdout, sys.stderr = streams
        sys.exit(code)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


class _Progress:
    """A progress bar on long builds at a terminal; silent otherwise."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.enabled = sys.stderr.isatty()

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled or total < 200 or stage != "load":
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label="loading rules", file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _compile(paths: list[Path], stop_after: str = "emit") -> Build:
    # Imported here: the compiler's passes pull in YAML, jsonschema and Jinja, which an
    # unchanged rebuild (a stamp check) never needs.
    from .facade import compile_rules

    progress = _Progress()
    try:
        return compile_rules(paths, progress=progress, stop_after=stop_after)
    finally:
        progress.close()


FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                      show_default=True, help="How to print diagnostics.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulec")
def main() -> None:
    """rulec: compile tabletop combat rules (YAML) into Python resolvers and reference pages."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@FORMAT
@click.option("--dump-ir", is_flag=True, help="Print the lowered IR of each ruleset as JSON (stop after lowering).")
@guarded
def validate(paths: tuple[Path, ...], fmt: str, dump_ir: bool) -> int:
    """Check rule folders or files (default: rules/) and print every problem."""
    build = _compile(list(paths) or [Path("rules")], stop_after="lower")
    report(build.diagnostics, fmt)
    if dump_ir and build.ok:
        click.echo(json.dumps([ir_json(rs) for rs in build.rulesets], ensure_ascii=False, indent=1))
    if build.ok and fmt == "text":
        click.echo(f"ok: {len(build.rulesets)} ruleset(s) valid", err=True)
    return EXIT_OK if build.ok else EXIT_INVALID


@main.command()
@click.option("--rules", "rules", multiple=True, type=click.Path(path_type=Path),
              help="A rules folder, ruleset folder or homebrew pack (repeatable). Default: rules/")
@click.option("--out", type=click.Path(path_type=Path), default=Path("generated"), show_default=True,
              help="Output folder; it belongs to the build.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 and list every file that differs.")
@FORMAT
@guarded
def build(rules: tuple[Path, ...], out: Path, check: bool, fmt: str) -> int:
    """Compile rules into Python packages and reference pages."""
    paths = list(rules) or [Path("rules")]
    if not check:
        try:
            check_target(out, paths)
        except WriteError as exc:
            click.echo(f"rulec: {exc}; nothing was written", err=True)
            return EXIT_INVALID
    inputs = input_digest(paths)
    if not check and is_fresh(out, inputs):
        click.echo(f"{out} unchanged (inputs and outputs match its build stamp)", err=True)
        return EXIT_OK
    result = _compile(paths)
    report(result.diagnostics, fmt)
    if not result.ok:
        click.echo("build failed; nothing was written", err=True)
        return EXIT_INVALID
    result.files[STAMP] = stamp_bytes(inputs or "", result.files)
    if check:
        diff = diff_tree(out, result.files)
        if diff:
            for line in diff.lines():
                click.echo(f"{out}/{line.split(': ', 1)[1].strip()}: {line.split(':')[0]}", err=True)
            click.echo(f"{out} is stale: {len(diff.lines())} file(s) differ from a fresh build; "
                       "run `rulec build`", err=True)
            return EXIT_INVALID
        click.echo(f"{out} is up to date ({len(result.files)} files)", err=True)
        return EXIT_OK
    try:
        diff = write_tree(out, result.files, sources=paths)
    except WriteError as exc:
        click.echo(f"rulec: {exc}", err=True)
        return EXIT_INVALID
    for note in diff.notes:
        click.echo(f"rulec: {note}", err=True)
    if diff:
        click.echo(f"wrote {out}: {len(diff.changed)} changed, {len(diff.added)} new, "
                   f"{len(diff.removed)} removed", err=True)
    else:
        click.echo(f"{out} unchanged ({len(result.files)} files)", err=True)
    return EXIT_OK


@main.group("import")
def import_group() -> None:
    """Turn third-party data into rules YAML."""


@import_group.command("5e-srd")
@click.argument("source", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--into", "into", required=True, type=click.Path(path_type=Path, dir_okay=False),
              help="The table file to write, e.g. rules/d20/tables/weapons.yaml.")
@FORMAT
@guarded
def import_srd_command(source: Path, into: Path, fmt: str) -> int:
    """Import the weapons of the 5e SRD equipment JSON into a d20 weapons table file."""
    from .importers.srd import import_srd
    from .load import display_path

    text, diags = import_srd(source, display_path(source))
    report(diags, fmt)
    if text is None:
        click.echo("import failed; nothing was written", err=True)
        return EXIT_INVALID
    into.parent.mkdir(parents=True, exist_ok=True)
    tmp = into.with_name(f".{into.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, into)
    click.echo(f"wrote {into}: {text.count(chr(10) + '  - ')} weapons", err=True)
    return EXIT_OK


from . import cli_play as _cli_play  # noqa: E402,F401  (registers `resolve` and `odds`)
