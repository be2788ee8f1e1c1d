"""The odds form's unswitched variant, folded on the IR before any code exists.

`NAME_odds(...)` enumerates every roll's distribution, nested. A roll may happen only when a
prepared switch is on: dp's called-shot contest is rolled when `_contested` (`called_shot.given and
called_shot.save != 'standard'`) holds and the attack hits. When the switch is off, the general
body still loops once over that roll's certain zero (`_rt_ZERO_ITEMS`) and computes, for every
outcome of the rolls around it, the fields the roll feeds, each of which is then a constant.

The variant assumes every such switch off — a hoisted true/false value whose being false alone
removes a roll from the body, and which the options at their defaults do not turn on — folds the
body for it (fold.py: the roll's local is 0, what reads it is computed), keeps only the steps the
outputs still read, moves the lets that no longer read a rolled value before the loops (computed
once, as the prepared values are), and records the guard. A switch the options' defaults cannot
decide (one that reads a combatant: d20's `_not_helpless`) is assumed off too, so that variant
may serve the rarer case (a helpless defender's grapple and shove), and the common call pays
one test of a prepared value. The odds form runs the variant when its guard holds, the general
body otherwise. Both enumerate the same outcomes in the same order with the same probabilities
(the certain zero's factor is 1.0), so the distribution is the same, bit for bit
(tests/test_odds_unswitched.py).
"""

from __future__ import annotations

from ..ir import PreparedBody, Procedure, Step
from ..ir import expr as ir
from ..record import replace
from ..steps import kind_for
from .fold import Known, fold, fold_steps
from .specialise import holds, live, options_at_defaults, rolls

_OFF, _ON = ir.Const(ir.BOOL, False), ir.Const(ir.BOOL, True)


def unswitched(body: PreparedBody, p: Procedure) -> PreparedBody | None:
    """The body with every prepared switch that skips a roll when false (and is not on by default)
    assumed false, and the guard that says so; None when no switch skips a roll."""
    defaults = options_at_defaults(p).values
    before = rolls(body.steps)
    off = [h for h in body.hoisted if isinstance(h, ir.Hoisted) and h.type == ir.BOOL
           and fold(h.value, Known(defaults)) != _ON and rolls(fold_steps(body.steps, Known({h: _OFF}))) < before]
    if not off:
        return None
    known = Known({h: _OFF for h in off})
    steps = fold_steps(body.steps, known)
    outputs = tuple(fold(o, known) for o in body.outputs)
    guard = tuple(holds(h, _OFF) for h in off)
    return replace(body, steps=_fixed_first(live(steps, outputs)), outputs=outputs, guard=guard)


def _fixed_first(steps: list[Step]) -> tuple[Step, ...]:
    """The lets that read no rolled value and cannot raise moved before every roll (in order)."""
    varying: set[str] = set()
    fixed: list[Step] = []
    rest: list[Step] = []
    for s in steps:
        value = kind_for(s).value_of(s)
        reads = set().union(*(ir.locals_read(e) for e in s.exprs()))
        if value is not None and not s.rolls() and ir.total(value) and not reads & varying:
            fixed.append(s)
        else:
            rest.append(s)
            if s.target:
                varying.add(s.target)
    return (*fixed, *rest)
