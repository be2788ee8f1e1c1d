"""The shell every `rulec` command shares: the click group, exit codes, how diagnostics are
printed, and the guard that turns any unexpected exception into a one-line internal error and
filters everything printed (compiler/terminal.py). The commands live in cli.py and cli_play.py,
which both import this module and not each other.

Exit codes: 0 ok; 1 invalid rules, a refused request or a stale `generated/`;
2 usage; 3 an internal error (a rulec bug, never a user's file).
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

import click

from . import __version__
from .diagnostics import Diagnostic, format_json, format_text
from .terminal import SafeStream

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


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


FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                      show_default=True, help="How to print diagnostics and results.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulec")
def main() -> None:
    """rulec: compile tabletop combat rules (YAML) into Python resolvers and reference pages."""
