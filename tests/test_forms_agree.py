"""Every procedure's four forms agree on random inputs: traced, fast, and prepared with both dice paths.

The prepared closure has two bodies (faces drawn inline from a SeededDice's `random`,
or through `die` for any other source), prepare() may return its common-case variant
(folded for options at their defaults), and the traced form builds its own records;
all of them must return the same outcome, consume the same dice in the same order,
and refuse the same inputs with the same error type (the fast form skips the
input checks, so it is left out where an input is out of bounds).
"""

from __future__ import annotations

import inspect
import random

import pytest

from every_ruleset import RULESETS


class DieOnly:
    """A source with only `die`: it sends prepared resolvers down their general path."""

    def __init__(self, seeded: object) -> None:
        self.seeded = seeded

    def die(self, sides: int) -> int:
        return self.seeded.die(sides)  # type: ignore[attr-defined, no-any-return]


def _random_call(m, info, rng):  # type: ignore[no-untyped-def]
    """Positional entities and combatants, and keyword options, for one random call."""
    args, kwargs = [], {}
    fields = m.Combatant.__dataclass_fields__
    for pid, _name, ptype in info["params"]:
        if ptype == "combatant":
            stats = {f: (rng.choice((True, False)) if isinstance(v.default, bool) else
                         max(0, v.default + rng.randint(-3, 6)))
                     for f, v in fields.items() if rng.random() < 0.4 and isinstance(v.default, int)}
            try:
                args.append(m.Combatant(**stats))
            except m.OutOfBounds:
                args.append(m.Combatant())
        elif ptype == "bool":
            kwargs[pid] = rng.random() < 0.2
        elif ptype == "int":
            small = rng.random() < 0.8  # mostly inside every range, sometimes past it
            kwargs[pid] = rng.choice((0, 0, 0, 1, 2, 3, 5) if small else (5, 10, 30, 60))
        else:
            table = getattr(m, ptype.upper())
            kwargs[pid] = table[rng.choice(sorted(table))]
    return args, kwargs


def _outcome(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the error type itself is compared
        return type(exc)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_forms_agree_on_random_inputs(ruleset, package):  # type: ignore[no-untyped-def]
    _forms_agree(package(ruleset), ruleset, cases=100, seed=20261130)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_forms_agree_on_more_random_inputs(ruleset, package):  # type: ignore[no-untyped-def]
    _forms_agree(package(ruleset), ruleset, cases=1000, seed=20261207)


def _forms_agree(m, ruleset, *, cases, seed):  # type: ignore[no-untyped-def]
    """`cases` random calls of every procedure, each in all four forms, from the stream of `seed`."""
    rng = random.Random(seed)
    closures: set[str] = set()  # which prepared closures ran: the folded common case and the general one
    for proc, info in m.PROCEDURE_INFO.items():
        traced, fast, prepare = (getattr(m, proc), getattr(m, f"{proc}_fast"), getattr(m, f"{proc}_prepare"))
        entity_ids = {pid for pid, _n, t in info["params"] if t not in ("int", "bool", "combatant")}
        for case in range(cases):
            args, kwargs = _random_call(m, info, rng)
            by_id = {k: (v.id if k in entity_ids else v) for k, v in kwargs.items()}
            seed = rng.randrange(1 << 30)
            sources = [m.SeededDice(seed) for _ in range(4)]
            roll = _outcome(prepare, *args, **kwargs)
            if not isinstance(roll, type):
                closures.add(roll.__name__)
            full = _outcome(traced, *args, **by_id, dice=sources[0])
            results = [
                full if isinstance(full, type) else full.outcome(),
                _outcome(fast, *args, **kwargs, dice=sources[1]),
                roll if isinstance(roll, type) else _outcome(roll, sources[2]),
                roll if isinstance(roll, type) else _outcome(roll, DieOnly(sources[3])),
            ]
            where = f"{ruleset}.{proc} case {case}: {args} {kwargs}"
            if results[0] in (m.OutOfBounds, m.NotSpecifiedBySource):  # the fast form checks no input
                del results[1], sources[1]
            assert all(r == results[0] for r in results), f"{where}\n{results}"
            if not isinstance(results[0], type):
                states = [s.rng.getstate() for s in sources]
                assert all(s == states[0] for s in states), f"{where}: the forms consumed different dice"
    # Every kind of prepared closure the package defines ran: the general one, and the folded common
    # case wherever the optimiser found one worth a second closure.
    defined = {"_roll"} | ({"_roll_common"} if "def _roll_common" in inspect.getsource(m.procedures) else set())
    assert closures == defined
