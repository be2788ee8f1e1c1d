"""The one way any value reaches generated Python: `Code`, and the functions that make it.

`Code` is a `str` that holds trusted Python source. Text from the rules becomes `Code` only
through the quoting functions below: `string` (a literal), `docstring`, `comment`, `name` (an
identifier the compiler chose, checked), `literal` (numbers, booleans, tuples of those). The
code writer and the templates' environment accept nothing else: `code("{} = {}", a, b)` raises
if an argument is a plain `str`, and so does a `{{ value }}` in a Python template. So a rule
file's text can never become code, whatever quotes, backslashes or newlines it holds.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from ..hidden import INVISIBLE
from .wrap import WIDTH, pack_row, wrap
from .wrap_tokens import width


class Code(str):
    """Trusted Python source text."""

    __slots__ = ()


class UnquotedValue(TypeError):
    """A plain string reached generated code without going through a quoting function (a rulec bug)."""


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# What a comment or docstring never holds as it is: C0 controls but tab and line feed, and the
# invisible characters both code writers refuse (emit/hidden.py).
_CONTROL = re.compile("[\\x00-\\x08\\x0b-\\x1f" + INVISIBLE + "]")


def require_code(value: object) -> Code:
    if isinstance(value, Code):
        return value
    raise UnquotedValue(f"an unquoted value reached generated code: {value!r:.80}")


def name(identifier: str) -> Code:
    """An identifier (ASCII, not a keyword); the compiler's names, never free text."""
    if not _IDENT.match(identifier) or keyword.iskeyword(identifier):
        raise UnquotedValue(f"not a Python identifier: {identifier!r:.80}")
    return Code(identifier)


def string(text: str) -> Code:
    """A Python string literal holding exactly `text`."""
    if not isinstance(text, str):
        raise UnquotedValue(f"not text: {text!r:.80}")
    return Code(repr(text))


def literal(value: object) -> Code:
    """A literal for plain data: None, booleans, whole numbers, text, and tuples of them."""
    if value is None or isinstance(value, bool):
        return Code(repr(value))
    if isinstance(value, int):
        return Code(str(value) if value >= 0 else f"({value})")
    if isinstance(value, str):
        return string(value)
    if isinstance(value, (tuple, list)):
        items = [literal(v) for v in value]
        if len(items) == 1:
            return Code(f"({items[0]},)")
        return Code("(" + ", ".join(items) + ")")
    raise UnquotedValue(f"no literal for {type(value).__name__}")


def comment(text: str) -> Code:
    """A one-line comment (`# ...`): line breaks and control characters become spaces, and `@@`
    is `@ @` (no comment can be the line a module's imports go in: package.py's marker)."""
    return Code("# " + _CONTROL.sub(" ", str(text).replace("\r", " ").replace("\n", " ")).replace("@@", "@ @")
                .rstrip())


_PLAIN = (str, int, bool, type(None))


def is_plain(value: object) -> bool:
    """Text, whole numbers, booleans, None and (nested) tuples of them: data, never code."""
    return _plain(value)


_SIMPLE = frozenset({str, int, bool, type(None)})


def _plain(value: object) -> bool:
    kind = type(value)
    if kind in _SIMPLE:
        return True
    if kind is tuple:  # a data row: its items by their exact type first (the common case, fast)
        return all(type(v) in _SIMPLE or _plain(v) for v in value)  # type: ignore[attr-defined]
    if isinstance(value, _PLAIN):
        return True
    return isinstance(value, tuple) and all(_plain(v) for v in value)


def data(value: tuple[object, ...]) -> Code:
    """A tuple literal of plain data (text, whole numbers, booleans, None, nested tuples), by one
    `repr`, which writes exactly such a literal; a row of a table costs one call."""
    if not _plain(value):
        raise UnquotedValue(f"not plain data: {value!r:.80}")
    text = repr(value)
    return Code(text[:-1] + ",)" if not text.endswith(",)") and value else text)


