"""Loop-invariant code motion on the IR, for prepared resolvers.

`NAME_prepare(...)` runs the setup once and returns a closure that runs the per-roll steps. In
those steps a formula may still hold parts that read no rolled value: `21 - attacker.crit_range`,
`not guessed_wrong`, `sneak_dice > 0`, `weapon.damage_dice`. The `Hoister` replaces each maximal
such part by a `Hoisted` node, a value the closure computes once, and moves the roll-independent
operands of `and`/`or` to the front so that a switch that is off skips the rest.

Only parts that cannot raise are hoisted (`expr.total`), so computing them eagerly never turns a
roll that would succeed into an error. Operands are reordered only when every operand is a total
true/false value, which keeps the value and the (absent) side effects the same.
"""

from __future__ import annotations

import re

from ..ir import expr as ir
from ..record import replace


class Hoister:
    def __init__(self, per_roll: set[str]) -> None:
        self.per_roll = per_roll  # locals the per-roll steps define
        self.hoisted: list[ir.Hoisted] = []
        self._by_value: dict[ir.Expr, ir.Hoisted] = {}

    def invariant(self, e: ir.Expr) -> bool:
        return not any(isinstance(n, ir.Local) and n.name in self.per_roll for n in ir.walk(e))

    def hoist(self, e: ir.Expr, hint: str) -> ir.Hoisted:
        """The prepared value standing for `e` (one per distinct expression)."""
        found = self._by_value.get(e)
        if found is None:
            found = ir.Hoisted(e.type, self._name(e, hint), e)
            self._by_value[e] = found
            self.hoisted.append(found)
        return found

    def _name(self, e: ir.Expr, hint: str) -> str:
        base = "_" + (_describe(e) or hint)
        taken = {h.name for h in self.hoisted}
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        return name

    def rewrite(self, e: ir.Expr, hint: str) -> ir.Expr:
        """`e` with its maximal roll-independent, total, costly parts hoisted."""
        if self.invariant(e) and ir.total(e) and _worth(e):
            return self.hoist(e, hint)
        if isinstance(e, ir.BoolOp):
            moved = self._reordered(e, hint)
            if moved is not None:
                return moved
        return map_children(e, lambda c: self.rewrite(c, hint))

    def _reordered(self, e: ir.BoolOp, hint: str) -> ir.Expr | None:
        """`rolled and switch` -> `_switch and rolled`, when every operand is a total boolean."""
        if not all(v.type == ir.BOOL and ir.total(v) for v in e.values):
            return None
        fixed = [self.invariant(v) for v in e.values]
        if all(fixed) or not any(fixed):
            return None
        head_values = tuple(v for v, f in zip(e.values, fixed) if f)
        head: ir.Expr = head_values[0] if len(head_values) == 1 else ir.BoolOp(ir.BOOL, e.op, head_values)
        head = self.hoist(head, hint) if _worth(head) else head
        rest = tuple(self.rewrite(v, hint) for v, f in zip(e.values, fixed) if not f)
        return ir.BoolOp(ir.BOOL, e.op, (head, *rest))


def _worth(e: ir.Expr) -> bool:
    """Literals, parameters and locals cost nothing to read; everything else is worth a value."""
    if isinstance(e, (ir.Const, ir.Param, ir.Local, ir.Ruling, ir.Hoisted)):
        return False
    if isinstance(e, ir.Unary) and e.op == "-" and isinstance(e.operand, ir.Const):
        return False
    return True


_IDENT = re.compile(r"[a-z0-9_]+")


def _describe(e: ir.Expr) -> str | None:
    """A name for a prepared value that says what it is, when the expression is simple."""
    if isinstance(e, ir.Attr):
        base = _describe(e.base) if not isinstance(e.base, (ir.Param, ir.Local)) else e.base.name
        return f"{base}_{e.field}" if base else None
    if isinstance(e, ir.Unary) and e.op == "not" and isinstance(e.operand, (ir.Param, ir.Local)):
        return f"not_{e.operand.name}"
    if isinstance(e, ir.Compare) and len(e.ops) == 1 and isinstance(e.operands[0], (ir.Param, ir.Local)) \
            and isinstance(e.operands[1], ir.Const) and isinstance(e.operands[1].value, int):
        word = {">": "gt", ">=": "ge", "<": "lt", "<=": "le", "==": "eq", "!=": "ne"}[e.ops[0]]
        return f"{e.operands[0].name}_{word}_{e.operands[1].value}".replace("-", "m")
    return None


def map_children(e: ir.Expr, fn: object) -> ir.Expr:
    f = fn  # type: ignore[assignment]
    if isinstance(e, ir.Attr):
        return replace(e, base=f(e.base))  # type: ignore[operator]
    if isinstance(e, (ir.EntryFormula,)):
        return replace(e, base=f(e.base), args=tuple(f(a) for a in e.args))  # type: ignore[operator]
    if isinstance(e, ir.Unary):
        return replace(e, operand=f(e.operand))  # type: ignore[operator]
    if isinstance(e, (ir.Binary, ir.Div)):
        return replace(e, left=f(e.left), right=f(e.right))  # type: ignore[operator]
    if isinstance(e, ir.Compare):
        return replace(e, operands=tuple(f(o) for o in e.operands))  # type: ignore[operator]
    if isinstance(e, ir.BoolOp):
        return replace(e, values=tuple(f(v) for v in e.values))  # type: ignore[operator]
    if isinstance(e, ir.Cond):
        return replace(e, test=f(e.test), then=f(e.then), orelse=f(e.orelse))  # type: ignore[operator]
    if isinstance(e, (ir.Call, ir.Helper)):
        return replace(e, args=tuple(f(a) for a in e.args))  # type: ignore[operator]
    if isinstance(e, ir.Lookup):
        return replace(e, key=f(e.key))  # type: ignore[operator]
    return e
