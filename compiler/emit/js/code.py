"""The one way any value reaches generated JavaScript: `Js`, and the functions that make it.

The same mechanism as the Python target's (`emit/python/code.py`): `Js` is a `str` holding
trusted JavaScript source, and text from the rules becomes `Js` only through the quoting
functions here: `string` (a literal, by `json.dumps` with every character that could end a
string, a line or a script escaped), `comment`, `name` (an identifier the compiler chose,
checked against the reserved words) and `literal` (null, booleans, safe integers, text and
arrays of them). `js("{} = {};", a, b)` and `join` raise on a plain `str`, and neither type
converts into the other: Python `Code` cannot reach a JavaScript module, nor `Js` a Python one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from .wrap import wrap


class Js(str):
    """Trusted JavaScript source text."""

    __slots__ = ()


class UnquotedValue(TypeError):
    """A plain string reached generated JavaScript without a quoting function (a rulec bug)."""


# Reserved words of ES2015 and later (strict mode and modules included), and the globals a name
# of the rules must not shadow.
RESERVED = frozenset("""
    break case catch class const continue debugger default delete do else export extends finally for function
    if import in instanceof new return super switch this throw try typeof var void while with yield let static
    enum await implements package protected interface private public null true false undefined NaN Infinity
    eval arguments Object Array Math Number String Boolean Map Set JSON Error Symbol Date RegExp Promise
    globalThis window module exports require
""".split())
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
MAX_SAFE = 2**53 - 1


def require_js(value: object) -> Js:
    if isinstance(value, Js):
        return value
    raise UnquotedValue(f"an unquoted value reached generated JavaScript: {value!r:.80}")


def name(identifier: str) -> Js:
    """An identifier (ASCII, not a reserved word or a global): the compiler's names, never free text."""
    if not isinstance(identifier, str) or not _IDENT.match(identifier) or identifier in RESERVED:
        raise UnquotedValue(f"not a JavaScript identifier: {identifier!r:.80}")
    return Js(identifier)


def string(text: str) -> Js:
    """A string literal holding exactly `text`: JSON's escapes, plus U+2028/2029 (line ends before
    ES2019), `<` (no `</script>` or `<!--` in a page that inlines the script) and every control character."""
    if not isinstance(text, str):
        raise UnquotedValue(f"not text: {text!r:.80}")
    return Js(_escaped(json.dumps(text, ensure_ascii=False)))


def _escaped(json_text: str) -> str:
    """JSON text with every character of `_UNSAFE` (they can only stand inside its strings) as a
    `\\u` escape of four hex digits."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", json_text)


_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029<>\ufeff\u200b-\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def literal(value: object) -> Js:
    """A literal for plain data: None (null), booleans, safe integers, text, tuples and lists (arrays)."""
    if value is None:
        return Js("null")
    if isinstance(value, bool):
        return Js("true" if value else "false")
    if isinstance(value, int):
        if abs(value) > MAX_SAFE:
            raise UnquotedValue(f"{value} is not a safe JavaScript integer")
        return Js(str(value) if value >= 0 else f"({value})")
    if isinstance(value, str):
        return string(value)
    if isinstance(value, (tuple, list)):
        return Js("[" + ", ".join(literal(v) for v in value) + "]")
    raise UnquotedValue(f"no JavaScript literal for {type(value).__name__}")


def _plain(value: object) -> bool:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return abs(value) <= MAX_SAFE  # type: ignore[arg-type]
    if kind is tuple or kind is list:
        return all(_plain(v) for v in value)  # type: ignore[attr-defined]
    if isinstance(value, (str, bool)):
        return True
    if isinstance(value, int):
        return abs(value) <= MAX_SAFE
    return isinstance(value, (tuple, list)) and all(_plain(v) for v in value)


def data(value: tuple[object, ...] | list[object]) -> Js:
    """An array literal of plain data (text, safe integers, booleans, null, nested arrays) by one
    `json.dumps` and the escapes of `string`: a table row costs one call (what `literal` writes,
    but for negative numbers, which need no brackets inside an array)."""
    if not _plain(value):
        raise UnquotedValue(f"not plain data: {value!r:.80}")
    return Js(_escaped(json.dumps(value, ensure_ascii=False, separators=(", ", ": "))))


def data_lines(rows: list[tuple[object, ...]], indent: str = "  ") -> list[Js]:
    """The lines of many data rows: `data` of each, with a comma; one row a line, as in a data file."""
    out: list[Js] = []
    for row in rows:
        if not _plain(row):
            raise UnquotedValue(f"not plain data: {row!r:.80}")
        out.append(Js(indent + _escaped(json.dumps(row, ensure_ascii=False, separators=(", ", ": "))) + ","))
    return out


def comment(text: str) -> Js:
    """A one-line comment (`// ...`): line breaks and control characters become spaces."""
    return Js("// " + comment_text(text))


def comment_text(text: str) -> Js:
    """Rule text for inside a one-line comment (`js("// {} ...", comment_text(name))`)."""
    return Js(_UNSAFE_COMMENT.sub(" ", str(text)).rstrip())


_UNSAFE_COMMENT = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def js(template: str, *args: Js) -> Js:
    """Fill a template written in rulec's own source with Js arguments only."""
    return Js(template.format(*(require_js(a) for a in args)))


def join(separator: str, parts: Iterable[Js]) -> Js:
    return Js(separator.join(require_js(p) for p in parts))


class Writer:
    """Lines of JavaScript with an indentation level (two spaces), blocks in braces."""

    def __init__(self, level: int = 0) -> None:
        self.lines: list[str] = []
        self.level = level

    def line(self, text: Js | None = None) -> None:
        if not text:
            self.lines.append("")
            return
        self.lines.extend(wrap("  " * self.level + require_js(text)))

    def indent(self) -> None:
        self.level += 1

    def dedent(self) -> None:
        self.level -= 1

    @contextmanager
    def block(self, header: Js, close: str = "}") -> Iterator[None]:
        self.line(Js(require_js(header) + " {"))
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1
            self.line(Js(close))

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"
