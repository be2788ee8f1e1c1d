"""Formula checking: an expression tree + a scope -> a typed formula, or a FormulaError.

Types are `int`, `frac` (an exact fraction, produced only by `/`), `bool` and
`str`. Arithmetic takes numbers, `and`/`or`/`not` take booleans, conditionals
need a boolean test and branches of one type; a place that wants a whole number
gets a diagnostic when the formula can give a fraction ("wrap it in floor()").
Names resolve through a `Scope`, which also supplies the Python expression and
the Chinese display text for each name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ..diagnostics import did_you_mean
from ..formula.syntax import (
    Binary,
    Bool,
    BoolOp,
    Call,
    Compare,
    Cond,
    Expr,
    FormulaError,
    Name,
    Num,
    Str,
    Unary,
    parse,
)

INT, FRAC, BOOL, STR, DICE, LIST = "int", "frac", "bool", "str", "dice", "list"
NUMERIC = (INT, FRAC)
TYPE_WORDS = {INT: "a whole number", FRAC: "a fraction", BOOL: "true/false", STR: "text",
              DICE: "a dice expression", LIST: "a list of values"}


@dataclass(frozen=True, slots=True)
class Binding:
    """What a name means: its type, the Python expression it compiles to, and its display text."""

    type: str
    python: str
    text: str


class Scope:
    """Names a formula may use. Keys are name paths, e.g. ('力量',) or ('weapon', 'damage')."""

    def __init__(self, bindings: Mapping[tuple[str, ...], Binding] | None = None):
        self.bindings: dict[tuple[str, ...], Binding] = dict(bindings or {})

    def add(self, keys: Iterable[tuple[str, ...]], binding: Binding) -> None:
        for key in keys:
            self.bindings[key] = binding

    def child(self) -> Scope:
        return Scope(self.bindings)

    def lookup(self, parts: tuple[str, ...]) -> Binding | None:
        return self.bindings.get(parts)

    def suggestions(self) -> list[str]:
        return [".".join(k) for k in self.bindings]


@dataclass(frozen=True)
class FunctionSpec:
    name: str
    min_args: int
    max_args: int | None
    result: Callable[[list[str]], str]  # arg types -> result type (raise ValueError on misuse)
    chinese: str


def _numeric_unify(types: list[str]) -> str:
    if any(t not in NUMERIC for t in types):
        raise ValueError("needs numbers")
    return FRAC if FRAC in types else INT


def _to_int(types: list[str]) -> str:
    _numeric_unify(types)
    return INT


def _list_has(types: list[str]) -> str:
    if types != [LIST, STR]:
        raise ValueError("takes a list field and a text value, like has(weapon.properties, 'finesse')")
    return BOOL


def _make_dice(types: list[str]) -> str:
    if types != [INT, INT]:
        raise ValueError("takes two whole numbers: dice(count, sides)")
    return DICE


def _flank(types: list[str]) -> str:
    if any(t != INT for t in types):
        raise ValueError("takes whole numbers")
    return BOOL


def _all_int(types: list[str]) -> str:
    if any(t != INT for t in types):
        raise ValueError("needs whole numbers")
    return INT


FUNCTIONS: dict[str, FunctionSpec] = {
    f.name: f
    for f in (
        FunctionSpec("min", 2, None, _numeric_unify, "取低"),
        FunctionSpec("max", 2, None, _numeric_unify, "取高"),
        FunctionSpec("floor", 1, 1, _to_int, "向下取整"),
        FunctionSpec("ceil", 1, 1, _to_int, "向上取整"),
        FunctionSpec("abs", 1, 1, _numeric_unify, "绝对值"),
        FunctionSpec("clamp", 3, 3, _numeric_unify, "限制在范围内"),
        FunctionSpec("round_cbrt", 2, 2, _all_int, "立方根按步长四舍五入"),
        FunctionSpec("has", 2, 2, _list_has, "包含"),
        FunctionSpec("dice", 2, 2, _make_dice, "骰子"),
        FunctionSpec("flanks_square", 9, 9, _flank, "方格夹击"),
        FunctionSpec("flanks_hex", 10, 10, _flank, "六角格夹击"),
    )
}


@dataclass
class TypedFormula:
    """A checked formula: its tree, result type, and the type and binding of every node."""

    text: str
    expr: Expr
    type: str
    types: dict[Expr, str] = field(default_factory=dict)
    bindings: dict[Expr, Binding] = field(default_factory=dict)

    @property
    def names(self) -> set[tuple[str, ...]]:
        return {n.parts for n in self.bindings if isinstance(n, Name)}


class _Checker:
    def __init__(self, scope: Scope, typed: TypedFormula):
        self.scope = scope
        self.typed = typed

    def check(self, e: Expr) -> str:
        t = self._check(e)
        self.typed.types[e] = t
        return t

    def _want(self, e: Expr, allowed: tuple[str, ...], what: str) -> str:
        t = self.check(e)
        if t not in allowed:
            raise FormulaError(e.col, f"{what} needs {' or '.join(TYPE_WORDS[a] for a in allowed)}, "
                                      f"got {TYPE_WORDS[t]}")
        return t

    def _check(self, e: Expr) -> str:
        if isinstance(e, Num):
            return INT
        if isinstance(e, Bool):
            return BOOL
        if isinstance(e, Str):
            return STR
        if isinstance(e, Name):
            b = self.scope.lookup(e.parts)
            if b is None:
                shown = ".".join(e.parts)
                raise FormulaError(e.col, f"unknown name '{shown}'",
                                   did_you_mean(shown, self.scope.suggestions()))
            self.typed.bindings[e] = b
            return b.type
        if isinstance(e, Unary):
            if e.op == "not":
                return self._want(e.operand, (BOOL,), "'not'")
            return self._want(e.operand, NUMERIC, f"'{e.op}'")
        if isinstance(e, Binary):
            lt = self._want(e.left, NUMERIC, f"'{e.op}'")
            rt = self._want(e.right, NUMERIC, f"'{e.op}'")
            if e.op == "/":
                if isinstance(e.right, Num) and e.right.value == 0:
                    raise FormulaError(e.right.col, "division by zero")
                return FRAC
            return FRAC if FRAC in (lt, rt) else INT
        if isinstance(e, Compare):
            types = [self.check(o) for o in e.operands]
            for op, (left, right), operand in zip(e.ops, zip(types, types[1:]), e.operands[1:]):
                if op in ("==", "!="):
                    if (left in NUMERIC) != (right in NUMERIC) or (left not in NUMERIC and left != right):
                        raise FormulaError(operand.col, f"cannot compare {TYPE_WORDS[left]} with {TYPE_WORDS[right]}")
                elif left not in NUMERIC or right not in NUMERIC:
                    raise FormulaError(operand.col, f"'{op}' compares numbers")
            return BOOL
        if isinstance(e, BoolOp):
            for v in e.values:
                self._want(v, (BOOL,), f"'{e.op}'")
            return BOOL
        if isinstance(e, Cond):
            self._want(e.test, (BOOL,), "the condition after 'if'")
            then_type, else_type = self.check(e.then), self.check(e.orelse)
            if then_type in NUMERIC and else_type in NUMERIC:
                return FRAC if FRAC in (then_type, else_type) else INT
            if then_type != else_type:
                raise FormulaError(e.orelse.col, f"both branches must have one type: "
                                                 f"{TYPE_WORDS[then_type]} vs {TYPE_WORDS[else_type]}")
            return then_type
        if isinstance(e, Call):
            spec = FUNCTIONS.get(e.func)
            if spec is None:
                raise FormulaError(e.col, f"unknown function '{e.func}'",
                                   did_you_mean(e.func, FUNCTIONS) or
                                   f"known functions: {', '.join(sorted(FUNCTIONS))}")
            n = len(e.args)
            if n < spec.min_args or (spec.max_args is not None and n > spec.max_args):
                want = (str(spec.min_args) if spec.max_args == spec.min_args
                        else f"at least {spec.min_args}")
                raise FormulaError(e.col, f"{e.func}() takes {want} argument(s), got {n}")
            types = [self.check(a) for a in e.args]
            try:
                return spec.result(types)
            except ValueError as exc:
                raise FormulaError(e.col, f"{e.func}() {exc}") from None
        raise FormulaError(0, "unsupported expression")  # pragma: no cover


def check(text: str, scope: Scope, *, want: tuple[str, ...] | None = None) -> TypedFormula:
    """Parse and type-check `text` in `scope`; `want` lists acceptable result types."""
    expr = parse(text)
    typed = TypedFormula(text, expr, INT)
    typed.type = _Checker(scope, typed).check(expr)
    if want is not None and typed.type not in want:
        hint = "wrap it in floor() or ceil()" if typed.type == FRAC and INT in want else None
        raise FormulaError(expr.col, f"formula gives {TYPE_WORDS[typed.type]}, "
                                     f"expected {' or '.join(TYPE_WORDS[w] for w in want)}", hint)
    return typed
