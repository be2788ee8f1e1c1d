"""`rulec diff OLD NEW`: the click command (the work is in sides.py, compare.py and render.py).

Exit status, as diff(1): 0 no change, 1 changes, 2 trouble (a side that does not compile, a
path or revision that cannot be read, an HTML file that cannot be written); 3 is rulec's own
internal error, as for every command.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..shell import FORMAT, guarded, main
from ..output import report as report_diagnostics
from ...messages import say

EXIT_SAME, EXIT_CHANGED, EXIT_TROUBLE = 0, 1, 2


def _paths(side_paths: list[Path], bases: list[Path]) -> list[Path]:
    """A side of packs only is compiled with the rulesets they extend (`--rules`, default rules/)."""
    from ...load.sources import discover

    folders, _ = discover(side_paths)
    if folders and all(f.is_pack for f in folders):
        return (bases or [Path("rules")]) + side_paths
    return side_paths


@main.command("diff", help=say("help.cmd.diff"))
@click.argument("old")
@click.argument("new")
@click.option("--rules", "bases", multiple=True, type=click.Path(path_type=Path),
              help=say("help.diff.rules"))
@click.option("--html", "html_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help=say("help.diff.html"))
@FORMAT
@guarded
def diff_command(old: str, new: str, bases: tuple[Path, ...], html_file: Path | None, fmt: str) -> int:
    """Compare two rule folders, packs or git revisions (HEAD~1, main:rules): entries added, removed
    and changed, rulings changed, and the change in hit chance, expected damage and expected attacks
    of every changed weapon, attack type and called shot against the pages' defender spread.
    Exit 0: no change, 1: changes, 2: an error."""
    from . import compare, render
    from .sides import SideError, side

    sides = []
    try:
        for arg in (old, new):
            sides.append(side(arg))
        compiled = [compare.compile_side(s.label, _paths(s.paths, list(bases))) for s in sides]
        result = compare.report(compiled[0], compiled[1])
    except SideError as exc:
        click.echo(say("diff.failed", exc=exc), err=True)
        return EXIT_TROUBLE
    except compare.DiffError as exc:
        report_diagnostics(exc.diagnostics, "text")
        click.echo(say("diff.failed", exc=exc), err=True)
        return EXIT_TROUBLE
    finally:
        for s in sides:
            s.close()
    if html_file is not None:
        try:
            html_file.write_text(render.html(result), encoding="utf-8")
        except OSError as exc:
            click.echo(say("diff.cannot-write", file=html_file, reason=exc.strerror or exc), err=True)
            return EXIT_TROUBLE
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False, indent=1))
    else:
        click.echo(render.text(result), nl=False)
    return EXIT_CHANGED if result["changed"] else EXIT_SAME
