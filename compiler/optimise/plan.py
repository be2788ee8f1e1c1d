"""Pass 4, optimise: IR -> IR. Each procedure is folded, split into the setup every form shares
and the steps each roll runs, and given the prepared closure's body and its common-case variant.

* Folding (fold.py): boolean rulings are constants, so a switch of the rules keeps only the
  branch in force; arithmetic of constants is computed.
* The split: the steps before the first roll, and every later `let` that reads no rolled value,
  cannot raise and writes no trace line, run once in `NAME_setup` (with the input checks), and
  hand on what the rest reads. A step that could raise or writes the trace stays in place, so
  every form raises the same error and writes the same trace in the same order.
* The prepared body (hoist.py): the per-roll steps with their roll-independent parts hoisted.
* The common case (specialise.py): that body folded for options at their defaults, a plain d20
  and one damage die, with the guard that says when it applies.
* The odds form's unswitched variant (unswitch.py): that body folded for the prepared switches
  that skip a roll when false, all false, with its guard.
"""

from __future__ import annotations

from typing import Any

from ..ir import Formula, Plan, PreparedBody, Procedure, Ruleset, Step
from ..ir import expr as ir
from ..record import replace
from ..steps import kind_for
from .fold import Known, fold, fold_steps, map_formulas
from .hoist import Hoister
from .specialise import common_case
from .unswitch import unswitched


def optimise(rs: Ruleset) -> Ruleset:
    """The ruleset with every procedure folded and planned (a function of the rulings and the
    procedures only: the facade memoises it by those)."""
    switches = Known({ir.Ruling(ir.BOOL, r.key, r.value, r.name): ir.Const(ir.BOOL, r.value)
                      for r in rs.rulings if isinstance(r.value, bool)})
    return replace(rs, procedures=tuple(_optimise(p, switches) for p in rs.procedures))


def _optimise(p: Procedure, switches: Known) -> Procedure:
    known = Known(switches.values)
    steps = tuple(fold_steps(p.steps, known, propagate=False))
    result = tuple(replace(o, formula=replace(o.formula, expr=fold(o.formula.expr, known)))
                   for o in p.result)
    folded = replace(p, steps=steps, result=result)
    return replace(folded, plan=plan(folded))


def step_reads(step: Step) -> frozenset[str]:
    """The locals a step reads (its sentences included)."""
    return frozenset().union(*(ir.locals_read(e) for e in step.exprs()))


def _entries_read(e: ir.Expr, entry_params: set[str]) -> set[str]:
    return {n.name for n in ir.walk(e) if isinstance(n, ir.Param) and n.name in entry_params}


def plan(p: Procedure) -> Plan:
    first_roll = next((i for i, s in enumerate(p.steps) if s.rolls()), len(p.steps))
    setup: list[Step] = []
    per_roll: list[Step] = []
    available: set[str] = set()
    for i, s in enumerate(p.steps):
        value = kind_for(s).value_of(s)
        movable = (value is not None and not s.templates() and ir.total(value) and step_reads(s) <= available)
        if i < first_roll or movable:
            setup.append(s)
            if s.target:
                available.add(s.target)
        else:
            per_roll.append(s)
    outputs = tuple(o.formula.expr for o in p.result)
    entry_params = {prm.id for prm in p.params if prm.type not in ("int", "bool", "combatant")}
    later_locals: set[str] = set()
    later_entries: set[str] = set()
    for s in per_roll:
        later_locals |= step_reads(s)
        for e in s.exprs():
            later_entries |= _entries_read(e, entry_params)
    for o in outputs:
        later_locals |= ir.locals_read(o)
        later_entries |= _entries_read(o, entry_params)
    carried = tuple([prm.id for prm in p.params if prm.id in later_entries]
                    + [s.target for s in setup if s.target and s.target in later_locals])
    prepared = prepare(tuple(per_roll), outputs)
    return Plan(tuple(setup), carried, tuple(per_roll), outputs, prepared, common_case(prepared, p),
                unswitched(prepared, p))


def prepare(per_roll: tuple[Step, ...], outputs: tuple[ir.Expr, ...]) -> PreparedBody:
    """The per-roll steps with every roll-independent, total part of their formulas hoisted."""
    hoister = Hoister({s.target for s in per_roll if s.target})
    steps: list[Step] = []
    for s in per_roll:
        kind = kind_for(s)
        if kind.traces_only:
            continue  # a prepared resolver keeps no trace
        hint = s.target or type(s).__name__.lower()
        for field in kind.prepared_whole:
            s = _prepared_whole(s, field, hoister, hint)

        def rewrite(e: ir.Expr, h: str = hint) -> ir.Expr:
            return e if isinstance(e, ir.Hoisted) else hoister.rewrite(e, h)

        steps.append(map_formulas(s, rewrite))
    hoisted_outputs = tuple(
        (hoister.hoist(o, f"out{i}") if ir.total(o) and not isinstance(o, (ir.Const, ir.Local, ir.Param))
         else o) if hoister.invariant(o) else hoister.rewrite(o, f"out{i}") for i, o in enumerate(outputs))
    first = steps[0] if steps else None
    face_table = first.target if first is not None and kind_for(first).tabulates_faces(first, hoister.invariant) \
        else None
    return PreparedBody(tuple(steps), hoisted_outputs, tuple(hoister.hoisted), face_table)


def _prepared_whole(s: Step, field: str, hoister: Hoister, hint: str) -> Step:
    """`s` with the expression of its field `field` (a formula's tree, or an expression) one
    prepared value when it reads no rolled value and cannot raise (a name or a constant as it is)."""
    value = getattr(s, field)
    e = value.expr if isinstance(value, Formula) else value
    if not isinstance(e, ir.Expr) or not hoister.invariant(e) or not ir.total(e):
        return s
    if not isinstance(e, (ir.Const, ir.Local, ir.Param)):
        e = hoister.hoist(e, f"{hint}_{field}")
    changed: dict[str, Any] = {field: replace(value, expr=e) if isinstance(value, Formula) else e}
    return replace(s, **changed)
