"""The `rulec` command. `rulec resolve` and `rulec odds` with plain arguments are run without
importing click (play.py through output.py's guard): the interactive commands start in the time
it takes to load the scenario and the built package (issue 20). Anything else — another command,
`--help`, an option it does not know, a malformed value — goes to the click CLI (cli.py), which
also reports usage errors."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def _parse(argv: list[str]) -> dict[str, Any] | None:
    """The arguments of `resolve SCENARIO [--rules DIR]... [--seed N] [--json] [--format F]` or
    `odds SCENARIO [--rules DIR]... [--until F=N] [--json] [--format F]`, or None (click decides)."""
    command, rest = argv[0], argv[1:]
    takes = {"--rules", "--out", "--format", "--seed" if command == "resolve" else "--until"}
    out: dict[str, Any] = {"paths": [], "rules": [], "out": None, "seed": None, "until": None, "fmt": "text",
                           "json": False}
    i = 0
    while i < len(rest):
        word = rest[i]
        key, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if word == "--json":
            out["json"] = True
        elif key in takes:
            if not eq:
                if i + 1 >= len(rest):
                    return None
                i += 1
                value = rest[i]
            if key == "--rules":
                out["rules"].append(Path(value))
            elif key == "--out":
                out["out"] = Path(value)
            elif key == "--format":
                if value not in ("text", "json"):
                    return None
                out["fmt"] = value
            elif key == "--seed":
                try:
                    out["seed"] = int(value, 10)
                except ValueError:
                    return None
            else:
                out["until"] = value
        elif word.startswith("-"):
            return None
        else:
            out["paths"].append(Path(word))
        i += 1
    if len(out["paths"]) != 1 or out["paths"][0].is_dir():
        return None
    return out


def main() -> None:
    argv = sys.argv[1:]
    if argv and argv[0] in ("resolve", "odds"):
        args = _parse(argv)
        if args is not None:
            from . import play
            from .output import run_guarded

            scenario, rules = args["paths"][0], tuple(args["rules"])
            if argv[0] == "resolve":
                sys.exit(run_guarded(lambda: play.resolve_scenario(scenario, rules, args["seed"], args["fmt"],
                                                                   args["json"], args["out"])))
            sys.exit(run_guarded(lambda: play.odds_scenario(scenario, rules, args["until"], args["fmt"],
                                                            args["json"], args["out"])))
    from .main import main as cli_main

    cli_main()
