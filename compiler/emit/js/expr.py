"""Typed IR expressions -> JavaScript source (`Js`), with JavaScript's precedence.

The twin of `emit/python/expr.py`, for the same IR: integers stay integers (every quantity the
rules compute is bounded far below 2^53 by validate/bounds.py), division is `Math.floor` or
`Math.ceil` of the quotient (or a runtime helper that throws the package's error on a zero
divisor), comparisons are strict (`===`), a chain `a < b < c` is `a < b && b < c`, and `has`
is `indexOf` (ES2015 has no `includes`).
"""

from __future__ import annotations


from ...ir import expr as ir
from ..names import NameRules
from .code import Js, join, js, literal, name, parens, property_name

# Precedence, loosest first, as in JavaScript.
P_COND, P_OR, P_AND, P_EQ, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM = range(9)
_BIN_PREC = {"+": P_ADD, "-": P_ADD, "*": P_MUL}
_BIN = {"+": Js("+"), "-": Js("-"), "*": Js("*")}
_CMP = {"<": Js("<"), "<=": Js("<="), ">": Js(">"), ">=": Js(">="), "==": Js("==="), "!=": Js("!==")}
_MATH = {"min": Js("Math.min"), "max": Js("Math.max"), "abs": Js("Math.abs")}


def ruling_constant(key: str) -> Js:
    return name(f"_R_{key.upper()}")


prop = property_name  # a property name after a dot (code.py)


class Names(NameRules[Js]):
    """How the function being written spells each kind of name (names.py); `name` by default."""

    default = staticmethod(name)


def _wrap(text: Js, prec: int, need: int) -> Js:
    """`text` in brackets when its precedence `prec` is looser than the `need` of where it goes
    (`names.parenthesised`, kept `Js`)."""
    return parens(text) if prec < need else text


class JsExpr:
    def __init__(self, names: Names) -> None:
        self.names = names

    def __call__(self, e: ir.Expr) -> Js:
        return self.emit(e)[0]

    def sub(self, e: ir.Expr, need: int) -> Js:
        text, prec = self.emit(e)
        return _wrap(text, prec, need)

    def emit(self, e: ir.Expr) -> tuple[Js, int]:
        if isinstance(e, ir.Const):
            return literal(e.value), P_ATOM
        if isinstance(e, ir.Param):
            return self.names.param(e.name), P_ATOM
        if isinstance(e, ir.Local):
            return self.names.local(e.name), P_ATOM
        if isinstance(e, ir.Hoisted):
            return self.names.hoisted(e.name), P_ATOM
        if isinstance(e, ir.Ruling):
            return ruling_constant(e.key), P_ATOM
        if isinstance(e, ir.Attr):
            return js("{}.{}", self.sub(e.base, P_ATOM), prop(e.field)), P_ATOM
        if isinstance(e, ir.EntryFormula):
            args = join(", ", [self(a) for a in e.args])
            return js("{}.{}({})", self.sub(e.base, P_ATOM), prop(e.field), args), P_ATOM
        if isinstance(e, ir.Helper):
            return js("{}({})", name("_rt_" + e.name), join(", ", [self(a) for a in e.args])), P_ATOM
        if isinstance(e, ir.Lookup):
            index = name(f"{e.table.upper()}_BY_{e.index.upper()}")
            return js("_rt_index({}, {}, {})", index, self(e.key), literal(e.text.split("[")[0])), P_ATOM
        if isinstance(e, ir.Unary):
            if e.op == "not":
                return js("!{}", self.sub(e.operand, P_UNARY)), P_UNARY
            operand = self.sub(e.operand, P_UNARY)
            return js("-{}", parens(operand) if operand.startswith("-") else operand), P_UNARY
        if isinstance(e, ir.Binary):
            p = _BIN_PREC[e.op]
            right = self.sub(e.right, p + 1)
            if e.op == "-" and right.startswith("-"):
                right = parens(right)
            return js("{} {} {}", self.sub(e.left, p), _BIN[e.op], right), p
        if isinstance(e, ir.Div):
            fn = Js("Math.floor") if e.rounding == "floor" else Js("Math.ceil")
            if isinstance(e.right, ir.Const) and isinstance(e.right.value, int) and e.right.value > 0:
                return js("{}({} / {})", fn, self.sub(e.left, P_MUL), literal(e.right.value)), P_ATOM
            helper = Js("_rt_floordiv") if e.rounding == "floor" else Js("_rt_ceildiv")
            return js("{}({}, {})", helper, self(e.left), self(e.right)), P_ATOM
        if isinstance(e, ir.Compare):
            pairs: list[tuple[Js, int]] = []
            for op, lhs, rhs in zip(e.ops, e.operands, e.operands[1:]):
                p = P_EQ if op in ("==", "!=") else P_CMP
                pairs.append((js("{} {} {}", self.sub(lhs, p + 1), _CMP[op], self.sub(rhs, p + 1)), p))
            if len(pairs) == 1:
                return pairs[0]
            return join(" && ", [_wrap(t, p, P_AND + 1) for t, p in pairs]), P_AND
        if isinstance(e, ir.BoolOp):
            p = P_AND if e.op == "and" else P_OR
            values = [self.sub(v, p + 1) for v in e.values]
            return (join(" && ", values) if e.op == "and" else join(" || ", values)), p
        if isinstance(e, ir.Cond):
            return js("{} ? {} : {}", self.sub(e.test, P_OR), self.sub(e.then, P_COND + 1),
                      self.sub(e.orelse, P_COND)), P_COND
        if isinstance(e, ir.Call):
            return self.call(e), P_ATOM
        raise AssertionError(f"no JavaScript form for {type(e).__name__}")  # pragma: no cover

    def call(self, e: ir.Call) -> Js:
        args = [self(a) for a in e.args]
        if e.func in ("min", "max", "abs"):
            return js("{}({})", _MATH[e.func], join(", ", args))
        if e.func == "clamp":
            return js("_rt_clamp({})", join(", ", args))
        if e.func == "has":
            return js("({}.indexOf({}) >= 0)", self.sub(e.args[0], P_ATOM), args[1])
        if e.func == "dice":
            return js("_rt_make_dice({})", join(", ", args))
        if e.func == "dice_count":
            return js("_rt_dice_count({})", args[0])
        if e.func == "join_dice":  # the compiler's own: two rolls enumerated as one (optimise/fuse.py)
            return js("_rt_join_dice({})", join(", ", args))
        raise AssertionError(e.func)  # pragma: no cover
