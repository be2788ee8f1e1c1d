"""Typed IR expressions -> Python source (`Code`), with Python's precedence and exact division.

Names come from a `Names` context (how this function spells locals, parameters and prepared
values); every literal goes through `code.literal`. Division is integer floor division (`//`),
or a runtime helper that raises the package's error on a zero divisor. Two small integer terms
of `min`/`max` become a conditional: `(b if b > a else a)` returns what `max(a, b)` returns,
ties included, at a third of the cost of the builtin call.
"""

from __future__ import annotations


from ...ir import expr as ir
from ..names import NameRules, parenthesised
from .code import Code, join, literal, name

# Precedence, loosest first, as in Python.
P_COND, P_OR, P_AND, P_NOT, P_CMP, P_ADD, P_MUL, P_UNARY, P_ATOM = range(9)
_BIN_PREC = {"+": P_ADD, "-": P_ADD, "*": P_MUL}


def ruling_constant(key: str) -> Code:
    return name(f"_R_{key.upper()}")


class Names(NameRules[Code]):
    """How the function being written spells each kind of name (names.py); `name` by default."""

    default = staticmethod(name)


def _wrap(text: Code, prec: int, need: int) -> Code:
    return parenthesised(text, prec, need, Code)


class PyExpr:
    def __init__(self, names: Names) -> None:
        self.names = names

    def __call__(self, e: ir.Expr) -> Code:
        return self.emit(e)[0]

    def sub(self, e: ir.Expr, need: int) -> Code:
        text, prec = self.emit(e)
        return _wrap(text, prec, need)

    def emit(self, e: ir.Expr) -> tuple[Code, int]:
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
            return Code(f"{self.sub(e.base, P_ATOM)}.{name(e.field)}"), P_ATOM
        if isinstance(e, ir.EntryFormula):
            args = join(", ", [self(a) for a in e.args])
            return Code(f"{self.sub(e.base, P_ATOM)}.{name(e.field)}({args})"), P_ATOM
        if isinstance(e, ir.Helper):
            return Code(f"{name('_rt_' + e.name)}({join(', ', [self(a) for a in e.args])})"), P_ATOM
        if isinstance(e, ir.Lookup):
            index = name(f"{e.table.upper()}_BY_{e.index.upper()}")
            return Code(f"_rt_index({index}, {self(e.key)}, {literal(e.text.split('[')[0])})"), P_ATOM
        if isinstance(e, ir.Unary):
            if e.op == "not":
                return Code(f"not {self.sub(e.operand, P_NOT)}"), P_NOT
            return Code(f"-{self.sub(e.operand, P_UNARY)}"), P_UNARY
        if isinstance(e, ir.Binary):
            p = _BIN_PREC[e.op]
            right_need = p + 1 if e.op == "-" else p
            return Code(f"{self.sub(e.left, p)} {e.op} {self.sub(e.right, right_need)}"), p
        if isinstance(e, ir.Div):
            if isinstance(e.right, ir.Const) and isinstance(e.right.value, int) and e.right.value > 0:
                if e.rounding == "floor":  # parenthesised: `a * (b // c)` is not `a * b // c`
                    return Code(f"({self.sub(e.left, P_MUL)} // {e.right.value})"), P_ATOM
                return Code(f"(-(-{self.sub(e.left, P_UNARY)} // {e.right.value}))"), P_ATOM
            helper = "_rt_floordiv" if e.rounding == "floor" else "_rt_ceildiv"
            return Code(f"{helper}({self(e.left)}, {self(e.right)})"), P_ATOM
        if isinstance(e, ir.Compare):
            parts = [self.sub(e.operands[0], P_CMP + 1)]
            for op, operand in zip(e.ops, e.operands[1:]):
                parts.append(Code(f"{op} {self.sub(operand, P_CMP + 1)}"))
            return join(" ", parts), P_CMP
        if isinstance(e, ir.BoolOp):
            p = P_AND if e.op == "and" else P_OR
            return join(f" {e.op} ", [self.sub(v, p + 1) for v in e.values]), p
        if isinstance(e, ir.Cond):
            return Code(f"{self.sub(e.then, P_OR)} if {self.sub(e.test, P_OR)} else {self.sub(e.orelse, P_COND)}"), P_COND
        if isinstance(e, ir.Call):
            return self.call(e), P_ATOM
        raise AssertionError(f"no Python form for {type(e).__name__}")  # pragma: no cover

    def call(self, e: ir.Call) -> Code:
        if e.func in ("min", "max") and len(e.args) == 2 and all(_small(a) for a in e.args):
            a, b = (self.sub(x, P_CMP + 1) for x in e.args)
            return Code(f"({b} if {b} {'>' if e.func == 'max' else '<'} {a} else {a})")
        args = [self(a) for a in e.args]
        if e.func in ("min", "max", "abs"):
            return Code(f"{e.func}({join(', ', args)})")
        if e.func == "clamp":
            return Code(f"_rt_clamp({join(', ', args)})")
        if e.func == "has":
            return Code(f"({args[1]} in {self.sub(e.args[0], P_ATOM)})")
        if e.func == "dice":
            return Code(f"_rt_make_dice({join(', ', args)})")
        if e.func == "dice_count":  # the compiler's own: how many dice a dice value rolls
            return Code(f"_rt_dice_count({args[0]})")
        if e.func == "join_dice":  # the compiler's own: two rolls enumerated as one (optimise/fuse.py)
            return Code(f"_rt_join_dice({join(', ', args)})")
        raise AssertionError(e.func)  # pragma: no cover


def _small(e: ir.Expr, budget: int = 5) -> bool:
    """A sum or difference of at most `budget` names and numbers: cheap to evaluate twice."""
    def leaves(x: ir.Expr) -> int:
        if isinstance(x, (ir.Param, ir.Local, ir.Const, ir.Ruling, ir.Hoisted, ir.Attr)):
            return 1
        if isinstance(x, ir.Binary) and x.op in "+-":
            return leaves(x.left) + leaves(x.right)
        return budget + 1
    return e.type == ir.INT and leaves(e) <= budget
