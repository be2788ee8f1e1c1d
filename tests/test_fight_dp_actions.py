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
    o, after = f.act("overrun", AC, dice=dp.FixedDice([1] * 11 + [9] * 20))
    assert o.result.knocked_down and o.result.fell and o.result.stepped_back
    assert after.effective("甲").prone and "overran" in [c.id for c in after.member("甲").conditions]
    o, after = f.act("overrun", AC, blocker_knocks_down=False, dice=dp.FixedDice([1] * 11 + [9] * 20))
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
