"""The dp rules whose action's cost or aftermath the result decides (FIGHT-RULES DP-F13, DP-F17,
DP-F20): each test names its id and plays the rule through the fight API."""

from __future__ import annotations

import pytest

WIN = [9] * 40  # every die a success
LOSE = [1] * 40


def three(dp, turns=True):
    return dp.start_fight({"甲": dp.Combatant(strength=5, martial=4, specialty=2, dexterity=3, athletics=2),
                           "乙": dp.Combatant(basic_defense=2), "丙": dp.Combatant(strength=3, athletics=3)},
                          turns=turns)


AB = {"attacker": "甲", "defender": "乙"}
AC = {"attacker": "甲", "defender": "丙"}
BA = {"attacker": "乙", "defender": "甲"}


def test_dp_f13_an_overrun_without_a_check_spends_no_standard_action(dp):
    """DP-F13 (DP-60): 「只要未进行闯越判定（敌人未阻挡你），闯越动作就当作没发生，也不会花费你的标准行动」:
    after its standard action (a trip), 甲 still passes the prone 乙 — no check, nothing spent — but
    an overrun 丙 blocks needs the standard action and is refused (ruling refuse_over_turn)."""
    f = three(dp)
    _, f = f.act("trip", AB, dice=dp.FixedDice([9] * 4 + [1] * 20))
    assert f.effective("乙").prone and f.left("甲") == "标准动作0次、移动动作1次、迅捷动作1次"
    o, f = f.act("overrun", AB, dice=dp.FixedDice(WIN))
    assert not o.result.contested and o.result.action_spent == "none" and o.plan is None
    assert f.left("甲") == "标准动作0次、移动动作1次、迅捷动作1次" and not f.member("甲").conditions
    with pytest.raises(dp.RuleError) as refused:
        f.resolve("overrun", AC, dice=dp.FixedDice(WIN))
    assert refused.value.message == ("甲本回合剩余标准动作0次、移动动作1次、迅捷动作1次，"
                                     "不能进行标准动作（标准动作1次）")


def test_dp_f13_a_contested_overrun_spends_the_standard_action(dp):
    """DP-F13: when the blocker blocks, 「你可以选择自动花费那个标准动作来尝试闯越敌人」: the check
    spends the standard action of the turn (and counts as the round's one overrun)."""
    f = three(dp)
    o, f = f.act("overrun", AC, dice=dp.FixedDice(WIN))
    assert o.result.contested and o.result.action_spent == "standard"
    assert "甲用去标准动作1次（本回合剩余标准动作0次、移动动作1次、迅捷动作1次）" in f.log
    assert [c.id for c in f.member("甲").conditions] == ["overran"]


def test_dp_f13_a_failed_overrun_knocked_down_leaves_the_overrunner_prone(dp):
    """DP-F13 (DP-60 4.1): 「如果失败而且反遭撞倒，必须沿着移动路径退后一格而且倒在该格子」: the blocker
    wins the bull-rush contest and knocks 甲 down (倒地); one that only stops him steps him back; a
    failure into an occupied square falls there too."""
    f = three(dp, turns=False)
    o, after = f.act("overrun", AC, blocker_knocks_down=True, dice=dp.FixedDice([1] * 11 + [9] * 20))
    assert o.result.knocked_down and o.result.fell and o.result.stepped_back
    assert after.effective("甲").prone and "overran" in [c.id for c in after.member("甲").conditions]
    o, after = f.act("overrun", AC, dice=dp.FixedDice([1] * 11 + [9] * 20))  # the blocker only stops him
    assert not o.result.knocked_down and o.result.stepped_back and not after.effective("甲").prone
    o, after = f.act("overrun", AC, acrobatics=True, square_behind_occupied=True,
                     dice=dp.FixedDice([1] * 8 + [9] * 20))
    assert o.result.fell and not o.result.knocked_down and after.effective("甲").prone


def test_dp_f13_the_plan_odds_follow_the_cost_the_result_names(dp):
    """DP-F13: in a plan, the overrun of a prone blocker costs nothing and can be repeated within the
    turn budget's standard action; the fight's exact odds follow what each outcome spends."""
    f = three(dp)
    _, f = f.act("trip", AB, dice=dp.FixedDice([9] * 4 + [1] * 20))
    odds = f.until_plan({"cycle": [{"procedure": "overrun", "roles": AC}]}, {"who": "甲", "condition": "overran"},
                        max_actions=3)
    assert odds.tail == pytest.approx(1.0)  # refused each time: no standard action is left
    f2 = three(dp)
    odds = f2.until_plan({"cycle": [{"procedure": "overrun", "roles": AC}]}, {"who": "甲", "condition": "overran"},
                         max_actions=3)
    assert odds.probabilities[0] == pytest.approx(1.0)


