"""The shell every `rulec` command shares: the click group, exit codes, how diagnostics are
printed, and the guard that turns any unexpected exception into a one-line internal error and
filters everything printed (compiler/cli/terminal.py); `click_option`, an option of
play_args.py's table as click's. The commands live in main.py, play_cmd.py and diff/command.py,
which import this module and not each other.

Exit codes: 0 ok; 1 invalid rules, a refused request or a stale `generated/`;
2 usage; 3 an internal error (a rulec bug, never a user's file).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from . import play_args
from .. import __version__
from ..messages import CATALOGUE, LANGUAGES, Text, choose, say
from .output import EXIT_INTERNAL, EXIT_INVALID, EXIT_OK, EXIT_USAGE, report, run_guarded, use_color  # noqa: F401


def guarded(fn: Callable[..., int]) -> Callable[..., None]:
    """Run a command body; turn any unexpected exception into a one-line internal error."""

    def wrapper(*args: Any, **kwargs: Any) -> None:
        sys.exit(run_guarded(lambda: fn(*args, **kwargs),
                             passthrough=(click.ClickException, click.exceptions.Exit, click.Abort)))

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def click_option(option: play_args.Option) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An option of play_args.py's table as click's."""
    types: dict[str, Any] = {"path": click.Path(path_type=Path), "int": int, "text": str, "flag": None,
                             "choice": click.Choice(list(option.choices))}
    return click.option(option.flag, option.dest, is_flag=option.takes == "flag", type=types[option.takes],
                        multiple=option.multiple, default=option.default, hidden=option.hidden,
                        metavar=option.metavar, show_default=option.takes == "choice", help=say(option.help))


FORMAT = click_option(play_args.FORMAT)  # every command's --format


def _choose_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        choose(value)


def _lang_option() -> click.Option:
    return click.Option(["--lang"], type=click.Choice(LANGUAGES), default=None, expose_value=False, is_eager=True,
                        callback=_choose_language, help=say("help.shell.lang"))


# Each help text of the catalogue, in either language, to its key.
_HELP_KEYS = {text: key for key, pair in CATALOGUE.items() if key.startswith("help.") for text in pair}


class _Localised:
    """click's help in the language of the run: every help text is a catalogue `Text`, rendered
    again when help is shown (after `--lang` has been read), and so are click's own headings."""

    help: Any
    short_help: Any
    params: list[click.Parameter]

    def _again(self) -> None:
        for holder in (self, *self.params):
            for attr in ("help", "short_help"):
                value = getattr(holder, attr, None)
                if isinstance(value, Text):
                    setattr(holder, attr, value.again())
                elif isinstance(value, str) and value in _HELP_KEYS:  # click keeps an option's help as a str
                    setattr(holder, attr, say(_HELP_KEYS[value]))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for i, word in enumerate(args):  # --lang before anything is printed, wherever it stands
            if word == "--":
                break
            value = word[7:] if word.startswith("--lang=") else args[i + 1] if word == "--lang" and i + 1 < len(args) \
                else None
            if value in LANGUAGES:
                choose(value)
        return super().parse_args(ctx, args)  # type: ignore[misc,no-any-return]

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = say("help.shell.help")
        return option  # type: ignore[no-any-return]

    def get_short_help_str(self, limit: int = 45) -> str:
        self._again()
        return super().get_short_help_str(limit)  # type: ignore[misc,no-any-return]

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._again()
        super().format_help(ctx, formatter)  # type: ignore[misc]

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), say("help.shell.usage"))

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [r for p in self.get_params(ctx) if (r := p.get_help_record(ctx)) is not None]  # type: ignore[attr-defined]
        if rows:
            with formatter.section(say("help.shell.options")):
                formatter.write_dl(rows)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)


class LocalisedCommand(_Localised, click.Command):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(_lang_option())


class LocalisedGroup(_Localised, click.Group):
    command_class = LocalisedCommand

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(formatter.width - 6 - len(name))))
        if rows:
            with formatter.section(say("help.shell.commands")):
                formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        choose(None)  # each run starts from the environment's language; --lang may change it
        return super().main(*args, **kwargs)


LocalisedGroup.group_class = LocalisedGroup


@click.group(cls=LocalisedGroup, context_settings={"help_option_names": ["-h", "--help"]},
             help=say("help.main"))
@click.option("--lang", type=click.Choice(LANGUAGES), default=None, expose_value=False, is_eager=True,
              callback=_choose_language, help=say("help.shell.lang"))
@click.version_option(__version__, prog_name="rulec", help=say("help.shell.version"))
def main() -> None:
    """rulec: compile tabletop combat rules (YAML) into Python resolvers and reference pages."""
