"""What a resident build keeps from one build to the next (`session.Session`, `rulec build --watch`).

A one-shot build starts from nothing but the content cache (`cache.py`), whose entries are plain
JSON checked on every read. A resident build also keeps Python objects in its own memory — a
file's loaded document, a table entry's IR, a page row — and finds them again by the identity
of the immutable inputs they were made from: the document of a file whose bytes did not change
is the same object as last time, so are its entries' IR nodes, so are their rows. Nothing here
is ever written to disk or read from anywhere but this process.

Inputs that each build makes afresh but that are usually equal to last time's (a table's field
declarations, the names a ref column shows) are `intern`ed: an equal value is swapped for the
one kept, so that the identity-keyed work behind it is found again.

Generational: what a build did not ask for is let go when it ends (`end`), so a session holds
one build's worth of results however long it runs. A one-shot build's `OneBuild` remembers only
what `once` makes, for the rest of that build; `NO_KEEP` remembers nothing (a pass called on its
own); every pass takes a `Keep` and works the same with any of them.
"""

from __future__ import annotations

import operator
import zlib
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

_MISSING = object()


class Keep:
    """Results of pure work on immutable inputs, by the identity of the inputs."""

    remembers = True

    def __init__(self) -> None:
        self._old: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        self._new: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
        self._interned_old: dict[Hashable, Any] = {}
        self._interned_new: dict[Hashable, Any] = {}
        self._complete = 0  # what the last complete build kept
        self._cuts: dict[int, tuple[Sequence[Any], list[int]]] = {}  # this build's cuts, by sequence
        self._runs_old: dict[tuple[Any, ...], tuple[tuple[Any, ...], tuple[Any, ...], Any]] = {}
        self._runs_new: dict[tuple[Any, ...], tuple[tuple[Any, ...], tuple[Any, ...], Any]] = {}

    def get(self, space: str, *inputs: Any) -> Any:
        """The value `put` for exactly these input objects (compared by identity), or None."""
        key = (space, *map(id, inputs))
        found = self._new.get(key)
        if found is None:
            found = self._old.get(key)
            if found is None:
                return None
            self._new[key] = found
        kept, value = found
        for a, b in zip(kept, inputs):
            if a is not b:  # an id reused by a new object after the old one died: not a hit
                return None
        return value

    def put(self, space: str, inputs: tuple[Any, ...], value: Any) -> Any:
        """Remember `value` for these inputs (kept alive with it, so their ids stay theirs)."""
        self._new[(space, *map(id, inputs))] = (inputs, value)
        return value

    def once(self, space: str, inputs: tuple[Any, ...], make: Callable[[], R]) -> R:
        """`make()` for these input objects, made once a build (the Python and JavaScript packages
        read one table's rows) and, in a resident build, found again while the inputs are the
        same objects."""
        found = self.get(space, *inputs)
        if found is None:
            found = self.put(space, inputs, make())
        return found  # type: ignore[no-any-return]

    def intern(self, slot: Hashable, value: Any) -> Any:
        """`value`, or the equal value kept in `slot` since an earlier build (so that its identity,
        which `get` keys on, stays the same while the value does)."""
        kept = self._interned_new.get(slot, _MISSING)
        if kept is _MISSING:
            kept = self._interned_old.get(slot, _MISSING)
        if kept is not _MISSING and (kept is value or kept == value):
            self._interned_new[slot] = kept
            return kept
        self._interned_new[slot] = value
        return value

    def each_run(self, space: str, items: Sequence[T], make: Callable[[Sequence[T]], R],
                 key: Callable[[T], str], context: tuple[Any, ...] = (), like: Sequence[Any] | None = None,
                 offset: int = 0) -> list[R]:
        """`make(run)` for each run of `items` (cut where `key` says: see `runs`), kept by the
        identity of the run's items and of `context`: after an edit of one entry of a 10,000-entry
        table, one run of about RUN entries is made again and the others come from memory.
        `like`: a table's entries, which `items` runs alongside from `offset` on (their rows, a
        slice of them), cut where they are cut instead of cutting `items` again. Where the cuts
        fall decides only what is found again, never what is returned."""
        if like is None:
            ends = self._ends(items, key)
        else:
            ends = [e - offset for e in self._ends(like, _item_id) if offset < e < offset + len(items)]
            ends.append(len(items))
        prefix = (space, *map(id, context))
        old, new = self._runs_old, self._runs_new
        out = []
        start = 0
        for end in ends:
            run = items[start:end]
            start = end
            if not run:
                continue
            # Found by the first and last item and the length, then compared item by item.
            name = (*prefix, id(run[0]), id(run[-1]), len(run))
            found = new.get(name) or old.get(name)
            if (found is not None and all(map(operator.is_, found[0], context))
                    and all(map(operator.is_, found[1], run))):
                new[name] = found
                out.append(found[2])
                continue
            value = make(run)
            new[name] = (context, tuple(run), value)
            out.append(value)
        return out

    def _ends(self, items: Sequence[Any], key: Callable[[Any], str]) -> list[int]:
        """Where `runs` cuts `items`, made once a build for each sequence (several fields' hulls
        run over one table's entries)."""
        cut = self._cuts.get(id(items))
        if cut is None or cut[0] is not items:
            cut = self._cuts[id(items)] = (items, ends(items, key))
        return cut[1]

    def latest(self, slot: Hashable) -> Any:
        """What was last interned in `slot` (None: nothing yet)."""
        kept = self._interned_new.get(slot, _MISSING)
        if kept is _MISSING:
            kept = self._interned_old.get(slot, _MISSING)
        return None if kept is _MISSING else kept

    def end(self, complete: bool = True) -> None:
        """A build is over: let go of everything it did not use. A build that stopped early (a rule
        file with an error) used only part of what the next one will need: then what was kept
        before stays too, up to twice what a complete build holds."""
        if complete or len(self) > 2 * max(self._complete, 1):
            self._old, self._new = self._new, {}
            self._interned_old, self._interned_new = self._interned_new, {}
            self._runs_old, self._runs_new = self._runs_new, {}
        else:
            self._old.update(self._new)
            self._new = {}
            self._interned_old.update(self._interned_new)
            self._interned_new = {}
            self._runs_old.update(self._runs_new)
            self._runs_new = {}
        if complete:
            self._complete = len(self)
        self._cuts = {}

    def __len__(self) -> int:
        return len(self._old) + len(self._new) + len(self._runs_old) + len(self._runs_new)


