"""Formula checking: a parsed formula + a scope -> a typed IR expression (ir/expr.py), or FormulaError.

Every name resolves through a `Scope` to the IR node it stands for; arithmetic takes whole
numbers, `and`/`or`/`not` take true/false, conditionals need a true/false test and branches of
one type. The language has no fractions: a division is written `floor(a / b)` or `ceil(a / b)`
and is exact integer division. The ruleset's manifest may declare helper functions (grid
geometry, cube-root rounding, ...) that formulas call like the built-in ones.

Problems are collected rather than raised one by one where the formula can go on: every unknown
name of a formula is reported in one run (`FormulaErrors`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NoReturn

from ..diagnostics import did_you_mean
from ..ir.expr import (
    BOOL,
    DICE,
    INT,
    LIST,
    STR,
    Binary,
    BoolOp,
    Call,
    Compare,
    Cond,
    Const,
    Div,
    Expr,
    Helper,
    Lookup,
    Unary,
)
from . import syntax as s
from .syntax import FormulaError
from ..messages import say
from ..record import MutableRecord, Record, field

UNKNOWN = "?"  # the type of an unknown name: checking goes on without further errors about it
TYPE_WORDS = (INT, BOOL, STR, DICE, LIST, "frac", "combatant")  # catalogue: check.type.<type>


def type_word(t: str) -> str:
    return say(f"check.type.{t}") if t in TYPE_WORDS else (say("check.entry") if t.startswith("entry:") else t)


class FormulaErrors(Exception):
    """Several problems found in one formula, each with its column."""

    def __init__(self, errors: list[FormulaError]):
        super().__init__(errors[0].message)
        self.errors = errors


class Binding(Record, frozen=True):
    """What a name means: the IR node it stands for (which carries its type and display text)."""

    expr: Expr

    @property
    def type(self) -> str:
        return self.expr.type


class HelperSpec(Record, frozen=True):
    """A helper function declared by a ruleset's manifest (`helpers:`)."""

    name: str
    module: str
    params: tuple[str, ...]  # types
    result: str
    chinese: str


class IndexSpec(Record, frozen=True):
    """A table declared with `index: <field>`: formulas may write `table[key].field`."""

    table: str
    field: str
    key_type: str
    text: str
    fields: Mapping[str, Binding]  # field name (id or Chinese) -> a binding whose expr reads it from `base`


class FormulaSpec(Record, frozen=True):
    """A formula the ruleset declares once (`formulas:`) and formulas call by id or Chinese name,
    like `ability_mod(attacker.strength)`: checked at its declaration, expanded in place at each
    call (the IR holds the expanded tree, so nothing downstream knows it was a call)."""

    id: str
    name: str
    params: tuple[str, ...]
    tree: s.Expr
    bindings: Mapping[tuple[str, ...], Binding]  # what its body may read besides its parameters
    result: str


class Scope:
    """Names a formula may use. Keys are name paths, e.g. ('力量',) or ('weapon', 'damage')."""

    def __init__(self, bindings: Mapping[tuple[str, ...], Binding] | None = None,
                 helpers: Mapping[str, HelperSpec] | None = None,
                 indexes: Mapping[str, IndexSpec] | None = None,
                 formulas: Mapping[str, FormulaSpec] | None = None):
        self.bindings: dict[tuple[str, ...], Binding] = dict(bindings or {})
        self.helpers: dict[str, HelperSpec] = dict(helpers or {})
        self.indexes: dict[str, IndexSpec] = dict(indexes or {})
        self.formulas: dict[str, FormulaSpec] = dict(formulas or {})

    def child(self) -> Scope:
        """A scope that starts with everything this one has (a procedure's, from the ruleset's)."""
        return Scope(self.bindings, self.helpers, self.indexes, self.formulas)

    def add(self, keys: Iterable[tuple[str, ...]], binding: Binding) -> None:
        for key in keys:
            self.bindings[key] = binding

    def lookup(self, parts: tuple[str, ...]) -> Binding | None:
        return self.bindings.get(parts)

    def suggestions(self) -> list[str]:
        return [".".join(k) for k in self.bindings]


BUILTINS = {"min": "取低", "max": "取高", "floor": "向下取整", "ceil": "向上取整", "abs": "绝对值",
            "clamp": "限制在范围内", "has": "包含", "dice": "骰子"}


