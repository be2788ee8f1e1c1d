"""Line wrapping for generated Python: every line a screen wide (at most WIDTH columns).

A long line is laid out recursively. Its longest bracket is broken: the items inside it (at its
top-level commas, or before the top-level operators of the one expression it holds: `and`,
`or`, `if`, `else`, `+`, ...) are packed several to a line, aligned after the bracket or, when
that column is far to the right, hanging 8 columns in from the statement; an item still too long
is laid out the same way, and so is whatever follows the closing bracket (`) -> Callable[...]:`).
A statement with no bracket worth breaking gets its expression parenthesised first. A string
literal longer than a line is split into adjacent literals (an f-string between its fields).
Lines only ever break inside brackets, where Python ignores line breaks, which a test checks by
comparing syntax trees.

This module lays a line out (`wrap`, `pack_row`, `_Layout`); it reads the line's tokens with
`wrap_tokens.py`, finds where it may break with `wrap_breaks.py`, and cuts long string literals
with `wrap_strings.py`.
"""

from __future__ import annotations

import ast
from functools import lru_cache

from .wrap_breaks import _groups, _levels, _split, _unbreakable
from .wrap_strings import _fstring_chunks, _simple_fstring
from .wrap_tokens import COMMENT, OP, _CLOSES, _OPENS, _PLAIN_STRING, Token, _depth, _new_token, _tokens, width

WIDTH = 120
_ASSIGN = ("=", "+=", "-=")


def wrap(line: str, indent: str) -> list[str]:
    """`line` (without its indentation) as lines of at most WIDTH columns, where it can."""
    if len(indent) + width(line) <= WIDTH or line.lstrip().startswith("#") or "\n" in line:
        return [indent + line]
    return list(_laid_out(str(line), indent))


@lru_cache(maxsize=4096)
def _laid_out(line: str, indent: str) -> tuple[str, ...]:
    """A long line broken (a pure function of its text: a resident build, which writes the same
    modules again after an edit, lays each one out once)."""
    return tuple(_wrap(line, indent))


def _wrap(line: str, indent: str) -> list[str]:
    layout = _Layout()
    toks = layout.tokens(line)
    if not toks:
        return [indent + line]
    if toks[-1].type == COMMENT:  # a trailing comment goes on a line of its own, above
        comment = toks[-1].string
        return [indent + comment] + wrap(line[:toks[-1].start].rstrip(), indent)
    out = layout.statement(line, toks, len(indent))
    return [indent + out[0]] + out[1:]


def pack_row(items: list[str], indent: str) -> list[str] | None:
    """A data row `(item, item, ...,),` at `indent`, as `wrap` lays it out, without reading it
    back into tokens: each item (a literal with its comma) is packed greedily after the bracket.
    None when an item is too long for that (wrap then breaks inside it)."""
    cont = len(indent) + 1
    widths = [width(i) for i in items]
    if not items or max(widths) + cont + 2 > WIDTH:
        return None
    lines: list[str] = []
    current, used, at = "", 0, cont  # `used`: width(current); `at`: where it starts (0: it holds its indent)
    for n, (item, w) in enumerate(zip(items, widths)):
        need = w + (2 if n == len(items) - 1 else 0)  # the last keeps room for "),"
        if used and at + used + 1 + need > WIDTH:
            lines.append(current)
            current, used, at = " " * cont, cont, 0
        if used and current.strip():
            current, used = current + " " + item, used + 1 + w
        else:
            current, used = current + item, used + w
    lines.append(current)
    lines[0] = indent + "(" + lines[0]
    lines[-1] += "),"
    return lines


