"""The one message catalogue: every text rulec prints for a person, in Chinese and in English.

A message is named by a stable key (`unknown-key.not-allowed`, `cli.build.failed`) and written
once per language as a `str.format` template with named placeholders; `say(key, **values)` renders
it in the language of the run. The catalogue's data lives in the modules of this package, one per
part of the compiler (`load`, `validate`, `formula`, `cli`…), merged into `CATALOGUE` when first used; nothing
outside this package writes a sentence for a person (tests/test_i18n.py scans for it).

The language, first that says: `choose()` (the CLI's `--lang`), `$RULEC_LANG`, the locale
(`$LC_ALL`, else `$LC_MESSAGES`, else `$LANG`: Chinese when it starts with `zh`, English for any
other named language). With no locale at all, or the `C`/`POSIX` locale, rulec speaks Chinese:
its audience is Chinese homebrewers. A diagnostic's `code` is the same in every language.
"""

from __future__ import annotations

import os
from contextvars import ContextVar
from typing import Any

LANGUAGES = ("zh", "en")
DEFAULT = "zh"
_PARTS = ("load", "schema", "validate", "formula", "cli", "play", "other", "fight", "packs")
_catalogue: dict[str, tuple[str, str]] = {}
_loaded: list[str] = []  # the parts merged into _catalogue so far


def _load(part: str) -> None:
    from importlib import import_module

    _catalogue.update(import_module(f"{__name__}.{part}").MESSAGES)
    _loaded.append(part)


def catalogue() -> dict[str, tuple[str, str]]:
    """Every message, by key: the parts' catalogues merged (a key is in one part only:
    tests/test_i18n.py). `CATALOGUE`, the module's attribute, is the same dictionary."""
    for part in _PARTS:
        if part not in _loaded:
            _load(part)
    return _catalogue


def _message(key: str) -> tuple[str, str]:
    """A message's two templates, importing only as many parts as it takes: first the part its
    key's first word names, if any (`play.outcome`: the only message `rulec resolve` of a valid
    scenario says; importing all nine parts cost 2-3 ms of it)."""
    found = _catalogue.get(key)
    if found is None:
        first = key.split(".", 1)[0]
        for part in ([first] if first in _PARTS else []) + list(_PARTS):
            if part not in _loaded:
                _load(part)
                found = _catalogue.get(key)
                if found is not None:
                    break
    if found is None:
        raise KeyError(key)
    return found


def __getattr__(name: str) -> Any:
    if name == "CATALOGUE":
        return catalogue()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_chosen: ContextVar[str | None] = ContextVar("rulec_language", default=None)


def _language_of(setting: str) -> str | None:
    """The language a `RULEC_LANG` or locale value names, or None when it names none."""
    word = setting.strip().lower()
    if not word or word.split(".")[0] in ("c", "posix"):
        return None
    return "zh" if word.startswith("zh") else "en"


def language() -> str:
    """The language of this run: 'zh' or 'en' (see the module's docstring)."""
    chosen = _chosen.get()
    if chosen:
        return chosen
    for var in ("RULEC_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return _language_of(value) or DEFAULT
    return DEFAULT


def choose(lang: str | None) -> None:
    """Fix the language of this run (`--lang`); None: let the environment decide again."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(lang)
    _chosen.set(lang)


def _shown(value: Any, lang: str) -> Any:
    """A placeholder's value in `lang`: a Text rendered in it, a tuple of them joined as a list."""
    if isinstance(value, Text):
        return value.in_language(lang)
    if isinstance(value, tuple):
        return catalogue()["list.separator"][0 if lang == "zh" else 1].join(str(_shown(v, lang)) for v in value)
    return value


class Text(str):
    """A rendered message that remembers its key and values, so it can be rendered again in the
    other language (`in_language`): a `str` everywhere else."""

    key: str
    values: dict[str, Any]
    lang: str

    def __new__(cls, key: str, values: dict[str, Any], lang: str) -> Text:
        zh, en = _message(key)
        template = zh if lang == "zh" else en
        shown = {k: _shown(v, lang) for k, v in values.items()}
        self = super().__new__(cls, template.format(**shown))
        self.key = key
        self.values = values
        self.lang = lang
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # copy and pickle: rendered again from its key
        return Text, (self.key, self.values, self.lang)

    def in_language(self, lang: str) -> Text:
        return Text(self.key, self.values, lang)

    def again(self) -> Text:
        """The same message in the language of the run now (click's help, made at import)."""
        return Text(self.key, self.values, language())


def say(key: str, **values: Any) -> Text:
    """The message `key` with its placeholders filled, in the language of the run."""
    return Text(key, values, language())


def in_language(text: str, lang: str) -> str:
    """`text` in `lang` when it is a catalogued message; else as it is (a user's own words)."""
    return text.in_language(lang) if isinstance(text, Text) else text


def placeholders(template: str) -> set[str]:
    """The names a template fills (for the test that both languages take the same values)."""
    from string import Formatter  # only the tests ask: 0.6 ms off every command's start

    return {name.split(".")[0].split("[")[0] for _, name, _, _ in Formatter().parse(template) if name}
