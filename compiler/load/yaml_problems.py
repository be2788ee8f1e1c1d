"""The problems of a YAML file said as what they really are, for the loader (documents.py): tabs,
bytes that are not UTF-8, full-width punctuation an input method typed in place of YAML's
(`name：戟`), a ':' inside a plain text of a flow mapping, and how to read on past a syntax error
confined to one line so that one file can report several (at most MAX_SYNTAX_ERRORS)."""

from __future__ import annotations

from collections.abc import Iterator

import yaml

from ..diagnostics import Diagnostic, Span
from ..messages import say


def tab_diagnostics(file: str, text: str) -> Iterator[Diagnostic]:
    for lineno, line in enumerate(text.splitlines(), start=1):
        col = line.find("\t")
        if col >= 0:
            yield Diagnostic(Span(file, lineno, col + 1), "tab",
                             say("tab.tab-character-indent-separate"))


def decode_utf8(file: str, raw: bytes) -> tuple[str | None, list[Diagnostic]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before.rsplit(b"\n", 1)[-1].decode("utf-8", "replace")) + 1
        return None, [Diagnostic(Span(file, line, col), "encoding",
                                 say("encoding.byte-0x-not-valid", value=raw[exc.start]))]
    return text, []


# Punctuation an input method types in place of YAML's (the most common typo in Chinese rule files).
FULL_WIDTH = {"：": ":", "，": ",", "｛": "{", "｝": "}", "［": "[", "］": "]", "－": "-", "＃": "#"}


def full_width_problem(text: str, file: str, line: int) -> Diagnostic | None:
    """When YAML cannot be read near a full-width punctuation mark outside quotes, say so at the
    mark: `name：戟` and `halberd，name` are what the syntax error really is."""
    lines = text.split("\n")
    for n in range(line, max(0, line - 4), -1):
        if n > len(lines):
            continue
        found = full_width_mark(lines[n - 1])
        if found is not None:
            col, mark = found
            return Diagnostic(Span(file, n, col + 1), "full-width",
                              say("full-width.full-width-u-where", mark=mark, ord=ord(mark), value=FULL_WIDTH[mark]),
                              say("full-width.type-half-width-space" if mark in "：，" else "full-width.type-half-width",
                                  value=FULL_WIDTH[mark]))
    return None


def flow_text_problem(text: str, file: str, exc: yaml.MarkedYAMLError) -> Diagnostic | None:
    """`{id: x, description: 注意: 很快}`: a ':' inside a plain text of a flow mapping, which YAML
    reads as a second key. Said at the start of that text, with the text quoted as it should be."""
    mark, start = exc.problem_mark, exc.context_mark
    if mark is None or start is None or "flow" not in str(exc.context or ""):
        return None
    line = text.split("\n")[mark.line] if mark.line < text.count("\n") + 1 else ""
    if line[mark.column:mark.column + 1] != ":":
        return None
    head = line[:mark.column]
    begin = max(head.rfind(", "), head.rfind("{"), head.rfind("[")) + 1
    key, colon, value = head[begin:].partition(": ")
    if not colon or not value.strip():
        return None
    end = min((i for i in (line.find(", ", mark.column), line.find("}", mark.column)) if i >= 0), default=len(line))
    whole = (value + line[mark.column:end]).strip()
    col = begin + len(key) + 2 + (len(value) - len(value.lstrip()))
    return Diagnostic(Span(file, mark.line + 1, col + 1), "quote-text", say("quote-text.colon", key_=key.strip()),
                      say("quote-text.write", key_=key.strip(), text=single_quoted(whole)))


def single_quoted(text: str) -> str:
    """`text` as a YAML single-quoted scalar."""
    return "'" + text.replace("'", "''") + "'"


MAX_SYNTAX_ERRORS = 20  # syntax errors one file reports, each on its own line, before rulec stops


def continue_after(text: str, exc: yaml.MarkedYAMLError) -> str | None:
    """The text with the line of a syntax error made a comment, so the rest of the file can be
    read for more errors; None when the error is not confined to one line (a flow mapping or
    sequence that opens and fails on the same line, as a table entry written on one line does)."""
    mark, start = exc.problem_mark, exc.context_mark
    if mark is None or start is None or mark.line != start.line or "flow" not in str(exc.context or ""):
        return None
    lines = text.split("\n")
    if mark.line >= len(lines) or lines[mark.line].strip() in ("", "#"):
        return None
    line = lines[mark.line]
    lines[mark.line] = line[: len(line) - len(line.lstrip())] + "#"
    return "\n".join(lines)


def full_width_mark(line: str) -> tuple[int, str] | None:
    """The column and character of the first full-width YAML punctuation mark outside quotes and
    after no comment, or None."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return None
        elif ch in FULL_WIDTH:
            return i, ch
    return None
