"""The two sums under the pages' expected attacks (and `Fight.expected_until`), written for speed,
give exactly what their plain definitions give: `expected_attacks` leaves out the steps that
always pass the threshold, bit for bit the same mean; `_plain_gains` checks the merged outcomes a
column at a time, the same gains (in the same order) or the same refusal as checking them one
outcome at a time."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from compiler.runtime.fight_odds import expected_attacks
from compiler.runtime.fight_plan import _ACTS, _COUNTED, _NO_AMOUNT, _NO_TRACK, _NOTHING_SPENT, _plain_gains


def _expected_by_definition(marginal: dict[int, float], threshold: int) -> float | None:
    """E(t) = (1 + sum over every v > 0 of p_v E(t + v)) / (1 - p_0), E(>= threshold) = 0."""
    stay = sum(p for v, p in marginal.items() if v <= 0)
    steps = [(v, p) for v, p in marginal.items() if v > 0 and p > 0]
    if not steps or stay >= 1.0:
        return None
    e = [0.0] * (threshold + max(v for v, _ in steps))
    for t in range(threshold - 1, -1, -1):
        e[t] = (1.0 + sum([p * e[t + v] for v, p in steps])) / (1.0 - stay)
    return e[0]


@settings(max_examples=120, deadline=None)
@given(st.dictionaries(st.integers(-3, 40), st.floats(0.0, 1.0), min_size=1, max_size=14),
       st.integers(1, 80))
def test_expected_attacks_is_the_recurrence_bit_for_bit(weights: dict[int, float], threshold: int) -> None:
    total = sum(weights.values())
    marginal = {v: w / total for v, w in weights.items()} if total > 0 else weights
    assert expected_attacks(marginal, threshold) == _expected_by_definition(marginal, threshold)


def _gains_by_outcome(grouped: list[tuple[tuple[Any, ...], float]], checks: tuple[tuple[int, ...], ...]
                      ) -> dict[int, float] | None:
    """Each outcome in turn, each check in turn (what `_plain_gains` replaced)."""
    gains: dict[int, float] = {}
    for values, q in grouped:
        delta = 0
        for code, when, at, sign, key in checks:
            if when >= 0 and not values[when]:
                continue
            if code == _COUNTED:
                delta += int(values[at]) * sign
            elif code == _NO_AMOUNT:
                if int(values[at]) * sign != 0:
                    return None
            elif code == _NO_TRACK:
                if int(values[at]) * sign != 0 and values[key]:
                    return None
            elif code == _NOTHING_SPENT:
                if int(values[at]) > 0:
                    return None
            else:
                return None
        if delta < 0:
            return None
        gains[delta] = gains.get(delta, 0.0) + q
    return gains


_VALUE = st.one_of(st.integers(-2, 4), st.booleans())


@st.composite
def _outcomes(draw: Any) -> tuple[list[tuple[tuple[Any, ...], float]], tuple[tuple[int, ...], ...]]:
    n = draw(st.integers(1, 6))
    grouped = draw(st.lists(st.tuples(st.tuples(*[_VALUE] * n), st.floats(0.0, 1.0)), max_size=10))
    checks = draw(st.lists(st.tuples(
        st.sampled_from([_COUNTED, _COUNTED, _NO_AMOUNT, _NO_TRACK, _NOTHING_SPENT, _ACTS]),
        st.integers(-1, n - 1), st.integers(0, n - 1), st.sampled_from([1, -1]), st.integers(0, n - 1)),
        max_size=5))
    return grouped, tuple(checks)


@settings(max_examples=120, deadline=None)
@given(_outcomes())
def test_plain_gains_by_column_equal_them_by_outcome(case: Any) -> None:
    grouped, checks = case
    found, expected = _plain_gains(grouped, checks), _gains_by_outcome(grouped, checks)
    assert found == expected
    if expected is not None:
        assert list(found or {}) == list(expected)  # the same order: the chain adds them in it


def test_kept_answers_are_the_ones_computed_and_their_order_is_in_the_key() -> None:
    """`expected_attacks` and a fight spec's `_plain_gains` keep their answers (the pages ask the
    same ones hundreds of times): a kept answer is the one computed afresh, gains in another order
    are another question (the sum adds them in their order), a refused threshold is refused every
    time, and a caller changing the gains it was given changes no later answer."""
    import pytest

    from compiler.runtime.core import OutOfBounds, clear_caches
    from compiler.runtime.fight_plan import _Reads

    marginal, backwards = {0: 0.5, 2: 0.3, 7: 0.2}, {7: 0.2, 2: 0.3, 0: 0.5}
    clear_caches()
    first = expected_attacks(marginal, 40)
    assert first == expected_attacks(dict(marginal), 40) == _expected_by_definition(marginal, 40)
    assert expected_attacks(backwards, 40) == _expected_by_definition(backwards, 40)
    for _ in range(2):
        with pytest.raises(OutOfBounds):
            expected_attacks({v: 1 / 100 for v in range(1, 101)}, 100_000)
    reads = _Reads.__new__(_Reads)
    reads._gains = {}
    grouped = [((2, True), 0.25), ((0, False), 0.5), ((5, True), 0.25)]
    checks = ((_COUNTED, 1, 0, 1, -1),)
    got = reads.gains(checks, grouped)
    assert got == _gains_by_outcome(grouped, checks) and list(got or {}) == [2, 0, 5]
    got[2] = 99.0  # type: ignore[index]
    assert reads.gains(checks, grouped) == _gains_by_outcome(grouped, checks)
    assert reads.gains(((_NO_AMOUNT, 1, 0, 1, -1),), grouped) is None  # other checks: their own answer
