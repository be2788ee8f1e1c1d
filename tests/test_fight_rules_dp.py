"""The dp rules that span actions (FIGHT-RULES DP-F…), as conditions and relations the fight
carries: each test names its id and plays the rule through the fight API."""

from __future__ import annotations

import pytest

WIN = [9] * 40  # every die a success
LOSE = [1] * 40


def two(dp, **b):
    return dp.start_fight({"甲": dp.Combatant(strength=5, martial=4, intelligence=4, specialty=2, basic_defense=3),
                           "乙": dp.Combatant(basic_defense=4, parry_defense=3, **b)})


def act(dp, fight, proc, roles, faces=WIN, **kw):
    return fight.act(proc, roles, dice=dp.FixedDice(faces), **kw)


AB = {"attacker": "甲", "defender": "乙"}
BA = {"attacker": "乙", "defender": "甲"}


def test_dp_f04_feint_makes_the_next_melee_attack_flat_footed_and_is_used_up(dp):
    """DP-F04 (DP-55, R21): a won feint leaves 乙 措手不及 against 甲's next melee attack with parry
    −min(net, 3); that attack uses it up; another attacker gets nothing from it."""
    fight = two(dp)
    feint, fight = act(dp, fight, "feint", AB, faces=[9] * 9 + [1] * 9)
    assert feint.result.success and feint.result.parry_penalty == 3
    assert [c.id for c in fight.member("乙").conditions] == ["feinted"]
    assert "乙进入中了虚招（3），来自甲" in fight.log
    action = fight.resolve("attack", AB, weapon="long_sword", dice=dp.FixedDice(WIN))
    assert any("中了虚招" in x for x in action.applied)
    plain = dp.attack(fight.member("甲").base, fight.member("乙").base, "long_sword", dice=dp.FixedDice(WIN))
    assert action.result.dice == plain.dice + 4 + 3  # no basic defense (4), parry 3 lower
    fight = fight.apply(action)
    assert fight.member("乙").conditions == () and "乙的中了虚招结束（攻击与防御的对抗）" in fight.log


def test_dp_f04_a_feint_lapses_after_the_feinters_next_turn(dp):
    """DP-F04: 「该攻击必须在你的下一回合结束之前进行」."""
    fight = two(dp)
    _, fight = act(dp, fight, "feint", AB, faces=[9] * 9 + [1] * 9)
    fight = fight.next_turn()  # 乙's turn: still there
    assert fight.member("乙").conditions
    fight = fight.next_turn().next_turn()  # 甲's next turn has ended
    assert fight.member("乙").conditions == ()


def test_dp_f05_a_trip_leaves_the_target_prone_until_it_stands(dp):
    """DP-F05 (DP-44, DP-50): a won trip makes 乙 倒地: melee attacks against it get +2 DP; it
    cannot charge; standing up (a move action) clears it."""
    fight = two(dp)
    trip, fight = act(dp, fight, "trip", AB, faces=[9] * 4 + [1] * 20)
    assert trip.result.prone and fight.effective("乙").prone
    action = fight.resolve("attack", AB, weapon="long_sword", dice=dp.FixedDice(WIN))
    assert "倒地2" in action.result.text(gm=True) or "倒地+2" in action.result.text(gm=True) or action.result.dice
    with pytest.raises(dp.RuleError):
        fight.resolve("attack", BA, weapon="fist", charge_meters=4, dice=dp.FixedDice(WIN))
    _, fight = fight.act("stand_up", {"character": "乙"})
    assert not fight.effective("乙").prone and "乙的倒地结束（起身）" in fight.log


