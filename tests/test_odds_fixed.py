"""An `Odds` whose keys leave out the fields that are the same in every outcome (`fixed`, as a
generated odds function builds it: emit/python/many_rolls.py) answers every question exactly as
the same distribution keyed by whole outcomes: the outcomes, probabilities, marginals and
expectations, bit for bit, in the same order."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from rulec.runtime.core import OutOfBounds
from rulec.runtime.odds import Odds, OddsBuilder

FIELDS = ("hit", "net", "damage_type", "melee", "net", "dice", "emptied")  # "net" twice: the first is read


def _pair(seed: int, fixed_at: tuple[int, ...]) -> tuple[Odds, Odds]:
    """The same random distribution twice: keyed by whole outcomes, and with `fixed_at` left out."""
    rng = random.Random(seed)
    pools = [["blunt", "x", ""] if name == "damage_type" else [0, 1, 2, 3, True, False] for name in FIELDS]
    constant = {i: rng.choice(pools[i]) for i in fixed_at}
    whole: dict[tuple[object, ...], float] = {}
    short: dict[tuple[object, ...], float] = {}
    for _ in range(rng.randrange(0, 12)):
        outcome = tuple(constant[i] if i in constant else rng.choice(pools[i]) for i in range(len(FIELDS)))
        p = rng.random() / 8
        whole[outcome] = whole.get(outcome, 0.0) + p
        key = tuple(v for i, v in enumerate(outcome) if i not in constant)
        short[key] = short.get(key, 0.0) + p
    return (Odds(FIELDS, whole, 0.01, "hit", "net"),
            Odds(FIELDS, short, 0.01, "hit", "net", tuple(sorted(constant.items()))))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.sets(st.integers(0, len(FIELDS) - 1)).map(lambda s: tuple(sorted(s))))
def test_a_distribution_with_fixed_fields_answers_as_the_whole_one(seed: int, fixed_at: tuple[int, ...]):
    whole, short = _pair(seed, fixed_at)
    assert list(short.outcomes.items()) == list(whole.outcomes.items())
    assert short.to_dict() == whole.to_dict() and short.total() == whole.total()
    for name in FIELDS:
        assert repr(short.marginal(name)) == repr(whole.marginal(name))
        if name != "damage_type":
            assert repr(short.expected(name)) == repr(whole.expected(name))
        for value in (0, 1, 3, True, False, "x", "blunt"):
            assert repr(short.probability(**{name: value})) == repr(whole.probability(**{name: value}))
    assert repr(short.probability(hit=True, melee=False)) == repr(whole.probability(hit=True, melee=False))
    assert repr(short.hit_probability) == repr(whole.hit_probability)
    assert repr(short.expected_damage) == repr(whole.expected_damage)


def test_a_field_not_in_the_distribution_is_refused_either_way():
    whole, short = _pair(1, (2, 3))
    for odds in (whole, short):
        with pytest.raises(OutOfBounds, match="没有结果字段“nothing”"):
            odds.marginal("nothing")


def test_the_builder_hands_its_fixed_fields_to_the_distribution():
    builder = OddsBuilder(("hit", "kind", "net"), "hit", "net")
    builder.acc[(True, 2)] = 0.25
    builder.acc[(False, 0)] = 0.75
    odds = builder.build(((1, "blunt"),))
    assert odds.outcomes == {(True, "blunt", 2): 0.25, (False, "blunt", 0): 0.75}
    assert odds.marginal("kind") == {"blunt": 1.0} and odds.hit_probability == 0.25 and odds.expected_damage == 0.5


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.sets(st.integers(0, len(FIELDS) - 1)).map(lambda s: tuple(sorted(s))),
       st.lists(st.integers(0, len(FIELDS) - 1), max_size=4))
def test_a_projection_is_the_outcomes_projected(seed: int, fixed_at: tuple[int, ...], at: list[int]):
    """`project` (what a fight reads of an action's outcomes) gives each whole outcome's values at
    `at`, in the order of `outcomes`, with its probability."""
    whole, short = _pair(seed, fixed_at)
    expected = [(tuple(o[i] for i in at), p) for o, p in whole.outcomes.items()]
    assert short.project(at) == expected and whole.project(at) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.integers(-3, 9), st.booleans(), st.sampled_from(["", "x", "blunt"])),
                          st.floats(0.001, 1.0)), max_size=12))
def test_a_marginal_is_ordered_by_type_name_then_value(pairs: list[tuple[object, float]]) -> None:
    """One type of value is sorted by value alone (the fast path); mixed types by type name first."""
    acc: dict[tuple[object, ...], float] = {}
    for n, (value, p) in enumerate(pairs):
        acc[(value, n)] = p
    odds = Odds(("kind", "n"), acc, 0.0, None, None)
    got = odds.marginal("kind")
    by_type = [(str(type(v)), v) for v in got]
    assert by_type == sorted(by_type)
