"""The characters rule text may not hold (a module of its own: documents.py reports them, and
plain_yaml.py refuses a text that holds one without importing PyYAML).

They are control characters other than tab and line breaks, the invisible format characters
(bidirectional overrides and isolates, zero-width spaces and joiners, soft hyphens, tags) and the
Unicode line and paragraph separators. They would hide text on a page, reorder what a reader
sees, or break a string in generated code.
"""

from __future__ import annotations

import re
from functools import lru_cache
from ..messages import say

FORBIDDEN_RANGES = (
    (0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C),
    (0x6DD, 0x6DD), (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2), (0x180E, 0x180E), (0x200B, 0x200F),
    (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)

# The same characters as a set: `FORBIDDEN.isdisjoint(text)` checks a text without compiling a
# regular expression (which alone takes milliseconds at start-up).
FORBIDDEN = frozenset(chr(c) for lo, hi in FORBIDDEN_RANGES for c in range(lo, hi + 1))


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    return re.compile("[" + "".join(re.escape(chr(lo)) + ("-" + re.escape(chr(hi)) if hi > lo else "")
                                    for lo, hi in FORBIDDEN_RANGES) + "]")


def forbidden_character(text: str) -> tuple[int, str] | None:
    """The index and a description of the first character rule text may not hold, or None."""
    m = _pattern().search(text)
    if m is None:
        return None
    ch = m.group(0)
    import unicodedata

    name = unicodedata.name(ch, "") or {"\x00": "NUL"}.get(ch, say("characters.control-character"))
    return m.start(), f"U+{ord(ch):04X} {name}".rstrip()
