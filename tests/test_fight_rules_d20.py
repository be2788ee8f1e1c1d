"""The d20 rules that span actions (FIGHT-RULES D20-F…), carried by the fight."""

from __future__ import annotations

import pytest


def fight(d20):
    return d20.start_fight({"甲": d20.Combatant(strength=16, proficiency=2, athletics=True),
                            "乙": d20.Combatant(strength=10, armor_class=12), "丙": d20.Combatant()})


def test_d20_f02_a_hidden_attacker_is_revealed_by_attacking_hit_or_miss(d20):
    """D20-F02 (D20-07, R35): hiding gives advantage; the attack reveals the attacker whether or
    not it hits, until it hides again."""
    f = fight(d20)
    _, f = f.act("hide", {"character": "甲"})
    assert f.effective("甲").hidden
    action, f = f.act("attack", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([1, 1, 1, 1]))
    assert not action.result.hit and action.result.revealed
    assert not f.effective("甲").hidden and "甲进入已暴露" in f.log
    # a combatant whose base stats say hidden is revealed as well
    g = d20.start_fight({"甲": d20.Combatant(hidden=True), "乙": d20.Combatant()})
    _, g = g.act("attack", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([20, 20, 1, 1, 1]))
    assert not g.effective("甲").hidden
    _, g = g.act("hide", {"character": "甲"})
    assert g.effective("甲").hidden


def test_d20_f05_f09_no_second_grapple_or_shove_at_the_same_target_this_turn(d20):
    """D20-F05 (D20-15), D20-F09 (D20-20): after a failure, 「你不能在本回合内继续尝试…同一个目标」;
    another target is fine, and the next turn lifts it."""
    f = fight(d20)
    g, f = f.act("grapple", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([1, 20]))
    assert not g.result.success
    with pytest.raises(d20.RuleError) as refused:
        f.resolve("grapple", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([20, 1]))
    assert refused.value.code == "refused" and "甲处于本回合不能再擒抱该目标状态" in refused.value.message
    f.resolve("grapple", {"attacker": "甲", "target": "丙"}, dice=d20.FixedDice([20, 1]))  # another target
    s, f = f.act("shove", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([1, 20]))
    assert not s.result.success
    with pytest.raises(d20.RuleError):
        f.resolve("shove", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([20, 1]))
    f = f.next_turn()  # 甲's turn ended
    f.resolve("grapple", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([20, 1]))


def test_d20_f05_f11_a_grapple_ends_when_the_grappler_is_incapacitated(d20):
    """D20-F05, D20-F11: 「当你陷入失能时，你对目标的擒抱会自动终止」; D20-F06 escape ends it too."""
    f = fight(d20)
    _, f = f.act("grapple", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([20, 1]))
    assert f.holds("grapple", "甲", "乙")
    data = f.to_dict()
    data["members"][0]["stats"]["incapacitated"] = True
    f2 = d20.fight_from_dict(data)
    _, f2 = f2.act("hide", {"character": "丙"})
    assert not f2.relations and "甲对乙的擒抱结束（失能）" in f2.log
    e, f3 = f.act("escape_grapple", {"escaper": "乙", "grappler": "甲"}, dice=d20.FixedDice([20, 1]))
    assert e.result.success and not f3.relations


def test_d20_f08_a_failed_drag_waits_for_the_draggers_next_turn(d20):
    """D20-F08 (D20-19, R41): after a lost drag A cannot try again 「直到A的下个回合开始」."""
    f = fight(d20)
    d, f = f.act("drag", {"dragger": "甲", "other": "乙", "held": "丙"}, dice=d20.FixedDice([1, 20]))
    assert not d.result.success
    with pytest.raises(d20.RuleError):
        f.resolve("drag", {"dragger": "甲", "other": "乙", "held": "丙"}, dice=d20.FixedDice([20, 1]))
    f = f.next_turn().next_turn().next_turn()  # around to 甲 again
    f.resolve("drag", {"dragger": "甲", "other": "乙", "held": "丙"}, dice=d20.FixedDice([20, 1]))


def test_d20_f01_f13_damage_accumulates_and_only_a_willing_target_may_volunteer(d20):
    """D20-F01 (D20-01/04): damage rolled on a hit adds to the target's 所受伤害 over the fight;
    D20-F13 (D20-06): a charmed target is not willing."""
    f = fight(d20)
    for _ in range(2):
        _, f = f.act("attack", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([20, 6, 6, 6, 6]))
    assert f.member("乙").counter("damage") > 0
    f.resolve("attack", {"attacker": "甲", "target": "乙"}, willing=True, dice=d20.FixedDice([20, 6, 6]))
    _, charmed = f.act("charm", {"charmer": "丙", "creature": "乙"})  # charmed by anyone: not willing
    assert charmed.effective("乙").charmed is True and ("charm", "丙", "乙") in charmed.relations
    with pytest.raises(d20.RuleError):
        charmed.resolve("attack", {"attacker": "甲", "target": "乙"}, willing=True, dice=d20.FixedDice([20, 6, 6]))


def test_d20_f08_a_won_drag_breaks_the_other_grapplers_hold(d20):
    """D20-F08 (D20-19, R41): A and B both grapple C; A's won drag 「中断B对C的擒抱」, A's stays."""
    f = fight(d20)
    data = f.to_dict()
    data["relations"] = [["grapple", "甲", "丙"], ["grapple", "乙", "丙"]]
    f = d20.fight_from_dict(data)
    d, f = f.act("drag", {"dragger": "甲", "other": "乙", "held": "丙"}, dice=d20.FixedDice([20, 1]))
    assert d.result.success and f.relations == (("grapple", "甲", "丙"),)
    assert "乙对丙的擒抱结束" in f.log
