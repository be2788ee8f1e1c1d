"""The part of a ruleset that most generated text depends on, for a resident build's memo.

A procedures module reads the ruleset's procedures, rulings, stats, tables' declarations and
dice, never a table's entries, the list of rule files or the pack label (those reach it only
through the header, which is written apart). `shape(rs)` is the ruleset with those left
out, interned in the build's memo: while an edit touches only entries it stays the same object from one
build to the next, and the modules made from it are kept (tests/test_session.py checks every
kept module against a fresh build after edits of each kind).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..ir import Ruleset
from ..memo import current


def shape(rs: Ruleset) -> Ruleset:
    memo = current()
    found = memo.get("shape", rs)
    if found is not None:
        return found  # type: ignore[no-any-return]
    bare = dataclasses.replace(rs, tables=tuple(dataclasses.replace(t, entries=()) for t in rs.tables), files=(),
                               pack_label="")
    return memo.put("shape", (rs,), memo.intern(("shape", rs.id), bare))  # type: ignore[no-any-return]


def kept_text(space: str, rs: Ruleset, make: Callable[[Ruleset], str]) -> str:
    """`make(shape)`: the text made from the ruleset's shape, in every build (so that a module
    made this way cannot read an entry: a one-shot build would differ from a resident one, and
    `rulec build --check` would say so), kept by a resident build while the shape stays equal."""
    key = shape(rs)
    return current().once(space, (key,), lambda: make(key))  # type: ignore[no-any-return]
