"""The runtime's traced and fast rollers agree on the same seed: the same result, the same faces
consumed. Pools: `roll_pool`, `pool_successes` over any dice source and `pool_successes_random`
drawing a SeededDice's faces inline, for any thresholds (an add-die threshold above, at or below
the success threshold, or none). d20 with advantage layers: `roll_d20`, `d20_natural`,
`d20_natural_random`. Damage dice: `roll_damage`, `damage_roller`, `damage_roller_random`."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.runtime.d20 import d20_natural, d20_natural_random, roll_d20
from rulec.runtime.damage import damage_roller, damage_roller_random, roll_damage
from rulec.runtime.pool import PoolSpec, pool_successes, pool_successes_random, roll_pool
from rulec.runtime.sources import DiceValue, SeededDice


@settings(max_examples=300, deadline=None)
@given(dice=st.integers(0, 15), sides=st.sampled_from([6, 10, 12]), data=st.data(), seed=st.integers(0, 1 << 30))
def test_pool_rollers_agree(dice: int, sides: int, data: st.DataObject, seed: int) -> None:
    success_at = data.draw(st.integers(1, sides))
    add_at = data.draw(st.integers(2, sides + 1))  # sides + 1: no die is ever added
    sources = [SeededDice(seed) for _ in range(3)]
    traced = roll_pool(sources[0], PoolSpec(sides, success_at, add_at), dice, 0)
    assert pool_successes(sources[1].die, dice, sides, success_at, add_at) == traced.successes
    assert pool_successes_random(sources[2].random, dice, sides, success_at, add_at) == traced.successes
    assert len({s.rng.getstate() for s in sources}) == 1  # the same faces consumed


@settings(max_examples=200, deadline=None)
@given(layers=st.integers(-4, 4), seed=st.integers(0, 1 << 30))
def test_d20_rollers_agree(layers: int, seed: int) -> None:
    sources = [SeededDice(seed) for _ in range(3)]
    traced = roll_d20(sources[0], layers)
    assert len(traced.faces) == abs(layers) + 1
    assert traced.natural == (max(traced.faces) if layers >= 0 else min(traced.faces))
    assert d20_natural(sources[1].die, layers) == traced.natural
    assert d20_natural_random(sources[2].random, layers) == traced.natural
    assert len({s.rng.getstate() for s in sources}) == 1


@settings(max_examples=200, deadline=None)
@given(terms=st.lists(st.tuples(st.integers(1, 4), st.sampled_from([4, 6, 8, 10, 12])), min_size=1, max_size=3),
       flat=st.integers(-3, 5), crit=st.booleans(), seed=st.integers(0, 1 << 30))
def test_damage_rollers_agree(terms: list[tuple[int, int]], flat: int, crit: bool, seed: int) -> None:
    value = DiceValue("", tuple(terms), flat)
    sources = [SeededDice(seed) for _ in range(3)]
    traced = roll_damage(sources[0], value.terms, crit)
    assert damage_roller(value)(sources[1].die, crit) == traced.total + flat
    assert damage_roller_random(value)(sources[2].random, crit) == traced.total + flat
    assert len({s.rng.getstate() for s in sources}) == 1
