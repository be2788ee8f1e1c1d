"""dp's cling carried by the fight (DP-F12, DP-54): a grapple by a creature less than a quarter of
its target's size becomes the one-sided relation 攀附, with its own rules for moving, attacking,
pinning and climbing onto the back."""

from __future__ import annotations

import pytest

WIN = [9] * 5 + [9] * 5 + [1] * 2  # touch, contest, resistance: the grapple is won


def clung(dp):
    cat, giant = dp.Combatant(size=1, strength=3, martial=2), dp.Combatant(size=8, strength=2)
    f = dp.start_fight({"猫": cat, "巨人": giant})
    a, f = f.act("grapple", {"attacker": "猫", "defender": "巨人"}, dice=dp.FixedDice(WIN))
    return a, f


def test_dp_f12_a_small_grappler_clings_instead_of_grappling(dp):
    """DP-F12 (DP-54): 「擒抱者的擒抱行为会自动变为「攀附」」 — the relation is 攀附, not 擒抱, and
    the clung-to takes no grapple loser penalty (「被攀附者可以如同未处于擒抱状态一般攻击攀附者」)."""
    a, f = clung(dp)
    assert a.result.cling and not a.result.holds and a.result.loser_penalty == 0
    assert f.relations == (("cling", "猫", "巨人"),) and "猫攀附巨人" in f.log
    assert [c.id for c in f.active_conditions("猫")] == ["clinging"]
    assert [c.id for c in f.active_conditions("巨人")] == ["clung_to"]
    assert f.effective("巨人").grapple_loss == 0
    # an equal-sized grapple is still a grapple
    g = dp.start_fight({"甲": dp.Combatant(strength=3, martial=2), "乙": dp.Combatant(strength=2)})
    b, g = g.act("grapple", {"attacker": "甲", "defender": "乙"}, dice=dp.FixedDice(WIN))
    assert b.result.holds and g.relations == (("grapple", "甲", "乙"),)


def test_dp_f12_the_clung_to_carries_the_clinger_who_cannot_move(dp):
    """DP-F12: 「攀附不会导致被攀附者在移动时需要进行擒抱对抗」 and 「攀附者无法主动进行移动」;
    the carried clinger's load is the ruling 带着攀附者移动的速度除数 (1: no slowing)."""
    _, f = clung(dp)
    with pytest.raises(dp.RuleError, match="攀附者无法主动进行移动"):
        f.resolve("grapple_move", {"attacker": "猫", "defender": "巨人"}, dice=dp.FixedDice([9] * 10))
    move, _ = f.act("grapple_move", {"attacker": "巨人", "defender": "猫"})  # no dice: no contest
    assert move.result.success and move.result.meters == dp.Combatant(size=8).move_speed
    assert move.result.rolls == () and any("对方攀附在自己身上为是" in x for x in move.applied)
    assert dp.RULINGS["cling_carry_speed_divisor"] == 1


def test_dp_f12_the_clinger_attacks_with_light_weapons_and_cannot_pin(dp):
    """DP-F12: the clinger 「只能使用肉搏武器或单手近战武器进行攻击」 and 「无法压制被攀附者」."""
    _, f = clung(dp)
    roles = {"attacker": "猫", "defender": "巨人"}
    for weapon in ("greatsword", "pistol"):  # two-handed melee, one-handed ranged
        with pytest.raises(dp.RuleError, match="攀附者只能使用肉搏武器或单手近战武器"):
            f.resolve("attack", roles, weapon=weapon, distance=0, dice=dp.FixedDice([9] * 20))
    for weapon in ("claw", "dagger"):
        f.resolve("attack", roles, weapon=weapon, dice=dp.FixedDice([9] * 20))
    with pytest.raises(dp.RuleError, match="攀附中.*压制对手"):
        f.resolve("pin", roles, dice=dp.FixedDice([9] * 20))
    # the clung-to attacks as if not grappled
    f.resolve("attack", {"attacker": "巨人", "defender": "猫"}, weapon="fist", dice=dp.FixedDice([9] * 20))


def test_dp_f12_on_the_back_the_clung_to_cannot_attack_until_the_cling_ends(dp):
    """DP-F12: a standard-action grapple contest moves the clinger 「到了被攀附者的背部或火力死角，
    导致被攀附者无法以通常手段对其进行攻击」; releasing the cling ends it."""
    _, f = clung(dp)
    with pytest.raises(dp.RuleError, match="只有攀附在对方身上时"):
        f.resolve("cling_to_back", {"attacker": "巨人", "defender": "猫"}, dice=dp.FixedDice([9] * 20))
    lost, g = f.act("cling_to_back", {"attacker": "猫", "defender": "巨人"}, dice=dp.FixedDice([1] * 5 + [9] * 2))
    assert not lost.result.success and "clinger_on_back" not in [c.id for c in g.active_conditions("巨人")]
    won, f = f.act("cling_to_back", {"attacker": "猫", "defender": "巨人"}, dice=dp.FixedDice([9] * 5 + [1] * 2))
    assert won.result.success and "clinger_on_back" in [c.id for c in f.active_conditions("巨人")]
    for procedure in ("attack", "grapple_attack"):
        with pytest.raises(dp.RuleError, match="攀附者在背部"):
            f.resolve(procedure, {"attacker": "巨人", "defender": "猫"}, weapon="fist", dice=dp.FixedDice([9] * 20))
    _, f = f.act("release_grapple", {"attacker": "猫", "defender": "巨人"})
    assert f.relations == () and f.active_conditions("巨人") == ()
    f.resolve("attack", {"attacker": "巨人", "defender": "猫"}, weapon="fist", dice=dp.FixedDice([9] * 20))


def test_dp_f12_escaping_or_a_helpless_clinger_ends_the_cling(dp):
    """DP-F12: the clung-to's escape frees it; a helpless clinger holds nothing (the relation's
    ends_holder)."""
    _, f = clung(dp)
    esc, g = f.act("escape_grapple", {"attacker": "猫", "defender": "巨人"}, dice=dp.FixedDice([9] * 2 + [1] * 5))
    assert esc.result.frees and g.relations == ()
    data = f.to_dict()
    for m in data["members"]:
        if m["name"] == "猫":
            m["stats"]["helpless"] = True
    _, gone = dp.fight_from_dict(data).act("stand_up", {"character": "巨人"})  # any action: endings are looked at
    assert gone.relations == () and gone.active_conditions("巨人") == () and "猫对巨人的攀附结束（无助）" in gone.log