@pytest.mark.slow
def test_dp_f13_action_from_is_checked_at_build_time(tmp_path, monkeypatch):
    """DP-F13: `action_from:` must name one of the procedure's text outcomes, beside `action:` — a
    FILE:LINE:COL diagnostic otherwise."""
    import shutil
    from pathlib import Path

    from rulec.build.facade import compile_rules

    monkeypatch.setenv("RULEC_LANG", "en")
    dp_copy = tmp_path / "dp"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules" / "dp", dp_copy)
    special = dp_copy / "procedures" / "special.yaml"
    text = special.read_text(encoding="utf-8")
    assert "    action_from: action_spent\n" in text
    special.write_text(text.replace("    action_from: action_spent\n", "    action_from: action_spnt\n"), encoding="utf-8")
    out = "\n".join(d.format() for d in compile_rules([dp_copy]).diagnostics)
    assert "special.yaml:" in out and ("error[bad-turn]: procedure 'overrun': action_from 'action_spnt' must be one "
                                       "of its text outcome fields") in out and "did you mean 'action_spent'" in out


def archer(dp, turns=True):
    return dp.start_fight({"甲": dp.Combatant(strength=4, dexterity=4, shooting=4, specialty=2, counts_loading=True),
                           "乙": dp.Combatant(basic_defense=1)}, turns=turns)


SHOOT = {"attacker": "甲", "defender": "乙"}
ME = {"character": "甲"}


def test_dp_f17_a_single_shot_weapon_must_be_reloaded_and_ammo_in_hand_lowers_the_reload(dp):
    """DP-F17 (DP-62, ruling single_shot_empties): a bow shot leaves it unloaded (武器未装填) and the
    next shot is refused until a reload (a swift action for a bow); ammunition drawn first
    (「如果弹药已拿在手中，则装填动作降低一级」) makes a light crossbow's reload (move) a swift action,
    used up by that reload."""
    f = archer(dp)
    a, f = f.act("attack", SHOOT, weapon="short_bow", distance=5, dice=dp.FixedDice(WIN))
    assert a.result.emptied and [c.id for c in f.member("甲").conditions] == ["unloaded"]
    f = f.next_turn().next_turn()
    with pytest.raises(dp.RuleError) as refused:
        f.resolve("attack", SHOOT, weapon="short_bow", distance=5, dice=dp.FixedDice(WIN))
    assert refused.value.message == "“短弓”射出后尚未装填，需要先装填弹药"
    r, f = f.act("reload", ME, weapon="short_bow")
    assert r.result.action_spent == "swift" and f.member("甲").conditions == ()
    assert f.left("甲") == "标准动作1次、移动动作1次、迅捷动作0次"
    f.resolve("attack", SHOOT, weapon="short_bow", distance=5, dice=dp.FixedDice(WIN))
    g = archer(dp)
    d, g = g.act("draw", ME, from_container=True, ammunition=True)
    assert d.result.action_spent == "swift" and [c.id for c in g.member("甲").conditions] == ["ammo_in_hand"]
    g = g.next_turn().next_turn()
    r, g = g.act("reload", ME, weapon="light_crossbow")
    assert r.result.action_spent == "swift" and r.result.lowered and g.member("甲").conditions == ()
    r = g.resolve("reload", ME, weapon="light_crossbow")
    assert r.result.action_spent == "move" and not r.result.lowered  # the ammunition was used up
    plain = dp.start_fight({"甲": dp.Combatant(), "乙": dp.Combatant()})  # loading not counted (计装填 off)
    a, plain = plain.act("attack", SHOOT, weapon="short_bow", distance=5, dice=dp.FixedDice(WIN))
    assert not a.result.emptied and plain.member("甲").conditions == ()


def test_dp_f17_a_bolt_action_rifle_needs_its_bolt_opened_with_a_swift_action(dp):
    """DP-F17 (DP-62): 「在为单动式步枪上弹之前，你需要用一个迅捷动作拉开枪栓」: the reload is refused
    until 拉开枪栓 (a swift action, 枪栓已拉开), which that reload uses up; drawing from a backpack
    takes the round; a weapon without a reload refuses one."""
    f = archer(dp)
    with pytest.raises(dp.RuleError) as refused:
        f.resolve("reload", ME, weapon="bolt_rifle")
    assert "拉开枪栓" in refused.value.message
    _, f = f.act("open_bolt", ME, weapon="bolt_rifle")
    assert [c.id for c in f.member("甲").conditions] == ["bolt_open"]
    r, f = f.act("reload", ME, weapon="bolt_rifle")
    assert r.result.action_spent == "move" and f.member("甲").conditions == ()
    assert f.left("甲") == "标准动作1次、移动动作0次、迅捷动作0次"
    with pytest.raises(dp.RuleError):
        f.resolve("reload", ME, weapon="long_sword")
    d = archer(dp).resolve("draw", ME, from_backpack=True)
    assert d.result.action_spent == "full_round" and d.plan.cost == (("move", 1), ("standard", 1))


