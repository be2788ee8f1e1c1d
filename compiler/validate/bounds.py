"""Bounded work, proven at build time: interval analysis over the IR.

Every quantity that drives work (dice in a pool, rolls of a pool_count step, advantage layers,
damage dice) is declared by its step kind (`StepKind.work`) with the limit of the ruleset's dice
section that bounds it (`dice.limits`). This pass evaluates each such formula over intervals:
parameters range over their declared `min`..`max`, combatant stats over the stats' ranges,
rulings are their values, an entry parameter is any entry of its table (so a field is the hull of
its values over the table, a formula field the hull of every entry's formula), and a step's local
is the range its kind gives it (`StepKind.local_range`). A quantity whose upper bound is over its
limit is a diagnostic at the formula that feeds it. The analysis is sound and may be loose: it
takes both branches of a condition it cannot decide and ignores `when` (a step that does not
happen defines 0).

The generated code checks the same limits when it runs (`LimitExceeded`), for what the build
cannot see: entries a program builds itself.

It runs on the lowered IR (it needs every step as its kind's node), before the optimiser.
"""

from __future__ import annotations


from ..diagnostics import Diagnostic, Span
from ..ir import Formula, Procedure, Ruleset
from ..messages import say
from .evaluator import Evaluator
from .intervals import INF, Entries, Interval


def open_world_reach(rs: Ruleset, p: Procedure) -> dict[tuple[object, str], Interval]:
    """The reach of every work quantity of `p` (by step span and label) when its entries may be
    any a program builds: where it is within the limit, the generated code need not check it."""
    from ..steps import kind_for

    ev = Evaluator(rs, open_world=True)
    ev.bind_params(p)
    out: dict[tuple[object, str], Interval] = {}
    for step in p.steps:
        kind = kind_for(step)
        for work in kind.work(step):
            out[(step.span, work.label)] = ev.num(work.quantity)
        ev.define(step, kind.local_range(step, ev))
    return out


def check_bounds(rs: Ruleset) -> list[Diagnostic]:
    """A diagnostic for every work quantity of every procedure that can exceed its limit: at the
    entry formula that alone goes over it when there is one (a pack's weapon, say), else at the
    formula of the step."""
    from ..steps import kind_for

    ev = Evaluator(rs)
    out: list[Diagnostic] = []
    blamed: set[Span] = set()
    for p in rs.procedures:
        ev.bind_params(p)
        for step in p.steps:
            kind = kind_for(step)
            for work in kind.work(step):
                limit = rs.dice.limits.get(work.limit)
                if limit is None:
                    continue
                ev.witnesses = []
                reach = ev.num(work.quantity)
                if reach.hi <= limit:
                    continue
                where = say("bounds.dice-limits-ruleset", limit=work.limit)
                culprits = [w for w in ev.witnesses if w.hi > limit]
                if culprits:
                    worst = max(culprits, key=lambda w: w.hi)
                    if worst.span not in blamed:
                        blamed.add(worst.span)
                        out.append(Diagnostic(worst.span, "unbounded-work",
                                              say("unbounded-work.formula-can-reach-procedure", what=worst.what, text=Interval(0, worst.hi).text(), what2=work.what, id=p.id, span=work.formula.span, unit=work.unit, limit=limit, where=where),
                                              say("unbounded-work.bound-what-formula-reads")))
                    continue
                out.append(Diagnostic(work.formula.span, "unbounded-work",
                                      say("unbounded-work.can-reach-limit", what=work.what, text=reach.text(), unit=work.unit, limit=limit, where=where),
                                      say("unbounded-work.bound-parameters-stats-table")))
            ev.witnesses = []
            out += _exact_formulas(step.formulas(), ev)
            ev.define(step, kind.local_range(step, ev))
        out += _exact_formulas(tuple(o.formula for o in p.result), ev)
    return out + _exact_in_both(rs, ev)


def _magnitude(x: float) -> str:
    """A bound as text: in full up to 10^18, else as 1.23e+45."""
    return str(int(x)) if x < 10**18 else f"{float(x):.2e}"


def _exact_formulas(formulas: tuple[Formula, ...], ev: Evaluator) -> list[Diagnostic]:
    """A diagnostic for each of a procedure's formulas where some arithmetic can pass ±MAX_EXACT
    (itself or a part of it: JavaScript computes each part as a float), as far as the intervals
    bound it. The analysis is loose (both branches of a condition it cannot decide), but only a
    finite bound it proves is reported."""
    out: list[Diagnostic] = []
    for f in formulas:
        ev.largest = float(MAX_EXACT)
        try:
            ev(f.expr)
            largest = ev.largest
        finally:
            ev.largest = None
            ev.witnesses = []
        if largest > MAX_EXACT:
            out.append(Diagnostic(f.span, "inexact-number",
                                  say("inexact-number.part-can-reach", text=_magnitude(largest), limit=MAX_EXACT),
                                  say("inexact-number.keep-it-smaller")))
    return out


# The largest whole number a JavaScript number holds exactly (Number.MAX_SAFE_INTEGER).
MAX_EXACT = 2**53 - 1


def _exact_in_both(rs: Ruleset, ev: Evaluator) -> list[Diagnostic]:
    """A diagnostic for each entry formula whose value can pass ±MAX_EXACT: Python computes it
    exactly, JavaScript as a float, and the two packages would differ. The formula is evaluated over
    intervals as a procedure reading it would (the combatant's stats over their ranges, its own
    entry, a context parameter any entry of its table); a bound the analysis cannot give (infinite)
    is not reported: only a value proven to grow that large is."""
    from ..ir import FormulaField

    out: list[Diagnostic] = []
    for t in rs.tables:
        formulas = [f for f in t.fields if f.type == "formula"]
        for x in t.entries if formulas else ():
            for decl in formulas:
                field = x.get(decl.id)
                if not isinstance(field, FormulaField):
                    continue
                ev.env = {"s": None, "e": Entries(t.id, (x,))}
                for param, table in decl.context:
                    ev.env[param] = Entries(table, ev.tables[table].entries) if table in ev.tables else None
                value = ev(field.formula.expr)
                if isinstance(value, Interval) and MAX_EXACT < max(abs(value.lo), abs(value.hi)) < INF:
                    out.append(Diagnostic(field.formula.span, "inexact-number",
                                          say("inexact-number.formula-can-reach", text=value.text(), limit=MAX_EXACT),
                                          say("inexact-number.keep-it-smaller")))
    return out