def test_dp_f07_f08_total_defense_and_parry_last_until_the_defenders_next_turn(dp):
    """DP-F07 (DP-40), DP-F08 (DP-41/42, R15): the bonus applies to every attack until the
    defender's next turn starts; a second parry replaces the first (one per round)."""
    fight = two(dp, martial=4, specialty=2)
    fight = fight.next_turn()  # 乙's turn
    _, fight = fight.act("parry", {"defender": "乙"})
    assert fight.effective("乙").parry_defense == 3 + 3
    _, fight = fight.act("parry", {"defender": "乙"})
    assert fight.effective("乙").parry_defense == 3 + 3  # replaced, not added
    _, fight = fight.act("total_defense", {"defender": "乙"})
    fight = fight.next_turn()  # 甲's turn: both still hold
    action = fight.resolve("attack", AB, weapon="long_sword", dice=dp.FixedDice(WIN))
    assert any("全力防御" in x and "是" in x for x in action.applied)
    fight = fight.next_turn()  # 乙's next turn: both lapse
    assert fight.effective("乙").parry_defense == 3 and fight.member("乙").conditions == ()


def test_dp_f19_active_cover_lasts_until_the_defenders_next_turn(dp):
    """DP-F19 (DP-43): the cover value (5 − (size − cover size)) is kept as 掩蔽防御 until the
    defender's next turn starts — the seed gives no duration, so the reading is the ruling
    主动掩蔽保持到下一回合 (the way total defense and parry last); a second cover replaces the first;
    with the turn budget it is a move action, so moving with it needs a standard action as a move."""
    assert dp.RULINGS["active_cover_lasts_turn"] is True
    fight = dp.start_fight({"甲": dp.Combatant(), "乙": dp.Combatant(size=3)}, turns=True).next_turn()
    a, fight = fight.act("active_cover", {"defender": "乙"}, cover_size=2)
    assert a.result.cover == 4 and a.result.kept and fight.effective("乙").cover_defense == 4
    _, fight = fight.act("active_cover", {"defender": "乙"}, cover_size=3)  # the move action paid with the standard
    assert fight.effective("乙").cover_defense == 5  # replaced, not added
    with pytest.raises(dp.RuleError, match="移动动作"):  # nothing left this turn to move with it
        fight.resolve("active_cover", {"defender": "乙"}, cover_size=3)
    fight = fight.next_turn()  # 甲's turn: still behind cover
    shot = fight.resolve("attack", AB, weapon="pistol", distance=5, dice=dp.FixedDice(WIN))
    bare = dp.attack(dp.Combatant(), dp.Combatant(size=3), "pistol", distance=5, dice=dp.FixedDice(WIN))
    assert shot.result.dice == bare.dice - 5  # the cover takes 5 DP off the attack
    fight = fight.next_turn()  # 乙's next turn: it lapses
    assert fight.effective("乙").cover_defense == 0 and fight.member("乙").conditions == ()


def test_dp_f09_aim_accumulates_and_is_lost_on_another_action_or_used_by_the_shot(dp):
    """DP-F09 (DP-61, R18): each full round of aiming adds a round (the attack caps the bonus at
    +3); the ranged attack uses it; another standard or move action loses it."""
    fight = two(dp)
    for _ in range(2):
        _, fight = fight.act("aim", {"character": "甲"})
    aim = next(c for c in fight.member("甲").conditions if c.id == "aiming")
    assert aim.value == 2
    action = fight.resolve("attack", AB, weapon="short_bow", distance=10, dice=dp.FixedDice(WIN))
    assert any("瞄准轮数为2" in x for x in action.applied)
    assert "瞄准+2" in action.result.text(gm=True) or "瞄准2" in action.result.text(gm=True)
    assert fight.apply(action).member("甲").conditions == ()
    _, other = fight.act("stand_up", {"character": "甲"})
    assert other.member("甲").conditions == ()


