"""Typed expression trees: what every formula of the rules becomes, for every emitter to render.

The formula checker (`formula/check.py`) builds these nodes directly from the parsed text, with
every name resolved: a node says what it refers to (a parameter, a step's local, a ruling, a
field of an entry, a declared helper), never how a target language spells it. The optimiser
folds and rewrites them; the Python and JavaScript emitters and the Chinese renderer of the
reference pages each walk them. Nodes are frozen, hashable, and hold no back-references.

Types are the strings `int`, `bool`, `str`, `dice`, `list`, `combatant` and `entry:<table>`.
Division exists only as `Div` (`floor(a / b)` or `ceil(a / b)`): the language has no fractions.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..record import Record


INT, BOOL, STR, DICE, LIST, COMBATANT = "int", "bool", "str", "dice", "list", "combatant"


def entry_type(table: str) -> str:
    return f"entry:{table}"


def table_of(type_: str) -> str | None:
    return type_[6:] if type_.startswith("entry:") else None


class Expr(Record, frozen=True):
    type: str


class Const(Expr, frozen=True):
    value: int | bool | str | None


class Param(Expr, frozen=True):
    """A procedure parameter, or in an entry formula its subject (`s`) or entry (`e`)."""

    name: str
    text: str  # how the pages name it


class Local(Expr, frozen=True):
    """The value a step of the procedure defined."""

    name: str
    text: str


class Ruling(Expr, frozen=True):
    key: str
    value: int | bool
    text: str


class Attr(Expr, frozen=True):
    """A stat of a combatant, a field of an entry (`weapon.attack_type.speed`), `id`, `name`, `given`."""

    base: Expr
    field: str
    text: str


class EntryFormula(Expr, frozen=True):
    """A formula field of an entry, evaluated for the procedure's subject and context entries."""

    base: Expr
    field: str
    args: tuple[Expr, ...]
    text: str


class Unary(Expr, frozen=True):
    op: str  # "-", "not"
    operand: Expr


class Binary(Expr, frozen=True):
    op: str  # "+", "-", "*"
    left: Expr
    right: Expr


class Div(Expr, frozen=True):
    """Exact integer division, rounded as the formula said: floor(a / b) or ceil(a / b)."""

    rounding: str  # "floor" | "ceil"
    left: Expr
    right: Expr


class Compare(Expr, frozen=True):
    ops: tuple[str, ...]  # "<", "<=", ">", ">=", "==", "!="
    operands: tuple[Expr, ...]


class BoolOp(Expr, frozen=True):
    op: str  # "and", "or"
    values: tuple[Expr, ...]


class Cond(Expr, frozen=True):
    test: Expr
    then: Expr
    orelse: Expr


class Call(Expr, frozen=True):
    """A function of the formula language: min, max, abs, clamp, has, dice."""

    func: str
    args: tuple[Expr, ...]


class Helper(Expr, frozen=True):
    """A helper function the ruleset's manifest declares, implemented in a runtime module."""

    name: str
    module: str
    args: tuple[Expr, ...]
    text: str


class Lookup(Expr, frozen=True):
    """The entry of a table whose index field equals `key` (`sizes[attacker.size]`)."""

    table: str
    index: str
    key: Expr
    text: str


class Hoisted(Expr, frozen=True):
    """A roll-independent part of a per-roll formula, computed once when a resolver is prepared."""

    name: str
    value: Expr


def children(e: Expr) -> tuple[Expr, ...]:
    """The node's direct subexpressions, in order (a hoisted part is a leaf). Looked up by the
    node's class; a class the table does not name (a subclass made elsewhere, such as the formula
    checker's placeholder) by its nearest base that it names."""
    get = _CHILDREN.get(type(e))
    if get is None:
        get = next((_CHILDREN[c] for c in type(e).__mro__ if c in _CHILDREN), _leaf)
    return get(e)


def _leaf(e: Expr) -> tuple[Expr, ...]:
    return ()


# `children` by the node's own class: one dictionary lookup where a chain of `isinstance` calls
# took up to ten (the optimiser, the usage check and the emitters walk every formula of a build)
_CHILDREN = {
    Attr: lambda e: (e.base,), EntryFormula: lambda e: (e.base, *e.args), Unary: lambda e: (e.operand,),
    Binary: lambda e: (e.left, e.right), Div: lambda e: (e.left, e.right), Compare: lambda e: e.operands,
    BoolOp: lambda e: e.values, Cond: lambda e: (e.test, e.then, e.orelse), Call: lambda e: e.args,
    Helper: lambda e: e.args, Lookup: lambda e: (e.key,),
    Const: _leaf, Param: _leaf, Local: _leaf, Ruling: _leaf, Hoisted: _leaf,
}


def walk(e: Expr) -> Iterator[Expr]:
    """Every node of the tree, parents before children (a hoisted part is a leaf)."""
    stack = [e]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def locals_read(e: Expr) -> frozenset[str]:
    return frozenset(n.name for n in walk(e) if isinstance(n, Local))


def params_read(e: Expr) -> frozenset[str]:
    return frozenset(n.name for n in walk(e) if isinstance(n, Param))


def rulings_read(e: Expr) -> frozenset[str]:
    return frozenset(n.key for n in walk(e) if isinstance(n, Ruling))


def total(e: Expr) -> bool:
    """True when evaluating `e` cannot raise: no division but by a positive constant, no entry
    formula, helper or lookup, no dice() of sides other than a positive constant."""
    for n in walk(e):
        if isinstance(n, (EntryFormula, Helper, Lookup)):
            return False
        if isinstance(n, Div) and not (isinstance(n.right, Const) and isinstance(n.right.value, int)
                                       and n.right.value > 0):
            return False
        if isinstance(n, Call) and n.func == "dice" and not (
                isinstance(n.args[1], Const) and isinstance(n.args[1].value, int) and n.args[1].value > 0):
            return False
    return True
