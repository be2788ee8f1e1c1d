"""The interval evaluator of the bounds analysis (bounds.py): the `Interval` (intervals.py) every
IR expression of one ruleset can take in one procedure's environment — parameters over their
declared ranges, stats over theirs, rulings at their values, entry fields over their table, each
step's local over the range its kind gives it. Sound and possibly loose: both branches of a
condition it cannot decide.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ..ir import Entry, FormulaField, Procedure, Ruleset, Step
from ..ir import expr as ir
from ..memo import current
from .intervals import (ANY, BOOL, FALSE, INF, TRUE, ZERO, Dice, Entries, Interval, Value, Witness, column_summary,
                        dice_hull, entry_key, hull, merge_columns, with_none)

_ARITHMETIC = (ir.Unary, ir.Binary, ir.Div, ir.Call)  # the nodes that compute a new number
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _mul(a: float, b: float) -> float:
    return 0 if a == 0 or b == 0 else a * b


# A finite bound past this is kept at it: whole numbers so large cannot become floats (`math.isinf`
# and `x / y` raise OverflowError past about 2**1024), and every threshold the analysis compares a
# bound with (a work limit, 2**53) is far below it, so each verdict stays the same. An infinite
# bound (nothing known) stays infinite.
_HUGE = 2**1000


def _capped(lo: float, hi: float) -> Interval:
    return Interval(-_HUGE if -INF < lo < -_HUGE else lo, _HUGE if _HUGE < hi < INF else hi)


def _number(v: Value) -> Interval:
    """A value as a number: a dice value's total; anything but a number, any number."""
    return v if isinstance(v, Interval) else v.total if isinstance(v, Dice) else ANY


def _narrow(facts: dict[ir.Expr, Interval], more: dict[ir.Expr, Interval]) -> None:
    """Add `more` to `facts`, each bound on the same expression the intersection of both."""
    for k, f in more.items():
        old = facts.get(k)
        facts[k] = f if old is None else Interval(max(old.lo, f.lo), min(old.hi, f.hi))


_ABSENT: Any = object()

# The method that evaluates each kind of node, by its class (looked up once).
_METHODS: dict[type, Callable[[Evaluator, Any], Value]] = {}


def _unknown(ev: Evaluator, e: ir.Expr) -> Value:
    """The value of a node no method evaluates: any of its type."""
    return Evaluator.unknown(e.type)


