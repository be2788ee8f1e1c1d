"""The part of a ruleset that most generated text depends on, for a resident build's memo.

A procedures module reads the ruleset's procedures, rulings, stats, tables' declarations and
dice, never a table's entries, the list of rule files or the pack label (those reach it only
through the header, which is written apart). `shape(rs)` is the ruleset with those left
out, interned in the build's memo: while an edit touches only entries it stays the same object from one
build to the next, and the modules made from it are kept (tests/test_session.py checks every
kept module against a fresh build after edits of each kind).
"""

from __future__ import annotations

import hashlib
import platform
from collections.abc import Callable
from typing import TypeVar

from ..ir import Ruleset
from ..memo import current
from ..record import encoded, replace

T = TypeVar("T", bound=str)


def shape(rs: Ruleset) -> Ruleset:
    """The ruleset without its entries, files and pack label: one object a build (`Memo.once`), so
    that what is keyed on it (each kept text, its digest) is made once a build, not once a use."""
    memo = current()
    return memo.once("shape", (rs,), lambda: memo.intern(("shape", rs.id), _bare(rs, frozenset())))


def fight_tables(rs: Ruleset) -> frozenset[str]:
    """The tables whose entries a fight module reads (emit/fight_data.py, python/fight.py,
    js/fight.py): the tracks and the states, and each table an action's check names an entry of
    in its `when` (matched by the entry's Chinese name too)."""
    if rs.fight is None:
        return frozenset()
    out = {t for t in (rs.fight.tracks, rs.fight.states) if t}
    for p in rs.procedures:
        types = {q.id: q.type for q in p.params}
        out.update(types[param] for c in p.checks for param, _value, _default in c.when
                   if types[param] not in ("int", "bool"))
    return frozenset(out)


def fight_shape(rs: Ruleset) -> Ruleset:
    """The shape with the entries of `fight_tables` kept: what a fight module is made from."""
    memo = current()
    return memo.once("fight-shape", (rs,), lambda: memo.intern(("fight-shape", rs.id), _bare(rs, fight_tables(rs))))


def _bare(rs: Ruleset, keep: frozenset[str]) -> Ruleset:
    """`rs` without its files, its pack label and the entries of every table but those in `keep`."""
    return replace(rs, tables=tuple(t if t.id in keep else replace(t, entries=()) for t in rs.tables), files=(),
                   pack_label="")


def kept_text(space: str, rs: Ruleset, make: Callable[[Ruleset], T], reread: Callable[[str], T],
              shape_of: Callable[[Ruleset], Ruleset] = shape) -> T:
    """`make(shape)`: the text made from the ruleset's shape, in every build (so that a module
    made this way cannot read an entry: a one-shot build would differ from a resident one, and
    `rulec build --check` would say so), kept by a resident build while the shape stays equal,
    and taken by a one-shot build from the output folder it replaces when the shape is the one
    that text was made from there (`Memo.text`, by the shape's digest: `digest`); `reread` gives
    such a text the target's type of trusted code. `shape_of`: what of the ruleset the text is made
    from (`fight_shape` for a fight module, which reads a few tables' entries)."""
    key = shape_of(rs)
    memo = current()
    return memo.once(space, (key,), lambda: memo.text(
        space, lambda: memo.once("shape-digest", (key,), lambda: digest(key)), lambda: make(key), reread))


def placed_text(reread: Callable[[str], T]) -> Callable[[tuple[bytes, ...]], T]:
    """How a run of generated code placed in an output file (`memo.Place`: a module's data rows) is
    read back: its one part, from a file the memo found to hash to the record of the build that
    wrote it there (`Previous.regions`), made the target's type of trusted code by `reread`."""
    return lambda parts: reread(parts[0].decode("utf-8"))


def digest(bare: Ruleset) -> str:
    """The digest of all of a shape: its records encoded (`record.encoded`: every field of every
    IR node with its class; the same bytes in every process: tests/test_reuse.py), and the Python
    that writes the text (rulec's own sources salt every name already)."""
    return hashlib.sha256(f"{platform.python_version()}\n".encode() + encoded(bare)).hexdigest()
