"""Loop-invariant code motion for prepared resolvers.

`NAME_prepare(...)` runs every roll-independent step once and returns a closure
that runs the rest per roll. Inside that closure, a formula may still contain
parts that read no rolled value: `21 - attacker.crit_range`, `not guessed_wrong`,
`sneak_dice > 0`, or an attribute chain such as `weapon.properties`. The
`Hoister` emits such a formula with each maximal roll-independent part replaced
by a local (`_k0`, ...) that prepare() computes once, and it moves the
roll-independent operands of `and`/`or` to the front so that a switch that is off
skips the rest.

Only parts that cannot raise are hoisted (no division and no helper calls), so
computing them eagerly never turns a roll that would succeed into an error.
Operands are reordered only when every operand is a total boolean, which keeps
the value and the (absent) side effects the same.
"""

from __future__ import annotations

from ..formula.check import BOOL, INT, TypedFormula
from ..formula.render import _P_AND, _P_ATOM, _P_OR, _Python
from ..formula.syntax import Binary, Bool, BoolOp, Call, Compare, Cond, Expr, Name, Num, Str, Unary
from ..ir import Formula

LOCAL_PREFIX = "v_"
_TOTAL_CALLS = ("min", "max", "abs", "has")


class Hoister:
    """Rewrites the formulas of one prepared closure; `definitions` are the locals to bind first."""

    def __init__(self, rolled: set[str]) -> None:
        self.rolled = rolled
        self.definitions: list[dict[str, str]] = []
        self._names: dict[str, str] = {}

    def python(self, formula: Formula | None) -> str | None:
        if formula is None:
            return None
        if formula.typed is None:
            return formula.python
        return _Emitter(formula.typed, self).emit(formula.typed.expr)[0]

    def name_for(self, python: str) -> str:
        if python not in self._names:
            self._names[python] = f"_k{len(self._names)}"
            self.definitions.append({"name": self._names[python], "python": python})
        return self._names[python]


class _Emitter(_Python):
    def __init__(self, typed: TypedFormula, hoister: Hoister) -> None:
        super().__init__(typed)
        self.hoister = hoister
        self.plain = _Python(typed)  # a hoisted part is written whole, without nested locals

    def emit(self, e: Expr) -> tuple[str, int]:
        if self._invariant(e) and self._total(e) and self._worth(e):
            return self.hoister.name_for(self.plain.emit(e)[0]), _P_ATOM
        if isinstance(e, BoolOp):
            moved = self._reordered(e)
            if moved is not None:
                return moved
        return super().emit(e)

    def _reordered(self, e: BoolOp) -> tuple[str, int] | None:
        """`rolled and switch` -> `_k and rolled`, when every operand is a total boolean."""
        if not all(self.typed.types.get(v) == BOOL and self._total(v) for v in e.values):
            return None
        fixed = [self._invariant(v) for v in e.values]
        if all(fixed) or not any(fixed):
            return None
        p = _P_AND if e.op == "and" else _P_OR
        head = f" {e.op} ".join(self.plain.sub(v, p + 1) for v, f in zip(e.values, fixed) if f)
        parts = [self.hoister.name_for(head)] + [self.sub(v, p + 1) for v, f in zip(e.values, fixed) if not f]
        return f" {e.op} ".join(parts), p

    def _invariant(self, e: Expr) -> bool:
        if isinstance(e, Name):
            python = self.typed.bindings[e].python
            return not (python.startswith(LOCAL_PREFIX) and python[len(LOCAL_PREFIX):] in self.hoister.rolled)
        return all(self._invariant(c) for c in _children(e))

    def _total(self, e: Expr) -> bool:
        """True when evaluating `e` cannot raise: no division, only the total builtins."""
        if isinstance(e, Binary) and e.op == "/":
            return False
        if isinstance(e, Call):
            floor_int = e.func in ("floor", "ceil") and self.typed.types.get(e.args[0]) == INT
            if e.func not in _TOTAL_CALLS and not floor_int:
                return False
        return all(self._total(c) for c in _children(e))

    def _worth(self, e: Expr) -> bool:
        """Literals and plain locals cost nothing to read; everything else is worth a local."""
        if isinstance(e, (Num, Bool, Str)):
            return False
        if isinstance(e, Name):
            return "." in self.typed.bindings[e].python
        if isinstance(e, Unary) and e.op == "-" and isinstance(e.operand, Num):
            return False
        return True


def _children(e: Expr) -> tuple[Expr, ...]:
    if isinstance(e, Unary):
        return (e.operand,)
    if isinstance(e, Binary):
        return (e.left, e.right)
    if isinstance(e, (Compare,)):
        return e.operands
    if isinstance(e, BoolOp):
        return e.values
    if isinstance(e, Cond):
        return (e.test, e.then, e.orelse)
    if isinstance(e, Call):
        return e.args
    return ()
