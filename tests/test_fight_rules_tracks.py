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


def test_tr_f04_the_turns_seconds_are_a_budget_and_refusing_what_does_not_fit_is_a_ruling(tracks):
    """TR-F04 (TR-06, R51): a 6 s turn counted in thirds of a second: standard 3 s, move 2 s, free
    1/3 s; off its turn a combatant may take only reflex and free actions, a reflex taking 1 s of its
    next turn; what does not fit is refused (the ruling refuse_over_turn), and the turn resets."""
    f = tracks.start_fight({"甲": tracks.Combatant(strength=4, fighting=3), "乙": tracks.Combatant(weapon_skill=2)},
                           turns=True)
    hit = dict(weapon="fist", dice=tracks.FixedDice([9] * 40))
    _, f = f.act("attack", {"attacker": "甲", "defender": "乙"}, **hit)
    assert "甲用去3秒（本回合剩余3秒）" in f.log
    with pytest.raises(tracks.RuleError) as refused:  # a move action is not one 乙 may take off its turn
        f.resolve("parry", {"defender": "乙"})
    assert refused.value.code == "refused" and "乙在自己的回合外不能进行移动动作" in refused.value.message
    _, f = f.act("dodge", {"defender": "乙"}, incoming=3, dice=tracks.FixedDice([1] * 10))
    assert "乙的下一回合被占用1秒" in f.log
    _, f = f.act("attack", {"attacker": "甲", "defender": "乙"}, **hit)
    with pytest.raises(tracks.RuleError) as refused:
        f.resolve("attack", {"attacker": "甲", "defender": "乙"}, **hit)
    assert refused.value.message == "甲本回合剩余0秒，不能进行标准动作（3秒）"
    f = f.next_turn()  # 乙's turn: 6 s less the reflex's 1 s
    assert f.left("乙") == "5秒" and "乙本回合已被占用1秒" in f.log
    _, f = f.act("parry", {"defender": "乙"})
    _, f = f.act("parry", {"defender": "乙"})
    with pytest.raises(tracks.RuleError) as refused:
        f.resolve("attack", {"attacker": "乙", "defender": "甲"}, **hit)
    assert refused.value.message == "乙本回合剩余1秒，不能进行标准动作（3秒）"
    data = f.to_dict()
    assert data["turns"] is True and data["members"][1]["spent"] == {"time": 15}
    assert tracks.fight_from_dict(data).to_dict() == data
    f = f.next_turn()
    assert f.left("甲") == "6秒"  # its budget resets at the start of its turn
    # without turns=True (and in fights stored before it) the fight counts no budget
    free = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant()})
    for _ in range(3):
        _, free = free.act("attack", {"attacker": "甲", "defender": "乙"}, **hit)
    assert free.to_dict()["turns"] is False


def test_tr_f04_a_stored_budget_out_of_range_is_refused(tracks):
    """TR-F04: the stored budget is checked: a pool the turn does not hold, more than a turn holds,
    a readied kind the turn does not declare."""
    data = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant()}, turns=True).to_dict()
    for damage in ({"spent": {"time": 19}}, {"spent": {"nonsense": 1}}, {"owed": {"time": -1}}, {"ready": "bonus"},
                   {"ready": 5}):
        bad = {**data, "members": [{**data["members"][0], **damage}, data["members"][1]]}
        with pytest.raises(tracks.OutOfBounds):
            tracks.fight_from_dict(bad)
    with pytest.raises(tracks.OutOfBounds):
        tracks.fight_from_dict({**data, "turns": 1})


def test_tr_f01_the_surprised_are_immobilized_for_their_surprise_turn(tracks):
    """TR-F01 (TR-01): a surprised character 「视为进入一突袭轮回合的定身状态」: no physical
    standard action and no basic defense until the end of its own turn."""
    f = tracks.start_fight({"甲": tracks.Combatant(strength=4, fighting=3),
                            "乙": tracks.Combatant(strength=4, fighting=3, basic_defense=3)}, turns=True)
    _, f = f.act("surprise", {"target": "乙"})
    assert f.effective("乙").basic_defense == 0
    a = f.resolve("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", dice=tracks.FixedDice([9] * 30))
    assert any("视为定身" in x for x in a.applied)
    f = f.next_turn()
    with pytest.raises(tracks.RuleError) as refused:
        f.resolve("attack", {"attacker": "乙", "defender": "甲"}, weapon="fist", dice=tracks.FixedDice([9] * 30))
    assert refused.value.message.startswith("乙处于定身状态，不能进行物理标准动作")
    f = f.next_turn()  # the end of 乙's turn ends it
    assert f.effective("乙").basic_defense == 3 and "乙的被突袭结束" in f.log


