"""An independent oracle: a small interpreter of the lowered IR.

It shares nothing with the code generator but the IR itself: it walks a procedure's steps as the
validation pass left them (before any folding, hoisting or specialising), evaluates each typed
formula tree directly, and rolls dice from a plain `die(sides)` function in the order the rules
give (a pool die by die with its added dice chained, d20 faces left to right, damage dice term by
term with a crit's second set after the first). Entries are the IR's own `Entry` values; a
combatant is a mapping of stat ids to values. The tests run every generated form against it.

`odds` enumerates every face sequence of small rolls exactly (pools with a bounded chain of
added dice), for the generated odds functions to be checked against.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from rulec.ir import DiceExpr, Entry, FormulaField, Procedure, Ruleset
from rulec.ir import expr as ir
from rulec.steps import D20, Let, Note, Pool, PoolCount, Require, Roll


class Refused(Exception):
    """The procedure refuses: `code` is an error type's id, or "rule-error" for other rule errors."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class NoEntry:
    """The entry an optional parameter holds when none is given (its fields at their defaults)."""

    def __init__(self, rs: Ruleset, table: str) -> None:
        self.rs, self.table = rs, table


class Oracle:
    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.tables = {t.id: t for t in rs.tables}
        self.by_id = {t.id: {e.id: e for e in t.entries} for t in rs.tables}

    # ---- a procedure ----
    def run(self, p: Procedure, args: dict[str, Any], die: Callable[[int], int]) -> tuple[Any, ...]:
        env: dict[str, Any] = {}
        for prm in p.params:
            value = args.get(prm.id, prm.default)
            if prm.type in self.tables:
                if value is None:
                    value = NoEntry(self.rs, prm.type)
                else:
                    value = self.by_id[prm.type][value]
                    if value.not_specified is not None:
                        raise Refused("not-specified")
            env[prm.id] = value
        self.die = die
        local: dict[str, Any] = {}
        for step in p.steps:
            self._step(step, env, local)
        return tuple(self.eval(o.formula.expr, env, local) for o in p.result)

    def _step(self, step: Any, env: dict[str, Any], local: dict[str, Any]) -> None:
        happens = step.when is None or self.eval(step.when.expr, env, local)
        if isinstance(step, Let):
            local[step.target] = self.eval(step.value.expr, env, local)
        elif isinstance(step, Require):
            if not self.eval(step.condition.expr, env, local):
                raise Refused(step.error.id)
        elif isinstance(step, Note):
            pass
        elif isinstance(step, Pool):
            if not happens:
                local[step.target] = 0
                return
            dice = self.eval(step.dice.expr, env, local)
            if step.all_succeed is not None and self.eval(step.all_succeed.expr, env, local):
                local[step.target] = max(0, dice)
            else:
                local[step.target] = self.pool(dice)
        elif isinstance(step, PoolCount):
            count = 0
            if happens:
                for _ in range(self.eval(step.times.expr, env, local)):
                    dice = self.eval(step.dice.expr, env, local)
                    extras = self.eval(step.extras.expr, env, local)
                    if self.pool(dice) + extras >= self.eval(step.at_least.expr, env, local):
                        count += 1
            local[step.target] = count
        elif isinstance(step, D20):
            if not happens:
                local[step.target] = 0
                return
            layers = self.eval(step.layers, env, local)
            faces = [self.die(20) for _ in range(abs(layers) + 1)]
            local[step.target] = max(faces) if layers >= 0 else min(faces)
        elif isinstance(step, Roll):
            value = self.eval(step.dice.expr, env, local) if happens else None
            if value is None:
                local[step.target] = 0
                return
            terms, flat = value
            crit = step.crit is not None and self.eval(step.crit.expr, env, local)
            total = 0
            for _ in range(2 if crit else 1):
                for count, sides in terms:
                    total += sum(self.die(sides) for _ in range(count))
            local[step.target] = total + flat
        else:  # pragma: no cover - a new step kind needs its meaning here too
            raise AssertionError(f"the oracle does not know {type(step).__name__}")

    def pool(self, dice: int) -> int:
        settings = self.rs.dice.settings
        sides, success_at, add_at = int(settings["sides"]), int(settings["success_at"]), int(settings["add_at"])
        successes, left = 0, dice
        while left > 0:
            left -= 1
            face = self.die(sides)
            successes += face >= success_at
            left += face >= add_at
        return successes

    # ---- formulas ----
    def eval(self, e: ir.Expr, env: dict[str, Any], local: dict[str, Any]) -> Any:
        if isinstance(e, ir.Const):
            return e.value
        if isinstance(e, ir.Param):
            return env[e.name]
        if isinstance(e, ir.Local):
            return local[e.name]
        if isinstance(e, ir.Ruling):
            return e.value
        if isinstance(e, ir.Attr):
            return self.attr(self.eval(e.base, env, local), e.field)
        if isinstance(e, ir.EntryFormula):
            entry = self.eval(e.base, env, local)
            if isinstance(entry, NoEntry):
                raise Refused("rule-error")
            decl = next(f for f in self.tables[entry.table].fields if f.id == e.field)
            field = entry.values[e.field]
            assert isinstance(field, FormulaField)
            args = [self.eval(a, env, local) for a in e.args]
            inner = {"s": args[0], "e": entry}
            inner.update({param: value for (param, _), value in zip(decl.context, args[2:])})
            return self.eval(field.formula.expr, inner, {})
        if isinstance(e, ir.Unary):
            v = self.eval(e.operand, env, local)
            return (not v) if e.op == "not" else -v
        if isinstance(e, ir.Binary):
            a, b = self.eval(e.left, env, local), self.eval(e.right, env, local)
            return a + b if e.op == "+" else a - b if e.op == "-" else a * b
        if isinstance(e, ir.Div):
            a, b = self.eval(e.left, env, local), self.eval(e.right, env, local)
            if b == 0:
                raise Refused("rule-error")
            q = Fraction(a, b)
            return math.floor(q) if e.rounding == "floor" else math.ceil(q)
        if isinstance(e, ir.Compare):
            values = [self.eval(o, env, local) for o in e.operands]
            ops = {"<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
                   ">=": lambda x, y: x >= y, "==": lambda x, y: x == y, "!=": lambda x, y: x != y}
            return all(ops[op](values[i], values[i + 1]) for i, op in enumerate(e.ops))
        if isinstance(e, ir.BoolOp):
            for v in e.values:
                result = self.eval(v, env, local)
                if (e.op == "and") != bool(result):
                    return result
            return result
        if isinstance(e, ir.Cond):
            return self.eval(e.then if self.eval(e.test, env, local) else e.orelse, env, local)
        if isinstance(e, ir.Call):
            return self.call(e.func, [self.eval(a, env, local) for a in e.args])
        if isinstance(e, ir.Helper):
            import importlib

            module = importlib.import_module(f"rulec.runtime.{e.module}")
            return getattr(module, e.name)(*[self.eval(a, env, local) for a in e.args])
        if isinstance(e, ir.Lookup):
            key = self.eval(e.key, env, local)
            found = [x for x in self.tables[e.table].entries if x.values[e.index] == key]
            if not found:
                raise Refused("rule-error")
            return found[0]
        raise AssertionError(f"the oracle does not know {type(e).__name__}")  # pragma: no cover

    def attr(self, base: Any, field: str) -> Any:
        if isinstance(base, dict):  # a combatant
            return base[field]
        if isinstance(base, NoEntry):
            if field == "given":
                return False
            if field in ("id", "name"):
                return "" if field == "id" else "（无）"
            decl = next(f for f in self.tables[base.table].fields if f.id == field)
            if decl.type == "ref":
                return NoEntry(self.rs, decl.table or "")
            if decl.type == "dice":
                return None
            if decl.type == "enum_list":
                return tuple(decl.default or ())
            if decl.type == "enum" and decl.default is None and decl.required:
                return decl.values[0].id
            if decl.type == "int":
                return decl.default if decl.default is not None else 0
            return "" if decl.type == "text" and decl.default is None else decl.default
        assert isinstance(base, Entry)
        if field == "given":
            return True
        if field in ("id", "name"):
            return getattr(base, field)
        decl = next(f for f in self.tables[base.table].fields if f.id == field)
        value = base.values[field]
        if decl.type == "ref":
            return self.by_id[decl.table or ""].get(value) if value is not None else NoEntry(self.rs, decl.table or "")
        if isinstance(value, DiceExpr):
            return (value.terms, value.flat)
        return value

    @staticmethod
    def call(func: str, args: list[Any]) -> Any:
        if func in ("min", "max"):
            return min(args) if func == "min" else max(args)
        if func == "abs":
            return abs(args[0])
        if func == "clamp":
            return max(args[1], min(args[2], args[0]))
        if func == "has":
            return args[1] in args[0]
        if func == "dice":
            if args[0] < 0 or args[1] < 1:
                raise Refused("rule-error")
            return (((args[0], args[1]),) if args[0] else (), 0)
        if func == "dice_count":
            return 0 if args[0] is None else sum(c for c, _ in args[0][0])
        raise AssertionError(func)  # pragma: no cover