def duel(dp):
    return dp.start_fight({"甲": dp.Combatant(strength=6, martial=6, specialty=3, size=1),
                           "乙": dp.Combatant(basic_defense=0, strength=1, size=1)}, turns=True)


def test_dp_f20_a_disarmed_weapon_leaves_the_hand_until_picked_up_or_another_is_drawn(dp):
    """DP-F20 (DP-32): 「其武器将立即脱手」: 乙 is 武器脱手 and cannot attack with a manufactured weapon
    (a fist still works) until it picks the weapon up (a move action, ruling pick_up_as_draw) or draws
    another."""
    f = duel(dp)
    a, f = f.act("attack", AB, weapon="long_sword", called_shot="disarm", dice=dp.FixedDice(WIN + LOSE))
    assert a.result.disarmed and a.result.dropped and not a.result.seized
    assert [c.id for c in f.member("乙").conditions] == ["weapon_dropped"]
    f = f.next_turn()
    with pytest.raises(dp.RuleError) as refused:
        f.resolve("attack", BA, weapon="dagger", dice=dp.FixedDice(WIN))
    assert refused.value.message.startswith("武器已被击落")
    f.resolve("attack", BA, weapon="fist", dice=dp.FixedDice(WIN))
    p, f = f.act("pick_up", {"character": "乙"})
    assert p.result.action_spent == "move" and f.member("乙").conditions == ()
    assert "乙的武器脱手结束（拾起脱手的武器）" in f.log
    f.resolve("attack", BA, weapon="dagger", dice=dp.FixedDice(WIN))


def test_dp_f20_a_hand_seizes_the_weapon_which_cannot_be_picked_up(dp):
    """DP-F20 (DP-32): 「若攻击方以手或类似结构的天生武器进行攻击，可夺取武器」: seized, the weapon is not
    on the ground — 乙 cannot pick it up (武器被夺, from 甲) but may draw another; seizing needs a
    natural weapon."""
    f = duel(dp)
    with pytest.raises(dp.RuleError):
        f.resolve("attack", AB, weapon="long_sword", called_shot="disarm", seize=True, dice=dp.FixedDice(WIN))
    a, f = f.act("attack", AB, weapon="fist", called_shot="disarm", seize=True, dice=dp.FixedDice(WIN + LOSE))
    assert a.result.seized and [(c.id, c.source) for c in f.member("乙").conditions] == [
        ("weapon_dropped", ""), ("weapon_seized", "甲")]
    f = f.next_turn()
    with pytest.raises(dp.RuleError) as refused:
        f.resolve("pick_up", {"character": "乙"})
    assert "武器被夺" in refused.value.message
    _, f = f.act("draw", {"character": "乙"})
    assert f.member("乙").conditions == ()


def test_dp_f20_sunder_damage_accumulates_on_the_held_item_past_its_hardness(dp):
    """DP-F20 (DP-32, ruling sunder_hardness_subtracts): each failure is 1 point of damage to the held
    weapon or shield, 「仍然需要突破物品的硬度」: the hardness is taken off each sunder and the rest
    accumulates on the holder's 持握物品所受伤害."""
    f = duel(dp)
    a, f = f.act("attack", AB, weapon="long_sword", called_shot="sunder", item_hardness=3,
                 dice=dp.FixedDice(WIN + LOSE))
    failures = a.result.net - 1  # 乙's contest: STR 1 die, a success
    assert a.result.item_damage == failures - 3 > 0
    first = a.result.item_damage
    assert f.member("乙").counter("item_damage") == first and f.member("乙").counter("damage") == 0
    f = f.next_turn().next_turn()
    a, f = f.act("attack", AB, weapon="long_sword", called_shot="sunder", item_hardness=3,
                 dice=dp.FixedDice(WIN + LOSE))
    assert f.member("乙").counter("item_damage") == first + a.result.item_damage
    f = f.next_turn().next_turn()
    a = f.resolve("attack", AB, weapon="long_sword", called_shot="sunder", item_hardness=40,
                  dice=dp.FixedDice(WIN + LOSE))
    assert a.result.item_damage == 0
