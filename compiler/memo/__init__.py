"""The build's memo: the one mechanism by which a build remembers work, resident and on disk alike.

The facade (`build/facade.py`) owns one `Memo` per build — a `Session` (`rulec build --watch`)
one for its life — and makes it the current memo while the passes run (`using`). The passes take
no memo or cache parameter: a pass is a function of its inputs, and where its work is worth
remembering it asks the current memo (`current()`) to make a value once for those inputs. Called
outside a build (a test calling a pass on its own), the current memo remembers nothing and every
value is made.

A memo remembers two ways, by what the value is keyed on:

* **by the identity of its inputs** (`get`/`put`, `once`, `each_run`, `intern`): Python objects
  made from immutable inputs, found again only while the inputs are the very same objects — never
  by a name a file could forge. A resident memo keeps them from one build to the next
  (generational: what a build did not ask for is let go when it ends, `end`), so that the document
  of an unchanged file, its entries' IR and their rows are found again; a one-shot memo keeps only
  what `once` makes, for its one build (what both targets read).
* **by a name made from the inputs' content** (`key`, `load`, `save`): plain values (clean table
  entries, odds rows, compile checks, page rows). A resident memo holds them in its memory, and
  reads from the store below (the sealed disk cache, `build/cache.py`) only what it does not hold;
  a one-shot memo reads and writes the store. Whatever `load` gives back is a hint the pass
  checks or recomputes (docs/safety.md: nothing read from disk is trusted or executed).

A one-shot memo may also be handed the output folder its build replaces (`Previous`,
build/reuse.py): `text` then gives a text of generated code from there, found where a record of
the store says and checked against its digest, instead of making it; and `each_run` gives the
runs of a `Place` (a big table's page rows and module rows) from where the last build wrote them,
while every file a record names still hashes to it.

The store is handed in by the facade; this package imports nothing of the compiler.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from .runs import RUN, ends, item_id, runs

__all__ = ["Mark", "Memo", "Place", "Previous", "RUN", "Store", "Stored", "current", "ends", "runs", "using"]

T = TypeVar("T")
R = TypeVar("R")

_MISSING = object()
_Key = tuple[Any, ...]


class Store(Protocol):
    """What a memo keeps on disk (build/cache.py): plain JSON values under names it makes."""

    def key(self, *parts: bytes | str) -> str: ...

    def get(self, name: str) -> Any: ...

    def put(self, name: str, value: Any) -> None: ...


class Previous(Protocol):
    """The output folder a one-shot build will replace (build/reuse.py): `read(where)` gives the
    text a record of the store locates there, when the bytes it finds still hash to the record's
    digest (else None)."""

    name: str  # which folder (a record of where runs landed is one folder's)

    def read(self, where: Any) -> str | None: ...

    def regions(self, record: Any) -> Callable[[str], tuple[bytes, ...] | None] | None:
        """The parts of the runs a `Place`'s record says lie in the folder's files, by run name,
        when every file the record names still hashes to it (else None: nothing is taken)."""
        ...


class Stored(NamedTuple, Generic[R]):
    """How `each_run` keeps a run's value on disk, for a memo that is not resident: the name is
    the digest of `context` (everything the value is made from besides the run's items) and of
    each item's `item` bytes or text (all of it: an entry's IR, `record.encoded`); the value goes to
    disk as `write` makes it (plain JSON) and comes back through `read`, which checks it and gives
    None for anything it would not have written (then the run is made again). With no `write` (a
    text of generated code, which the store never holds) the value is found only where `place`
    says."""

    context: str
    item: Callable[[Any], bytes | str]
    write: Callable[[R], Any] | None
    read: Callable[[Any], R | None]
    place: Place | None = None


def _same(value: Any) -> Any:
    return value


class Mark(NamedTuple):
    """What the memo keeps of a run's part until the build records where it landed (`Memo.placed`):
    its length, its first bytes (to look for) and its SHA-256 (to be sure), not the part itself (a
    100,000-weapon table's rows are tens of megabytes)."""

    length: int
    head: bytes
    digest: bytes


def mark(part: bytes) -> Mark:
    """The mark of a part (see `Mark`)."""
    return Mark(len(part), part[:64], hashlib.sha256(part).digest())


class Place(NamedTuple):
    """Where the values of `each_run`'s stored runs land in the output files, for runs whose
    values are written verbatim into the output (a page's rows, a module's data rows): `label`
    names the record of the last build (one for all the runs of that label, `Memo.placed`), and
    `files[i]` is the output file part `i` of each value lands in. `parts` gives a value's parts
    as the UTF-8 bytes written, `value` a value from its parts read back (a text of generated code
    made its target's type). A one-shot build takes an unchanged run's parts from there
    (`Previous.regions`) before it asks the store."""

    label: str
    files: tuple[str, ...]
    parts: Callable[[Any], tuple[bytes, ...]] = _same
    value: Callable[[tuple[bytes, ...]], Any] = _same


def _plain_key(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


class Memo:
    """What a build remembers (see the module). `resident`: kept from one build to the next (a
    session's); `store`: the disk below it (None: the cache is off, or `rulec build --check`)."""

    MAX_NAMED = 4096  # values a resident memo holds by name (names are digests: old ones go unasked)

    def __init__(self, *, resident: bool = False, store: Store | None = None, once: bool = True,
                 previous: Previous | None = None) -> None:
        self.resident = resident
        self.store = store
        self.previous = previous if store is not None and not resident else None
        self._texts: dict[str, tuple[str, str | None]] = {}
        self._placed: dict[str, tuple[tuple[str, ...], list[tuple[str, tuple[Mark, ...]]]]] = {}  # label -> files, runs
        self._regions: dict[str, Callable[[str], tuple[bytes, ...] | None] | None] = {}  # label -> lookup
        self._keeps_once = once
        self._old: dict[_Key, tuple[_Key, Any]] = {}
        self._new: dict[_Key, tuple[_Key, Any]] = {}
        self._interned_old: dict[Hashable, Any] = {}
        self._interned_new: dict[Hashable, Any] = {}
        self._runs_old: dict[_Key, tuple[_Key, _Key, Any]] = {}
        self._runs_new: dict[_Key, tuple[_Key, _Key, Any]] = {}
        self._cuts: dict[int, tuple[Sequence[Any], list[int]]] = {}  # this build's cuts, by sequence
        self._run_keys: dict[str, bool] = {}  # a resident memo's: whether each key ends a run (runs.ends)
        self._longest = 0  # the most items this build cut at once (what `_run_keys` may hold: `end`)
        self._named: dict[str, Any] = {}
        self._complete = 0  # how much the last complete build kept

    # -- what the memo is -------------------------------------------------------------------

    @property
    def persists(self) -> bool:
        """Whether what is `save`d goes to disk (then it must be plain JSON data)."""
        return self.store is not None and not self.resident

    @property
    def remembers_names(self) -> bool:
        """Whether anything `save`d can be `load`ed again (so that a name is worth computing)."""
        return self.resident or self.store is not None

    # -- by identity ----------------------------------------------------------------------

    def get(self, space: str, *inputs: Any) -> Any:
        """The value `put` for exactly these input objects (compared by identity), or None."""
        if not self.resident:
            return None
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
        if self.resident:
            self._new[(space, *map(id, inputs))] = (inputs, value)
        return value

    def once(self, space: str, inputs: tuple[Any, ...], make: Callable[[], R]) -> R:
        """`make()` for these input objects, made once a build (the Python and JavaScript packages
        read one table's rows) and, in a resident memo, found again while the inputs are the same
        objects."""
        if not self.resident:
            if not self._keeps_once:
                return make()
            key = (space, *map(id, inputs))
            made = self._new.get(key)
            if made is not None and all(map(operator.is_, made[0], inputs)):
                return made[1]  # type: ignore[no-any-return]
            value = make()
            self._new[key] = (inputs, value)
            return value
        found = self.get(space, *inputs)
        if found is None:
            found = self.put(space, inputs, make())
        return found  # type: ignore[no-any-return]

    def intern(self, slot: Hashable, value: Any) -> Any:
        """`value`, or the equal value kept in `slot` since an earlier build (so that its identity,
        which `get` keys on, stays the same while the value does)."""
        if not self.resident:
            return value
        kept = self._interned_new.get(slot, _MISSING)
        if kept is _MISSING:
            kept = self._interned_old.get(slot, _MISSING)
        if kept is not _MISSING and (kept is value or kept == value):
            self._interned_new[slot] = kept
            return kept
        self._interned_new[slot] = value
        return value

    def latest(self, slot: Hashable) -> Any:
        """What was last interned in `slot` (None: nothing yet)."""
        kept = self._interned_new.get(slot, _MISSING)
        if kept is _MISSING:
            kept = self._interned_old.get(slot, _MISSING)
        return None if kept is _MISSING else kept

    def each_run(self, space: str, items: Sequence[T], make: Callable[[Sequence[T]], R],
                 key: Callable[[T], str], context: tuple[Any, ...] = (), like: Sequence[Any] | None = None,
                 offset: int = 0, stored: Stored[R] | None = None) -> list[R]:
        """`make(run)` for each run of `items` (cut where `key` says: `runs.ends`), kept by a
        resident memo by the identity of the run's items and of `context`: after an edit of one
        entry of a 10,000-entry table, one run of about RUN entries is made again. `like`: a
        table's entries, which `items` runs alongside from `offset` on (their rows, a slice of
        them), cut where they are cut. Where the cuts fall decides only what is found again,
        never what is returned. A memo that is not resident makes the whole as one run, or,
        with `stored` and a store, finds each run on disk by its content (`_stored_runs`)."""
        if not self.resident:
            if stored is not None and self.store is not None and items:
                return self._stored_runs(space, items, make, self._cut(items, key, like, offset), stored)
            return [make(items)] if items else []
        cut = self._cut(items, key, like, offset)
        prefix = (space, *map(id, context))
        old, new = self._runs_old, self._runs_new
        out = []
        start = 0
        for end in cut:
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

    def _stored_runs(self, space: str, items: Sequence[T], make: Callable[[Sequence[T]], R], cut: list[int],
                     stored: Stored[R]) -> list[R]:
        """Each run's value from the store by the digest of what it is made from, checked by
        `stored.read`; made (and stored) when missing or refused."""
        out = []
        start = 0
        place = stored.place
        kept = self._kept(place) if place is not None else None
        noted = self._placed.setdefault(place.label, (place.files, []))[1] if place is not None else None
        for end in cut:
            run = items[start:end]
            start = end
            if not run:
                continue
            name = self.key(space, stored.context, *map(stored.item, run))
            value = kept(name) if kept is not None else None
            if value is None and stored.write is not None:
                found = self.load(name)
                value = stored.read(found) if found is not None else None
            if value is None:
                value = make(run)
                if stored.write is not None:
                    self.save(name, stored.write(value))
            if noted is not None:
                noted.append((name, tuple(map(mark, place.parts(value)))))  # type: ignore[union-attr]
            out.append(value)
        return out

    def _kept(self, place: Place) -> Callable[[str], Any] | None:
        """The lookup of the runs the last build placed under `place.label`, from the output folder
        (once a build), or None when there is no folder, no record, or a file it names changed."""
        if self.previous is None or self.store is None:
            return None
        if place.label not in self._regions:
            record = self.store.get(self.placed_name(place.label))
            lookup = self.previous.regions(record) if record is not None else None
            self._regions[place.label] = lookup
        found = self._regions[place.label]
        if found is None:
            return None
        return lambda name: (place.value(parts) if (parts := found(name)) is not None and len(parts) == len(place.files)
                             else None)

    def placed_name(self, label: str) -> str:
        """The store's name of the record of where the runs of `label` landed in the output folder
        (each folder has its own: two builds into two folders do not undo each other's)."""
        return self.key("placed-runs", label, self.previous.name if self.previous is not None else "")

    def placed(self) -> dict[str, tuple[tuple[str, ...], list[tuple[str, tuple[Mark, ...]]]]]:
        """The runs of each `Place` label given since the last call, in order, with their names and
        their parts' marks, and the files their parts land in (the facade records where each
        landed)."""
        out, self._placed = self._placed, {}
        return out

    def _cut(self, items: Sequence[Any], key: Callable[[Any], str], like: Sequence[Any] | None,
             offset: int) -> list[int]:
        if like is None:
            return self._ends(items, key)
        cut = [e - offset for e in self._ends(like, item_id) if offset < e < offset + len(items)]
        cut.append(len(items))
        return cut

    def _ends(self, items: Sequence[Any], key: Callable[[Any], str]) -> list[int]:
        """Where `each_run` cuts `items`, made once a build for each sequence (several fields'
        hulls run over one table's entries)."""
        cut = self._cuts.get(id(items))
        if cut is None or cut[0] is not items:
            cut = self._cuts[id(items)] = (items, ends(items, key, self._run_keys if self.resident else None))
            self._longest = max(self._longest, len(items))
        return cut[1]

    # -- by name ----------------------------------------------------------------------------

    def key(self, *parts: bytes | str) -> str:
        """The name of a value made from these parts (the store's, salted with rulec's sources)."""
        return self.store.key(*parts) if self.store is not None else _plain_key(*parts)

    def load(self, name: str) -> Any:
        """The value saved under `name` (in memory, else on disk), or None: a hint to check."""
        found = self._named.get(name) if self.resident else None
        if found is None and self.store is not None:
            found = self.store.get(name)
        return found

    def save(self, name: str, value: Any) -> None:
        """Remember `value` under `name`: a resident memo in its memory (as the pass made it: a
        session never re-encodes and rewrites what it remembers), a one-shot memo on disk."""
        if self.resident:
            if len(self._named) > self.MAX_NAMED:
                self._named.clear()
            self._named[name] = value
        elif self.store is not None:
            self.store.put(name, value)

    def text(self, space: str, digest: Callable[[], str], make: Callable[[], T], reread: Callable[[str], T],
             file: str | None = None) -> T:
        """A text of generated code (or data) made from what `digest()` names (all of it). With an
        output folder to replace, it is the text a build of this account wrote there for that name,
        found where the store's record says and checked against the record's digest
        (`Previous.read`), given as `reread` makes it (the target's type of trusted code); else, or
        when that fails, `make()`. Every text given is noted for `texts`, with `file`: the end of
        the path of the output file it is written into (then only that file is searched for it;
        else every source file)."""
        if self.previous is None or self.store is None:
            return make()
        name = self.key(space, digest())
        where = self.store.get(name)
        found = self.previous.read(where) if where is not None else None
        text = reread(found) if found is not None else make()
        self._texts[name] = (str(text), file)
        return text

    def texts(self) -> dict[str, tuple[str, str | None]]:
        """The texts `text` gave since the last call, by name, each with the file it was said to go
        to (the facade records where each lands)."""
        out, self._texts = self._texts, {}
        return out

    def let_go(self) -> None:
        """A one-shot memo lets go of what `once` made so far (a ruleset's outputs are made: what was
        made once for them, a big table's rows for both targets, is not read again). A resident
        memo keeps it for the next build."""
        if not self.resident:
            self._new = {}

    # -- the build's end --------------------------------------------------------------------

    def end(self, complete: bool = True) -> None:
        """A build is over: let go of everything it did not use. A build that stopped early (a rule
        file with an error) used only part of what the next one will need: then what was kept
        before stays too, up to twice what a complete build holds."""
        self._cuts = {}
        if len(self._run_keys) > 4 * max(self._longest, 1 << 14):  # keys of entries long gone: start again
            self._run_keys = {}
        self._longest = 0
        if not self.resident:
            self._new = {}
            return
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

    def __len__(self) -> int:
        return len(self._old) + len(self._new) + len(self._runs_old) + len(self._runs_new)


_NOTHING = Memo(once=False)  # outside a build: remembers nothing, holds nothing
_CURRENT: ContextVar[Memo] = ContextVar("rulec_memo", default=_NOTHING)


def current() -> Memo:
    """The memo of the build running now (one that remembers nothing outside a build)."""
    return _CURRENT.get()


@contextmanager
def using(memo: Memo) -> Iterator[Memo]:
    """Make `memo` the current one while the block runs (the facade, around the passes)."""
    token = _CURRENT.set(memo)
    try:
        yield memo
    finally:
        _CURRENT.reset(token)
