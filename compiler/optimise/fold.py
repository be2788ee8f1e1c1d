"""Constant folding on the IR, in the manner of Jinja2's optimizer (`as_const` over its node tree).

`fold(expr, known)` returns the expression with every node in `known` (parameters, prepared
values, locals, boolean rulings) replaced by its constant and every part that became constant
computed: arithmetic and comparisons of constants, `not`, `and`/`or` (a deciding constant ends
them, and decides them when what precedes it is names of true/false values), a conditional with a constant test keeps only its branch, `x + 0` and `x - 0` are `x`.
Folding keeps the value of the expression exactly, for the assumed values.

`fold_steps` folds a sequence of steps: a step whose `when` folds to false is dropped (a roll
step that does not happen defines its local as 0), a local bound to a constant is substituted
into the steps after it, and `known` tells which assumed names the folded code relied on.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any

from ..ir import Formula, Step, Template
from ..ir import expr as ir
from ..record import field_names, replace

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_BINARY: dict[str, Callable[[int, int], int]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}


class Known:
    """Nodes assumed to hold constants, and which of the assumptions the folded code relied on.
    Locals that folding itself found constant (`derive`) are known too, but are no assumption."""

    def __init__(self, values: MutableMapping[ir.Expr, ir.Const] | None = None) -> None:
        self.values: dict[ir.Expr, ir.Const] = {_key(k): v for k, v in (values or {}).items()}
        self.derived: set[ir.Expr] = set()
        self.used: list[ir.Expr] = []

    def assume(self, node: ir.Expr, value: ir.Const) -> None:
        self.values[_key(node)] = value

    def derive(self, node: ir.Expr, value: ir.Const) -> None:
        self.values[_key(node)] = value
        self.derived.add(_key(node))

    def get(self, node: ir.Expr) -> ir.Const | None:
        key = _key(node)
        found = self.values.get(key)
        if found is not None and key not in self.used and key not in self.derived:
            self.used.append(key)
        return found


def _key(node: ir.Expr) -> ir.Expr:
    """Parameters, locals and prepared values are known by name, whatever else a node carries."""
    if isinstance(node, ir.Hoisted):
        return ir.Hoisted("", node.name, ir.Const("", None))
    if isinstance(node, ir.Local):
        return ir.Local("", node.name, "")
    if isinstance(node, ir.Param):
        return ir.Param("", node.name, "")
    if isinstance(node, ir.Ruling):
        return ir.Ruling("", node.key, False, "")
    return node


def known_name(node: ir.Expr) -> ir.Expr:
    """The key under which `Known` holds a node's assumed value."""
    return _key(node)


def _const(e: ir.Expr) -> bool:
    return isinstance(e, ir.Const)


