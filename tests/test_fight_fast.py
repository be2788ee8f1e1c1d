"""The fight's fast paths give what the plain computation gives: the effective stats built without
the Combatant's checks are valid Combatants equal to checked ones, and what the runtime remembers
(stats without debuffs, debuffs, stats with debuffs) equals what it computes afresh, through a
fight whose defender passes its track's capacity (issue 34)."""

from __future__ import annotations

import sys


def _memos(package):  # type: ignore[no-untyped-def]
    runtime = sys.modules[package.__name__ + "._runtime.fight"]
    return runtime._UNDEBUFFED, runtime._LOWERED, runtime._EFFECTIVE


def test_tr60_remembered_effective_stats_equal_fresh_ones_past_the_capacity(tracks):
    """TR-60, TR-68: a defender hit past its 眩晕 capacity (state, debuffs, recovery on damage): at
    every action its effective stats and what the fight says of them are the same with the memos
    cleared, and each is a Combatant its checked constructor accepts."""
    fight = tracks.start_fight({"甲": tracks.Combatant(strength=6, fighting=5),
                                "乙": tracks.Combatant(dexterity=4, perception=2)})
    dice = tracks.SeededDice(7)
    memos = _memos(tracks)
    states = set()
    for _ in range(40):
        action, fight = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", part="jaw",
                                  dice=dice)
        fight = fight.next_turn().next_turn()
        remembered = [fight.effective(n) for n in ("甲", "乙")], fight.applied_to("乙")
        for memo in memos:
            memo.clear()
        assert ([fight.effective(n) for n in ("甲", "乙")], fight.applied_to("乙")) == remembered
        for stats in remembered[0]:
            assert tracks.Combatant.from_dict(stats.to_dict()) == stats
        states |= set(fight.member("乙").states)
    assert "unconscious" in states  # the run did pass the capacity


def test_the_memos_stay_bounded(tracks):
    """Each memo holds at most MAX_REMEMBERED entries however many distinct combatants it sees."""
    runtime = sys.modules[tracks.__name__ + "._runtime.fight"]
    for i in range(runtime.MAX_REMEMBERED + 50):
        fight = tracks.start_fight({"甲": tracks.Combatant(strength=i % 30), "乙": tracks.Combatant()})
        fight = fight.act("attack", {"attacker": "乙", "defender": "甲"}, weapon="fist", part="jaw",
                          dice=tracks.FixedDice([9] * 30))[1]
        fight.effective("甲")
    assert all(len(memo) <= runtime.MAX_REMEMBERED for memo in _memos(tracks))
