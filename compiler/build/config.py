"""The project config: defaults for `--rules`, `--out` and `rulec test`'s paths, so that a run from
a pack need not repeat `--rules rules/ --rules PACK --out DIR`.

It is the nearest `rulec.toml`, or `pyproject.toml` with a `[tool.rulec]` table, in the working
folder or above it (as ruff finds its config: a `pyproject.toml` without the table is passed
over; in one folder `rulec.toml` wins). Keys:

    rules = ["../rules", "."]   # rule folders and packs (a string is a list of one)
    out = "../build/my_pack"    # the output folder of `rulec build`
    scenarios = ["scenarios"]   # what `rulec test` runs when given no paths

Paths are relative to the folder of the config file. A flag on the command line overrides the
key it sets. The file is read with a bound (load/reading.py), parsed by `tomllib`, and checked
like any input: an unknown key or a wrong type is a `file:line:col` diagnostic (exit 1).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from ..diagnostics import Diagnostic

__all__ = ["CONFIG_NAMES", "Config", "ConfigError", "find_config", "load_config"]

CONFIG_NAMES = ("rulec.toml", "pyproject.toml")
MAX_CONFIG_BYTES = 256 * 1024
MAX_PATHS = 64  # entries of `rules` or `scenarios`
MAX_PATH_CHARS = 4096
MAX_LEVELS = 64  # folders looked at upward from the working folder
KEYS = {"rules": "config.key.rules", "out": "config.key.out",  # key: what it is (a message key)
        "scenarios": "config.key.scenarios"}


class Config(NamedTuple):
    file: Path | None = None  # None: no config found
    rules: tuple[Path, ...] = ()
    out: Path | None = None
    scenarios: tuple[Path, ...] = ()


class ConfigError(Exception):
    """A config file that cannot be used; `diagnostics` say where and why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def _has_table(text: str) -> bool:
    return re.search(r"^\s*\[\s*tool\s*\.\s*rulec\s*\]", text, re.M) is not None


def find_config(start: Path | None = None) -> Path | None:
    """The config file that applies in `start` (default: the working folder), or None."""
    from ..load.reading import ReadRefused, read_bounded

    here = (start or Path.cwd()).resolve()
    for _ in range(MAX_LEVELS):
        for name in CONFIG_NAMES:
            path = here / name
            if not path.is_file():
                continue
            if name == "rulec.toml":
                return path
            try:
                if _has_table(read_bounded(path, MAX_CONFIG_BYTES).decode("utf-8", errors="replace")):
                    return path
            except ReadRefused:
                return path  # load_config reports it
        if here.parent == here:
            return None
        here = here.parent
    return None


def _line_of(text: str, key: str, table: bool) -> tuple[int, int]:
    """Where `key = ...` is written (in `[tool.rulec]` for a pyproject.toml), else (1, 1)."""
    inside = not table
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            inside = not table or re.fullmatch(r"\[\s*tool\s*\.\s*rulec\s*\]\s*(#.*)?", stripped) is not None
            continue
        m = re.match(r"\s*(['\"]?)([^=\s'\"]+)\1\s*=", line)
        if inside and m and m.group(2) == key:
            return n, m.start(2) + 1
    return 1, 1


def _paths(value: Any, where: tuple[int, int], key: str, shown: str, base: Path) -> tuple[Path, ...]:
    from ..diagnostics import Diagnostic, Span
    from ..messages import say

    items = [value] if isinstance(value, str) else value
    ok = (isinstance(items, list) and 0 < len(items) <= MAX_PATHS and
          all(isinstance(v, str) and 0 < len(v) <= MAX_PATH_CHARS and "\0" not in v for v in items))
    if not ok or (key == "out" and not isinstance(value, str)):
        want = say("config.is-a-path", name=key) if key == "out" else say("config.is-a-path-or-list", name=key,
                                                                         most=MAX_PATHS)
        raise ConfigError([Diagnostic(Span(shown, *where), "config", want)])
    return tuple(_near(base / v) for v in items)


def _near(path: Path) -> Path:
    """`path` as the user would type it from the working folder (`../rules`, `.`)."""
    try:
        return Path(os.path.relpath(path, Path.cwd()))
    except ValueError:  # pragma: no cover - another drive on Windows
        return path


def load_config(start: Path | None = None) -> Config:
    """The config that applies in `start` (an empty Config when there is none); ConfigError when
    the file cannot be used."""
    path = find_config(start)
    if path is None:
        return Config()
    import tomllib  # only when there is a file: `rulec resolve` starts without it

    from ..load.paths import display_path
    from ..load.reading import ReadRefused, read_bounded
    from ..messages import say

    shown = display_path(_near(path))
    try:
        text = read_bounded(path, MAX_CONFIG_BYTES, shown, what="a config file").decode("utf-8")
    except ReadRefused as exc:
        raise ConfigError([exc.diagnostic]) from None
    except UnicodeDecodeError:
        from ..diagnostics import Diagnostic, Span

        raise ConfigError([Diagnostic(Span(shown), "config", say("config.not-utf8"))]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        from ..diagnostics import Diagnostic, Span

        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        raise ConfigError([Diagnostic(Span(shown, line, col), "config", say("config.not-toml", message=message))]) from None
    table = path.name == "pyproject.toml"
    section = data.get("tool", {}).get("rulec", {}) if table else data
    from ..diagnostics import Diagnostic, Span, did_you_mean  # a config file is rare: only then

    if not isinstance(section, dict):
        raise ConfigError([Diagnostic(Span(shown, *_line_of(text, "rulec", False)), "config",
                                      say("config.not-a-table"))])
    problems = []
    for key in section:
        if key not in KEYS:
            problems.append(Diagnostic(Span(shown, *_line_of(text, key, table)), "config",
                                       say("config.unknown-key", name=key,
                                           where="[tool.rulec]" if table else path.name),
                                       did_you_mean(key, KEYS) or say("config.keys-are", keys=tuple(
                                           say("config.key-is", name=k, what=say(what)) for k, what in KEYS.items()))))
    if problems:
        raise ConfigError(problems)
    base = path.parent
    rules = _paths(section["rules"], _line_of(text, "rules", table), "rules", shown, base) if "rules" in section else ()
    out = _paths(section["out"], _line_of(text, "out", table), "out", shown, base)[0] if "out" in section else None
    scenarios = (_paths(section["scenarios"], _line_of(text, "scenarios", table), "scenarios", shown, base)
                 if "scenarios" in section else ())
    return Config(path, rules, out, scenarios)


def rules_hint(pack: Path, ruleset: str) -> str:
    """How to name the ruleset a pack extends, from where the user is: the nearest `rules/` holding
    it (the working folder's, else one above the pack), by the path they would type."""
    from ..messages import say

    def display_path(path: Path) -> str:  # as typed: ../rules, else absolute when far away
        rel = _near(path)
        return rel.as_posix() if rel.parts[:3].count("..") < 3 else str(path)

    root = pack.resolve()
    shown_pack = "." if root == Path.cwd().resolve() else display_path(root)
    found = next((here / "rules" for here in [Path.cwd().resolve(), *list(root.parents)[:MAX_LEVELS]]
                  if (here / "rules" / ruleset / "ruleset.yaml").is_file()), None)
    typed = f"{display_path(found)}/" if found is not None else "PATH/TO/rules"
    in_config = Path(os.path.relpath(found, root)).as_posix() if found is not None else "PATH/TO/rules"
    return say("config.rules-hint", typed=typed, pack=shown_pack, in_config=in_config)