def fold(e: ir.Expr, known: Known) -> ir.Expr:
    found = known.get(e) if isinstance(e, (ir.Param, ir.Local, ir.Hoisted, ir.Ruling)) else None
    if found is not None:
        return found
    if isinstance(e, (ir.Const, ir.Param, ir.Local, ir.Hoisted, ir.Ruling)):
        return e
    if isinstance(e, ir.Unary):
        x = fold(e.operand, known)
        if isinstance(x, ir.Const):
            return ir.Const(e.type, (not x.value) if e.op == "not" else -int(x.value))  # type: ignore[arg-type]
        if e.op == "not" and isinstance(x, ir.Unary) and x.op == "not":
            return x.operand
        return replace(e, operand=x)
    if isinstance(e, ir.Binary):
        left, right = fold(e.left, known), fold(e.right, known)
        if isinstance(left, ir.Const) and isinstance(right, ir.Const):
            return ir.Const(ir.INT, _BINARY[e.op](int(left.value), int(right.value)))  # type: ignore[arg-type]
        if e.op == "+" and isinstance(left, ir.Const) and left.value == 0:
            return right
        if e.op in "+-" and isinstance(right, ir.Const) and right.value == 0:
            return left
        return replace(e, left=left, right=right)
    if isinstance(e, ir.Div):
        left, right = fold(e.left, known), fold(e.right, known)
        if isinstance(left, ir.Const) and isinstance(right, ir.Const) and right.value:
            a, b = int(left.value), int(right.value)  # type: ignore[arg-type]
            return ir.Const(ir.INT, a // b if e.rounding == "floor" else -(-a // b))
        return replace(e, left=left, right=right)
    if isinstance(e, ir.Compare):
        operands = tuple(fold(o, known) for o in e.operands)
        if all(_const(o) for o in operands):
            values = [o.value for o in operands if isinstance(o, ir.Const)]
            return ir.Const(ir.BOOL, all(_COMPARE[op](a, b) for op, a, b in zip(e.ops, values, values[1:])))
        return replace(e, operands=operands)
    if isinstance(e, ir.BoolOp):
        stop_on = e.op == "or"  # `or` stops at a true operand, `and` at a false one
        kept: list[ir.Expr] = []
        for value in e.values:
            v = fold(value, known)
            if isinstance(v, ir.Const):
                if bool(v.value) == stop_on:  # `b and False` is False when each b is a true/false name
                    if v.type == ir.BOOL and all(isinstance(k, (ir.Local, ir.Hoisted, ir.Param)) and k.type == ir.BOOL
                                                 for k in kept):
                        return ir.Const(ir.BOOL, stop_on)
                    return replace(e, values=(*kept, v))
                continue  # `True and x` is x; `False or x` is x
            kept.append(v)
        if not kept:
            return ir.Const(ir.BOOL, not stop_on)
        return kept[0] if len(kept) == 1 else replace(e, values=tuple(kept))
    if isinstance(e, ir.Cond):
        test = fold(e.test, known)
        if isinstance(test, ir.Const):
            return fold(e.then if test.value else e.orelse, known)
        return replace(e, test=test, then=fold(e.then, known), orelse=fold(e.orelse, known))
    if isinstance(e, ir.Call):
        args = tuple(fold(a, known) for a in e.args)
        if e.func in ("min", "max", "abs") and all(isinstance(a, ir.Const) and type(a.value) is int for a in args):
            numbers = [int(a.value) for a in args if isinstance(a, ir.Const) and isinstance(a.value, int)]
            result = min(numbers) if e.func == "min" else max(numbers) if e.func == "max" else abs(numbers[0])
            return ir.Const(ir.INT, result)
        return replace(e, args=args)
    if isinstance(e, ir.Attr):
        return replace(e, base=fold(e.base, known))
    if isinstance(e, (ir.EntryFormula, ir.Helper)):
        return replace(e, args=tuple(fold(a, known) for a in e.args))
    if isinstance(e, ir.Lookup):
        return replace(e, key=fold(e.key, known))
    return e


def map_formulas(step: Step, fn: Callable[[ir.Expr], ir.Expr]) -> Step:
    """The step with `fn` applied to the tree of each of its formulas and sentence holes."""
    changes: dict[str, Any] = {}
    for name in field_names(step):
        value = getattr(step, name)
        if isinstance(value, Formula):
            changes[name] = replace(value, expr=fn(value.expr))
        elif isinstance(value, Template):
            changes[name] = replace(value, parts=tuple(
                p if isinstance(p, str) else fn(p) for p in value.parts))
        elif isinstance(value, ir.Expr):
            changes[name] = fn(value)
    return replace(step, **changes) if changes else step


def formula(expr: ir.Expr, like: Formula) -> Formula:
    return replace(like, expr=expr)


def fold_steps(steps: Iterable[Step], known: Known, *, propagate: bool = True) -> list[Step]:
    """Fold every formula of the steps in order; see the module docstring."""
    from ..steps import binding, kind_for  # the kinds are modules of their own (and import the emitters)

    out: list[Step] = []
    for step in steps:
        step = map_formulas(step, lambda e: fold(e, known))
        when = step.when
        if when is not None and isinstance(when.expr, ir.Const):
            if not when.expr.value:
                if step.target is not None:  # a roll that does not happen defines its local as 0
                    zero = ir.Const(ir.INT, 0)
                    known.derive(ir.Local(ir.INT, step.target, step.name), zero)
                    if not propagate:
                        out.append(binding(step, formula(zero, when)))
                continue
            step = replace(step, when=None)
        refined = step.simplify()
        if refined is None:
            continue
        value = kind_for(refined).value_of(refined) if propagate else None
        if isinstance(value, ir.Const):
            known.derive(ir.Local(value.type, refined.target or "", refined.name), value)
            continue  # every later read of the local is now the constant
        out.append(refined)
    return out