class Evaluator:
    """Interval values of the IR expressions of one ruleset, in one procedure's environment."""

    def __init__(self, rs: Ruleset, *, open_world: bool = False) -> None:
        """`open_world`: an entry parameter may be any entry a program builds (nothing known of
        its fields), not only the table's. A resident build's memo holds a field's hull over
        runs of entries from the build before."""
        self.rs = rs
        self.open_world = open_world
        self.tables = {t.id: t for t in rs.tables}
        self.stats = {s.id: Interval(s.min, s.max) if s.type == "int" else BOOL for s in rs.stats}
        self.env: dict[str, Value] = {}
        self.locals: dict[str, Value] = {}
        self.facts: dict[ir.Expr, Interval] = {}  # what the branch being evaluated knows
        self._formula_depth = 0
        # While a procedure's own formula is evaluated (validate/bounds.py): the largest magnitude
        # any of its arithmetic reaches, where the analysis can bound it (None: not recorded).
        self.largest: float | None = None
        # The entry formulas that gave the largest values read so far, for a diagnostic to point at
        # the rule a homebrewer wrote rather than at the procedure that reads it.
        self.witnesses: list[Witness] = []
        self._local_witnesses: dict[str, list[Witness]] = {}
        # A field's hull over a set of entries, by the set's identity (the whole table, mostly):
        # a 10,000-weapon pack is scanned once per field, not once per formula that reads it.
        self._hulls: dict[tuple[int, str], tuple[tuple[Entry | None, ...], Value]] = {}
        self._optional: dict[str, tuple[Entry | None, ...]] = {}
        self._summaries: dict[str, dict[str, Any]] = {}

    # ---- environments ----
    def bind_params(self, p: Procedure) -> None:
        self.env, self.locals, self._local_witnesses = {}, {}, {}
        for prm in p.params:
            if prm.type == "int":
                self.env[prm.id] = Interval(prm.min if prm.min is not None else -INF,
                                            prm.max if prm.max is not None else INF)
            elif prm.type == "bool":
                self.env[prm.id] = BOOL
            elif prm.type in self.tables and not self.open_world:
                items: tuple[Entry | None, ...] = self.tables[prm.type].entries
                if prm.optional:  # one tuple for every procedure, so that its hulls are made once
                    items = self._optional.setdefault(prm.type, items + (None,))
                self.env[prm.id] = Entries(prm.type, items)
            else:
                self.env[prm.id] = None

    def define(self, step: Step, value: Value) -> None:
        """Bind the step's local; the witnesses gathered since the last step go with it."""
        if step.target is not None:
            self._local_witnesses[step.target] = self.witnesses
        self.witnesses = []
        if step.target is not None:
            if step.when is not None and isinstance(value, Interval):
                value = value | ZERO  # a step that does not happen defines 0
            self.locals[step.target] = value

    # ---- expressions ----
    def num(self, e: ir.Expr) -> Interval:
        return _number(self(e))

    def __call__(self, e: ir.Expr) -> Value:
        method = _METHODS.get(type(e))
        if method is None:  # each kind of node's method, looked up once
            method = _METHODS[type(e)] = getattr(Evaluator, "_" + type(e).__name__, _unknown)
        value = method(self, e)
        fact = self.facts.get(e) if self.facts else None  # (a node's hash walks its whole tree)
        if fact is not None and isinstance(value, Interval):
            narrowed = Interval(max(value.lo, fact.lo), min(value.hi, fact.hi))
            if narrowed.lo <= narrowed.hi:  # else the branch cannot happen: keep the sound value
                value = narrowed
        if (self.largest is not None and isinstance(e, _ARITHMETIC) and isinstance(value, Interval)
                and not self._formula_depth):  # an entry formula's own: checked at the entry
            size = max(-value.lo, value.hi)
            if self.largest < size < INF:
                self.largest = size
        return value

    # ---- what a condition tells its branches ----
    def _assume(self, test: ir.Expr, truth: bool) -> dict[ir.Expr, Interval]:
        """Facts that hold where `test` is `truth`: bounds on the names and differences it compares
        (`distance > range` makes `distance - range` at least 1)."""
        if isinstance(test, ir.Unary) and test.op == "not":
            return self._assume(test.operand, not truth)
        if isinstance(test, ir.BoolOp) and (test.op == "and") == truth:
            facts: dict[ir.Expr, Interval] = {}
            for v in test.values:
                _narrow(facts, self._assume(v, truth))
            return facts
        if not (isinstance(test, ir.Compare) and len(test.ops) == 1):
            return {}
        op = test.ops[0] if truth else _NEGATED[test.ops[0]]
        x, y = test.operands
        if x.type != ir.INT or y.type != ir.INT:
            return {}
        if op in ("<", "<="):
            op, x, y = (">" if op == "<" else ">="), y, x
        if op == "!=":
            return {}
        gap = 1 if op == ">" else 0  # x - y >= gap (and == 0 for ==)
        most = 0 if op == "==" else INF
        xv, yv = self.num(x), self.num(y)
        return {ir.Binary(ir.INT, "-", x, y): Interval(gap, most),
                x: Interval(yv.lo + gap, xv.hi if op != "==" else yv.hi),
                y: Interval(yv.lo if op != "==" else xv.lo, xv.hi - gap)}

    def _under(self, facts: dict[ir.Expr, Interval], e: ir.Expr) -> Value:
        saved = self.facts
        self.facts = {**saved, **facts}
        try:
            return self(e)
        finally:
            self.facts = saved

    @staticmethod
    def unknown(type_: str) -> Value:
        return BOOL if type_ == ir.BOOL else ANY if type_ == ir.INT else Dice(ANY, ANY) if type_ == ir.DICE else None

    def _Const(self, e: ir.Const) -> Value:
        if isinstance(e.value, bool):
            return TRUE if e.value else FALSE
        return Interval(e.value, e.value) if isinstance(e.value, int) else None

    def _Ruling(self, e: ir.Ruling) -> Value:
        v = int(e.value)
        return Interval(v, v)

    def _Param(self, e: ir.Param) -> Value:
        v = self.env.get(e.name, _ABSENT)  # (no default made for every name read)
        return self.unknown(e.type) if v is _ABSENT else v

    def _Local(self, e: ir.Local) -> Value:
        self.witnesses += self._local_witnesses.get(e.name, [])
        v = self.locals.get(e.name, _ABSENT)
        return self.unknown(e.type) if v is _ABSENT else v

    def _Attr(self, e: ir.Attr) -> Value:
        if e.base.type == ir.COMBATANT:
            v = self.stats.get(e.field, _ABSENT)
            return self.unknown(e.type) if v is _ABSENT else v
        base = self(e.base)
        if not isinstance(base, Entries):
            return self.unknown(e.type)
        if e.field in ("id", "name"):
            return None
        found = self._hulls.get((id(base.items), e.field))
        if found is not None and found[0] is base.items:
            return found[1]
        if e.field == "given":  # (a 10,000-entry table is read once a build, not at every `given`)
            some, none = any(x is not None for x in base.items), any(x is None for x in base.items)
            value: Value = BOOL if some and none else TRUE if some else FALSE
        else:
            value = self._field(base, e)
        self._hulls[(id(base.items), e.field)] = (base.items, value)
        return value

    def _columns(self, base: Entries) -> dict[str, Any] | None:
        """Every field's values over all of a table's entries (and no entry, for an optional
        parameter), made once a build, from runs of entries a resident build keeps; None when
        `base` is some of the entries only."""
        t = self.tables.get(base.table)
        if t is None or not (base.items is t.entries or base.items is self._optional.get(t.id)):
            return None
        found = self._summaries.get(t.id)
        if found is None:
            found = self._summaries[t.id] = merge_columns(t, current().each_run(
                "columns", t.entries, lambda run: column_summary(t, run), entry_key, (t.fields,)))
        if base.items is t.entries:
            return {k: ZERO if v is None else v for k, v in found.items()}
        return {**found, **{f.id: with_none(f, found[f.id]) for f in t.fields if f.id in found}}

    def _field(self, base: Entries, e: ir.Attr) -> Value:
        """The values of a declared field over `base`'s entries."""
        decl = next((f for f in self.tables[base.table].fields if f.id == e.field), None)
        if decl is None:
            return self.unknown(e.type)
        columns = self._columns(base)
        if decl.type == "ref" and decl.table in self.tables:
            target = self.tables[decl.table]
            by_id = {x.id: x for x in target.entries}
            refs = columns[e.field] if columns is not None else {
                x.get(e.field) if x is not None else None for x in base.items}
            return Entries(target.id, tuple(by_id.get(r) if isinstance(r, str) else None
                                            for r in sorted(refs, key=lambda r: (r is None, str(r)))))
        if columns is not None and decl.type in ("dice", "int", "bool"):
            return columns[e.field]  # type: ignore[no-any-return]
        if decl.type == "dice":
            dice = current().each_run("dice-hull", base.items, lambda run: dice_hull([
                x.get(e.field) if x is not None else None for x in run]), entry_key, (decl,),
                like=self._like(base))
            return Dice(hull(d.count for d in dice), hull(d.total for d in dice)) if dice else dice_hull([])
        if decl.type in ("int", "bool"):
            default = decl.default if isinstance(decl.default, (int, bool)) else 0

            def values(run: Sequence[Entry | None]) -> Interval:
                got = [int(v) if isinstance(v, (int, bool)) else 0 for v in
                       (x.get(e.field) if x is not None else default for x in run)]
                return Interval(min(got), max(got))  # the hull, without an Interval each

            return hull(current().each_run("hull", base.items, values, entry_key, (decl,), like=self._like(base)))
        return self.unknown(e.type)

    def _like(self, base: Entries) -> tuple[Entry, ...] | None:
        """The table's entries when `base` is all of them and no entry (an optional parameter):
        cut into the same runs (`Memo.each_run`)."""
        t = self.tables.get(base.table)
        return t.entries if t is not None and len(base.items) == len(t.entries) + 1 else None

    def _EntryFormula(self, e: ir.EntryFormula) -> Value:
        base = self(e.base)
        if not isinstance(base, Entries) or self._formula_depth > 4:
            return self.unknown(e.type)
        decl = next((f for f in self.tables[base.table].fields if f.id == e.field), None)
        args = [self(a) for a in e.args]
        saved = self.env
        out: list[Value] = []
        self._formula_depth += 1
        try:
            for x in base.items:
                field = x.get(e.field) if x is not None else None
                if not isinstance(field, FormulaField):
                    out.append(ZERO if e.type != ir.BOOL else FALSE)
                    continue
                env: dict[str, Value] = {"s": args[0] if args else None, "e": Entries(base.table, (x,))}
                for (param, _table), value in zip(decl.context if decl else (), args[2:]):
                    env[param] = value
                self.env = env
                value = self(field.formula.expr)
                out.append(value)
                if isinstance(value, Interval) and x is not None:
                    self.witnesses.append(Witness(value.hi, field.formula.span, f"{base.table} '{x.id}'"))
        finally:
            self.env = saved
            self._formula_depth -= 1
        nums = [v for v in out if isinstance(v, Interval)]
        return hull(nums) if len(nums) == len(out) else self.unknown(e.type)

    def _Lookup(self, e: ir.Lookup) -> Value:
        t = self.tables.get(e.table) if not self.open_world else None
        return Entries(e.table, t.entries) if t is not None else None

    def _Unary(self, e: ir.Unary) -> Value:
        v = self.num(e.operand)
        if e.op == "not":
            return TRUE if v == FALSE else FALSE if v == TRUE else BOOL
        return Interval(-v.hi, -v.lo)

    def _Binary(self, e: ir.Binary) -> Value:
        a, b = self.num(e.left), self.num(e.right)
        if e.op == "+":
            return _capped(a.lo + b.lo, a.hi + b.hi)
        if e.op == "-":
            return _capped(a.lo - b.hi, a.hi - b.lo)
        corners = [_mul(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        return _capped(min(corners), max(corners))

    def _Div(self, e: ir.Div) -> Value:
        a, b = self.num(e.left), self.num(e.right)
        parts = [p for p in (Interval(b.lo, min(b.hi, -1)), Interval(max(b.lo, 1), b.hi)) if p.lo <= p.hi]
        if not parts:
            return ZERO  # always a division by zero: the procedure raises
        out = []
        for d in parts:
            corners = [x / y if not (math.isinf(x) and math.isinf(y)) else 0.0
                       for x in (a.lo, a.hi) for y in (d.lo, d.hi)]
            if a.lo <= 0 <= a.hi:
                corners.append(0.0)
            lo, hi = min(corners), max(corners)
            out.append(Interval(lo if math.isinf(lo) else math.floor(lo), hi if math.isinf(hi) else math.ceil(hi)))
        return hull(out)

    def _Compare(self, e: ir.Compare) -> Value:
        if len(e.ops) != 1 or any(o.type not in (ir.INT, ir.BOOL) for o in e.operands):
            return BOOL
        a, b = self.num(e.operands[0]), self.num(e.operands[1])
        op = e.ops[0]
        if op in ("<", ">"):
            a, b = (a, b) if op == "<" else (b, a)
            return TRUE if a.hi < b.lo else FALSE if a.lo >= b.hi else BOOL
        if op in ("<=", ">="):
            a, b = (a, b) if op == "<=" else (b, a)
            return TRUE if a.hi <= b.lo else FALSE if a.lo > b.hi else BOOL
        same = a.lo == a.hi == b.lo == b.hi
        apart = a.hi < b.lo or b.hi < a.lo
        if op == "==":
            return TRUE if same else FALSE if apart else BOOL
        return FALSE if same else TRUE if apart else BOOL

    def _BoolOp(self, e: ir.BoolOp) -> Value:
        """Each operand under what the ones before it tell (both languages evaluate an operand of
        `and` only when those were true, of `or` only when they were false), as `_Cond` does."""
        values: list[Interval] = []
        facts: dict[ir.Expr, Interval] = {}
        deciding = FALSE if e.op == "and" else TRUE
        for v in e.values:
            values.append(_number(self._under(facts, v) if facts else self(v)))
            if values[-1] == deciding:
                break  # the operands after it are never evaluated
            _narrow(facts, self._assume(v, e.op == "and"))
        if e.op == "and":
            return FALSE if FALSE in values else TRUE if all(v == TRUE for v in values) else BOOL
        return TRUE if TRUE in values else FALSE if all(v == FALSE for v in values) else BOOL

    def _Cond(self, e: ir.Cond) -> Value:
        test = self.num(e.test)
        if test == TRUE:
            return self(e.then)
        if test == FALSE:
            return self(e.orelse)
        a, b = self._under(self._assume(e.test, True), e.then), self._under(self._assume(e.test, False), e.orelse)
        if isinstance(a, Interval) and isinstance(b, Interval):
            return a | b
        if isinstance(a, Dice) and isinstance(b, Dice):
            return Dice(a.count | b.count, a.total | b.total)
        if isinstance(a, Entries) and isinstance(b, Entries) and a.table == b.table:
            return Entries(a.table, a.items + b.items)
        return self.unknown(e.type)

    def _Call(self, e: ir.Call) -> Value:
        if e.func == "has":
            return BOOL
        if e.func == "dice_count":
            v = self(e.args[0])
            return v.count if isinstance(v, Dice) else ANY
        if e.func == "dice":
            n, sides = self.num(e.args[0]), self.num(e.args[1])
            count = Interval(max(n.lo, 0), max(n.hi, 0))
            return Dice(count, Interval(count.lo, _mul(count.hi, max(sides.hi, 1))))
        args = [self.num(a) for a in e.args]
        if e.func == "min":
            return Interval(min(a.lo for a in args), min(a.hi for a in args))
        if e.func == "max":
            return Interval(max(a.lo for a in args), max(a.hi for a in args))
        if e.func == "abs":
            a = args[0]
            return Interval(0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi)), max(abs(a.lo), abs(a.hi)))
        if e.func == "clamp":
            x, lo, hi = args
            return Interval(max(min(x.lo, hi.lo), lo.lo), min(max(x.hi, lo.hi), hi.hi))
        return self.unknown(e.type)

