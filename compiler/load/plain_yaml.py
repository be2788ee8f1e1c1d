"""A reader for the plain subset of YAML that scenario files are written in, without PyYAML.

`rulec resolve` and `rulec odds` on an up-to-date build have to start about as fast as a Python
process that imports the built package (issue 20), and importing PyYAML alone takes a third of
that budget. `read(text)` returns exactly the data `documents.load_text(text)` would, or None
whenever the text uses anything outside the subset or holds anything `load_text` would report;
the caller then loads the file with `documents.py`, which gives positions and diagnostics.

The subset: one block mapping or sequence indented with spaces; `- ` items, compact ones included
(`- key: value`); flow collections (`[...]`, `{...}`) and scalars on one line; plain scalars,
single-quoted scalars, and double-quoted ones without escapes; `#` comments. Plain scalars
resolve with the YAML 1.2 core schema exactly as documents.py does (`yes` and `on` are refused,
keys stay text), and text is NFC-normalised. Anything else — tabs, carriage returns, anchors,
tags, block scalars, multi-line scalars, document markers, duplicate keys, a forbidden character
anywhere, nesting past `MAX_DEPTH` — is None. `tests/test_plain_yaml.py` holds it to `load_text`
on every bundled scenario and on generated and mutated documents.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from . import core_schema as core
from .characters import FORBIDDEN

MAX_BYTES = 1 << 20  # larger files go to documents.py
MAX_DEPTH = 32  # documents.py allows 64 levels; past 32 it decides
MAX_JOINED = 64  # lines one flow collection may span
MAX_JOINED_CHARS = 4096  # and characters: each line joined parses the collection again

# Besides the forbidden characters (which hold NEL, a line break in YAML 1.1), what YAML does not
# print or this reader does not read; a decoded file holds no surrogates.
_REFUSED = frozenset("\t\r\ufffe\uffff")
_BOOL, _NULL, _INT, _FLOAT = (re.compile(rf"(?:{pattern})\Z")
                              for pattern, _ in (core.BOOL, core.NULL, core.INT, core.FLOAT))
# A plain scalar may not start with these (a `-` only when a space or the end follows it).
_INDICATORS = frozenset("?:,[]{}#&*!|>'\"%@`")
_FLOW_STOPS = frozenset(",[]{}#:")


class _Outside(Exception):
    """The text leaves the subset (or holds something documents.py would report)."""


class _Unclosed(_Outside):
    """A flow collection goes on past the end of its line."""


def _text(value: str) -> str:
    return value if value.isascii() else unicodedata.normalize("NFC", value)


def _resolve(plain: str) -> Any:
    """A plain scalar's value under documents.py's core schema."""
    if _BOOL.match(plain):
        return plain.lower() == "true"
    if _NULL.match(plain):
        return None
    if _INT.match(plain):
        if core.int_too_long(plain):
            raise _Outside  # documents.py reports it
        return core.int_value(plain)
    if _FLOAT.match(plain):
        if core.unusable_float(plain):
            raise _Outside
        return float(plain)
    if plain in core.YAML11_BOOLS:
        raise _Outside
    return _text(plain)


def _key(plain: str) -> str:
    """A plain mapping key: text or an integer's digits, kept as written."""
    if plain == "<<" or _BOOL.match(plain) or _NULL.match(plain):
        raise _Outside
    if _FLOAT.match(plain) and not _INT.match(plain):
        raise _Outside
    return _text(plain)


def _quoted_key(s: str, i: int) -> tuple[str, int]:
    key, end = _quoted(s, i)
    if key == "<<":
        raise _Outside
    return key, end


def _quoted(s: str, i: int) -> tuple[str, int]:
    """The quoted scalar starting at s[i] and the index after its closing quote."""
    quote = s[i]
    j = i + 1
    parts = []
    while True:
        k = s.find(quote, j)
        if k < 0:
            raise _Outside  # it goes on to the next line
        if quote == '"':
            if "\\" in s[j:k]:
                raise _Outside
            parts.append(s[j:k])
            return _text("".join(parts)), k + 1
        parts.append(s[j:k])
        if s.startswith("''", k):
            parts.append("'")
            j = k + 2
            continue
        return _text("".join(parts)), k + 1


def _after_node(s: str, i: int) -> None:
    """After a value on a line only spaces and a comment (which needs a space before it) may follow."""
    rest = s[i:]
    stripped = rest.lstrip(" ")
    if stripped and not (stripped[0] == "#" and len(stripped) < len(rest)):
        raise _Outside


