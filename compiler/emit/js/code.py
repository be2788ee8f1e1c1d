"""The one way any value reaches generated JavaScript: `Js`, and the functions that make it.

The same mechanism as the Python target's (`emit/python/code.py`): `Js` is a `str` holding
trusted JavaScript source, and text from the rules becomes `Js` only through the quoting
functions here: `string` (a literal, by `json.dumps` with every character that could end a
string, a line or a script escaped), `comment`, `name` (an identifier the compiler chose,
checked against the reserved words) and `literal` (null, booleans, safe integers, text and
arrays of them). `js("{} = {};", a, b)` and `join` raise on a plain `str`, and neither type
converts into the other: Python `Code` cannot reach a JavaScript module, nor `Js` a Python one.

Only this module makes `Js` from anything but a constant: `tests/test_js_code.py` reads every
emitter's source and fails on `Js(...)` of a computed value, a `js`/`join` template that is not a
literal, or a `Writer`'s lines touched from outside; and `emit_js` refuses a JavaScript or
TypeScript file whose text is not `Js`. So an f-string slipping into an emitter fails the build.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ...validate.reserved import JS_RESERVED
from ..hidden import INVISIBLE
from .wrap import wrap


class Js(str):
    """Trusted JavaScript source text."""

    __slots__ = ()


class UnquotedValue(TypeError):
    """A plain string reached generated JavaScript without a quoting function (a rulec bug)."""


RESERVED = JS_RESERVED  # the words no identifier may be (validate/reserved.py, which the rules' ids are checked against)
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


def property_name(field: str) -> Js:
    """A property name after a dot: an id of the rules (ASCII; reserved words are legal here)."""
    if not isinstance(field, str) or not field.isascii() or not field.replace("_", "a").isalnum() or field[0].isdigit():
        raise UnquotedValue(f"not a property name: {field!r:.80}")
    return Js(field)


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

# JSON's tokens, and the spaces and line ends between them: text made of these alone is a value,
# never code (no name but true, false and null, no call, no operator but a number's sign).
_JSON_TOKENS = re.compile(r'(?:"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*+"|[\[\]{},: \n]'
                          r'|-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?|true|false|null)*+')


def data_text(json_text: str) -> Js:
    """JSON text of plain data (a rows file of the Python package, emit/python/model.py
    `rows_file`) as a JavaScript expression: refused unless it is JSON's tokens alone, so that it
    holds no code whoever made it; then each line `_escaped`, as every data row is (a JSON string
    holds no line end: the text's own are between its values)."""
    if not isinstance(json_text, str) or _JSON_TOKENS.fullmatch(json_text) is None:
        raise UnquotedValue(f"not JSON data: {json_text!r:.80}")
    return Js("\n".join(map(_escaped, json_text.rstrip("\n").split("\n"))))


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
        for v in row:  # _plain(row), its common cases written out (a 10,000-weapon table has 280,000 values)
            kind = type(v)
            if kind is str or kind is bool or v is None or kind is int and -MAX_SAFE <= v <= MAX_SAFE:  # type: ignore[operator]
                continue
            if not _plain(v):
                raise UnquotedValue(f"not plain data: {row!r:.80}")
        out.append(Js(indent + _escaped(json.dumps(row, ensure_ascii=False, separators=(", ", ": "))) + ","))
    return out


def comment(text: str) -> Js:
    """A one-line comment (`// ...`) of `comment_text(text)`."""
    return Js("// " + comment_text(text))


def comment_text(text: str) -> Js:
    """Rule text for inside a one-line comment (`js("// {} ...", comment_text(name))`): every line
    terminator (LF, CR, U+2028, U+2029, and NEL, which some tools break lines at), control, bidi,
    zero-width and lone surrogate character becomes a space, and the sequences that end a comment
    or a script where one may be inlined (`*/`, `</`, `<!--`, `-->`) or open or close a userscript
    header (`==UserScript==`, `==/UserScript==`) get a space inside them."""
    if not isinstance(text, str):
        raise UnquotedValue(f"not text: {text!r:.80}")
    text = _UNSAFE_COMMENT.sub(" ", text)
    return Js(_COMMENT_ENDS.sub(lambda m: m.group(0)[0] + " " + m.group(0)[1:], text).rstrip())


_UNSAFE_COMMENT = re.compile("[\\x00-\\x1f" + INVISIBLE + "]")  # every C0 control too: a comment is one line
_COMMENT_ENDS = re.compile(r"\*/|</|<!|--(?=>)|==(?=/?UserScript==)")


def meta(key: str, value: str) -> Js:
    """A `// @key value` line of a userscript header: `value` on one line (whitespace runs one
    space) with no `==` left in it, so that no value can end the `==UserScript==` block or add a
    key to it."""
    if not isinstance(key, str) or not re.fullmatch(r"[a-z]{1,12}", key):
        raise UnquotedValue(f"not a userscript key: {key!r:.80}")
    one_line = " ".join(comment_text(value).split())
    return Js(f"// @{key:<12}" + re.sub(r"=(?==)", "= ", one_line))


def parens(text: Js) -> Js:
    """`text` in round brackets."""
    return Js("(" + require_js(text) + ")")


_SOURCES = Path(__file__).resolve().parent.parent.parent / "runtime" / "js"


def source_file(file_name: str) -> Js:
    """A JavaScript file of rulec's own runtime (compiler/runtime/js/): trusted source, as it is but
    for its `'use strict';` line (the file that takes it in says that once, at its top)."""
    path = _SOURCES / file_name
    if not re.fullmatch(r"[a-z][a-z0-9_]*\.js", file_name) or not path.is_file():
        raise UnquotedValue(f"not a runtime file: {file_name!r:.80}")
    return Js(path.read_text(encoding="utf-8").replace("'use strict';\n", "", 1))


def reread(text: str) -> Js:
    """JavaScript this module's emitters made, read back from the output folder a build replaces:
    its bytes hash to the SHA-256 recorded (in the sealed cache) when rulec wrote them for the very
    same ruleset shape (build/reuse.py, `Memo.text`), so it is trusted as what it was when made."""
    return Js(text)


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

    def extend(self, lines: Iterable[Js]) -> None:
        """Lines already laid out (a table's data rows), as they are."""
        self.lines.extend(require_js(line) for line in lines)

    def splice(self, other: Writer) -> None:
        """The lines of another writer (a body written apart), as they are."""
        self.lines.extend(other.lines)

    @contextmanager
    def block(self, header: Js, close: Js = Js("}")) -> Iterator[None]:
        self.line(Js(require_js(header) + " {"))
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1
            self.line(require_js(close))

    def text(self) -> Js:
        self.lines.append("")  # the final line break, joined in (not a copy of the whole text)
        try:
            return Js("\n".join(self.lines))
        finally:
            self.lines.pop()
