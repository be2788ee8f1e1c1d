"""The public helpers of the generated Python packages given what a caller in a chat could pass
(found by the fuzzing of 2026-12-07): each refusal is the package's own error with a message in the
rules' words, never a TypeError, ValueError or AttributeError, and an endless supply stops at its
bound."""

from __future__ import annotations

import importlib
import itertools
from typing import Any

import pytest


def test_odds_accessors(dp: Any, d20: Any) -> None:
    odds = dp.attack_odds(dp.Combatant(), dp.Combatant(), "拳")
    for call in (lambda: odds.marginal("nope"), lambda: odds.marginal([]), lambda: odds.probability(nope=1),
                 lambda: odds.expected("damage_type"), lambda: odds.expected(None)):
        with pytest.raises(dp.OutOfBounds):
            call()
    assert odds.expected("damage") == odds.expected_damage
    fixed = d20.escape_grapple_odds(d20.Combatant(), d20.Combatant())  # no field the same in every outcome
    with pytest.raises(d20.OutOfBounds):
        fixed.marginal("nope")


def test_until_and_its_odds(dp: Any) -> None:
    c = dp.Combatant()
    for call in (lambda: dp.until("attack", "damage", 5, c, c, "拳", bogus=1),
                 lambda: dp.until("attack", "damage", 5),
                 lambda: dp.until("attack", "damage", 5, c, c, "拳", 1, 2)):
        with pytest.raises(dp.OutOfBounds):
            call()
    u = dp.until("attack", "damage", 5, c, c, "拳")
    for n in ("3", None, 1.5):
        with pytest.raises(dp.OutOfBounds):
            u.at_most(n)
    assert u.at_most(3) == sum(u.probabilities[:3])


def test_until_state_with_options_it_does_not_take(tracks: Any) -> None:
    f = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant()})
    with pytest.raises(tracks.OutOfBounds):
        f.until_state("attack", {"attacker": "甲", "defender": "乙"}, "defender", "pain", weapon="fist", bogus=1)


def test_initiative_entries(tracks: Any) -> None:
    for entries in (5, None, "abc"):
        with pytest.raises(tracks.OutOfBounds):
            tracks.initiative_order(entries)
    with pytest.raises(tracks.LimitExceeded):
        tracks.initiative_order((("x", 1, 0) for _ in itertools.count()))


def test_apply_takes_actions_only(dp: Any) -> None:
    f = dp.start_fight({"甲": dp.Combatant(), "乙": dp.Combatant()})
    for junk in (None, "attack", 5, {"procedure": "attack"}):
        with pytest.raises(dp.OutOfBounds):
            f.apply(junk)


JUNK = (None, 1, -5, 10**30, "x", "", (), ("a",), (("attacker",),), (("attacker", 1),), [], {}, object(),
        float("nan"), float("inf"), True, b"x", (("a", "b", "c"),))


@pytest.mark.parametrize("rid", ["dp", "tracks"])
def test_apply_refuses_an_action_changed_after_resolve(rid: str, package: Any) -> None:
    """An action or its result changed with `_replace` is the package's OutOfBounds, whatever
    field holds what (the JS runtime refuses any action its fights did not resolve)."""
    m = package(rid)
    f = m.start_fight({"甲": m.Combatant(), "乙": m.Combatant()})
    weapon = {"dp": {"weapon": "拳"}, "tracks": {"weapon": "fist", "part": "jaw"}}[rid]
    action = f.resolve("attack", {"attacker": "甲", "defender": "乙"}, dice=m.SeededDice(2), **weapon)
    changed = [action._replace(**{k: j}) for k in action._fields for j in JUNK]
    changed += [action._replace(result=action.result._replace(**{k: j})) for k in action.result._fields for j in JUNK]
    for forged in changed:
        try:
            f.apply(forged)  # some changes are still a valid action (an outcome of the right kind)
        except m.RuleError:
            pass
    assert f.apply(action).log == f.act("attack", {"attacker": "甲", "defender": "乙"}, dice=m.SeededDice(2),
                                        **weapon)[1].log


def test_chain_helpers_and_fight_rules(dp: Any) -> None:
    chain_until = importlib.import_module(f"{dp.__name__}._runtime.fight_odds").chain_until
    fight = importlib.import_module(f"{dp.__name__}.fight").Fight
    for gains in (5, None):
        with pytest.raises(dp.OutOfBounds):
            chain_until(gains, 5)
    for row in (5, {float("nan"): 1.0}, {1: "x"}):
        with pytest.raises(dp.OutOfBounds):
            chain_until(lambda total, row=row: row, 5)
    for rules in (None, {"turn": None}):
        with pytest.raises(dp.OutOfBounds):
            fight.start(rules, {"甲": dp.Combatant()})
        with pytest.raises(dp.OutOfBounds):
            fight.from_dict(rules, {})


def test_a_long_unknown_name_is_cut_in_the_message(dp: Any) -> None:
    with pytest.raises(dp.UnknownEntry) as caught:
        dp.attack(dp.Combatant(), dp.Combatant(), "长" * 50_000)
    assert len(str(caught.value)) < 100 and "…" in str(caught.value)