class _Layout:
    """The layout of one long line. It remembers the tokens of every text it has read: the same
    pieces are looked at again as a line is tried in several layouts."""

    def __init__(self) -> None:
        self._seen: dict[str, list[Token] | None] = {}

    def tokens(self, text: str) -> list[Token] | None:
        try:
            return self._seen[text]
        except KeyError:
            found = self._seen[text] = _tokens(text)
            return found

    def part(self, text: str, toks: list[Token], first: int, stop: int, shift: int) -> list[Token] | None:
        """The tokens of `text`, the piece of a text read before that holds its tokens
        `toks[first:stop]` and starts at its column `shift`: those tokens moved, not `text` read again."""
        if text in self._seen:
            return self._seen[text]
        piece = toks[first:stop]
        found = self._seen[text] = None if _depth([t[1] for t in piece]) > 0 else \
            [_new_token(Token, (kind, string, start - shift, end - shift)) for kind, string, start, end in piece]
        return found

    def statement(self, line: str, toks: list[Token], col: int) -> list[str]:
        """The better of two layouts: breaking inside the brackets as they are, or parenthesising the
        statement's expression and breaking it before its operators (fewer too-long lines, then fewer
        lines)."""
        def cost(lines: list[str]) -> tuple[int, int]:
            first = col + width(lines[0])
            return (sum(1 for n in [first] + [width(x) for x in lines[1:]] if n > WIDTH), len(lines))

        as_is = self.layout(line, col, col, inside=False)
        if len(as_is) == 2 and cost(as_is) == (0, 2):
            return as_is  # a long line takes two lines at least, and a tie keeps this layout: nothing is better
        parenthesised = self.parenthesised(line, toks, col)
        return as_is if parenthesised is None else min((as_is, parenthesised), key=cost)

    def layout(self, text: str, col: int, base: int, *, inside: bool, reserve: int = 0) -> list[str]:
        """`text` (a balanced sequence) from column `col`: the first line without its indentation, the
        others with theirs. `inside`: the text sits inside a bracket (its commas may break);
        `reserve`: columns that will follow the text on its last line."""
        if col + width(text) + reserve <= WIDTH:
            return [text]
        toks = self.tokens(text)
        if not toks:
            return [text]
        if inside:
            items = _split(text, toks, commas=True)
            if len(items) > 1:
                return self.pack(items, col, col, base, reserve=reserve)
            if self.plain_string(text) or _simple_fstring(text):
                pieces = self.split_long_strings([text], WIDTH - col, WIDTH - col - reserve)
                return self.pack(pieces, col, col, base, reserve=reserve) if len(pieces) > 1 else [text]
            parts = _split(text, toks, commas=False)
            if len(parts) > 1:  # an expression inside a bracket breaks before its loosest operators
                return self.pack(parts, col, col, base, reserve=reserve)
        groups = _groups(toks)
        if not groups:
            return [text]
        start, end = max(groups, key=lambda g: toks[g[1]].start - toks[g[0]].start)
        head = text[:toks[start].end]
        inner = text[toks[start].end:toks[end].start]
        closer, after = text[toks[end].start:toks[end].end], text[toks[end].end:]
        inner_toks = self.part(inner, toks, start + 1, end, toks[start].end) or []
        self.part(after, toks, end + 1, len(toks), toks[end].end)
        items = _split(inner, inner_toks, commas=True)
        if len(items) == 1:
            items = _split(inner, inner_toks, commas=False)
        head_col = col + width(head)
        widest = max((width(i) for i in items), default=0)
        # Columns kept after the last item: the closer and what cannot break after it; when what follows
        # could not break after all (`-> Tuple[bool]:`), all of it.
        first_try = width(closer) + _unbreakable(after) + (0 if after else reserve)
        lines = self.around(head, items, closer, after, col, head_col, widest, base, inside, reserve, first_try)
        whole = width(closer) + width(after) + reserve
        if after and whole > first_try and any(width(x) > WIDTH for x in lines[1:]):
            lines = self.around(head, items, closer, after, col, head_col, widest, base, inside, reserve, whole)
        return lines

    def around(self, head: str, items: list[str], closer: str, after: str, col: int, head_col: int, widest: int,
                base: int, inside: bool, reserve: int, tail_reserve: int) -> list[str]:
        """The lines of a bracket's `head`, its `items` packed, its `closer` and what comes `after`."""
        if len(items) > 1 and (head_col > WIDTH // 2 or head_col + widest > WIDTH):  # hanging
            lines = [head] + self.pack(items, base + 8, base + 8, base, first_indent=True, reserve=tail_reserve)
        elif len(items) > 1:
            lines = self.pack(items, head_col, head_col, base, reserve=tail_reserve)
            lines[0] = head + lines[0]
        elif items:  # one item that cannot be split: it breaks inside itself
            lines = self.layout(items[0], head_col, base, inside=True, reserve=tail_reserve)
            lines[0] = head + lines[0]
        else:
            lines = [head]
        lines[-1] += closer
        if after:
            last = lines[-1]
            rest = self.layout(after, (col if len(lines) == 1 else 0) + width(last), base, inside=inside, reserve=reserve)
            lines[-1] = last + rest[0]
            lines += rest[1:]
        return lines

    def parenthesised(self, line: str, toks: list[Token], col: int) -> list[str] | None:
        """`x = long expression` -> `x = (` its parts broken before top-level operators `)`."""
        head_end, first = 0, 0  # the body's first token
        if toks[0].string in ("return", "if", "elif", "while", "assert", "raise"):
            head_end, first = toks[0].end, 1
        else:
            depth = 0
            for i, t in enumerate(toks):
                if t.string in _OPENS:
                    depth += 1
                elif t.string in _CLOSES:
                    depth -= 1
                elif depth == 0 and t.type == OP and t.string in _ASSIGN:
                    head_end, first = t.end, i + 1
                    break
        colon = line.endswith(":")
        body = line[head_end:len(line) - colon].strip()
        stop = len(toks) - colon
        if colon and toks[-1].string != ":" or first >= stop:
            body_toks = self.tokens(body) or []
        elif not _levels(toks[first:stop]):  # no operator at its top: one part (what _split would find)
            return None
        else:
            body_toks = self.part(body, toks, first, stop, toks[first].start) or []
        if len(_split(body, body_toks, commas=False)) < 2:
            return None
        head = line[:head_end].rstrip() + " " if head_end else ""
        return self.layout(f"{head}({body})" + (":" if colon else ""), col, col, inside=False)

    def pack(self, items: list[str], col: int, cont: int, base: int, *, first_indent: bool = False,
              reserve: int = 0) -> list[str]:
        """Items packed greedily into lines: the first from `col` (without indentation unless
        `first_indent`), the others from `cont`; an item too long for a line is laid out itself;
        `reserve` columns are kept free after the last item (for the closing bracket and what follows)."""
        lines: list[str] = []
        current = " " * cont if first_indent else ""
        at = 0 if first_indent else col  # the column where `current` starts (0: it holds its own indentation)
        # kept as `current` grows, instead of measured again: its width, and whether it holds more than blanks
        used, filled = len(current), False
        items = self.split_long_strings(items, WIDTH - cont, WIDTH - cont - reserve)
        for n, item in enumerate(items):
            w = width(item)
            need = w + (reserve if n == len(items) - 1 else 0)
            if filled and at + used + 1 + need > WIDTH:
                lines.append(current)
                current, at, used, filled = " " * cont, 0, cont, False
            sep = " " if filled else ""
            here = at + used + len(sep)
            if here + need > WIDTH:
                comma = "," if item.endswith(",") else ""  # the comma belongs to the list, not the item
                laid = self.layout(item[:-1] if comma else item, here, base, inside=True,
                               reserve=len(comma) + (reserve if n == len(items) - 1 else 0))
                current += sep + laid[0]
                used, filled = used + len(sep) + width(laid[0]), filled or bool(laid[0].strip())
                if len(laid) > 1:
                    lines.append(current)
                    lines += laid[1:-1]
                    current, at = laid[-1], 0
                    used, filled = width(current), bool(current.strip())
                current += comma
                used, filled = used + len(comma), filled or bool(comma)
                continue
            current += sep + item
            used, filled = used + len(sep) + w, filled or bool(item.strip())
        lines.append(current)
        return lines

    def split_long_strings(self, items: list[str], room: int, last_room: int) -> list[str]:
        """A string literal longer than `room` (the last item: `last_room`) becomes adjacent literals
        that fit (an f-string is cut between its fields and literal text, never inside a field)."""
        out = []
        for n, item in enumerate(items):
            if n == len(items) - 1:
                room = max(last_room, 16)
            if width(item) <= room:
                out.append(item)
                continue
            body, comma = (item[:-1], ",") if item.endswith(",") else (item, "")
            if self.plain_string(body):
                value = ast.literal_eval(body)
                step = max(8, (room - 4) // 2)  # a wide character takes two columns
                chunks = [repr(value[i:i + step]) for i in range(0, len(value), step)]
                out += chunks[:-1] + [chunks[-1] + comma]
            elif _simple_fstring(body):
                chunks = _fstring_chunks(body, room - 4)
                out += chunks[:-1] + [chunks[-1] + comma]
            else:
                out.append(item)
        return out

    def plain_string(self, text: str) -> bool:
        """`text` is one quoted string literal (no prefix): what its tokens would say, without them."""
        return text[:1] in "'\"" and _PLAIN_STRING.fullmatch(text) is not None
