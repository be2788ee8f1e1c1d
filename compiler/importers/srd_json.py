"""Read an SRD equipment JSON file into items with their positions, within bounds.

The file is a JSON list of objects. Each item comes back with the line and column where it
starts, so a diagnostic about one weapon points at it. Parse errors carry the parser's real
line and column; a file nested deeper than the parser can follow, or larger than any SRD file
(read through load/reading.py: a regular file, the limit enforced on the bytes read), and a number
no field can hold (more than MAX_INT_DIGITS digits, `1e400`, `Infinity`, `NaN`) are diagnostics
rather than a crash or a long wait.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Span, quote
from ..load.core_schema import MAX_INT_DIGITS
from ..load.reading import MAX_SRD_BYTES, ReadRefused, read_bounded
from ..messages import say

MAX_BYTES = MAX_SRD_BYTES
_WS = " \t\r\n"


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


class _Lines:
    """Line and column of increasing positions, counting each newline once (`_where` per item of a
    list of a million items would count from the start a million times)."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line, self.start = text, 0, 1, 0

    def at(self, pos: int) -> tuple[int, int]:
        newlines = self.text.count("\n", self.pos, pos)
        if newlines:
            self.line += newlines
            self.start = self.text.rfind("\n", self.pos, pos) + 1
        self.pos = pos
        return self.line, pos - self.start + 1


def _where(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


class _BadNumber(ValueError):
    def __init__(self, text: str, why: str) -> None:
        super().__init__(text)
        self.text, self.why = text, why


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:  # Python refuses past 4,300 digits with a bare ValueError
        raise _BadNumber(text, say("srd_json.whole-number-more-than", max_int_digits=MAX_INT_DIGITS))
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise _BadNumber(text, say("srd_json.too-large-for-number"))
    return value


def _constant(text: str) -> float:  # Infinity, -Infinity, NaN: not JSON, though Python reads them
    raise _BadNumber(text, say("srd_json.json-has-no-infinities"))


def read_items(path: Path, shown: str) -> tuple[list[tuple[Any, Span]] | None, list[Diagnostic]]:
    """The items of the top-level list with their spans, or None with one diagnostic."""

    def fail(message: str, line: int = 1, col: int = 1) -> tuple[None, list[Diagnostic]]:
        return None, [Diagnostic(Span(shown, line, col), "import", message)]

    try:
        text = read_bounded(path, MAX_BYTES, shown, what="an SRD equipment file (about 200 KB)"
                            ).decode("utf-8-sig")
    except ReadRefused as exc:
        return None, [exc.diagnostic]
    except UnicodeDecodeError as exc:
        return fail(say("srd_json.file-not-utf-8", reason=exc.reason, start=exc.start))
    decoder = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)
    items: list[tuple[Any, Span]] = []
    i = 0
    try:
        i = _skip(text, 0)
        if not text.startswith("[", i):
            value = decoder.decode(text)  # a parse error here has the real position
            kind = type(value).__name__ if not isinstance(value, dict) else "object"
            return fail(say("srd_json.expected-json-list-equipment", kind=kind), *_where(text, i))
        i = _skip(text, i + 1)
        if text.startswith("]", i):
            i += 1
        else:
            lines = _Lines(text)
            while True:
                value, end = decoder.raw_decode(text, i)
                items.append((value, Span(shown, *lines.at(i), (len(items),))))
                i = _skip(text, end)
                if text.startswith(",", i):
                    i = _skip(text, i + 1)
                    continue
                if text.startswith("]", i):
                    i += 1
                    break
                raise json.JSONDecodeError("Expecting ',' delimiter", text, i)
        i = _skip(text, i)
        if i < len(text):
            raise json.JSONDecodeError("Extra data", text, i)
    except json.JSONDecodeError as exc:
        return fail(say("srd_json.not-valid-json", msg=exc.msg), exc.lineno, exc.colno)
    except _BadNumber as exc:  # at the number's first place after the item it is in
        at = text.find(exc.text, i)
        return fail(say("srd_json.not-usable-number", text=quote(exc.text), why=exc.why), *_where(text, at if at >= 0 else i))
    except RecursionError:
        return fail(say("srd_json.json-nested-too-deeply"))
    return items, []
