"""Typed IR expressions -> readable Chinese for the reference pages.

`floor((武技 + 专业) / 2)` reads `(武技 + 专业) ÷ 2，向下取整`; names show as the rules name them
(`武器·武器伤害`, `〔夹击加值〕` for a ruling); `dice(额外d6, 6)` reads `（额外d6）d6`.
"""

from __future__ import annotations

from ..ir import expr as ir
from .check import BUILTINS

# Precedence, loosest first, as in Python.
_P_COND, _P_OR, _P_AND, _P_NOT, _P_CMP, _P_ADD, _P_MUL, _P_UNARY, _P_ATOM = range(9)
_BIN_PREC = {"+": _P_ADD, "-": _P_ADD, "*": _P_MUL}
_ZH_OPS = {"+": "+", "-": "−", "*": "×", "<": "<", "<=": "≤", ">": ">", ">=": "≥", "==": "=", "!=": "≠",
           "and": "且", "or": "或"}


def _wrap(text: str, prec: int, need: int) -> str:
    return f"({text})" if prec < need else text


class Chinese:
    def __call__(self, e: ir.Expr) -> str:
        return self.emit(e, top=True)[0]

    def sub(self, e: ir.Expr, need: int) -> str:
        text, prec = self.emit(e)
        return _wrap(text, prec, need)

    def emit(self, e: ir.Expr, top: bool = False) -> tuple[str, int]:
        if isinstance(e, ir.Const):
            if isinstance(e.value, bool):
                return ("是" if e.value else "否"), _P_ATOM
            if isinstance(e.value, str):
                return f"“{e.value}”", _P_ATOM
            return str(e.value), _P_ATOM
        if isinstance(e, (ir.Param, ir.Local, ir.Ruling, ir.Attr, ir.EntryFormula)):
            return e.text, _P_ATOM
        if isinstance(e, ir.Hoisted):
            return self.emit(e.value, top)
        if isinstance(e, ir.Helper):
            return f"{e.text}({', '.join(self.sub(a, _P_COND + 1) for a in e.args)})", _P_ATOM
        if isinstance(e, ir.Lookup):
            return e.text.replace("{key}", self.sub(e.key, _P_COND)), _P_ATOM
        if isinstance(e, ir.Unary):
            if e.op == "not":
                return f"非{self.sub(e.operand, _P_NOT)}", _P_NOT
            return f"−{self.sub(e.operand, _P_UNARY)}", _P_UNARY
        if isinstance(e, ir.Binary):
            p = _BIN_PREC[e.op]
            right_need = p + 1 if e.op == "-" else p
            return f"{self.sub(e.left, p)} {_ZH_OPS[e.op]} {self.sub(e.right, right_need)}", p
        if isinstance(e, ir.Div):
            text = f"{self.sub(e.left, _P_MUL)} ÷ {self.sub(e.right, _P_MUL + 1)}"
            word = BUILTINS[e.rounding]
            return (f"{text}，{word}", _P_COND) if top else (f"({text}，{word})", _P_ATOM)
        if isinstance(e, ir.Compare):
            parts = [self.sub(e.operands[0], _P_CMP + 1)]
            for op, operand in zip(e.ops, e.operands[1:]):
                parts.append(f"{_ZH_OPS[op]} {self.sub(operand, _P_CMP + 1)}")
            return " ".join(parts), _P_CMP
        if isinstance(e, ir.BoolOp):
            p = _P_AND if e.op == "and" else _P_OR
            return f" {_ZH_OPS[e.op]} ".join(self.sub(v, p + 1) for v in e.values), p
        if isinstance(e, ir.Cond):
            return (f"若{self.sub(e.test, _P_OR)}则为{self.sub(e.then, _P_OR)}，"
                    f"否则为{self.sub(e.orelse, _P_OR)}"), _P_COND
        if isinstance(e, ir.Call):
            args = [self.sub(a, _P_COND + 1) for a in e.args]
            if e.func in ("min", "max"):
                return f"{'、'.join(args)}{BUILTINS[e.func]}", _P_COND
            if e.func == "has":
                return f"{args[0]}包含{args[1]}", _P_UNARY
            if e.func == "dice":
                count = args[0] if isinstance(e.args[0], ir.Const) else f"（{args[0]}）"
                return f"{count}d{args[1]}", _P_UNARY
            if e.func == "clamp":
                return f"{args[0]}（限制在{args[1]}～{args[2]}）", _P_UNARY
            if e.func == "dice_count":
                return f"{args[0]}的骰子数", _P_UNARY
            return f"{BUILTINS[e.func]}({', '.join(args)})", _P_ATOM
        raise AssertionError(e)  # pragma: no cover


def to_chinese(e: ir.Expr) -> str:
    return Chinese()(e)
