"""Where a line of generated Python may break, for the line wrapper (`wrap.py`): its top-level
brackets, its top-level items (at its commas, or before the operators of the loosest level it
holds: `if`/`else`, `or`, `and`, comparisons, `+`/`-`, `*`), and the columns at the start of a
text that cannot go to another line.
"""

from __future__ import annotations

import keyword

from .wrap_tokens import NAME, OP, _CLOSE, _CLOSES, _OPEN, _OPENS, Token, width

# Operators a line may break before, loosest first: an expression breaks at the loosest level it has.
_LEVELS = ({"if", "else"}, {"or"}, {"and"}, {"==", "!=", "<", "<=", ">", ">=", "in", "is"}, {"+", "-"}, {"*"})
_LEVEL_OF = {op: n for n, level in enumerate(_LEVELS) for op in level}


def _groups(toks: list[Token]) -> list[tuple[int, int]]:
    """(open, close) token indexes of the top-level brackets."""
    out, depth, start = [], 0, -1
    for i, t in enumerate(toks):
        string = t[1]
        if string in _OPENS:
            if depth == 0:
                start = i
            depth += 1
        elif string in _CLOSES:
            depth -= 1
            if depth == 0:
                out.append((start, i))
    return out


def _split(text: str, toks: list[Token], *, commas: bool) -> list[str]:
    """The top-level items of `text`: at its commas (each keeping its comma), or before the
    operators of the loosest level it has at the top."""
    if commas:
        return _split_at(text, toks, {","}, after=True)
    present = _levels(toks)
    for n, level in enumerate(_LEVELS):
        if n in present:  # a level with no operator at the top gives one part: not tried
            parts = _split_at(text, toks, level, after=False)
            if len(parts) > 1:
                return parts
    return [text.strip()] if text.strip() else []


def _levels(toks: list[Token]) -> set[int]:
    """The indexes in _LEVELS of the operators `_split_at` may cut before at the top of `toks`."""
    found, depth = set(), 0
    for i, t in enumerate(toks):
        kind, string = t[0], t[1]
        if string in _OPENS:
            depth += 1
            continue
        if string in _CLOSES:
            depth -= 1
            continue
        if depth or string not in _LEVEL_OF or kind != OP and kind != NAME:
            continue
        if kind == NAME and not keyword.iskeyword(string):
            continue
        if string in ("-", "+") and (i == 0 or toks[i - 1].type == OP and toks[i - 1].string not in _CLOSE):
            continue
        found.add(_LEVEL_OF[string])
    return found


def _split_at(text: str, toks: list[Token], ops: set[str], *, after: bool) -> list[str]:
    parts, begin, depth = [], 0, 0
    for i, t in enumerate(toks):
        string = t[1]
        if string in _OPENS:
            depth += 1
            continue
        if string in _CLOSES:
            depth -= 1
            continue
        if depth or string not in ops or t[0] != OP and t[0] != NAME:
            continue
        if t.type == NAME and not keyword.iskeyword(t.string):
            continue
        if t.string in ("-", "+") and (i == 0 or toks[i - 1].type == OP and toks[i - 1].string not in _CLOSE):
            continue  # a unary sign
        cut = t.end if after else t.start
        if not after and t.string == "in" and i and toks[i - 1].string == "not":
            cut = toks[i - 1].start  # `not in` stays together
        if cut > begin:
            parts.append(text[begin:cut].strip())
            begin = cut
    last = text[begin:].strip()
    if last:
        parts.append(last)
    return [p for p in parts if p]


def _unbreakable(after: str) -> int:
    """The columns at the start of `after` that cannot go to another line: up to its first bracket."""
    for i, ch in enumerate(after):
        if ch in _OPEN:
            return width(after[:i + 1])
    return width(after)