class _Flow:
    """A flow collection that opens and closes on one line."""

    def __init__(self, s: str, max_items: int | None = None) -> None:
        self.s = s
        self.max_items = max_items

    def skip(self, i: int) -> int:
        while i < len(self.s) and self.s[i] == " ":
            i += 1
        return i

    def node(self, i: int, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise _Outside
        s = self.s
        i = self.skip(i)
        if i >= len(s):
            raise _Unclosed
        ch = s[i]
        if ch == "[":
            return self.sequence(i + 1, depth)
        if ch == "{":
            return self.mapping(i + 1, depth)
        if ch in "'\"":
            return _quoted(s, i)
        text, i = self.plain(i)
        return _resolve(text), i

    def plain(self, i: int) -> tuple[str, int]:
        s = self.s
        if s[i] in _INDICATORS or (s[i] == "-" and (i + 1 >= len(s) or s[i + 1] == " ")):
            raise _Outside
        j = i
        while j < len(s) and s[j] not in _FLOW_STOPS:
            j += 1
        if j < len(s) and s[j] in "#:" and not (s[j] == ":" and j + 1 < len(s) and s[j + 1] == " "):
            raise _Outside  # a comment, or a colon inside the scalar: documents.py decides
        return s[i:j].rstrip(" "), j

    def sequence(self, i: int, depth: int) -> tuple[list[Any], int]:
        out: list[Any] = []
        i = self.skip(i)
        if i < len(self.s) and self.s[i] == "]":
            return out, i + 1
        while True:
            value, i = self.node(i, depth + 1)
            out.append(value)
            _count(out, self.max_items)
            i = self.skip(i)
            if i >= len(self.s):
                raise _Unclosed
            if self.s[i] == "]":
                return out, i + 1
            if self.s[i] != ",":
                raise _Outside
            i += 1

    def mapping(self, i: int, depth: int) -> tuple[dict[str, Any], int]:
        s = self.s
        out: dict[str, Any] = {}
        i = self.skip(i)
        if i < len(s) and s[i] == "}":
            return out, i + 1
        while True:
            i = self.skip(i)
            if i >= len(s):
                raise _Unclosed
            if s[i] in "'\"":
                key, i = _quoted_key(s, i)
            else:
                plain, i = self.plain(i)
                key = _key(plain)
            i = self.skip(i)
            if not s.startswith(": ", i) or key in out:
                raise _Outside
            value, i = self.node(i + 2, depth + 1)
            out[key] = value
            _count(out, self.max_items)
            i = self.skip(i)
            if i >= len(s):
                raise _Unclosed
            if s[i] == "}":
                return out, i + 1
            if s[i] != ",":
                raise _Outside
            i += 1


def _count(collection: list[Any] | dict[str, Any], max_items: int | None) -> None:
    """A collection past `max_items` is documents.py's to report (at its line)."""
    if max_items is not None and len(collection) > max_items:
        raise _Outside


def _inline(s: str, depth: int, max_items: int | None = None) -> Any:
    """The value written after `key: ` or `- ` (never empty); _Unclosed when it is a flow
    collection that the line does not close."""
    if s[0] in "[{":
        value, end = _Flow(s, max_items).node(0, depth)
        _after_node(s, end)
        return value
    if s[0] in "'\"":
        value, end = _quoted(s, 0)
        _after_node(s, end)
        return value
    if s[0] in _INDICATORS or s == "-" or s.startswith("- "):
        raise _Outside
    cut = s.find(" #")
    plain = (s if cut < 0 else s[:cut]).rstrip(" ")
    if ": " in plain or plain.endswith(":"):
        raise _Outside
    return _resolve(plain)


def _split_key(s: str) -> tuple[str, str] | None:
    """(key, what follows `: `) when the line's content is a mapping entry, else None."""
    if s[0] in "'\"":
        key, j = _quoted_key(s, 0)
        while j < len(s) and s[j] == " ":
            j += 1
        if j < len(s) and s[j] == ":" and (j + 1 == len(s) or s[j + 1] == " "):
            return key, s[j + 1:].lstrip(" ")
        return None
    if s[0] in _INDICATORS or s[0] == "-":
        return None
    colon = s.find(": ")
    if colon < 0:
        colon = len(s) - 1 if s.endswith(":") else -1
    comment = s.find(" #")
    if colon < 0 or 0 <= comment < colon:
        return None
    return _key(s[:colon].rstrip(" ")), s[colon + 1:].lstrip(" ")


def _is_item(s: str) -> bool:
    return s == "-" or s.startswith("- ")


class _Block:
    def __init__(self, lines: list[tuple[int, str, int]], max_items: int | None = None) -> None:
        self.lines = lines  # (indent, content, line number) of each line that is not blank or a comment
        self.max_items = max_items

    def indent(self, i: int) -> int:
        return self.lines[i][0] if i < len(self.lines) else -1

    def inline(self, i: int, rest: str, n: int, depth: int) -> tuple[Any, int]:
        """The value `rest` on line i, a flow collection joined with the lines right below it
        (more indented than `n`) until it closes; the index of the line after it. Each line joined
        parses the collection again, so MAX_JOINED and MAX_JOINED_CHARS bound the work (a longer
        collection goes to documents.py, which reads it once)."""
        first = i
        while True:
            try:
                value = _inline(rest, depth, self.max_items)
            except _Unclosed:
                if i + 1 >= len(self.lines) or i - first >= MAX_JOINED or len(rest) > MAX_JOINED_CHARS \
                        or self.indent(i + 1) <= n or self.lines[i + 1][2] != self.lines[i][2] + 1:
                    raise
                i += 1
                rest = rest + " " + self.lines[i][1]
                continue
            return value, i + 1

    def node(self, i: int, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise _Outside
        indent, content, _ = self.lines[i]
        value, i = self.sequence(i, indent, depth) if _is_item(content) else self.mapping(i, indent, depth)
        if self.indent(i) > indent:
            raise _Outside
        return value, i

    def mapping(self, i: int, n: int, depth: int) -> tuple[dict[str, Any], int]:
        out: dict[str, Any] = {}
        while self.indent(i) == n:
            content = self.lines[i][1]
            entry = None if _is_item(content) else _split_key(content)
            if entry is None:
                raise _Outside
            key, rest = entry
            if key in out:
                raise _Outside
            _count(out, None if self.max_items is None else self.max_items - 1)
            if rest and rest[0] != "#":
                out[key], i = self.inline(i, rest, n, depth + 1)
                if self.indent(i) > n:
                    raise _Outside  # the scalar goes on to the next line
                continue
            i += 1
            if self.indent(i) > n:
                out[key], i = self.node(i, depth + 1)
            elif self.indent(i) == n and _is_item(self.lines[i][1]):
                out[key], i = self.sequence(i, n, depth + 1)
            else:
                out[key] = None
        return out, i

    def sequence(self, i: int, n: int, depth: int) -> tuple[list[Any], int]:
        out: list[Any] = []
        while self.indent(i) == n and _is_item(self.lines[i][1]):
            rest = self.lines[i][1][1:]
            item = rest.lstrip(" ")
            if not item or item[0] == "#":
                i += 1
                if self.indent(i) > n:
                    value, i = self.node(i, depth + 1)
                else:
                    value = None
            elif _is_item(item) or _split_key(item) is not None:
                # A compact collection: its first line starts after the dash.
                self.lines[i] = (n + 1 + len(rest) - len(item), item, self.lines[i][2])
                value, i = self.node(i, depth + 1)
            else:
                value, i = self.inline(i, item, n, depth + 1)
                if self.indent(i) > n:
                    raise _Outside
            out.append(value)
            _count(out, self.max_items)
        return out, i


def read(text: str, *, max_items: int | None = None) -> tuple[bool, Any]:
    """(True, data) when `text` is in the subset, with the data documents.load_text gives it
    (with the same `max_items`: a longer list or mapping is declined, for documents.py to report);
    (False, None) otherwise."""
    if len(text) > MAX_BYTES or not _REFUSED.isdisjoint(text) or not FORBIDDEN.isdisjoint(text):
        return False, None
    lines: list[tuple[int, str, int]] = []
    for number, line in enumerate(text.split("\n")):
        content = line.lstrip(" ")
        if not content or content[0] == "#":
            continue
        if line.startswith(("---", "...")):
            return False, None
        lines.append((len(line) - len(content), content.rstrip(" "), number))
    if not lines or lines[0][0] != 0:
        return False, None
    try:
        data, end = _Block(lines, max_items).node(0, 0)
    except (_Outside, RecursionError, ValueError):
        return False, None
    if end != len(lines):
        return False, None
    return True, data


def read_bytes(raw: bytes, *, max_items: int | None = None) -> tuple[bool, Any]:
    """`read` of a file's bytes (UTF-8, an optional byte-order mark)."""
    if len(raw) > MAX_BYTES:
        return False, None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False, None
    return read(text, max_items=max_items)