def test_tr_f03_an_unnoticed_hider_cannot_be_targeted_and_its_target_is_immobilized(tracks):
    """TR-F03 (TR-03): the seeker that failed to notice the hider cannot target it; attacked by it,
    the seeker is treated as 定身 (its basic defense lost); noticing it ends both."""
    f = tracks.start_fight({"甲": tracks.Combatant(strength=4, fighting=3, dexterity=3),
                            "乙": tracks.Combatant(strength=4, fighting=3, basic_defense=3)})
    d, f = f.act("detect", {"seeker": "乙", "hider": "甲"}, dice=tracks.FixedDice([1] * 3 + [9] * 10))
    assert not d.result.noticed
    with pytest.raises(tracks.RuleError) as refused:
        f.resolve("attack", {"attacker": "乙", "defender": "甲"}, weapon="fist", dice=tracks.FixedDice([9] * 30))
    assert refused.value.message.startswith("乙处于未发现躲藏者状态")
    hit = f.resolve("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", dice=tracks.FixedDice([9] * 30))
    assert any("受隐藏方攻击" in x and "视为定身" in x for x in hit.applied)
    assert f.effective("乙").basic_defense == 3  # only against the hider's attacks
    d, f = f.act("detect", {"seeker": "乙", "hider": "甲"}, dice=tracks.FixedDice([9] * 3 + [1] * 10))
    assert d.result.noticed and not f.member("乙").conditions
    f.resolve("attack", {"attacker": "乙", "defender": "甲"}, weapon="fist", dice=tracks.FixedDice([9] * 30))


def test_tr_f11_pain_points_wake_the_unconscious_as_damage_does(tracks):
    """TR-F11 (TR-69, R62): 剧痛 points taken lower the points of the track that caused 昏迷 by as
    much, and it lifts below three times the capacity."""
    f = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant(dexterity=1, perception=1)})
    _, f = f.act("deal_points", {"target": "乙"}, track="dizzy", points=10)
    assert "unconscious" in f.member("乙").states
    _, f = f.act("deal_points", {"target": "乙"}, track="pain", points=2)
    assert f.member("乙").track_points("dizzy") == 8 and "unconscious" not in f.member("乙").states
    assert "乙的昏迷解除" in f.log


def test_tr_f10_blindness_takes_defenses_only_without_another_working_sense(tracks):
    """TR-F10 (TR-62): 目盲/耳聋/精神封闭 remove basic and dodge defense only when the creature has
    no other working sense (the stat 有其他可用感知); 定身 takes them whatever the senses."""
    f = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant(basic_defense=10, eye_hp=1),
                            "丙": tracks.Combatant(basic_defense=10, eye_hp=1, other_sense=True)})
    for name in ("乙", "丙"):
        _, f = f.act("deal_points", {"target": name}, track="dazzle", points=4)
        assert "blind" in f.member(name).states
    # 丙 keeps its defense less the debuff (4 points past a capacity of 1)
    assert f.effective("乙").basic_defense == 0 and f.effective("丙").basic_defense == 7
    assert not any("目盲" in x for x in f.applied_to("丙")) and any("目盲" in x for x in f.applied_to("乙"))
    _, f = f.act("deal_points", {"target": "丙"}, track="paralysis", points=100)
    assert f.effective("丙").basic_defense == 0


def test_tr_f17_tracks_named_only_take_no_points_in_a_fight(tracks):
    """TR-F17 (TR-72, R63): 疲乏 and the other tracks the seed only names have no rule, so the fight
    refuses points for them with the seed's own words, and nothing enters their states."""
    import pytest

    f = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant()})
    with pytest.raises(tracks.RuleError, match="原文只列出名称"):
        f.act("deal_points", {"target": "乙"}, track="fatigue", points=30)
    assert f.member("乙").points == () and f.member("乙").states == ()


def test_tr_f12_pain_gives_fear_points_the_fight_does_not_keep(tracks):
    """TR-F12 (TR-70): each time pain points are gained, fear points equal to the excess over the
    capacity — the accumulation reports them; the seed gives fear no track, so the fight keeps the
    pain points (and its debuff) and records no fear track (declared on the page)."""
    creature = tracks.Combatant(max_focus=5)
    r = tracks.add_points(creature, "pain", current=4, gained=3)
    assert (r.points, r.debuff, r.fear) == (7, 2, 2)
    assert tracks.add_points(creature, "pain", current=7, gained=0).fear == 0  # only when points are gained
    f = tracks.start_fight({"甲": tracks.Combatant(), "乙": creature})
    _, f = f.act("deal_points", {"target": "乙"}, track="pain", points=7)
    assert dict(f.member("乙").points) == {"pain": 7} and "fear" not in tracks.FIGHT_RULES.tracks
