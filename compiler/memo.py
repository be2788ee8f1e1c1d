"""What a pass may remember between builds, handed to it by the facade.

Passes never touch the cache folder: the facade gives each one a `Memo` — the rulec cache
(`cache.CacheMemo`) or `NO_MEMO`, which remembers nothing — and a pass asks it for values by a
name built from their inputs (`memo.key(...)`). Every value is plain JSON data, and a pass
treats whatever comes back as a hint it can check or recompute (see compiler/cache.py).
"""

from __future__ import annotations

import hashlib
from typing import Any


class Memo:
    """Remembers nothing: every `get` is a miss."""

    def key(self, *parts: bytes | str) -> str:
        h = hashlib.sha256()
        for part in parts:
            data = part.encode() if isinstance(part, str) else part
            h.update(len(data).to_bytes(8, "little"))
            h.update(data)
        return h.hexdigest()

    def get(self, name: str) -> Any:
        return None

    def put(self, name: str, value: Any) -> None:
        return None


NO_MEMO = Memo()
