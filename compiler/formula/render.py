"""Formula output: a typed formula -> Python source (for resolvers) or Chinese text (for pages).

The Python form uses only the ASCII expressions bound in the scope and the
runtime helpers `_rt_*` (imported by every generated module), so emitted code
never contains a user's string except through `repr`. Division stays exact:
`floor(a / b)` becomes integer floor division, any other `/` a `Fraction`.
The Chinese form reads like the rulebook: `floor((武技 + 专业) / 2)` becomes
`(武技 + 专业) ÷ 2，向下取整`.
"""

from __future__ import annotations

from ..formula.check import FRAC, FUNCTIONS, INT, TypedFormula
from ..formula.syntax import (
    Binary,
    Bool,
    BoolOp,
    Call,
    Compare,
    Cond,
    Expr,
    Name,
    Num,
    Str,
    Unary,
)

# Precedence, loosest first, as in Python.
_P_COND, _P_OR, _P_AND, _P_NOT, _P_CMP, _P_ADD, _P_MUL, _P_UNARY, _P_ATOM = range(9)
_BIN_PREC = {"+": _P_ADD, "-": _P_ADD, "*": _P_MUL, "/": _P_MUL}

RUNTIME_HELPERS = ("floordiv", "ceildiv", "div", "floor", "ceil", "clamp", "round_cbrt")


def _wrap(text: str, prec: int, need: int) -> str:
    return f"({text})" if prec < need else text


class _Python:
    def __init__(self, typed: TypedFormula):
        self.typed = typed

    def emit(self, e: Expr) -> tuple[str, int]:
        t = self.typed
        if isinstance(e, Num):
            return (str(e.value), _P_ATOM) if e.value >= 0 else (f"({e.value})", _P_ATOM)
        if isinstance(e, Bool):
            return ("True" if e.value else "False"), _P_ATOM
        if isinstance(e, Str):
            return repr(e.value), _P_ATOM
        if isinstance(e, Name):
            return t.bindings[e].python, _P_ATOM
        if isinstance(e, Unary):
            if e.op == "not":
                return f"not {self.sub(e.operand, _P_NOT)}", _P_NOT
            return f"{e.op}{self.sub(e.operand, _P_UNARY)}", _P_UNARY
        if isinstance(e, Binary):
            if e.op == "/":
                return f"_rt_div({self.sub(e.left, _P_COND)}, {self.sub(e.right, _P_COND)})", _P_ATOM
            p = _BIN_PREC[e.op]
            right_need = p + 1 if e.op in "-" else p
            return f"{self.sub(e.left, p)} {e.op} {self.sub(e.right, right_need)}", p
        if isinstance(e, Compare):
            parts = [self.sub(e.operands[0], _P_CMP + 1)]
            for op, operand in zip(e.ops, e.operands[1:]):
                parts.append(f"{op} {self.sub(operand, _P_CMP + 1)}")
            return " ".join(parts), _P_CMP
        if isinstance(e, BoolOp):
            p = _P_AND if e.op == "and" else _P_OR
            return f" {e.op} ".join(self.sub(v, p + 1) for v in e.values), p
        if isinstance(e, Cond):
            test = self.sub(e.test, _P_OR)
            if test in ("True", "False"):  # a ruling switch: keep only the branch in force
                return self.emit(e.then if test == "True" else e.orelse)
            return (f"{self.sub(e.then, _P_OR)} if {test} "
                    f"else {self.sub(e.orelse, _P_COND)}"), _P_COND
        if isinstance(e, Call):
            return self.call(e), _P_ATOM
        raise AssertionError(e)  # pragma: no cover

    def sub(self, e: Expr, need: int) -> str:
        text, prec = self.emit(e)
        return _wrap(text, prec, need)

    def call(self, e: Call) -> str:
        args = [self.sub(a, _P_COND) for a in e.args]
        if e.func in ("floor", "ceil"):
            (arg,) = e.args
            if self.typed.types[arg] == INT:
                return args[0]
            if isinstance(arg, Binary) and arg.op == "/" and all(
                self.typed.types[x] == INT for x in (arg.left, arg.right)
            ):
                a, b = self.sub(arg.left, _P_COND), self.sub(arg.right, _P_COND)
                if isinstance(arg.right, Num) and arg.right.value > 0:
                    if e.func == "floor":
                        return f"({self.sub(arg.left, _P_MUL)} // {arg.right.value})"
                    return f"(-(-{self.sub(arg.left, _P_UNARY)} // {arg.right.value}))"
                return f"_rt_{e.func}div({a}, {b})"
            return f"_rt_{e.func}({args[0]})"
        if e.func in ("min", "max") and len(e.args) == 2 and all(
            self.typed.types[a] == INT and _small(a) for a in e.args
        ):
            # Two small integer terms: a conditional is ~3× cheaper than the builtin call, and
            # `(b if b > a else a)` returns what max(a, b) returns, ties included.
            a, b = (self.sub(x, _P_CMP + 1) for x in e.args)
            return f"({b} if {b} {'>' if e.func == 'max' else '<'} {a} else {a})"
        if e.func in ("min", "max", "abs"):
            return f"{e.func}({', '.join(args)})"
        if e.func == "has":
            return f"({args[1]} in {args[0]})"
        if e.func == "dice":
            return f"_rt_make_dice({', '.join(args)})"
        return f"_rt_{e.func}({', '.join(args)})"