def docstring(text: str, room: int = 110) -> Code:
    """A triple-quoted docstring holding `text` (backslashes and quotes escaped), its long lines
    broken after spaces and Chinese punctuation so that each fits in `room` columns."""
    from .wrap_tokens import width

    lines = []
    for raw in str(text).split("\n"):
        while width(raw) > room:
            cut = _break_point(raw, room)
            lines.append(raw[:cut].rstrip())
            raw = raw[cut:].lstrip()
        lines.append(raw)
    # `@@` as `@\x40` (the same text once read): no line of a docstring can be the marker line
    # of package.py where a module's imports go.
    body = "\n".join(lines).replace("\\", "\\\\").replace('"', '\\"').replace("@@", "@\\x40")
    body = _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}" if ord(m.group(0)) < 0x100
                        else f"\\u{ord(m.group(0)):04x}", body)
    return Code(f'"""{body}"""')


def _break_point(text: str, room: int) -> int:
    """Where to break `text` so that the first part fits in `room` columns: after the last space or
    Chinese punctuation that fits, else at the last character that fits."""
    from .wrap_tokens import width

    fit = 0
    for i in range(1, len(text) + 1):
        if width(text[:i]) > room - 6:
            break
        fit = i
    for i in range(fit, 0, -1):
        if text[i - 1] in " 、，。；：":
            return i
    return max(fit, 1)


def code(template: str, *args: Code) -> Code:
    """Fill a template written in rulec's own source with Code arguments only."""
    return Code(template.format(*(require_code(a) for a in args)))


def join(separator: str, parts: Iterable[Code]) -> Code:
    return Code(separator.join(require_code(p) for p in parts))


class Writer:
    """Lines of Python with an indentation level (in the manner of Jinja2's CodeGenerator)."""

    def __init__(self, level: int = 0) -> None:
        self.lines: list[str] = []
        self.level = level

    def line(self, text: Code | None = None) -> None:
        """A line at the current indentation, broken into lines a screen wide where it is longer."""
        if not text:
            self.lines.append("")
            return
        indent = "    " * self.level
        if "\n" in text:  # a docstring: its lines at the indentation of its opening quotes
            self.lines.extend(indent + line if line else "" for line in require_code(text).split("\n"))
            return
        self.lines.extend(wrap(require_code(text), indent))

    def row(self, value: tuple[object, ...]) -> None:
        """A data row of a table, `(a, b, ...,),`, laid out as `line` would, only faster."""
        text = data(value)
        indent = "    " * self.level
        laid = pack_row([repr(v) + "," for v in value], indent) if width(text) + len(indent) + 1 > WIDTH else None
        self.lines.extend(laid if laid is not None else wrap(Code(text + ","), indent))

    def indent(self) -> None:
        self.level += 1

    def dedent(self) -> None:
        self.level -= 1

    @contextmanager
    def block(self, header: Code) -> Iterator[None]:
        self.line(Code(require_code(header) + ":"))
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def module_head(w: Writer, header: str, doc: str) -> None:
    """The start of a generated module: the build header (comments) and the module docstring."""
    for line in header.splitlines():
        w.line(comment(line[2:]))
    w.line(docstring(doc))


def fields_class(w: Writer, cls: Code, fields: Sequence[tuple[Code, Code, Code | None]], names: Code) -> None:
    """A tuple class with named fields: a `NamedTuple` to type checkers, and at run time the same
    class made by the runtime's `fields_tuple` (typing.NamedTuple spends 350 µs a class on work
    no caller sees: a third of a package's import). `fields`: (name, type, comment or None);
    `names`: an expression of the tuple of their names."""
    with w.block(Code("if TYPE_CHECKING")):
        with w.block(code("class {}(NamedTuple)", cls)):
            for field, kind, note in fields:
                w.line(code("{}: {}  {}", field, kind, note) if note is not None else code("{}: {}", field, kind))
    with w.block(Code("else")):
        w.line(code("{} = _rt_fields_tuple({}, {}, __name__)", cls, string(cls), names))