RUN = 32  # the mean length of a run


def _item_id(item: Any) -> str:
    """The id of a table entry (or of no entry), the key a `like` sequence is cut by."""
    return item.id if item is not None else ""  # type: ignore[no-any-return]


def runs(items: Sequence[T], key: Callable[[T], str]) -> list[Sequence[T]]:
    """`items` cut into runs, each ending at an item whose key hashes to 0 modulo RUN: where the
    cuts fall depends on the items themselves, not their positions, so adding or removing one
    item changes only the run it is in (content-defined chunking, as rsync and restic do)."""
    out, start = [], 0
    for end in ends(items, key):
        out.append(items[start:end])
        start = end
    return out


def ends(items: Sequence[T], key: Callable[[T], str]) -> list[int]:
    """The end of each of `runs`'s runs (the last is `len(items)`). The keys are hashed with CRC-32,
    not `hash` (which each process salts), so that the runs are the same from process to process:
    a one-shot build finds the runs of the last build in the cache (emit/reference.py)."""
    out: list[int] = []
    start = 0
    for end in [i + 1 for i, k in enumerate(map(key, items)) if not zlib.crc32(k.encode()) % RUN]:
        while end - start > 8 * RUN:  # never much longer than the mean
            start += 8 * RUN
            out.append(start)
        out.append(end)
        start = end
    while start < len(items):
        start = min(start + 8 * RUN, len(items))
        out.append(start)
    return out


class _NoKeep(Keep):
    """Remembers nothing: every `get` is a miss, `intern` gives back what it was handed, `once`
    makes its value every time."""

    remembers = False

    def get(self, space: str, *inputs: Any) -> Any:
        return None

    def put(self, space: str, inputs: tuple[Any, ...], value: Any) -> Any:
        return value

    def intern(self, slot: Hashable, value: Any) -> Any:
        return value

    def each_run(self, space: str, items: Sequence[T], make: Callable[[Sequence[T]], R],
                 key: Callable[[T], str], context: tuple[Any, ...] = (), like: Sequence[Any] | None = None,
                 offset: int = 0) -> list[R]:
        return [make(items)] if items else []  # one run: nothing is kept, nothing to cut for

    def once(self, space: str, inputs: tuple[Any, ...], make: Callable[[], R]) -> R:
        return make()

    def end(self, complete: bool = True) -> None:
        return None


NO_KEEP: Keep = _NoKeep()


class OneBuild(_NoKeep):
    """A one-shot build's keep (the facade makes one for each build): nothing is kept between
    builds, and what `once` makes is kept until this build ends (when the object is let go)."""

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}

    def once(self, space: str, inputs: tuple[Any, ...], make: Callable[[], R]) -> R:
        key = (space, *map(id, inputs))
        found = self._made.get(key)
        if found is not None and all(map(operator.is_, found[0], inputs)):
            return found[1]  # type: ignore[no-any-return]
        value = make()
        self._made[key] = (inputs, value)  # the inputs kept alive with it, so their ids stay theirs
        return value
