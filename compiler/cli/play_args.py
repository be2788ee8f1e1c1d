"""The arguments of `rulec resolve` and `rulec odds`, declared once: the click commands are built
from this table (play_cmd.py, `click_options`), and `entry.py` parses a plain command line with it
without importing click, so that the interactive commands start in the time it takes to load the
scenario and the built package (issue 20; click and the CLI's modules cost about a fifth of a
`rulec resolve`, docs/cli.md).

`parse` answers None for anything the table does not settle — another command, `--help`,
`--lang`, an unknown option, a malformed value — and click then parses the line and reports it.
This module imports neither click nor the compiler.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple


class Option(NamedTuple):
    """One option: its flag, the keyword it fills, what it takes, its help (a catalogue key). (The
    interactive commands' records are named tuples: a frozen dataclass costs 0.8 ms to make.)"""

    flag: str
    dest: str
    takes: str  # "path", "int", "text", "choice" or "flag" (takes no value)
    help: str
    choices: tuple[str, ...] = ()
    default: Any = None
    multiple: bool = False
    hidden: bool = False
    metavar: str | None = None


RULES = Option("--rules", "rules", "path", "help.play.rules-use-default-rules", multiple=True)
OUT = Option("--out", "out", "path", "help.play.build-use-rebuilt-stale")
SEED = Option("--seed", "seed", "int", "help.play.seed-for-dice-when")
UNTIL = Option("--until", "until", "text", "help.play.exact-distribution-repeats-until", metavar="FIELD=N")
FORMAT = Option("--format", "fmt", "choice", "help.shell.how-print-diagnostics-results", choices=("text", "json"),
                default="text")
AS_JSON = Option("--json", "as_json", "flag", "help.play.same-as-format-json", default=False, hidden=True)

# Each command: one SCENARIO argument (a file), then its options.
COMMANDS: dict[str, tuple[Option, ...]] = {
    "resolve": (RULES, OUT, SEED, FORMAT, AS_JSON),
    "odds": (RULES, OUT, UNTIL, FORMAT, AS_JSON),
}


def _value(option: Option, text: str) -> Any:
    """The value of an option's text, or raise ValueError (click then reports it)."""
    if option.takes == "int":
        return int(text, 10)
    if option.takes == "choice" and text not in option.choices:
        raise ValueError(text)
    return Path(text) if option.takes == "path" else text


def parse(argv: list[str]) -> tuple[str, dict[str, Any]] | None:
    """`(command, keywords)` for `COMMAND SCENARIO [OPTION]...` of a command of the table, its
    keywords those its click command receives; None when click must decide."""
    if not argv or argv[0] not in COMMANDS:
        return None
    options = {o.flag: o for o in COMMANDS[argv[0]]}
    out: dict[str, Any] = {o.dest: [] if o.multiple else o.default for o in options.values()}
    scenarios: list[Path] = []
    rest = argv[1:]
    i = 0
    while i < len(rest):
        word = rest[i]
        flag, eq, text = word.partition("=") if word.startswith("--") else (word, "", "")
        option = options.get(flag)
        if option is None:
            if word.startswith("-"):
                return None
            scenarios.append(Path(word))
        elif option.takes == "flag":
            if eq:
                return None
            out[option.dest] = True
        else:
            if not eq:
                if i + 1 >= len(rest):
                    return None
                i += 1
                text = rest[i]
            try:
                value = _value(option, text)
            except ValueError:
                return None
            if option.multiple:
                out[option.dest].append(value)
            else:
                out[option.dest] = value
        i += 1
    if len(scenarios) != 1 or scenarios[0].is_dir():
        return None
    out = {k: tuple(v) if isinstance(v, list) else v for k, v in out.items()}
    return argv[0], {"scenario": scenarios[0], **out}


def run(command: str, args: dict[str, Any]) -> int:
    """Run `resolve` or `odds` with the keywords `parse` (or click) gave; the exit status."""
    from . import play

    if command == "resolve":
        return play.resolve_scenario(args["scenario"], args["rules"], args["seed"], args["fmt"], args["as_json"],
                                     args["out"])
    return play.odds_scenario(args["scenario"], args["rules"], args["until"], args["fmt"], args["as_json"],
                              args["out"])
