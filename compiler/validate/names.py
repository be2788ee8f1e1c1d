"""When two names are the same name: after Unicode compatibility normalisation and case folding.

The loader NFC-normalises every text; two names that still differ only by width (全角 Ａ and A),
compatibility forms or letter case would look the same to a reader and collide in a lookup by
name, so they count as one name (`identity`).
"""

from __future__ import annotations

import unicodedata


def identity(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()
