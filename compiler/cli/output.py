"""Printing without click: `echo` and `report` (diagnostics as text or JSON), shared by the click CLI
(shell.py) and the start of `rulec resolve`/`rulec odds` that does without it (entry.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .terminal import SafeStream
from ..messages import say

if TYPE_CHECKING:
    from ..build.config import Config
    from ..diagnostics import Diagnostic

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def echo(message: Any = "", err: bool = False) -> None:
    """A line on stdout (or stderr), flushed, as `click.echo` writes text."""
    stream = sys.stderr if err else sys.stdout
    stream.write(f"{message}\n")
    stream.flush()


def use_color(stream: Any) -> bool:
    return "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()


def report(diags: list[Diagnostic], fmt: str, *, verbose: bool = True) -> None:
    from ..diagnostics import format_json, format_text

    if fmt == "json":
        echo(format_json(diags))
    elif diags:
        echo(format_text(diags, color=use_color(sys.stderr)), err=True)


def project_config(fmt: str = "text") -> Config | None:
    """The project config that applies here (build/config.py), or None after reporting why it
    cannot be used."""
    from ..build.config import ConfigError, load_config

    try:
        return load_config()
    except ConfigError as exc:
        report(exc.diagnostics, fmt)
        return None


def run_guarded(body: Callable[[], int], passthrough: tuple[type[BaseException], ...] = ()) -> int:
    """Run a command body with everything it prints filtered (terminal.py), and turn any unexpected
    exception into a one-line internal error (exit 3): the last line of defence against tracebacks."""
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)  # type: ignore[assignment]
    try:
        code = body()
    except passthrough:
        raise
    except KeyboardInterrupt:
        echo(say("output.interrupted-nothing-was-written"), err=True)
        code = 130
    except BrokenPipeError:  # output piped into `head` and the like
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = EXIT_OK
    except Exception as exc:  # noqa: BLE001
        if os.environ.get("RULEC_DEBUG"):
            import traceback

            traceback.print_exc()
        echo(say("output.rulec-internal-error-rulec", name__=type(exc).__name__, exc=exc), err=True)
        code = EXIT_INTERNAL
    finally:
        sys.stdout, sys.stderr = streams
    return code
