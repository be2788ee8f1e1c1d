"""Read an SRD equipment JSON file into items with their positions, within bounds.

The file is a JSON list of objects. Each item comes back with the line and column where it
starts, so a diagnostic about one weapon points at it. Parse errors carry the parser's real
line and column; a file nested deeper than the parser can follow, or larger than any SRD file,
is a diagnostic rather than a crash or a long wait.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Span

MAX_BYTES = 64 * 1024 * 1024  # the 2014 and 2024 equipment files are about 200 KB
_WS = " \t\r\n"


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _where(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def read_items(path: Path, shown: str) -> tuple[list[tuple[Any, Span]] | None, list[Diagnostic]]:
    """The items of the top-level list with their spans, or None with one diagnostic."""

    def fail(message: str, line: int = 1, col: int = 1) -> tuple[None, list[Diagnostic]]:
        return None, [Diagnostic(Span(shown, line, col), "import", message)]

    try:
        if path.stat().st_size > MAX_BYTES:
            return fail(f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB; "
                        "an SRD equipment file is about 200 KB")
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        return fail(f"cannot read the SRD file: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        return fail(f"the file is not UTF-8 text ({exc.reason} at byte {exc.start})")
    decoder = json.JSONDecoder()
    items: list[tuple[Any, Span]] = []
    try:
        i = _skip(text, 0)
        if not text.startswith("[", i):
            value = json.loads(text)  # a parse error here has the real position
            kind = type(value).__name__ if not isinstance(value, dict) else "object"
            return fail(f"expected a JSON list of equipment items, found a JSON {kind}", *_where(text, i))
        i = _skip(text, i + 1)
        if text.startswith("]", i):
            i += 1
        else:
            while True:
                value, end = decoder.raw_decode(text, i)
                items.append((value, Span(shown, *_where(text, i), (len(items),))))
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
        return fail(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno)
    except RecursionError:
        return fail("the JSON is nested too deeply to read; an SRD equipment item is at most a few levels deep")
    return items, []