class _Checker(MutableRecord):
    scope: Scope
    errors: list[FormulaError] = field(default_factory=list)

    def fail(self, col: int, message: str, hint: str | None = None) -> NoReturn:
        raise FormulaError(col, message, hint)

    def want(self, e: s.Expr, allowed: tuple[str, ...], what: str) -> Expr:
        x = self.check(e)
        if x.type != UNKNOWN and x.type not in allowed:
            self.fail(e.col, say("check.needs-got", what=what, names=say("list.or").join(type_word(a) for a in allowed), type_word=type_word(x.type)))
        return x

    def check(self, e: s.Expr) -> Expr:
        if isinstance(e, s.Num):
            return Const(INT, e.value)
        if isinstance(e, s.Bool):
            return Const(BOOL, e.value)
        if isinstance(e, s.Str):
            return Const(STR, e.value)
        if isinstance(e, s.Name):
            return self.name(e)
        if isinstance(e, s.Index):
            return self.index(e)
        if isinstance(e, s.Unary):
            if e.op == "not":
                return Unary(BOOL, "not", self.want(e.operand, (BOOL,), "'not'"))
            operand = self.want(e.operand, (INT,), f"'{e.op}'")
            return operand if e.op == "+" else Unary(INT, "-", operand)
        if isinstance(e, s.Binary):
            if e.op == "/":
                self.fail(e.col, say("check.division-written-floor-b"))
            return Binary(INT, e.op, self.want(e.left, (INT,), f"'{e.op}'"), self.want(e.right, (INT,), f"'{e.op}'"))
        if isinstance(e, s.Compare):
            operands = [self.check(o) for o in e.operands]
            for op, left, right, node in zip(e.ops, operands, operands[1:], e.operands[1:]):
                if UNKNOWN in (left.type, right.type):
                    continue
                if op in ("==", "!="):
                    if left.type != right.type or left.type not in (INT, BOOL, STR):
                        self.fail(node.col, say("check.cannot-compare-with", type_word=type_word(left.type), type_word2=type_word(right.type)))
                elif left.type != INT or right.type != INT:
                    self.fail(node.col, say("check.compares-numbers", op=op))
            return Compare(BOOL, e.ops, tuple(operands))
        if isinstance(e, s.BoolOp):
            return BoolOp(BOOL, e.op, tuple(self.want(v, (BOOL,), f"'{e.op}'") for v in e.values))
        if isinstance(e, s.Cond):
            test = self.want(e.test, (BOOL,), say("check.condition-after-if"))
            then, orelse = self.check(e.then), self.check(e.orelse)
            if UNKNOWN in (then.type, orelse.type):
                return Cond(orelse.type if then.type == UNKNOWN else then.type, test, then, orelse)
            if then.type != orelse.type:
                self.fail(e.orelse.col, say("check.both-branches-must-have", type_word=type_word(then.type), type_word2=type_word(orelse.type)))
            return Cond(then.type, test, then, orelse)
        if isinstance(e, s.Call):
            return self.call(e)
        self.fail(0, say("check.unsupported-expression"))  # pragma: no cover

    def name(self, e: s.Name) -> Expr:
        b = self.scope.lookup(e.parts)
        if b is None:
            shown = ".".join(e.parts)
            self.errors.append(FormulaError(e.col, say("check.unknown-name", shown=shown),
                                            did_you_mean(shown, self.scope.suggestions())))
            return _Unknown(UNKNOWN)
        return b.expr

    def index(self, e: s.Index) -> Expr:
        spec = self.scope.indexes.get(e.table)
        if spec is None:
            known = sorted(self.scope.indexes)
            self.fail(e.col, say("check.not-table-with-index", table=e.table),
                      did_you_mean(e.table, known) or (say("check.tables-with-index", known=', '.join(known)) if known else
                                                       say("check.declare-index-field-on")))
        key = self.want(e.key, (spec.key_type,), say("check.index", table=e.table))
        base = Lookup(f"entry:{spec.table}", spec.table, spec.field, key, f"{spec.text}[{{key}}]")
        if not e.path:
            self.fail(e.col, say("check.write-which-field-entry", text=spec.text, table=e.table))
        binding = spec.fields.get(e.path[0])
        if binding is None or len(e.path) > 1:
            self.fail(e.col, say("check.not-field", path='.'.join(e.path), table=spec.table),
                      did_you_mean(e.path[0], spec.fields))
        assert binding is not None
        return _rebase(binding.expr, base)

    def call(self, e: s.Call) -> Expr:
        declared = self.scope.formulas.get(e.func)
        if declared is not None:
            if len(e.args) != len(declared.params):
                self.fail(e.col, say("check.takes-argument-got-2", func=e.func, n_params=len(declared.params), n_args=len(e.args)))
            actuals = [self.want(a, (INT,), f"argument {i + 1} of {e.func}()") for i, a in enumerate(e.args)]
            inner = Scope(declared.bindings)
            for param, actual in zip(declared.params, actuals):
                inner.add([(param,)], Binding(actual))
            return _Checker(inner).check(declared.tree)  # checked at its declaration: cannot fail
        helper = self.scope.helpers.get(e.func)
        if helper is not None:
            if len(e.args) != len(helper.params):
                self.fail(e.col, say("check.takes-argument-got-3", func=e.func, n_params=len(helper.params), n_args=len(e.args)))
            args = tuple(self.want(a, (t,), f"argument {i + 1} of {e.func}()")
                         for i, (a, t) in enumerate(zip(e.args, helper.params)))
            return Helper(helper.result, helper.name, helper.module, args, helper.chinese)
        if e.func not in BUILTINS:
            known = sorted([*BUILTINS, *self.scope.helpers, *self.scope.formulas])
            self.fail(e.col, say("check.unknown-function", func=e.func),
                      did_you_mean(e.func, known) or say("check.known-functions", known=', '.join(known)))
        n = len(e.args)
        arity = {"min": (2, None), "max": (2, None), "floor": (1, 1), "ceil": (1, 1), "abs": (1, 1),
                 "clamp": (3, 3), "has": (2, 2), "dice": (2, 2)}[e.func]
        if n < arity[0] or (arity[1] is not None and n > arity[1]):
            want = str(arity[0]) if arity[0] == arity[1] else f"at least {arity[0]}"
            self.fail(e.col, say("check.takes-argument-got", func=e.func, want=want, n=n))
        if e.func in ("floor", "ceil"):
            (arg,) = e.args
            if isinstance(arg, s.Binary) and arg.op == "/":
                left = self.want(arg.left, (INT,), "'/'")
                right = self.want(arg.right, (INT,), "'/'")
                if isinstance(right, Const) and right.value == 0:
                    self.fail(arg.right.col, say("check.division-by-zero"))
                return Div(INT, e.func, left, right)
            return self.want(arg, (INT,), f"{e.func}()")  # a whole number is its own floor
        if e.func == "has":
            values = [self.check(a) for a in e.args]
            if UNKNOWN not in [v.type for v in values] and [v.type for v in values] != [LIST, STR]:
                self.fail(e.col, say("check.has-takes-list-field"))
            return Call(BOOL, "has", tuple(values))
        if e.func == "dice":
            args = tuple(self.want(a, (INT,), "dice()") for a in e.args)
            return Call(DICE, "dice", args)
        args = tuple(self.want(a, (INT,), f"{e.func}()") for a in e.args)
        return Call(INT, e.func, args)