def _small(e: Expr, budget: int = 5) -> bool:
    """A sum or difference of at most `budget` names and numbers: cheap to evaluate twice."""
    def leaves(x: Expr) -> int:
        if isinstance(x, (Name, Num)):
            return 1
        if isinstance(x, Binary) and x.op in "+-":
            return leaves(x.left) + leaves(x.right)
        return budget + 1
    return leaves(e) <= budget


def to_python(typed: TypedFormula) -> str:
    """The formula as a Python expression over the scope's ASCII bindings."""
    return _Python(typed).emit(typed.expr)[0]


_ZH_OPS = {"+": "+", "-": "−", "*": "×", "/": "÷", "<": "<", "<=": "≤", ">": ">", ">=": "≥",
           "==": "=", "!=": "≠", "and": "且", "or": "或"}


class _Chinese:
    def __init__(self, typed: TypedFormula):
        self.typed = typed

    def emit(self, e: Expr, top: bool = False) -> tuple[str, int]:
        if isinstance(e, Num):
            return str(e.value), _P_ATOM
        if isinstance(e, Bool):
            return ("是" if e.value else "否"), _P_ATOM
        if isinstance(e, Str):
            return f"“{e.value}”", _P_ATOM
        if isinstance(e, Name):
            return self.typed.bindings[e].text, _P_ATOM
        if isinstance(e, Unary):
            if e.op == "not":
                return f"非{self.sub(e.operand, _P_NOT)}", _P_NOT
            return f"{_ZH_OPS.get(e.op, e.op)}{self.sub(e.operand, _P_UNARY)}", _P_UNARY
        if isinstance(e, Binary):
            p = _BIN_PREC[e.op]
            right_need = p + 1 if e.op in "-/" else p
            return f"{self.sub(e.left, p)} {_ZH_OPS[e.op]} {self.sub(e.right, right_need)}", p
        if isinstance(e, Compare):
            parts = [self.sub(e.operands[0], _P_CMP + 1)]
            for op, operand in zip(e.ops, e.operands[1:]):
                parts.append(f"{_ZH_OPS[op]} {self.sub(operand, _P_CMP + 1)}")
            return " ".join(parts), _P_CMP
        if isinstance(e, BoolOp):
            p = _P_AND if e.op == "and" else _P_OR
            return f" {_ZH_OPS[e.op]} ".join(self.sub(v, p + 1) for v in e.values), p
        if isinstance(e, Cond):
            return (f"若{self.sub(e.test, _P_OR)}则为{self.sub(e.then, _P_OR)}，"
                    f"否则为{self.sub(e.orelse, _P_OR)}"), _P_COND
        if isinstance(e, Call):
            args = [self.sub(a, _P_COND + 1) for a in e.args]
            if e.func in ("floor", "ceil") and top:
                return f"{self.sub(e.args[0], _P_COND)}，{FUNCTIONS[e.func].chinese}", _P_COND
            if e.func in ("min", "max"):
                return f"{'、'.join(args)}{FUNCTIONS[e.func].chinese}", _P_COND
            if e.func == "has":
                return f"{args[0]}包含{args[1]}", _P_UNARY
            if e.func == "dice":
                return f"{args[0]}d{args[1]}", _P_UNARY
            if e.func == "clamp":
                return f"{args[0]}（限制在{args[1]}～{args[2]}）", _P_UNARY
            return f"{FUNCTIONS[e.func].chinese}({', '.join(args)})", _P_ATOM
        raise AssertionError(e)  # pragma: no cover

    def sub(self, e: Expr, need: int) -> str:
        text, prec = self.emit(e)
        return _wrap(text, prec, need)


def to_chinese(typed: TypedFormula) -> str:
    """The formula as readable Chinese for the reference pages."""
    return _Chinese(typed).emit(typed.expr, top=True)[0]


def result_is_fraction(typed: TypedFormula) -> bool:
    return typed.type == FRAC