def entry_id(value: Any) -> Any:
    """How an outcome field holding an entry compares: by its id."""
    return value.id if isinstance(value, Entry) else "" if isinstance(value, NoEntry) else value


# ---- exact odds by enumerating faces ----

class Faces:
    """A die that replays a prefix of faces and records where a new branch is needed."""

    def __init__(self, prefix: list[int], sides_seen: list[int]) -> None:
        self.prefix, self.i, self.sides_seen = prefix, 0, sides_seen

    def __call__(self, sides: int) -> int:
        if self.i < len(self.prefix):
            face = self.prefix[self.i]
        else:
            raise _Branch(sides)
        self.i += 1
        return face


class _Branch(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class TooBig(Exception):
    """More face sequences than the enumeration's budget."""


def odds(oracle: Oracle, p: Procedure, args: dict[str, Any], max_faces: int = 12, budget: int = 20_000
         ) -> tuple[dict[tuple[Any, ...], Fraction], Fraction]:
    """P(outcome) for every outcome, by walking the tree of face sequences (each face of a d`n` has
    probability 1/n); sequences longer than `max_faces` (long chains of added dice) are left out and
    their mass returned as the second value. Raises TooBig past `budget` sequences."""
    out: dict[tuple[Any, ...], Fraction] = {}
    left_out = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        budget -= 1
        if budget < 0:
            raise TooBig()
        prefix, p_prefix = stack.pop()
        try:
            outcome = tuple(entry_id(v) for v in oracle.run(p, args, Faces(prefix, [])))
        except _Branch as b:
            if len(prefix) >= max_faces:
                left_out += p_prefix
                continue
            for face in range(b.sides, 0, -1):
                stack.append((prefix + [face], p_prefix / b.sides))
            continue
        out[outcome] = out.get(outcome, Fraction(0)) + p_prefix
    return out, left_out


def outcomes(found: dict[tuple[Any, ...], Fraction]) -> Iterator[tuple[tuple[Any, ...], float]]:
    for k, v in found.items():
        yield k, float(v)
