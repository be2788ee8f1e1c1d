"""What rulec prints goes through one filter: text from rule files, scenario files, file names and
imported data can hold no terminal control sequence (no escape codes, no carriage returns that
overwrite a line, no bidirectional overrides that reorder it).

`SafeStream` wraps stdout and stderr for the duration of a command (cli.guarded). It removes
every control character except newline and tab, and every invisible format character (bidi
controls, zero-width characters), keeping only the colour codes rulec itself writes
(ESC [ digits ; m).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, TextIO

_OWN_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def printable(text: str) -> str:
    """`text` without control and invisible format characters, rulec's own colour codes kept."""
    if text.isascii() and text.isprintable():
        return text
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            m = _OWN_COLOUR.match(text, i)
            if m:
                out.append(m.group())
                i = m.end()
                continue
        elif ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"):
            out.append(ch)
        i += 1
    return "".join(out)


class SafeStream:
    """A text stream that filters what is written to it through `printable`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text))
        return len(text)

    @property
    def raw(self) -> TextIO:
        """The stream itself, for rulec's own control sequences (the progress line)."""
        return self._stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def raw(stream: Any) -> Any:
    """`stream` without the filter, when it has one."""
    return stream.raw if isinstance(stream, SafeStream) else stream
