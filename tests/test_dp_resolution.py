"""dp: the resolution procedures and the seed's worked examples (DP-01 ... DP-07)."""

from __future__ import annotations

import pytest


@pytest.fixture()
def wang(dp):  # 王马: 20DP+5 with fists (力量5 + 武技8 + 专业7 + 拳0)
    return dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5)


@pytest.fixture()
def wu(dp):  # 吴: 基础8+盔甲4+格挡6 防御, 2+1+1 附加成功
    return dp.Combatant(basic_defense=8, armor_defense=4, parry_defense=6,
                        basic_extras=2, armor_extras=1, parry_extras=1)


def test_worked_example_wang_vs_wu_miss(dp, wang, wu):
    """DP-01, DP-02, DP-03, DP-04, DP-07: speed 2 / AP 8 leave 12 defense + 3 extras; .ww8+5; 3 raw -> miss."""
    r = dp.attack(wang, wu, "拳", extra_speed=2, extra_armor_piercing=8,
                  dice=dp.FixedDice([8, 9, 10, 1, 2, 3, 4, 5, 6]))
    assert r.dice == 8 and r.defender_extras == 3
    assert r.rolls[0].command == ".ww8+5"
    assert r.rolls[0].successes == 3
    assert (r.hit, r.net, r.damage) == (False, 0, 0)
    assert "防御方附加成功3抵消3个成功，攻击未命中" in r.text()


def test_worked_example_wang_vs_wu_reroll_hits_for_6_blunt(dp, wang, wu):
    """DP-04, DP-05: 4 raw successes -> 4 - 3 + 5 = 6 blunt damage."""
    r = dp.attack(wang, wu, "fist", extra_speed=2, extra_armor_piercing=8,
                  dice=dp.FixedDice([8, 9, 8, 9, 1, 2, 3, 4]))
    assert (r.hit, r.net, r.damage, r.damage_type) == (True, 6, 6, "blunt")
    assert "造成6点冲击伤害" in r.text()


def test_component_reduced_to_zero_loses_its_extras(dp, wang, wu):
    """DP-02 (R3): armor 4 - floor(8/2) = 0 loses its 1 extra; with AP 6 it keeps it."""
    zero = dp.attack_odds(wang, wu, "fist", extra_speed=2, extra_armor_piercing=8)
    keep = dp.attack_odds(wang, wu, "fist", extra_speed=2, extra_armor_piercing=6)
    assert zero.marginal("defender_extras") == {3: pytest.approx(1.0)}
    assert keep.marginal("defender_extras") == {4: pytest.approx(1.0)}
    assert keep.marginal("dice") == {7: pytest.approx(1.0)}


def test_sonic_attack_vs_fortitude_save(dp):
    """DP-06: 吴's sonic attack 25DP+3 vs 王马's fortitude 15DP+2: 7+3 vs 5+2 -> 3 mental; speed 6 irrelevant."""
    attack_faces = [8] * 7 + [1] * 18
    save_faces = [9] * 5 + [2] * 10
    r = dp.save_contest(25, save_dice=15, attack_extras=3, save_extras=2, speed=6,
                        dice=dp.FixedDice(attack_faces + save_faces))
    assert [x.command for x in r.rolls] == [".ww25+3", ".ww15+2"]
    assert (r.net, r.damage, r.damage_type) == (3, 3, "mental")
    assert "高速与破甲不会减少豁免DP" in r.text()
    # The odds do not depend on speed at all (R6).
    a = dp.save_contest_odds(25, save_dice=15, attack_extras=3, save_extras=2, speed=6)
    b = dp.save_contest_odds(25, save_dice=15, attack_extras=3, save_extras=2, speed=0)
    assert a.expected_damage == pytest.approx(b.expected_damage, abs=1e-12)


def test_bot_command_and_added_dice_are_traced(dp):
    """DP-07 (R1): a 10 adds a die, added dice chain, and the trace marks them."""
    r = dp.save_contest(2, save_dice=0, dice=dp.FixedDice([10, 3, 10, 8]))
    roll = r.rolls[0]
    assert roll.faces == (10, 3, 10, 8) and roll.added == (False, False, True, True)
    assert roll.successes == 3 and roll.command == ".ww2"
    assert "骰面[10, 3, 10+, 8+]" in r.text()


def test_fixed_dice_running_out_is_a_clear_error(dp, wang, wu):
    """DP-07: running out of fixed faces is a DiceExhausted error, not a wrong number."""
    with pytest.raises(dp.DiceExhausted, match="固定骰面已用完"):
        dp.attack(wang, wu, "fist", dice=dp.FixedDice([8]))


def test_odds_sum_to_one_and_match_simulation(dp, wang, wu):
    """DP-04: the odds twin's distribution sums to 1 and agrees with seeded play."""
    odds = dp.attack_odds(wang, wu, "long_sword")
    assert odds.total() + odds.dropped == pytest.approx(1.0, abs=1e-12)
    source = dp.SeededDice(7)
    sword = dp.get_weapon("long_sword")
    n = 20000
    hits = sum(dp.attack_fast(wang, wu, sword, dice=source)[0] for _ in range(n))
    se = (odds.hit_probability * (1 - odds.hit_probability) / n) ** 0.5
    assert abs(hits / n - odds.hit_probability) < 4 * se