def test_dp_f10_f11_grapple_loser_penalty_pin_escape_twice_and_release(dp):
    """DP-F10 (DP-52), DP-F11 (DP-53): the loser takes the winner's net on attacks and parries for
    as long as the grapple lasts; a pin makes it 定身 (no basic defense) and lets the pinner attack
    without a contest; a pinned creature needs two escapes; the initiator may release."""
    fight = two(dp)
    g, fight = act(dp, fight, "grapple", AB, faces=[9] * 20 + [1] * 20)
    assert g.result.success and fight.holds("grapple", "甲", "乙")
    assert fight.effective("乙").grapple_loss == g.result.loser_penalty > 0
    _, fight = act(dp, fight, "pin", AB, faces=[9] * 11 + [1] * 20)
    assert fight.effective("乙").flat_footed is False  # 定身 applies when attacked, not in general
    ga = fight.resolve("grapple_attack", AB, weapon="fist", dice=dp.FixedDice(WIN))
    assert any("压制中" in x for x in ga.applied)
    e1, fight = act(dp, fight, "escape_grapple", AB, faces=[9] * 3 + [1] * 30)
    assert e1.result.unpins and fight.holds("grapple", "甲", "乙")
    assert {c.id for c in fight.member("乙").conditions} == {"grappled"}
    e2, fight = act(dp, fight, "escape_grapple", AB, faces=[9] * 3 + [1] * 30)
    assert e2.result.frees and not fight.relations and fight.member("乙").conditions == ()
    _, fight = act(dp, fight, "grapple", AB, faces=[9] * 20 + [1] * 20)
    _, fight = fight.act("release_grapple", AB)
    assert not fight.relations and fight.effective("乙").grapple_loss == 0


def test_dp_f10_a_grapple_ends_when_the_holder_becomes_helpless(dp):
    """DP-F10: 「…当其前提条件不再满足时立即结束」: a helpless holder holds nothing."""
    fight = dp.start_fight({"甲": dp.Combatant(strength=5, martial=4), "乙": dp.Combatant(), "丙": dp.Combatant()})
    _, fight = act(dp, fight, "grapple", AB, faces=[9] * 20 + [1] * 20)
    assert fight.relations
    stored = fight.to_dict()
    stored["members"][0]["stats"]["helpless"] = True
    fight = dp.fight_from_dict(stored)
    _, fight = fight.act("stand_up", {"character": "丙"})  # any action settles the fight
    assert not fight.relations and "甲对乙的擒抱结束（无助）" in fight.log


def test_conditions_round_trip_through_to_dict_and_are_checked(dp):
    fight = two(dp)
    _, fight = act(dp, fight, "feint", AB, faces=[9] * 9 + [1] * 9)
    again = dp.fight_from_dict(fight.to_dict())
    assert again.member("乙").conditions == fight.member("乙").conditions
    bad = fight.to_dict()
    bad["members"][1]["conditions"] = [["feinted", 3, "丁", -1]]
    with pytest.raises(dp.OutOfBounds):
        dp.fight_from_dict(bad)
    bad["members"][1]["conditions"] = [["nonsense", 3, "", -1]]
    with pytest.raises(dp.OutOfBounds):
        dp.fight_from_dict(bad)


def test_dp_f02_f16_charge_lowers_own_defense_and_coup_de_grace_needs_a_helpless_target_now(dp):
    """DP-F02 (DP-31, R11): the charge's bonus lowers the charger's basic defense (not below 0)
    until its next turn; DP-F16 (DP-33): a coup de grace needs the target helpless as the fight
    knows it now."""
    fight = two(dp)
    _, fight = act(dp, fight, "attack", AB, weapon="long_sword", charge_meters=3)
    assert fight.effective("甲").basic_defense < 3
    with pytest.raises(dp.RuleError):
        fight.resolve("attack", AB, weapon="long_sword", coup_de_grace=True, dice=dp.FixedDice(WIN))
    stored = fight.to_dict()
    stored["members"][1]["stats"]["helpless"] = True
    dp.fight_from_dict(stored).resolve("attack", AB, weapon="long_sword", coup_de_grace=True, dice=dp.FixedDice(WIN))


