"""Break long lines of generated JavaScript inside brackets, so that a module reads like written
code (lines of at most WIDTH columns where a bracket allows it; a wide character counts two).

A line is broken only inside a pair of round or square brackets that opens and closes on it:
after the opening bracket, after each comma at the pair's own depth (or before each `&&` / `||`
of a condition), and before the closing bracket, the items one indentation deeper; an item still
too long is broken the same way. JavaScript inserts no semicolon inside brackets, so the code
means what it meant. Strings are the compiler's own (JSON-quoted, or single-quoted words) and
are never broken; a line comment ends the scan; a line without such a pair is left as it is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..python.wrap_tokens import width  # columns on a screen: a wide East Asian character takes two

WIDTH = 120


# What `_scan` looks at: a string (quoted "...", '...' or `...`, a backslash escaping the next
# character; one left open runs to the end of the line), a `//` comment, `&&`, `||`, a bracket or a
# comma. One C-level scan; only the marks are looked at in Python.
_MARK = re.compile(r"""(?s)"(?:[^"\\]|\\.)*(?:"|\\?\Z)|'(?:[^'\\]|\\.)*(?:'|\\?\Z)|`(?:[^`\\]|\\.)*(?:`|\\?\Z)"""
                   r"""|//|&&|\|\||[()\[\]{},]""")


def _scan(line: str) -> list[tuple[int, str, int]]:
    """(index, character, depth before it) of the brackets, commas and `&&`/`||` outside strings."""
    out: list[tuple[int, str, int]] = []
    depth = 0
    for m in _MARK.finditer(line):
        mark = m.group()
        c = mark[0]
        if c in "\"'`":
            continue
        if mark == "//":
            break
        if c in "([{":
            out.append((m.start(), c, depth))
            depth += 1
        elif c in ")]}":
            depth -= 1
            out.append((m.start(), c, depth))
        else:
            out.append((m.start(), mark, depth))
    return out


def wrap(line: str, indent: str = "  ") -> list[str]:
    """`line` as lines of at most WIDTH columns where its brackets allow."""
    if len(line) <= WIDTH // 2 or width(line) <= WIDTH or line.lstrip().startswith("//"):
        return [line]
    return list(_laid_out(str(line), indent))


@lru_cache(maxsize=4096)
def _laid_out(line: str, indent: str) -> tuple[str, ...]:
    """A long line broken (pure: a resident build lays each line it writes again out once)."""
    return tuple(_wrap(line, indent))


def _wrap(line: str, indent: str) -> list[str]:
    marks = _scan(line)
    lead = line[:len(line) - len(line.lstrip())]
    for k, (start, c, depth) in enumerate(marks):  # the first (outermost) pair worth breaking
        if c not in "([{":
            continue
        closer = {"(": ")", "[": "]", "{": "}"}[c]
        close = next((j for j in marks[k + 1:] if j[1] == closer and j[2] == depth), None)
        if close is None or close[0] - start < 40:
            continue
        inner = [m for m in marks if start < m[0] < close[0] and m[2] == depth + 1]
        commas = [m[0] for m in inner if m[1] == ","]
        # `&&` and `||` only inside round or square brackets: in a block, `return a` + newline
        # would end the statement.
        ops = [m[0] for m in inner if m[1] in ("&&", "||")] if c != "{" else []
        if commas:
            cuts = [start + 1] + [p + 1 for p in commas] + [close[0]]
        elif ops:
            cuts = [start + 1] + ops + [close[0]]
        else:
            continue
        pieces = [line[a:b].strip() for a, b in zip(cuts, cuts[1:])]
        pieces = [p for p in pieces if p]
        out = [line[:start + 1]]
        current, used, room = "", 0, WIDTH - width(lead + indent)
        for piece in pieces:  # as many items a line as fit
            w = width(piece)
            if current and used + 1 + w > room:
                out.extend(wrap(lead + indent + current, indent))
                current, used = piece, w
            else:
                current, used = (f"{current} {piece}", used + 1 + w) if current else (piece, w)
        if current:
            out.extend(wrap(lead + indent + current, indent))
        out.append(lead + line[close[0]:].lstrip())
        return out
    return [line]
