"""String literals longer than a line, for the line wrapper (`wrap.py`): which f-strings it may
cut (single-quoted, no quotes in their fields), and an f-string cut into adjacent literals between
its fields, doubled braces, escapes and characters, never inside a field.
"""

from __future__ import annotations

from .wrap_tokens import width


def _simple_fstring(text: str) -> bool:
    """An f'...' literal (single-quoted, as the emitter writes them) whose fields hold no quotes."""
    if not (text.startswith("f'") and text.endswith("'")):
        return False
    level = 0
    for ch in text[2:-1]:
        if ch == "{":
            level += 1
        elif ch == "}":
            level -= 1
        elif level and ch in "'\"":
            return False
    return True


def _fstring_chunks(text: str, room: int) -> list[str]:
    """f'...' as adjacent literals of at most `room` columns, cut only between its pieces (a field,
    a doubled brace, an escape, or a character)."""
    body = text[2:-1]
    pieces: list[str] = []
    i = 0
    while i < len(body):
        if body.startswith(("{{", "}}"), i):
            j = i + 2
        elif body[i] == "{":
            j = body.index("}", i) + 1
        elif body[i] == "\\":
            j = i + {"x": 4, "u": 6, "U": 10}.get(body[i + 1], 2)
        else:
            j = i + 1
        pieces.append(body[i:j])
        i = j
    chunks, current = [], ""
    for piece in pieces:
        if current and width(current) + width(piece) + 3 > room:
            chunks.append(current)
            current = ""
        current += piece
    chunks.append(current)
    out = []
    for c in chunks:
        fields = "{" in c.replace("{{", "").replace("}}", "")
        out.append("f'" + c + "'" if fields else "'" + c.replace("{{", "{").replace("}}", "}") + "'")
    return out
