"""Where a table's entries are cut into runs, the unit a build remembers them by (`Memo.each_run`).

Runs end at an item whose key hashes to 0 modulo RUN: where the cuts fall depends on the items
themselves, not their positions, so adding or removing one item changes only the run it is in
(content-defined chunking, as rsync and restic do). The keys are hashed with CRC-32, not `hash`
(which each process salts), so that the runs are the same from process to process: a one-shot
build finds the runs of the last build on disk.
"""

from __future__ import annotations

import zlib
from itertools import compress
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

RUN = 32  # the mean length of a run


def item_id(item: Any) -> str:
    """The id of a table entry (or of no entry), the key a `like` sequence is cut by."""
    return item.id if item is not None else ""  # type: ignore[no-any-return]


def runs(items: Sequence[T], key: Callable[[T], str]) -> list[Sequence[T]]:
    """`items` cut into runs (see the module)."""
    out, start = [], 0
    for end in ends(items, key):
        out.append(items[start:end])
        start = end
    return out


def ends(items: Sequence[T], key: Callable[[T], str], known: dict[str, bool] | None = None) -> list[int]:
    """The end of each of `runs`'s runs (the last is `len(items)`); a run is never much longer
    than the mean (8 RUN at most). `known`: whether each key ends a run, as found before (a
    resident build keeps them: looking a key up costs a third of hashing it), filled in here."""
    out: list[int] = []
    start = 0
    if known is None:
        marks = [i + 1 for i, k in enumerate(map(key, items)) if not zlib.crc32(k.encode()) % RUN]
    else:
        keys = list(map(key, items))
        flags = list(map(known.get, keys))
        if None in flags:
            for i in [i for i, f in enumerate(flags) if f is None]:
                flags[i] = known[keys[i]] = not zlib.crc32(keys[i].encode()) % RUN
        marks = list(compress(range(1, len(flags) + 1), flags))
    for end in marks:
        while end - start > 8 * RUN:
            start += 8 * RUN
            out.append(start)
        out.append(end)
        start = end
    while start < len(items):
        start = min(start + 8 * RUN, len(items))
        out.append(start)
    return out
