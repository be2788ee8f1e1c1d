"""The `rulec` command. `rulec resolve` and `rulec odds` with plain arguments are parsed by the
table of play_args.py and run without importing click (play.py through output.py's guard): the
interactive commands start in the time it takes to load the scenario and the built package
(issue 20). Anything else — another command, `--help`, an option the table does not settle, a
malformed value — goes to the click CLI (main.py, whose `resolve` and `odds` are built from the
same table), which also reports usage errors. With `RULEC_SERVER=on`, a `rulec build` goes first
to the build server of its context (server_link.py), and runs here only when none can take it."""

from __future__ import annotations

import os
import sys


def main() -> None:
    if sys.argv[1:2] == ["build"] and os.environ.get("RULEC_SERVER"):  # else nothing more is imported for it
        from . import server_link

        if server_link.enabled() and server_link.served(sys.argv[1:]):
            code = server_link.forward(sys.argv[1:])
            if code is not None:
                sys.exit(code)
    from . import play_args

    parsed = play_args.parse(sys.argv[1:])
    if parsed is not None:
        from .output import run_guarded

        command, args = parsed
        sys.exit(run_guarded(lambda: play_args.run(command, args)))
    from .main import main as cli_main

    cli_main()
