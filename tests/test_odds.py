"""Exact odds checked against independent references: brute force, icepool, and seeded simulation."""

from __future__ import annotations

import itertools
from fractions import Fraction

import math

import pytest

from rulec.runtime.damage import roll_damage
from rulec.runtime.pool import PoolSpec, roll_pool
from rulec.runtime.sources import FixedDice, SeededDice, parse_dice
from rulec.runtime.odds import d20_distribution, dice_sum_distribution, pool_distribution

icepool = pytest.importorskip("icepool")


def brute_pool(dice: int, sides: int, success_at: int, add_at: int, depth: int = 30) -> dict[int, Fraction]:
    """Enumerate one die's chain of added dice to `depth`, then every combination of chains."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def die_at(level: int) -> tuple[tuple[int, Fraction], ...]:
        """Enumerate every face of a die at this depth of added dice, recursing into added dice."""
        out: dict[int, Fraction] = {}
        for face in range(1, sides + 1):
            s = int(face >= success_at)
            if face >= add_at and level < depth:
                for more, p in die_at(level + 1):
                    out[s + more] = out.get(s + more, Fraction(0)) + p / sides
            else:
                out[s] = out.get(s, Fraction(0)) + Fraction(1, sides)
        return tuple(sorted(out.items()))

    chain = dict(die_at(0))
    total: dict[int, Fraction] = {}
    for combo in itertools.product(chain.items(), repeat=dice):
        s = sum(c[0] for c in combo)
        p = Fraction(1)
        for c in combo:
            p *= c[1]
        total[s] = total.get(s, Fraction(0)) + p
    return total


@pytest.mark.parametrize("dice", [0, 1, 2, 3])
@pytest.mark.parametrize("spec", [(10, 8, 10), (10, 8, 0), (6, 5, 6), (10, 10, 9)])
def test_pool_equals_brute_force(dice, spec):
    sides, s_at, a_at = spec
    exact = brute_pool(dice, sides, s_at, a_at if a_at else sides + 1)
    ours = pool_distribution(dice, sides, s_at, a_at)
    for m in range(max(len(ours.probs), max(exact) + 1)):
        want = float(exact.get(m, 0))
        got = ours.probs[m] if m < len(ours.probs) else 0.0
        assert got == pytest.approx(want, abs=1e-12)


def _icepool_pool(n: int):
    # 0: fail (7 faces), 1: success (8, 9), 100: a 10 that succeeds and adds a die
    chain = icepool.Die({0: 7, 1: 2, 100: 1}).explode([100], depth=25).map(lambda v: v // 100 + v % 100)
    return n @ chain


# Every size from 1 to 50 in the slow run; a spread of them in the fast one (icepool is the cost).
FAST_SIZES = (1, 2, 3, 4, 5, 6, 8, 10, 13, 20, 30)


@pytest.mark.parametrize("n", [n if n in FAST_SIZES else pytest.param(n, marks=pytest.mark.slow) for n in range(1, 51)])
def test_pool_matches_icepool(n):
    ours = pool_distribution(n, 10, 8, 10)
    ref = _icepool_pool(n)
    ref_probs = {o: float(ref.probability(o)) for o in ref.outcomes()}
    assert sum(ours.probs) + ours.dropped == pytest.approx(1.0, abs=1e-12)
    assert ours.dropped <= 1e-15
    for m in set(ref_probs) | set(range(len(ours.probs))):
        got = ours.probs[m] if m < len(ours.probs) else 0.0
        assert abs(got - ref_probs.get(m, 0.0)) < 1e-12


@pytest.mark.parametrize("layers", [-3, -2, -1, 0, 1, 2, 3])
def test_d20_layers_equal_enumeration(layers):
    n = abs(layers) + 1
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 21), repeat=n):
        kept = max(faces) if layers >= 0 else min(faces)
        counts[kept] = counts.get(kept, 0) + 1
    for face, p in d20_distribution(layers):
        assert p == pytest.approx(counts.get(face, 0) / 20**n, abs=1e-15)


@pytest.mark.parametrize("text, crit", [("2d6", False), ("1d8+1d4", True), ("3d4", False)])
def test_damage_sums_equal_enumeration(text, crit):
    terms, _ = parse_dice(text)
    sides = [s for count, s in terms for _ in range(count * (2 if crit else 1))]
    counts: dict[int, int] = {}
    for faces in itertools.product(*[range(1, s + 1) for s in sides]):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    total = 1
    for s in sides:
        total *= s
    assert dict(dice_sum_distribution(terms, crit)) == pytest.approx({k: v / total for k, v in counts.items()})


def test_fixed_faces_are_consumed_in_the_documented_order():
    spec = PoolSpec(10, 8, 10)
    roll = roll_pool(FixedDice([10, 2, 10, 10, 1, 9]), spec, 2, 0)
    # initial dice first, then added dice in the order they were triggered
    assert roll.faces == (10, 2, 10, 10, 1) and roll.added == (False, False, True, True, True)
    dmg = roll_damage(FixedDice([1, 2, 3, 4]), ((1, 6), (1, 4)), crit=True)
    assert dmg.faces == (1, 2, 3, 4) and dmg.total == 10


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, call", [
    ("dp", lambda m: (m.attack, m.attack_fast, m.attack_odds,
                      (m.Combatant(strength=5, martial=8, specialty=7, attack_extras=5),
                       m.Combatant(basic_defense=8, armor_defense=4, parry_defense=6, basic_extras=2,
                                   armor_extras=1, parry_extras=1), m.get_weapon("fist")),
                      dict(extra_speed=2, extra_armor_piercing=8))),
    ("d20", lambda m: (m.attack, m.attack_fast, m.attack_odds,
                       (m.Combatant(strength=16, proficiency=2), m.Combatant(armor_class=15),
                        m.get_weapon("greatsword")), dict(willing=True))),
    ("tracks", lambda m: (m.firearm, m.firearm_fast, m.firearm_odds,
                          (m.Combatant(dexterity=5, firearms=20), m.Combatant(), m.get_weapon("pistol")),
                          dict(shots=6, distance=110))),
])
def test_seeded_play_agrees_with_odds_within_4_standard_errors(ruleset, call, request):
    module = request.getfixturevalue(ruleset)
    _, fast, odds_fn, args, kwargs = call(module)
    odds = odds_fn(*args, **kwargs)
    fields = odds.fields
    hit_i, dmg_i = fields.index("hit"), fields.index("damage")
    source = SeededDice(20261130)
    n = 200_000
    hits = 0
    damage = 0.0
    damage_sq = 0.0
    for _ in range(n):
        out = fast(*args, **kwargs, dice=source)
        hits += out[hit_i]
        damage += out[dmg_i]
        damage_sq += out[dmg_i] ** 2
    p = odds.hit_probability
    assert abs(hits / n - p) <= 4 * (p * (1 - p) / n) ** 0.5
    mean = odds.expected_damage
    var = sum((float(o[dmg_i]) - mean) ** 2 * q for o, q in odds.outcomes.items())
    assert abs(damage / n - mean) <= 4 * (var / n) ** 0.5 + 1e-12


# ---- no overflow at any size the limits allow (issue: safe by construction) ----

def test_a_thousand_dice_pool_has_a_normalised_distribution():
    odds = pool_distribution.__wrapped__(1000, 10, 8, 10)
    assert abs(sum(odds.probs) + odds.dropped - 1.0) < 1e-9
    assert odds.mean() == pytest.approx(1000 * 0.3 / 0.9, rel=1e-9)


def test_past_a_thousand_dice_the_pool_stays_in_floats_and_agrees_with_the_logarithms():
    """No cliff at 1,001 dice (issue 34): C(n, j) comes from its logarithm there, the convolution
    stays one C-level pass, and the table agrees with the all-logarithm computation."""
    from rulec.runtime import odds as odds_mod

    for n in (1001, 3000):
        got = pool_distribution.__wrapped__(n, 10, 8, 10)
        assert abs(sum(got.probs) + got.dropped - 1.0) < 1e-9
        assert got.mean() == pytest.approx(n * 0.3 / 0.9, rel=1e-9)
    got = pool_distribution.__wrapped__(1001, 10, 8, 10)
    a = [odds_mod._log_binom(1001, j) + odds_mod._xlogy(1001 - j, 0.7) + odds_mod._xlogy(j, 0.2) for j in range(1002)]
    for m in (0, 250, 334, 600, 1111):
        b = [odds_mod._log_binom(1000 + k, k) + k * math.log(0.1) for k in range(m + 1)]
        want = sum(odds_mod._exp(a[j] + b[m - j]) for j in range(min(m, 1001) + 1))
        assert got.probs[m] == pytest.approx(want, rel=1e-9, abs=1e-300)


def test_a_pool_whose_failing_faces_add_dice_is_computed_in_logarithms_without_overflow():
    """d10, success on 8+, a die added on 4+: each die's chain averages one success. At 30 dice the
    terms fit in floats; at 600 the plain computation would overflow (0.3^-600), the logarithms do not."""
    small, large = pool_distribution.__wrapped__(30, 10, 8, 4), pool_distribution.__wrapped__(600, 10, 8, 4)
    assert small.mean() == pytest.approx(30, rel=1e-9)
    assert abs(sum(large.probs) + large.dropped - 1.0) < 1e-8
    assert large.mean() == pytest.approx(600, rel=1e-8)


def test_ten_thousand_repeated_rolls_count_without_overflow():
    from rulec.runtime.odds import count_distribution

    single = pool_distribution.__wrapped__(5, 10, 8, 10)
    counts = count_distribution(single, 1, 10_000)
    p = sum(q for m, q in enumerate(single.probs) if m >= 1)
    assert abs(sum(counts.probs) - 1.0) < 1e-9 and counts.mean() == pytest.approx(10_000 * p, rel=1e-9)
