"""The pieces of one line of generated Python, for the line wrapper (`wrap.py`): its width in
columns on a screen (a wide East Asian character takes two), and its tokens, read by one regular
expression rather than the standard tokenize module (an f-string is one STRING token), with the
bracket sets and the count of brackets a piece leaves open.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

_OPEN, _CLOSE = "([{", ")]}"

# Token kinds, as the standard tokenize module names them.
NAME, NUMBER, STRING, OP, COMMENT = "NAME", "NUMBER", "STRING", "OP", "COMMENT"


class _ColumnsOf(dict):  # type: ignore[type-arg]
    """A str.translate table, filled as characters are met: a wide East Asian character becomes
    two, any other stays itself, so the translated length is the width in columns."""

    def __missing__(self, code: int) -> str | int:
        value: str | int = "WW" if unicodedata.east_asian_width(chr(code)) in "WF" else code
        self[code] = value
        return value


_COLUMNS = _ColumnsOf()


def width(text: str) -> int:
    """Columns on a screen (and for the line-length check): wide East Asian characters take two."""
    if text.isascii():
        return len(text)
    return len(text.translate(_COLUMNS))


class Token(NamedTuple):
    type: str
    string: str
    start: int  # column of the first character
    end: int  # column after the last


# One line of Python as the emitter writes it (the standard tokenize module, in pure Python, was
# most of a large build's time): an f-string is one STRING token, as tokenize gives it up to 3.11.
# The alternatives, in this order: space, COMMENT, STRING, NUMBER, NAME, OP. `_tokens` reads the
# kind of each matched piece from its characters (cheaper than a match object per token).
_TOKEN = re.compile(r"""
    [ \t]+
  | \#.*
  | (?:[rRbBuUfF]{1,2})?(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
  | (?:0[xXoObB][0-9a-fA-F_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][-+]?\d+)?[jJ]?)
  | \w+
  | (?:\*\*=?|//=?|->|<<=?|>>=?|:=|\.\.\.|[-+*/%&|^@<>=!]=|[-+*/%&|^~<>=@.,:;()\[\]{}])
""", re.VERBOSE)
# A STRING token alone (trailing blanks are no token): `wrap._Layout.plain_string`.
_PLAIN_STRING = re.compile(r"""(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")[ \t]*""")
_new_token = tuple.__new__
_OPENS, _CLOSES = frozenset(_OPEN), frozenset(_CLOSE)  # a token that is one of these is an OP token
_SKIP = "skip"
# The kind of a token by its first character, where that alone says it (a space is no token); the
# others (letters, quotes, "." and any other character) are told apart in `_tokens`.
_FIRST: dict[str, str] = {**dict.fromkeys("*/-<>:+%&|^@=!~,;()[]{}", OP), **dict.fromkeys("0123456789", NUMBER),
                          "#": COMMENT, " ": _SKIP, "\t": _SKIP}


def _tokens(text: str) -> list[Token] | None:
    """The tokens of `text`; None when it is not whole tokens with balanced brackets."""
    pieces = _TOKEN.findall(text)  # matches never overlap; they are whole tokens if they tile `text`
    out: list[Token] = []
    append = out.append
    first = _FIRST.get
    pos = 0
    for piece in pieces:
        end = pos + len(piece)
        c = piece[0]
        kind = first(c)
        if kind is None:
            if piece[-1] == "'" or piece[-1] == '"':  # only a STRING (or a COMMENT) ends with a quote
                kind = STRING
            elif c == ".":
                kind = NUMBER if len(piece) > 1 and piece[1] != "." else OP  # .5, or . and ...
            elif c.isdecimal():  # what \d matches: a NUMBER
                kind = NUMBER
            else:
                kind = NAME
        elif kind is _SKIP:
            pos = end
            continue
        append(_new_token(Token, (kind, piece, pos, end)))
        pos = end
    if pos != len(text) or _depth(pieces) > 0:
        return None
    return out


def _depth(strings: list[str]) -> int:
    """Brackets opened minus closed among whole tokens' texts (a bracket is a token of its own)."""
    count = strings.count
    return count("(") + count("[") + count("{") - count(")") - count("]") - count("}")
