"""The tracks rules that span actions (FIGHT-RULES TR-F…), carried by the fight."""

from __future__ import annotations

import pytest


def test_tr_f08_any_effect_deals_points_on_any_track_less_resistance(tracks):
    """TR-F08 (TR-60…70): points reach every track, not only from called shots: a generic
    「施加负面点数」 action, reduced by resistance; past three times the capacity the state begins."""
    f = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant(will=1)})
    action, f = f.act("deal_points", {"target": "乙"}, track="pain", points=5, resistance=2)
    assert action.result.dealt == 3 and f.member("乙").track_points("pain") == 3
    for track in ("drowsy", "entangle", "paralysis", "mental_bind"):
        _, f = f.act("deal_points", {"target": "乙"}, track=track, points=1)
        assert f.member("乙").track_points(track) == 1


def test_tr_f10_states_forbid_the_actions_the_seed_says(tracks):
    """TR-F10 (TR-63, TR-66, TR-69): 昏迷 allows no action; 定身 no physical standard, move, swift or
    reflex action; 震慑 no mental one; each refusal says why."""
    f = tracks.start_fight({"甲": tracks.Combatant(strength=6, fighting=5), "乙": tracks.Combatant()})
    stored = f.to_dict()
    stored["members"][1]["states"] = ["immobilized"]
    f = tracks.fight_from_dict(stored)
    with pytest.raises(tracks.RuleError) as refused:
        f.resolve("attack", {"attacker": "乙", "defender": "甲"}, weapon="fist")
    assert refused.value.code == "refused" and refused.value.message.startswith("乙处于定身状态，不能进行物理标准动作")
    # being attacked is not acting: the immobilized defender is still a target
    f.resolve("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", dice=tracks.FixedDice([9] * 30))
    stored["members"][1]["states"] = ["unconscious"]
    f = tracks.fight_from_dict(stored)
    with pytest.raises(tracks.RuleError):
        f.resolve("parry", {"defender": "乙"})
    f.act("deal_points", {"target": "乙"}, track="pain", points=1)  # a rule applied to it, not an action


def test_tr_f06_parry_lasts_until_the_parriers_next_turn(tracks):
    """TR-F06 (TR-30): 「效果持续到下一轮自己回合为止」; a second parry replaces the first."""
    f = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant(weapon_skill=3, parry_defense=1)})
    f = f.next_turn()
    _, f = f.act("parry", {"defender": "乙"})
    _, f = f.act("parry", {"defender": "乙"})
    assert f.effective("乙").parry_defense == 4
    f = f.next_turn()
    assert f.effective("乙").parry_defense == 4
    f = f.next_turn()
    assert f.effective("乙").parry_defense == 1


def test_tr_f02_f15_initiative_orders_the_fight_and_chaos_is_carried(tracks):
    """TR-F02 (TR-02, R50): the ruleset's own initiative rule gives the order the fight is started
    in; TR-F15 (TR-42, R64): the chaos scale is a stat the combatant carries through the fight."""
    names, _trace = tracks.initiative_order([("甲", 3, 2), ("乙", 5, 1)], dice=tracks.FixedDice([1] * 20))
    assert names == ["甲", "乙"]  # no successes: the extras decide
    f = tracks.start_fight({n: tracks.Combatant(intelligence=3, chaos=3) for n in names})
    assert f.actor == names[0]
    with pytest.raises(tracks.RuleError):
        f.resolve("chaos_check", {"character": names[0]}, dice=tracks.FixedDice([9] * 10))


def test_tr_f05_f07_response_timing_and_leaving_the_area(tracks):
    """TR-F05 (TR-35, R51): a longer defense cannot answer a shorter attack, reflexes included;
    TR-F07 (TR-34): leaving the area after the attack began halves damage and points."""
    assert not tracks.can_respond("move", "swift").allowed
    assert tracks.can_respond("reflex", "standard").allowed
    left = tracks.leave_area(damage=10, points=4, timing="during")
    assert (left.damage, left.points) == (5, 2)
