"""Everything a ruleset declares as changeable must change something.

A ruling is a value a pack may change (the pages say 「可以修改」); one that no procedure, entry
formula or feature reads compiles to nothing, and changing it silently does nothing. The same
goes for a flag (a `bool` field) of a table that nothing reads: a homebrewer setting
`trauma_source: true` on a called shot expects it to matter.

This pass walks the lowered IR once, collects every ruling and every table field that is read,
and reports the rest at their declarations. A declaration that is read by no formula on purpose
says why with `not_modelled: <reason>` (shown on the page), which this pass accepts. An error type
no step raises is reported too: a program catching it waits for something that never comes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..diagnostics import Diagnostic, Span
from ..features import FEATURES
from ..ir import ErrorType, FormulaField, Ruleset
from ..ir import expr as ir
from ..memo import current
from ..messages import say
from ..record import MutableRecord, Record, field, field_names


class Reads(MutableRecord):
    rulings: set[str] = field(default_factory=set)
    fields: set[tuple[str, str]] = field(default_factory=set)  # (table, field)
    errors: set[str] = field(default_factory=set)  # error types some step raises
    seen: set[int] = field(default_factory=set)
    # each procedure's name and the rulings it reads, sorted (`reads_of`; for `readers`)
    by_procedure: list[tuple[str, list[str]]] = field(default_factory=list)

    def walk(self, value: Any) -> None:
        """Every node under `value` (IR records, tuples, mappings); shared nodes once."""
        stack = [value]
        while stack:
            x = stack.pop()
            if isinstance(x, (str, int, float, bool, Span)) or x is None:
                continue
            if id(x) in self.seen:
                continue
            self.seen.add(id(x))
            if isinstance(x, ir.Ruling):
                self.rulings.add(x.key)
            elif isinstance(x, ErrorType):
                self.errors.add(x.id)
            elif isinstance(x, (ir.Attr, ir.EntryFormula)):
                table = ir.table_of(x.base.type)
                if table is not None:
                    self.fields.add((table, x.field))
            names = _FIELD_NAMES.get(type(x))
            if names is None:
                names = _FIELD_NAMES[type(x)] = _field_names(x)
            if names:
                stack.extend([getattr(x, n) for n in names])
            elif isinstance(x, (tuple, list, frozenset, set)):
                stack.extend(x)
            elif isinstance(x, dict):
                stack.extend(x.values())


# The field names of each IR record, by class (a class's fields never change).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(x: Any) -> tuple[str, ...]:
    """The fields of the record `x` (compiler/record.py); none for anything else (a class included)."""
    return field_names(x) if isinstance(x, Record) else ()


def _formula_fields(rs: Ruleset) -> Iterable[FormulaField]:
    shared: dict[str, FormulaField] = {}
    for table in rs.tables:
        if not any(f.type == "formula" for f in table.fields):
            continue
        for entry in table.entries:
            for value in entry.values.values():
                if isinstance(value, FormulaField):
                    shared.setdefault(value.function, value)
    return shared.values()


def reads_of(rs: Ruleset) -> Reads:
    """What the procedures, the entries' formulas, the features and the fight read (a resident
    build keeps what the procedures read while they stay the same)."""
    procedures = current().intern(("procedures", rs.id), rs.procedures)
    walked = current().get("procedure-walk", procedures)
    if walked is None:  # one walk a procedure, which also tells the pages what each reads (`readers`)
        walked = Reads()
        for p in procedures:
            one = Reads()
            one.walk(p)
            walked.rulings |= one.rulings
            walked.fields |= one.fields
            walked.errors |= one.errors
            walked.seen |= one.seen
            walked.by_procedure.append((p.name, sorted(one.rulings)))
        current().put("procedure-walk", (procedures,), walked)
    reads = Reads(set(walked.rulings), set(walked.fields), set(walked.errors), set(walked.seen), walked.by_procedure)
    reads.walk(tuple(f.formula for f in _formula_fields(rs)))
    for feature in rs.features:
        reads.rulings.update(FEATURES[feature].rulings)
    if rs.fight is not None and rs.fight.turn is not None and rs.fight.turn.ruling:  # the fight's turn budget
        reads.rulings.add(rs.fight.turn.ruling)
    if rs.fight is not None:  # the rulings that put a resource's on_empty in force
        reads.rulings.update(r.ruling for r in rs.fight.resources if r.ruling)
    if rs.fight is not None and rs.fight.states is not None:  # the fight reads the flags that take stats away
        reads.fields.update((rs.fight.states, flag) for flag, _ in rs.fight.state_stats)
        reads.fields.update((rs.fight.states, flag) for flag, _ in rs.fight.state_spared)
    return reads


def readers(rs: Ruleset, reads: Reads | None = None) -> dict[str, tuple[str, ...]]:
    """For the pages: the names of what reads each ruling (procedures, table formulas, features).
    `reads`: `reads_of(rs)`, which walked each procedure already (else they are walked here; a
    resident build keeps what the procedures read while they stay the same)."""
    out: dict[str, list[str]] = {}
    read = reads.by_procedure if reads is not None else reads_of(rs).by_procedure
    for name, keys in read:
        for key in keys:
            out.setdefault(key, []).append(name)
    for table in rs.tables:
        if not any(f.type == "formula" for f in table.fields):
            continue
        reads = Reads()
        reads.walk(tuple(e.values for e in table.entries if any(isinstance(v, FormulaField) for v in e.values.values())))
        for key in reads.rulings:
            out.setdefault(key, []).append(table.name)
    for feature in rs.features:
        for key in FEATURES[feature].rulings:
            out.setdefault(key, []).append(FEATURES[feature].name)
    if rs.fight is not None and rs.fight.turn is not None and rs.fight.turn.ruling:
        out.setdefault(rs.fight.turn.ruling, []).append(str(say("fight.turn-reader").in_language("zh")))  # page text: Chinese
    for r in rs.fight.resources if rs.fight is not None else ():
        if r.ruling:
            out.setdefault(r.ruling, []).append(r.name)
    return {k: tuple(v) for k, v in sorted(out.items())}  # by key: the IR is the same in every process



def prose(rs: Ruleset, reads: Reads) -> tuple[tuple[str, str], ...]:
    """The (table, field) pairs of the `text` fields that nothing in `reads` reads, sorted."""
    return tuple(sorted((t.id, f.id) for t in rs.tables for f in t.fields
                        if f.type == "text" and (t.id, f.id) not in reads.fields))


def check_usage(rs: Ruleset, reads: Reads | None = None) -> list[Diagnostic]:
    """Rulings and table flags that nothing reads (and that do not say why), error types that no
    step raises. `reads`: `reads_of(rs)`, when the caller has it."""
    reads = reads if reads is not None else reads_of(rs)
    out: list[Diagnostic] = []
    for e in rs.errors:
        if e.id not in reads.errors:
            out.append(Diagnostic(e.span, "unused-error", say("unused-error.no-procedure-raises-error", id=e.id, name=e.name),
                                  say("unused-error.raise-with-require-step")))
    for r in rs.rulings:
        if r.key not in reads.rulings and not r.not_modelled:
            out.append(Diagnostic(r.span, "unused-ruling",
                                  say("unused-ruling.ruling-read-by-no", key_=r.key, name=r.name), say("unused-ruling.read-procedure-governs-say")))
    for table in rs.tables:
        for f in table.fields:
            if f.type == "bool" and (table.id, f.id) not in reads.fields and not f.not_modelled:
                out.append(Diagnostic(f.span, "unused-field",
                                      say("unused-field.flag-table-read-by", id=f.id, name=f.name, id2=table.id),
                                      say("unused-field.read-where-matters-say")))
    return out