class _Unknown(Expr, frozen=True):
    """Stands in for an unknown name so that checking can go on and report every one."""


def _rebase(expr: Expr, base: Expr) -> Expr:
    """`expr` (an Attr chain over the placeholder of an index binding) read from `base` instead."""
    from ..ir.expr import Attr
    from ..record import replace

    if isinstance(expr, Attr):
        return replace(expr, base=_rebase(expr.base, base))
    return base


def check(text: str | int | bool, scope: Scope, *, want: tuple[str, ...] | None = None) -> Expr:
    """Parse and type-check `text` in `scope`; `want` lists acceptable result types."""
    if isinstance(text, bool):
        text = "True" if text else "False"
    text = str(text)
    try:
        tree = s.parse(text)
    except FormulaError as exc:
        raise FormulaErrors([exc]) from None
    checker = _Checker(scope)
    try:
        expr = checker.check(tree)
    except FormulaError as exc:
        raise FormulaErrors([*checker.errors, exc]) from None
    if checker.errors:
        raise FormulaErrors(checker.errors)
    if want is not None and expr.type not in want and expr.type != UNKNOWN:
        raise FormulaErrors([FormulaError(tree.col, say("check.formula-gives-expected", type_word=type_word(expr.type), names=say("list.or").join(type_word(w) for w in want)))])
    return expr
