"""Interval values for the bounds analysis (bounds.py): `Interval` for numbers and true/false,
`Entries` for an entry parameter (any entry of its table), `Dice` for a dice expression (the hull
of its counts and totals), with a `Witness` where one entry alone reaches a bound; and the
summaries of a table's columns over runs of its entries (kept between resident builds).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from ..diagnostics import Span
from ..ir import DiceExpr, Entry, FieldDecl, Table
from ..messages import say
from ..record import Record

INF = math.inf


class Interval(Record, frozen=True):
    lo: float
    hi: float

    def __or__(self, other: Interval) -> Interval:
        return Interval(min(self.lo, other.lo), max(self.hi, other.hi))

    def text(self) -> str:
        return say("bounds.no-upper-bound") if self.hi == INF else str(int(self.hi))


class Witness(Record, frozen=True):
    """An entry's formula and the largest value it can take."""

    hi: float
    span: Span
    what: str  # "attack_types 'melee'"


class Entries(Record, frozen=True):
    """The entries an entry-typed expression may be (None: no entry given)."""

    table: str
    items: tuple[Entry | None, ...]


class Dice(Record, frozen=True):
    """A dice value: how many dice it rolls, and its total."""

    count: Interval
    total: Interval


Value = Interval | Entries | Dice | None  # None: text, lists, combatants (nothing to bound)

BOOL = Interval(0, 1)
TRUE, FALSE = Interval(1, 1), Interval(0, 0)
ANY = Interval(-INF, INF)
ZERO = Interval(0, 0)


def hull(values: Iterable[Interval]) -> Interval:
    out: Interval | None = None
    for v in values:
        out = v if out is None else out | v
    return out or ZERO



def column_summary(t: Table, run: Sequence[Entry]) -> dict[str, Any]:
    """Each field's values over a run of a table's entries: a hull (numbers, dice), a set (refs)."""
    out: dict[str, Any] = {}
    rows = [x.values for x in run]  # each entry's values read as a dict (`Entry.get`), once a run
    for f in t.fields:
        fid = f.id
        if f.type == "ref":
            out[fid] = {r[fid] for r in rows}
        elif f.type == "dice":
            out[fid] = dice_hull([r[fid] for r in rows])
        elif f.type in ("int", "bool"):
            got = [v if type(v) is int else int(v) if isinstance(v, (int, bool)) else 0 for v in [r[fid] for r in rows]]
            out[fid] = Interval(min(got), max(got))
    return out


def merge_columns(t: Table, parts: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in t.fields:
        values = [p[f.id] for p in parts if f.id in p]
        if f.type == "ref":
            out[f.id] = set().union(*values)
        elif f.type == "dice":
            out[f.id] = Dice(hull_of([d.count for d in values]), hull_of([d.total for d in values])) \
                if values else dice_hull([])
        elif f.type in ("int", "bool"):
            out[f.id] = hull_of(values) if values else None  # no entry at all: see `with_none`
    return out


def hull_of(values: list[Interval]) -> Interval:
    """The hull of intervals (`hull` without an Interval made for each)."""
    return Interval(min(v.lo for v in values), max(v.hi for v in values)) if values else ZERO


def with_none(f: FieldDecl, value: Any) -> Any:
    """A field's values with those of no entry (an optional parameter not given) added."""
    if f.type == "ref":
        return value | {None}
    if f.type == "dice":
        return Dice(value.count | ZERO, value.total | ZERO)
    default = f.default if isinstance(f.default, (int, bool)) else 0
    return Interval(int(default), int(default)) if value is None else value | Interval(int(default), int(default))


def entry_key(x: Entry | None) -> str:
    return x.id if x is not None else ""


def dice_hull(values: list[object]) -> Dice:
    counts, totals = [], []
    for v in values:
        if isinstance(v, DiceExpr):
            n = sum(c for c, _ in v.terms)
            counts.append(Interval(n, n))
            totals.append(Interval(n + v.flat, sum(c * s for c, s in v.terms) + v.flat))
        else:
            counts.append(ZERO)
            totals.append(ZERO)
    return Dice(hull(counts), hull(totals))

