"""Results are immutable all the way down, and `to_dict()` is plain JSON (#8)."""

from __future__ import annotations

import json

import pytest


def _results(dp, d20):  # type: ignore[no-untyped-def]
    yield dp.attack(dp.Combatant(strength=5, martial=8, specialty=7), dp.Combatant(basic_defense=3), "long_sword",
                    dice=dp.SeededDice(1))
    yield d20.attack(d20.Combatant(strength=16, proficiency=2), d20.Combatant(armor_class=10), "longsword",
                     dice=d20.FixedDice([20, 5, 6]))


def test_results_rolls_and_trace_steps_cannot_be_changed(dp, d20):  # type: ignore[no-untyped-def]
    for result in _results(dp, d20):
        with pytest.raises(AttributeError):
            result.hit = False
        assert result.rolls and result.trace
        for record in (*result.rolls, *result.trace):
            field = record._fields[0]
            with pytest.raises(AttributeError):
                setattr(record, field, None)


def test_to_dict_is_plain_json(dp, d20):  # type: ignore[no-untyped-def]
    for result in _results(dp, d20):
        data = result.to_dict()
        assert json.loads(json.dumps(data, ensure_ascii=False)) == data
        assert [step["text"] for step in data["trace"]] == [step.text for step in result.trace]
        assert {roll["kind"] for roll in data["rolls"]} <= {"pool", "d20", "damage"}
