"""Constant folding of generated statements under assumed values: the common-case variant.

A prepared resolver's closure tests, on every roll, switches that were fixed
when it was prepared: `_k0 and v_total >= _k1` where `_k0` is `not guessed_wrong`,
`... if (_k4 and v_hit) else 0` where `_k4` is `sneak_dice > 0`, `_l16 == 0` for
a plain d20, `if _ds24` for one damage die. `specialise` rewrites such a block for
one assumed set of values (the options at their defaults, a plain d20, one
damage die), so that `NAME_prepare(...)` can return that leaner closure when the
assumptions hold, and the general one otherwise.

The pass works on Python syntax trees (`ast`), never on rule text, and keeps the
meaning of the code exactly for the assumed values:

* names in `known` become their constants; names in `truthy` become `True`
  where only their truth is read (the test of `if`, `x if c else y`, `not`, and
  an `and` operand that is not the last);
* `not`, unary minus, `and`/`or`, comparisons and `+ - *` of constants fold;
  `x + 0`, `0 + x` and `x - 0` become `x` (generated arithmetic only adds
  numbers: the formula checker types its operands int or fraction);
* `x if c else y` and `if c:` with a constant test keep only the branch taken;
* a local assigned a constant once in the block is replaced by the constant
  (and its assignment dropped when the block ends in `return`); statements
  after an unconditional `return` go.
"""

from __future__ import annotations

import ast
import operator
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Value = bool | int | str | None  # what an assumed local may hold

_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not}
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos}


def _zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 0


class _Folder(ast.NodeTransformer):
    def __init__(self, known: Mapping[str, Value], truthy: Iterable[str]) -> None:
        self.known: dict[str, Value] = dict(known)
        self.truthy = frozenset(truthy)
        self.used: set[str] = set()  # the assumed names the folded code relied on

    def test(self, node: ast.expr) -> ast.expr:
        """A position where only the truth of the value is read."""
        if isinstance(node, ast.Name) and node.id in self.truthy and node.id not in self.known:
            self.used.add(node.id)
            return ast.Constant(True)
        out: ast.expr = self.visit(node)
        return out

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.known:
            self.used.add(node.id)
            return ast.Constant(self.known[node.id])
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        node.operand = self.test(node.operand) if isinstance(node.op, ast.Not) else self.visit(node.operand)
        if isinstance(node.operand, ast.Constant) and type(node.op) in _UNARY:
            return ast.Constant(_UNARY[type(node.op)](node.operand.value))
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        left, right = node.left, node.right
        if isinstance(left, ast.Constant) and isinstance(right, ast.Constant) and type(node.op) in _BINARY:
            return ast.Constant(_BINARY[type(node.op)](left.value, right.value))
        if isinstance(node.op, ast.Add) and _zero(left):
            return right
        if isinstance(node.op, (ast.Add, ast.Sub)) and _zero(right):
            return left
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        operands = [node.left, *node.comparators]
        if not all(isinstance(o, ast.Constant) for o in operands) or not all(type(op) in _COMPARE for op in node.ops):
            return node
        values = [o.value for o in operands if isinstance(o, ast.Constant)]
        return ast.Constant(all(_COMPARE[type(op)](a, b) for op, a, b in zip(node.ops, values, values[1:])))

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        stop_on = isinstance(node.op, ast.Or)  # `or` stops at a true operand, `and` at a false one
        kept: list[ast.expr] = []
        for i, value in enumerate(node.values):
            last = i == len(node.values) - 1
            value = self.test(value) if not last and not stop_on else self.visit(value)
            if isinstance(value, ast.Constant) and not last and bool(value.value) != stop_on:
                continue  # `True and x` is x; `False or x` is x
            kept.append(value)
            if isinstance(value, ast.Constant):
                break  # the operands after a deciding constant never run
        if len(kept) == 1:
            return kept[0]
        node.values = kept
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        test = self.test(node.test)
        if isinstance(test, ast.Constant):
            out: ast.expr = self.visit(node.body if test.value else node.orelse)
            return out
        node.test, node.body, node.orelse = test, self.visit(node.body), self.visit(node.orelse)
        return node

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        test = self.test(node.test)
        if isinstance(test, ast.Constant):
            return self.block(node.body if test.value else node.orelse)
        node.test = test
        node.body = self.block(node.body) or [ast.Pass()]
        node.orelse = self.block(node.orelse)
        return node

    def visit_For(self, node: ast.For) -> ast.AST:
        node.iter = self.visit(node.iter)
        node.body = self.block(node.body) or [ast.Pass()]
        node.orelse = self.block(node.orelse)
        return node

    def block(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for statement in statements:
            result = self.visit(statement)
            for s in result if isinstance(result, list) else [result]:
                out.append(s)
                if isinstance(s, ast.Return):
                    return out
        return out


def _stores(tree: ast.AST) -> Counter[str]:
    """How many times each local is bound anywhere in `tree`."""
    counts: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] += 1
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            counts[node.target.id] += 1
    return counts


def _propagate(folder: _Folder, statements: list[ast.stmt]) -> list[ast.stmt]:
    """Fold statement by statement, in order: a local bound once, to a constant, at the top of
    the block is substituted into the statements after it. Its binding is dropped when the block
    ends in a return (no code after the block can read it)."""
    folded = folder.block(statements)
    once = {name for name, n in _stores(ast.Module(body=folded, type_ignores=[])).items() if n == 1}
    returns = bool(folded) and isinstance(folded[-1], ast.Return)
    out: list[ast.stmt] = []
    for statement in folded:
        result = folder.visit(statement)
        for s in result if isinstance(result, list) else [result]:
            if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                    and s.targets[0].id in once and isinstance(s.value, ast.Constant)
                    and isinstance(s.value.value, (bool, int, str, type(None)))):
                folder.known[s.targets[0].id] = s.value.value
                if returns:
                    continue
            out.append(s)
            if isinstance(s, ast.Return):
                return out
    return out


@dataclass(frozen=True)
class Specialised:
    code: str  # the statements, folded, with the indent they came with
    guard: str  # a Python test of the assumptions the folded code relies on; "" when none


def specialise(code: str, known: Mapping[str, Value], truthy: Iterable[str] = ()) -> Specialised:
    """`code` (statements, uniformly indented) rewritten for the assumed values."""
    lines = code.splitlines()
    first = next((line for line in lines if line.strip()), "")
    indent = first[:len(first) - len(first.lstrip())]
    folder = _Folder(known, truthy)
    body = _propagate(folder, ast.parse(textwrap.dedent(code)).body)
    text = ast.unparse(ast.Module(body=body, type_ignores=[])) if body else "pass"
    assumed = [name for name in known if name in folder.used]
    guard = [_holds(name, known[name]) for name in assumed]
    guard += [name for name in truthy if name in folder.used and name not in known]
    return Specialised(textwrap.indent(text, indent), " and ".join(guard))


def _holds(name: str, value: Value) -> str:
    """A Python test that local `name` has the assumed `value`."""
    if type(value) is bool:
        return name if value else f"not {name}"
    if value is None:
        return f"{name} is None"
    return f"{name} == {value!r}"


def fold_value(python: str, known: Mapping[str, Value]) -> object:
    """The constant a Python expression folds to with `known` values, or None when it does not."""
    tree = ast.parse(python, mode="eval")
    result = _Folder(known, ()).visit(tree.body)
    return result.value if isinstance(result, ast.Constant) else None