def test_dp_f03_called_shot_points_accumulate_per_kind(dp):
    """DP-F03 (DP-32): each called shot adds its points to the target's track of that kind."""
    fight = dp.start_fight({"甲": dp.Combatant(strength=8, martial=8, specialty=6), "乙": dp.Combatant()})
    for _ in range(2):
        _, fight = act(dp, fight, "attack", AB, weapon="long_sword", called_shot="head")
    points = dict(fight.member("乙").points)
    assert set(points) == {"stun"} and points["stun"] >= 2


def test_dp_f06_a_tripped_flier_loses_speed_through_its_next_turn(dp):
    """DP-F06 (DP-50): each net point is −1 flight speed 「在下一轮内」 (shown on 移动速度)."""
    fight = two(dp)
    trip, fight = act(dp, fight, "trip", AB, faces=[9] * 4 + [1] * 20, flying=True)
    assert trip.result.flight_speed_loss > 0 and not fight.effective("乙").prone
    assert fight.effective("乙").move_speed == 10 - trip.result.flight_speed_loss
    fight = fight.next_turn().next_turn()  # 乙's turn has ended
    assert fight.effective("乙").move_speed == 10


def test_dp_f18_a_returned_bull_rush_is_a_reflex_answer_within_the_action(dp):
    """DP-F18 (DP-51): the defender who stopped a bull rush may rush back at once; the original
    rusher, now resisting, takes −2 DP (the `returned` option)."""
    fight = two(dp)
    rush, fight = act(dp, fight, "bull_rush", AB, faces=LOSE)
    assert rush.result.may_return
    back = fight.resolve("bull_rush", BA, returned=True, dice=dp.FixedDice(WIN))
    assert "抵挡DP" in back.result.text(gm=True)


def test_dp_f21_a_turn_holds_one_standard_one_move_and_a_full_round_is_both(dp):
    """DP-F21 (DP-31, DP-61): one standard, one move and one swift action a turn; a full-round action
    is a move and a standard action (「整轮动作（移动动作+标准动作）」); a move may be taken with the
    standard action (「利用标准动作移动」); what does not fit is refused (ruling refuse_over_turn)."""
    f = dp.start_fight({"甲": dp.Combatant(), "乙": dp.Combatant()}, turns=True)
    _, f = f.act("stand_up", {"character": "甲"})
    with pytest.raises(dp.RuleError) as refused:
        f.resolve("aim", {"character": "甲"})
    assert refused.value.message == ("甲本回合剩余标准动作1次、移动动作0次、迅捷动作1次，"
                                     "不能进行整轮动作（标准动作1次、移动动作1次）")
    _, f = f.act("stand_up", {"character": "甲"})  # the second move is paid with the standard action
    assert "甲用去标准动作1次（本回合剩余标准动作0次、移动动作0次、迅捷动作1次）" in f.log
    _, f = f.act("release_grapple", {"attacker": "甲", "defender": "乙"})  # a free action still fits
    f = f.next_turn().next_turn()
    _, f = f.act("aim", {"character": "甲"})
    assert f.left("甲") == "标准动作0次、移动动作0次、迅捷动作1次"


def test_dp_f14_a_readied_action_is_triggered_off_turn_and_skips_next_rounds_action(dp):
    """DP-F14 (DP-63): readying costs a standard action; the readied move is taken off its turn, and
    「你宣言的动作…在下一轮你的对应动作将被跳过」; a readied action not triggered lapses."""
    f = dp.start_fight({"甲": dp.Combatant(), "乙": dp.Combatant()}, turns=True)
    f = f.ready("甲", "move")
    assert "甲准备一个移动动作，用去标准动作1次（本回合剩余标准动作0次、移动动作1次、迅捷动作1次）" in f.log
    f = f.next_turn()
    _, f = f.act("stand_up", {"character": "甲"})  # off its turn: only because it was readied
    assert "甲触发准备好的移动动作" in f.log and "甲的下一回合被占用移动动作1次" in f.log
    with pytest.raises(dp.RuleError):
        f.resolve("stand_up", {"character": "甲"})
    f = f.next_turn()
    assert f.left("甲") == "标准动作1次、移动动作0次、迅捷动作1次"
    f = f.ready("甲", "move").next_turn().next_turn()
    assert "甲准备的移动动作未被触发，失效" in f.log and not f.member("甲").ready
    with pytest.raises(dp.RuleError):
        f.ready("乙", "move")  # not 乙's turn


