"""What a pass may remember between builds, handed to it by the facade.

Passes never touch the cache folder: the facade gives each one a `Memo` — the rulec cache
(`cache.CacheMemo`) or `NO_MEMO`, which remembers nothing — and a pass asks it for values by a
name built from their inputs (`memo.key(...)`). Every value is plain JSON data, and a pass
treats whatever comes back as a hint it can check or recompute (see compiler/build/cache.py).
"""

from __future__ import annotations

import hashlib
from typing import Any


class Memo:
    """Remembers nothing: every `get` is a miss."""

    persists = False  # whether what is put outlives the process (then it must be plain JSON data)

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


class MemoryMemo(Memo):
    """A resident build's memo: what it is given stays in this process's memory (any value, as the
    pass made it), and a name it does not hold is looked up in the memo below (the cache, for the
    session's first build). Nothing is written below: a session's builds never re-encode and
    rewrite what they remember."""

    def __init__(self, below: Memo) -> None:
        self.below = below
        self._values: dict[str, Any] = {}

    def key(self, *parts: bytes | str) -> str:
        return self.below.key(*parts)

    def get(self, name: str) -> Any:
        found = self._values.get(name)
        return found if found is not None else self.below.get(name)

    def put(self, name: str, value: Any) -> None:
        if len(self._values) > 4096:  # names are digests of inputs: old ones are never asked for again
            self._values.clear()
        self._values[name] = value
