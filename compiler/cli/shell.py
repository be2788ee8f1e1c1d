"""The shell every `rulec` command shares: the click group, exit codes, how diagnostics are
printed, and the guard that turns any unexpected exception into a one-line internal error and
filters everything printed (compiler/cli/terminal.py). The commands live in cli.py and cli_play.py,
which both import this module and not each other.

Exit codes: 0 ok; 1 invalid rules, a refused request or a stale `generated/`;
2 usage; 3 an internal error (a rulec bug, never a user's file).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from .. import __version__
from .output import EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, EXIT_USAGE, report, run_guarded, use_color  # noqa: F401


def guarded(fn: Callable[..., int]) -> Callable[..., None]:
    """Run a command body; turn any unexpected exception into a one-line internal error."""

    def wrapper(*args: Any, **kwargs: Any) -> None:
        sys.exit(run_guarded(lambda: fn(*args, **kwargs),
                             passthrough=(click.ClickException, click.exceptions.Exit, click.Abort)))

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                      show_default=True, help="How to print diagnostics and results.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulec")
def main() -> None:
    """rulec: compile tabletop combat rules (YAML) into Python resolvers and reference pages."""
