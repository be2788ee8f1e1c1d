"""The click commands `rulec resolve`, `rulec odds` and `rulec test` (their work is in play.py).
The arguments of `resolve` and `odds` are play_args.py's table, which entry.py also parses
without click; both run them through `play_args.run`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from . import play, play_args
from .shell import FORMAT, click_option, guarded, main
from ..messages import say


def _scenario_and_options(command: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The SCENARIO argument and the options of a command of play_args.py's table, as click's."""

    def apply(fn: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(play_args.COMMANDS[command]):
            fn = click_option(option)(fn)
        return click.argument("scenario", type=click.Path(path_type=Path, dir_okay=False))(fn)

    return apply


@main.command(help=say("help.cmd.resolve"))
@_scenario_and_options("resolve")
@guarded
def resolve(**args: Any) -> int:
    """Resolve a scenario once and print its trace (or the result as JSON); exit 1 when it has an
    `expect:` that the outcome does not meet."""
    return play_args.run("resolve", args)


@main.command("test", help=say("help.cmd.test"))
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click_option(play_args.RULES)
@click_option(play_args.OUT)
@FORMAT
@guarded
def test_scenarios(paths: tuple[Path, ...], rules: tuple[Path, ...], out: Path | None, fmt: str) -> int:
    """Run every scenario with an `expect:` under PATHS (default: the project config's scenarios,
    else examples/) and check it: a homebrewer's worked examples as a test suite."""
    return play.test_scenarios(paths, rules, fmt, out)


@main.command(help=say("help.cmd.odds"))
@_scenario_and_options("odds")
@guarded
def odds(**args: Any) -> int:
    """Print a scenario's exact outcome distribution, hit chance and expected damage (with --until,
    how many repeats reach a running total)."""
    return play_args.run("odds", args)
