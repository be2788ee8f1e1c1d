"""The odds form's sums of rolls: two damage rolls read only as their sum enumerated as one.

d20's attack rolls the weapon's dice and then the extra dice (额外伤害骰, sneak attack), and what
follows reads them only as `weapon_damage + extra_damage`. Nested, the odds form enumerates every
pair of their totals for every face of the d20: with a greatsword and 20 extra d6, 21 × 201 pairs
on a crit (15 ms in CPython, 46 ms in Node, 2.5 s in SealDice's goja). Joined, it enumerates the
221 totals of one roll of all those dice, whose distribution the runtime computes once (the same
running-window sum every damage roll uses).

A step `first` directly followed by a step `second` is joined when

* the kind of `first` has a joined form of the two (`StepKind.joined_sum`: only two damage rolls
  with the same crit formula, steps/roll.py) and `second` reads nothing `first` defines;
* the writers check every dice count of both in the setup function (`in_setup`, from the code
  writer that knows where its checks go): the joined roll's count is the sum of the two, which no
  limit is about, so `RollKind.work` gives a joined roll none;
* every later read of either local, in the steps after them and in the outputs, is a term of a sum
  that holds each of them once (`first + second`, `second + first`, `bonus + first + second`, in
  any grouping: whole numbers add exactly, in any order, in both languages).

The sums become the joined step's local, `__first_PLUS_second`: no id of the rules (a letter
first) and no temporary of the writers (one underscore, then a letter) is spelled so, and no two
joins of one body are either, since an id has no capital letter (`a` with `b__c` and `a__b` with
`c` would both be `__a__b__c` with a plain separator). A joined roll may join the next roll again
(`__first_PLUS_second_PLUS_third`). The other forms keep both rolls: their faces are drawn, and
their trace lines written, one roll at a time.

Only the odds form reads this (emit/python/many_rolls.py, emit/js/procedures.py). Its outcomes
are the same with the same probabilities up to rounding (the joined distribution adds the same
products in another order), and it charges fewer outcomes to the odds budget.
"""

from __future__ import annotations

from typing import Callable

from ..ir import Step
from ..ir import expr as ir
from ..steps import kind_for
from .fold import map_formulas
from .hoist import map_children


_PLUS = "_PLUS_"  # between the joined rolls' ids in the joined local: ids are lower case


def joined_sums(steps: tuple[Step, ...], outputs: tuple[ir.Expr, ...], in_setup: Callable[[Step], bool]
                ) -> tuple[tuple[Step, ...], tuple[ir.Expr, ...]]:
    """The steps and outputs with every pair of rolls read only as their sum joined (see above)."""
    i = 0
    while i + 1 < len(steps):
        joined = _join(steps, outputs, i, in_setup)
        if joined is None:
            i += 1
        else:
            steps, outputs = joined  # the joined roll is steps[i]: it may join the next one
    return steps, outputs


def _join(steps: tuple[Step, ...], outputs: tuple[ir.Expr, ...], i: int, in_setup: Callable[[Step], bool]
          ) -> tuple[tuple[Step, ...], tuple[ir.Expr, ...]] | None:
    first, second = steps[i], steps[i + 1]
    a, b = first.target, second.target
    if not a or not b or a == b:
        return None
    local = ir.Local(ir.INT, f"__{a.lstrip('_')}{_PLUS}{b}", f"{first.name}+{second.name}")
    joined = kind_for(first).joined_sum(first, second, local.name, local.text)
    if (joined is None or any(a in ir.locals_read(e) for e in second.exprs())
            or not in_setup(first) or not in_setup(second)):
        return None
    later = [e for s in steps[i + 2:] for e in s.exprs()] + list(outputs)
    reads_a = reads_b = 0
    for e in later:
        for n in ir.walk(e):
            if isinstance(n, ir.Local):
                reads_a += n.name == a
                reads_b += n.name == b
    sums = _Sums(a, b, local)
    rest = tuple(map_formulas(s, sums.rewrite) for s in steps[i + 2:])
    outputs = tuple(sums.rewrite(o) for o in outputs)
    if not sums.count or reads_a != sums.count or reads_b != sums.count:  # a read outside such a sum
        return None
    return steps[:i] + (joined,) + rest, outputs


class _Sums:
    """Rewrites each sum that holds `a` and `b` once each among its terms (a chain of `+`: `a + b`,
    `b + a`, `c + a + b`, `a + c + b`, in any grouping) to one with the joined local in place of
    the first of them, and counts them. Whole numbers add exactly in both languages, in any order."""

    def __init__(self, a: str, b: str, local: ir.Local) -> None:
        self.a, self.b, self.local, self.count = a, b, local, 0

    def rewrite(self, e: ir.Expr) -> ir.Expr:
        if not (isinstance(e, ir.Binary) and e.op == "+"):
            return map_children(e, self.rewrite)
        terms = _terms(e)
        names = [t.name if isinstance(t, ir.Local) else None for t in terms]
        if names.count(self.a) != 1 or names.count(self.b) != 1:
            return map_children(e, self.rewrite)  # as it is grouped (a part of it may be such a sum)
        self.count += 1
        at = min(names.index(self.a), names.index(self.b))
        kept = [self.local if i == at else self.rewrite(t) for i, t in enumerate(terms)
                if i == at or names[i] not in (self.a, self.b)]
        out = kept[0]
        for t in kept[1:]:
            out = ir.Binary(e.type, "+", out, t)
        return out


def _terms(e: ir.Expr) -> list[ir.Expr]:
    """The terms of a chain of `+`, left to right."""
    if isinstance(e, ir.Binary) and e.op == "+":
        return _terms(e.left) + _terms(e.right)
    return [e]


__all__ = ["joined_sums"]
