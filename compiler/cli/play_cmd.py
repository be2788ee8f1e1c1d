"""The click commands `rulec resolve`, `rulec odds` and `rulec test` (their work is in play.py,
which `rulec resolve` and `rulec odds` also reach without click: entry.py)."""

from __future__ import annotations

from pathlib import Path

import click

from . import play
from .shell import FORMAT, guarded, main
from ..messages import say

_AS_JSON = click.option("--json", "as_json", is_flag=True, hidden=True, help=say("help.play.same-as-format-json"))
_RULES = click.option("--rules", multiple=True, type=click.Path(path_type=Path),
                      help=say("help.play.rules-use-default-rules"))
_OUT = click.option("--out", type=click.Path(path_type=Path), default=None,
                    help=say("help.play.build-use-rebuilt-stale"))


@main.command(help=say("help.cmd.resolve"))
@click.argument("scenario", type=click.Path(path_type=Path, dir_okay=False))
@_RULES
@_OUT
@click.option("--seed", type=int, default=None, help=say("help.play.seed-for-dice-when"))
@FORMAT
@_AS_JSON
@guarded
def resolve(scenario: Path, rules: tuple[Path, ...], out: Path | None, seed: int | None, fmt: str,
            as_json: bool) -> int:
    """Resolve a scenario once and print its trace (or the result as JSON); exit 1 when it has an
    `expect:` that the outcome does not meet."""
    return play.resolve_scenario(scenario, rules, seed, fmt, as_json, out)


@main.command("test", help=say("help.cmd.test"))
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@_RULES
@_OUT
@FORMAT
@guarded
def test_scenarios(paths: tuple[Path, ...], rules: tuple[Path, ...], out: Path | None, fmt: str) -> int:
    """Run every scenario with an `expect:` under PATHS (default: the project config's scenarios,
    else examples/) and check it: a homebrewer's worked examples as a test suite."""
    return play.test_scenarios(paths, rules, fmt, out)


@main.command(help=say("help.cmd.odds"))
@click.argument("scenario", type=click.Path(path_type=Path, dir_okay=False))
@_RULES
@_OUT
@click.option("--until", "until", default=None, metavar="FIELD=N",
              help=say("help.play.exact-distribution-repeats-until"))
@FORMAT
@_AS_JSON
@guarded
def odds(scenario: Path, rules: tuple[Path, ...], out: Path | None, until: str | None, fmt: str,
         as_json: bool) -> int:
    """Print a scenario's exact outcome distribution, hit chance and expected damage (with --until,
    how many repeats reach a running total)."""
    return play.odds_scenario(scenario, rules, until, fmt, as_json, out)