def test_dp_f13_overrun_is_tried_once_per_round(dp):
    """DP-F13 (DP-60): 「每轮你只能尝试闯越一次」: after an overrun check, no other until the overrunner's
    next turn; a prone blocker is passed with no check, which does not count."""
    f = two(dp)
    _, prone = act(dp, f, "trip", AB)
    o, prone = act(dp, prone, "overrun", AB)
    assert not o.result.contested and not prone.member("甲").conditions
    o, f = act(dp, f, "overrun", AB)
    assert o.result.contested
    with pytest.raises(dp.RuleError) as refused:
        act(dp, f, "overrun", AB)
    assert refused.value.message.startswith("甲处于本轮已闯越状态")
    f = f.next_turn().next_turn()
    act(dp, f, "overrun", AB)


def test_dp_f15_willpower_is_a_pool_spent_across_the_fight(dp):
    """DP-F15 (DP-64, R19): each use spends 1 point of the 意志力 pool for the rest of the fight;
    an empty pool refuses another; +10 m lasts the round; a free action, so it fits any turn."""
    f = dp.start_fight({"甲": dp.Combatant(willpower=2, move_speed=10), "乙": dp.Combatant()}, turns=True)
    a, f = f.act("willpower_spend", {"character": "甲"}, use="move")
    assert a.result.bonus == 10 and f.effective("甲").move_speed == 20 and f.effective("甲").willpower == 1
    f = f.next_turn()
    _, f = f.act("willpower_spend", {"character": "甲"}, use="defense")  # off its turn: a free action
    assert f.effective("甲").willpower == 0
    f = f.next_turn()
    assert f.effective("甲").move_speed == 10 and f.effective("甲").willpower == 0
    with pytest.raises(dp.RuleError):
        f.resolve("willpower_spend", {"character": "甲"}, use="check")
    assert dp.fight_from_dict(f.to_dict()).effective("甲").willpower == 0


@pytest.mark.slow
def test_dp_f21_the_turn_structure_is_checked_at_build_time(tmp_path, monkeypatch):
    """DP-F21: every pool a cost names, the ruling and every procedure's kind of action are checked,
    each a FILE:LINE:COL diagnostic."""
    import shutil
    from pathlib import Path

    from rulec.build.facade import compile_rules

    monkeypatch.setenv("RULEC_LANG", "en")
    dp_copy = tmp_path / "dp"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules" / "dp", dp_copy)
    manifest = dp_copy / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    for old, new in (("{action: swift, own_turn: [{swift: 1}]}", "{action: swift, own_turn: [{swiftt: 1}]}"),
                     ("ruling: refuse_over_turn", "ruling: refuse_over_trn"),
                     ("      - {action: full_round, own_turn: [{standard: 1, move: 1}]}\n", "")):
        assert old in text
        text = text.replace(old, new)
    manifest.write_text(text, encoding="utf-8")
    out = "\n".join(d.format() for d in compile_rules([dp_copy]).diagnostics)
    assert "ruleset.yaml:" in out and "error[bad-turn]: the turn structure has no pool 'swiftt'; did you mean 'swift'?" in out
    assert "error[bad-turn]: 'refuse_over_trn' is not a true/false ruling (rulings.yaml); did you mean" in out
    assert ("special.yaml:" in out and "error[bad-turn]: procedure 'aim' is a 'full_round' action, but the turn "
            "structure (fight: turn_structure:) declares no cost for it") in out
