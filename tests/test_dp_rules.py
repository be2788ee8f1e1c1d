"""dp: attack types, modifiers, strengthening, defenses, special attacks and other actions (DP-10 ... DP-64)."""

from __future__ import annotations

import re

import pytest
from ruling_flip import flipped, oracle_run


def odds_dice(dp, attacker, defender, weapon, **kw):
    """The number of dice rolled (deterministic before the roll), read from the odds twin."""
    (dice,) = dp.attack_odds(attacker, defender, weapon, **kw).marginal("dice")
    return dice


@pytest.fixture()
def hero(dp):
    return dp.Combatant(strength=5, dexterity=4, intelligence=3, martial=3, athletics=2, shooting=3,
                        operation=2, specialty=1, basic_defense=4, move_speed=10)


@pytest.fixture()
def dummy(dp):
    return dp.Combatant()


@pytest.mark.parametrize("weapon, pool, rule", [
    ("fist", 5 + 3 + 1 + 0, "DP-10"),            # 力量+武技+专业+天生武器伤害
    ("long_sword", 5 + 3 + 1 + 3, "DP-11"),      # 力量+武技+专业+武器伤害
    ("shield", 5 + 3 + 1 + 1, "DP-11"),          # a shield that strikes is a melee weapon
    ("throwing_knife", 5 + 2 + 1 + 1, "DP-12"),  # max(力量, 敏捷)+运动+专业+伤害
    ("javelin", 5 + 2 + 1 + 3, "DP-12"),         # heavy thrown: 力量 only
    ("short_bow", 4 + 3 + 1 + 2, "DP-13"),       # 敏捷+射击+专业+弓伤害(含箭)
    ("pistol", 4 + 3 + 1 + 3, "DP-14"),
    ("light_crossbow", 4 + 3 + 1 + 3, "DP-14"),
    ("vehicle_cannon", 3 + 2 + 1 + 8, "DP-17"),  # 智力+器用+专业+武器伤害
])
def test_attack_type_pools(dp, hero, dummy, weapon, pool, rule):
    assert odds_dice(dp, hero, dummy, weapon, distance=1) == pool, rule


def test_other_attack_forms_are_ranged_by_default(dp):
    """DP-16: resource-defined attacks are ranged unless stated; they resolve through save_contest."""
    assert dp.ATTACK_TYPES["other"].ranged is True
    assert dp.save_contest_odds(10, save_dice=0).hit_probability > 0.9


def test_attack_type_data(dp):
    """DP-12, DP-13, DP-14: default speeds and range multipliers are data (R10)."""
    at = dp.ATTACK_TYPES
    assert (at["thrown"].speed, at["bow"].speed, at["crossbow"].speed, at["firearm"].speed) == (1, 1, 3, 5)
    assert dp.WEAPONS["gauss_rifle"].speed == 6
    assert at["bow"].two_hands_only and at["firearm"].point_blank_ignores_speed


def test_rock_range_worked_example(dp, dummy):
    """DP-20 (R7): STR 5 throwing a rock (base 10): max 50 m; 10 m 0, 11-20 m -2, 21-30 m -4; 51 m refused."""
    thrower = dp.Combatant(strength=5, athletics=0, specialty=0)
    base = odds_dice(dp, thrower, dummy, "rock", distance=1)
    for distance, penalty in [(10, 0), (11, 2), (20, 2), (21, 4), (30, 4), (50, 8)]:
        assert odds_dice(dp, thrower, dummy, "rock", distance=distance) == max(0, base - penalty)
    with pytest.raises(dp.OutOfRange, match="最大射程50米"):
        dp.attack(thrower, dummy, "石块", distance=51)


def test_strength_requirement(dp, dummy):
    """DP-21 (R8): -2 DP per point of strength short."""
    weak = dp.Combatant(strength=1, martial=10)
    strong = dp.Combatant(strength=5, martial=10)
    # greatsword needs 5: weak is 4 short -> -8, on top of the 4 points of strength difference
    assert odds_dice(dp, strong, dummy, "greatsword") - odds_dice(dp, weak, dummy, "greatsword") == 4 + 8


def test_one_and_two_hands(dp, dummy):
    """DP-22 (R8): two hands on a one-handed weapon lowers the requirement by 1; one hand on a
    two-handed weapon raises it by half its size (firearms at least 1, aiming halved); bows refuse."""
    s2 = dp.Combatant(strength=2)
    assert odds_dice(dp, s2, dummy, "long_sword", hands=2) - odds_dice(dp, s2, dummy, "long_sword") == 2
    s5 = dp.Combatant(strength=5)
    # greatsword (req 5, size 4) in one hand -> requirement 7: 2 short -> -4
    assert odds_dice(dp, s5, dummy, "greatsword") - odds_dice(dp, s5, dummy, "greatsword", hands=1) == 4
    # rifle (req 2, size 3, firearm): one hand -> 2 + max(1, 1) = 3
    s2b = dp.Combatant(strength=2, dexterity=3)
    assert odds_dice(dp, s2b, dummy, "rifle", distance=5) - odds_dice(dp, s2b, dummy, "rifle", distance=5, hands=1) == 2
    aim2 = odds_dice(dp, s2b, dummy, "rifle", distance=5, hands=1, aim_rounds=3)
    aim1 = odds_dice(dp, s2b, dummy, "rifle", distance=5, hands=1)
    assert aim2 - aim1 == 1  # floor(3 / 2)
    with pytest.raises(dp.OneHandBow, match="无法单手使用"):
        dp.attack(s5, dummy, "long_bow", hands=1)


def test_under_strength_ranged(dp, dummy):
    """DP-23 (R9): a second -2 per increment, and a bow loses a range multiplier per point short."""
    archer = dp.Combatant(strength=2, dexterity=3, shooting=10)  # long bow needs 4: 2 short
    base = odds_dice(dp, archer, dummy, "long_bow", distance=1)
    assert odds_dice(dp, archer, dummy, "long_bow", distance=26) == base - 2 - 2
    # multiplier 8 - 2 = 6 -> max range 150 m
    dp.attack_odds(archer, dummy, "long_bow", distance=150)
    with pytest.raises(dp.OutOfRange):
        dp.attack(archer, dummy, "long_bow", distance=151)


def test_oversize_penalty_hook(dp):
    """DP-24: the size chapter's extra penalties are a data hook, 0 in the starter armory."""
    assert all(w.oversize_penalty == 0 for w in dp.WEAPONS.values())


def test_power_attack(dp, hero, dummy):
    """DP-30: +2 DP on melee; refused on ranged attacks."""
    assert odds_dice(dp, hero, dummy, "long_sword", power_attack=True) - odds_dice(dp, hero, dummy, "long_sword") == 2
    with pytest.raises(dp.MeleeOnly):
        dp.attack(hero, dummy, "pistol", power_attack=True)


def test_charge(dp, dummy):
    """DP-31 (R11): +1 DP per meter, capped by min(STR, basic defense); needs a clear path, 2x move."""
    c = dp.Combatant(strength=3, basic_defense=5, move_speed=10)
    base = odds_dice(dp, c, dummy, "long_sword")
    assert odds_dice(dp, c, dummy, "long_sword", charge_meters=2) == base + 2
    assert odds_dice(dp, c, dummy, "long_sword", charge_meters=12) == base + 3
    with pytest.raises(dp.ChargeBlocked, match="畅通无阻"):
        dp.attack(c, dummy, "long_sword", charge_meters=5, clear_path=False)
    with pytest.raises(dp.ChargeTooFar):
        dp.attack(c, dummy, "long_sword", charge_meters=21)


def test_called_shots(dp, hero):
    """DP-32 (R13): penalty, matching dodge for an aware defender with basic defense, effects per net."""
    aware = dp.Combatant(basic_defense=2)
    unaware = dp.Combatant(basic_defense=2, aware=False)
    base = odds_dice(dp, hero, aware, "long_sword")
    assert odds_dice(dp, hero, aware, "long_sword", called_shot="head") == base - 3 - 3
    assert odds_dice(dp, hero, unaware, "long_sword", called_shot="head") == base - 3
    r = dp.attack(hero, dp.Combatant(), "long_sword", called_shot="头部", dice=dp.FixedDice([9] * 9))
    assert (r.net, r.condition, r.condition_points) == (9, "stun", 4)
    r = dp.attack(hero, dp.Combatant(), "long_sword", called_shot="disarm", dice=dp.FixedDice([9] * 20))
    assert (r.damage, r.condition_points) == (0, 0)
    assert len(dp.CALLED_SHOTS) == 9
    assert not dp.CALLED_SHOTS["sunder"].trauma_source and dp.CALLED_SHOTS["eyes"].trauma_source
    with pytest.raises(dp.CalledShotMultipleTargets):
        dp.attack(hero, aware, "long_sword", called_shot="head", targets=2)


def test_called_shot_tracks_are_not_specified(dp):
    """DP-32 (R63): the condition tracks are declared, counted, and refuse a capacity."""
    assert all(t.not_specified for t in dp.CONDITION_TRACKS.values())


def test_coup_de_grace(dp, hero):
    """DP-33 (R14): every die left after defense succeeds, no added dice; helpless targets with vitals only."""
    helpless = dp.Combatant(helpless=True, armor_defense=2, armor_extras=1)
    r = dp.attack(hero, helpless, "long_sword", coup_de_grace=True, dice=dp.FixedDice([]))
    assert r.rolls[0].all_succeed and r.net == 12 - 2 - 1
    with pytest.raises(dp.NotHelpless):
        dp.attack(hero, dp.Combatant(), "long_sword", coup_de_grace=True)
    with pytest.raises(dp.NoVitals):
        dp.attack(hero, dp.Combatant(helpless=True, has_vitals=False), "long_sword", coup_de_grace=True)


def test_total_defense(dp, hero):
    """DP-40 (R10): dodge equal to basic defense; a pinpointed attacker loses only the item's speed."""
    d = dp.Combatant(basic_defense=6)
    assert dp.total_defense(d).dodge_bonus == 6
    gunner = dp.Combatant(dexterity=4, shooting=15, specialty=1)
    # pistol speed 5 strips 5 basic defense; total defense removes that and adds dodge 6
    plain = odds_dice(dp, gunner, d, "pistol", distance=10)
    braced = odds_dice(dp, gunner, d, "pistol", distance=10, total_defense=True)
    assert plain - braced == 5 + 6
    # within 5 m the firearm's speed is ignored anyway (DP-14)
    assert odds_dice(dp, gunner, d, "pistol", distance=5) == plain - 5


def test_parry(dp):
    """DP-41, DP-42 (R15): floor((武技 + 专业) / 2), + size for 格挡 weapons; unarmed parry needs no weapon."""
    d = dp.Combatant(martial=5, specialty=2)
    assert dp.parry(d).parry_bonus == 3
    assert dp.parry(d, "long_sword").parry_bonus == 3
    assert dp.parry(d, "shield").parry_bonus == 3 + 2


def test_active_cover(dp):
    """DP-43 (R16): 5 - (own size - cover size), min 0; 2x size is full cover; shields give 格挡."""
    me = dp.Combatant(size=3)
    assert dp.active_cover(me, cover_size=2).cover == 4
    assert dp.active_cover(me, cover_size=0).cover == 2
    assert dp.active_cover(dp.Combatant(size=9), cover_size=0).cover == 0
    assert dp.active_cover(me, cover_size=6).full_cover
    assert dp.active_cover(me, shield="shield").cover == 3


def test_prone(dp, hero):
    """DP-44 (R17): +2 DP for melee attackers, +2 cover against ranged."""
    prone = dp.Combatant(prone=True)
    up = dp.Combatant()
    assert odds_dice(dp, hero, prone, "long_sword") - odds_dice(dp, hero, up, "long_sword") == 2
    assert odds_dice(dp, hero, up, "pistol", distance=6) - odds_dice(dp, hero, prone, "pistol", distance=6) == 2


def test_trip(dp):
    """DP-50 (R22): +2 DP per full pair of legs beyond two; flying targets lose speed per net."""
    a = dp.Combatant(strength=5, martial=3)
    quad = dp.Combatant(legs=4, dexterity=2, strength=1, balance=1)
    r = dp.trip(a, quad, dice=dp.FixedDice([9] * 8 + [1] * 5))
    assert r.rolls[1].dice == 2 + 1 + 2
    assert r.prone and r.net == 8
    r = dp.trip(a, quad, flying=True, dice=dp.FixedDice([9] * 8 + [1] * 5))
    assert r.flight_speed_loss == 8 and not r.prone
    assert dp.trip(a, dp.Combatant(legs=7), dice=dp.FixedDice([1] * 8 + [1] * 9)).rolls[1].dice == 3 + 4


def test_bull_rush(dp):
    """DP-51 (R20): push 1 m + 1 m per 3 net; a resisted rush may be returned at -2 DP."""
    a = dp.Combatant(strength=5, martial=3)
    d = dp.Combatant(strength=1, athletics=0)
    r = dp.bull_rush(a, d, dice=dp.FixedDice([9] * 7 + [1] + [1] * 3))
    assert (r.net, r.push_meters) == (7, 1 + 2)
    r = dp.bull_rush(a, d, knock_down=True, dice=dp.FixedDice([9] * 8 + [1] * 3))
    assert r.prone and r.push_meters == 0


def test_grapple_and_cling(dp):
    """DP-52, DP-54: touch then contest; a grappler under a quarter of the target's size clings."""
    a = dp.Combatant(strength=4, martial=2, size=3)
    d = dp.Combatant(strength=1, size=3, reflex_save=0)
    r = dp.grapple(a, d, dice=dp.FixedDice([9] * 6 + [9] * 6 + [1] * 1))
    assert r.success and not r.cling
    big = dp.Combatant(strength=1, size=13)
    r = dp.grapple(a, big, dice=dp.FixedDice([9] * 6 + [9] * 6 + [1] * 1))
    assert r.cling
    with pytest.raises(dp.TooManyHandsFree):
        dp.grapple(a, d, held_item_size=2)


def test_pin(dp):
    """DP-53: a second contest; pinned targets need two escapes; net above STR allows body cover."""
    a = dp.Combatant(strength=4, martial=2)
    d = dp.Combatant(strength=1)
    r = dp.pin(a, d, dice=dp.FixedDice([9] * 6 + [1]))
    assert r.success and r.escapes_needed == 2 and r.body_cover


def test_feint(dp):
    """DP-55 (R21): parry drops by min(net, 3); impossible against mindless creatures."""
    a = dp.Combatant(intelligence=5, martial=3)
    d = dp.Combatant(wisdom=1)
    r = dp.feint(a, d, dice=dp.FixedDice([9] * 8 + [1]))
    assert r.flat_footed and r.parry_penalty == 3
    with pytest.raises(dp.FeintImpossible):
        dp.feint(a, dp.Combatant(mindless=True))


def test_overrun_chained(dp):
    """DP-60: one check against each blocker's successes in turn; size at most 2x."""
    a = dp.Combatant(strength=4, martial=2)
    d = dp.Combatant(strength=1, dexterity=1, athletics=0)
    faces = [9] * 5 + [1] + [9] + [9] + [9]  # mine 5; blockers 1, 1, 1 (one die each)
    r = dp.overrun(a, d, blockers=3, dice=dp.FixedDice(faces))
    assert r.passed == 3 and r.success
    r = dp.overrun(a, d, blockers=3, dice=dp.FixedDice([9, 9, 1, 1, 1, 1, 9, 9, 1]))
    assert r.passed == 1
    with pytest.raises(dp.OverrunTooBig):
        dp.overrun(dp.Combatant(size=2), dp.Combatant(size=5))


def test_aim(dp, hero, dummy):
    """DP-61 (R18): +1 per round, at most +3, only within 3 range increments."""
    base = odds_dice(dp, hero, dummy, "pistol", distance=10)
    assert odds_dice(dp, hero, dummy, "pistol", distance=10, aim_rounds=2) == base + 2
    assert odds_dice(dp, hero, dummy, "pistol", distance=10, aim_rounds=5) == base + 3
    with pytest.raises(dp.AimOutOfReach):
        dp.attack(hero, dummy, "pistol", distance=46, aim_rounds=1)


def test_draw_and_reload_costs(dp):
    """DP-62: drawing and reloading are action costs in the weapon data and the maneuver table."""
    w = dp.WEAPONS
    assert w["heavy_crossbow"].reload.name == "标准动作"
    assert w["light_crossbow"].reload.name == "移动动作"
    assert w["revolver"].reload.name == "整轮动作"
    assert w["short_bow"].reload.name == "迅捷动作"
    assert w["long_sword"].draw.name == "移动动作"


def test_readied_action_is_documented(dp):
    """DP-63: a referee call recorded in the maneuver table."""
    assert dp.MANEUVERS["readied_action"].action.name == "标准动作"


def test_willpower(dp, hero, dummy):
    """DP-64 (R19): +3 DP on a check, +2 on a defense, +10 m move; needs a point to spend."""
    spender = dp.Combatant(strength=5, martial=3, willpower=1)
    assert odds_dice(dp, spender, dummy, "long_sword", willpower=True) - odds_dice(dp, spender, dummy, "long_sword") == 3
    assert [dp.willpower_spend(spender, use=u).bonus for u in ("check", "defense", "move")] == [3, 2, 10]
    with pytest.raises(dp.BadWillpower):
        dp.willpower_spend(dp.Combatant(willpower=0), use="check")


def test_bombard(dp):
    """DP-15: size < 10 rolls vs reflex save, size >= 10 goes through defense; hit = X pierce."""
    gunner = dp.Combatant(intelligence=4, shooting=3, specialty=1)
    small = dp.Combatant(size=3, reflex_save=2)
    big = dp.Combatant(size=12, basic_defense=3)
    r = dp.bombard(gunner, small, "mortar", distance=50, dice=dp.FixedDice([9] * 8 + [1, 1]))
    assert r.used_save and r.hit and r.damage == 8 and r.damage_type == "pierce"
    r = dp.bombard(gunner, big, "mortar", distance=50, dice=dp.FixedDice([9] * 5))
    assert not r.used_save and r.hit
    with pytest.raises(dp.OutOfRange):
        dp.bombard(gunner, small, "mortar", distance=401)
    with pytest.raises(dp.NotABombard):
        dp.bombard(gunner, small, "pistol")


def test_the_attack_trace_names_every_term_of_the_pool(dp, hero):
    """DP-32, DP-10: the attack DP sentence explains its number: with a called shot at the head
    (penalty 3) its terms include the called-shot penalty, and they add up to the pool."""
    r = dp.attack(hero, dp.Combatant(), "long_sword", called_shot="head", dice=dp.FixedDice([9] * 9))
    line = next(s.text for s in r.trace if s.text.startswith("攻击DP"))
    assert "特定部位减值3" in line
    pool, terms = re.match(r"攻击DP(\d+)（(.*)）", line).groups()
    values = dict(re.match(r"(\D+)(-?\d+)", t).groups() for t in terms.split("，"))
    plus = ("基础", "瞄准", "冲锋", "强力攻击", "意志", "倒地", "其他")
    assert int(pool) == sum(int(v) if k in plus else -int(v) for k, v in values.items())


def test_an_empty_pool_says_so(dp, hero):
    """DP-03: no dice left after defense is a sentence, not `.ww0，骰面[]`."""
    wall = dp.Combatant(basic_defense=30)
    r = dp.attack(hero, wall, "long_sword", dice=dp.FixedDice([]))
    assert any("没有骰子可掷，成功数0" in s.text for s in r.trace), r.trace
    assert not any("骰面[]" in s.text for s in r.trace)


def test_the_attackers_own_penalties_are_reported(dp):
    """DP-30, DP-31 (R11): a power attack costs the attacker 2 basic defense and a charge as much as
    its bonus, until its next action, never below 0 — reported by the attack."""
    hero = dp.Combatant(strength=4, martial=4, specialty=2, basic_defense=3, move_speed=10)
    faces = dp.FixedDice([9] * 20)
    assert dp.attack(hero, dp.Combatant(), "long_sword", dice=faces).own_basic_defense_penalty == 0
    r = dp.attack(hero, dp.Combatant(), "long_sword", power_attack=True, dice=dp.FixedDice([9] * 20))
    assert r.own_basic_defense_penalty == 2
    r = dp.attack(hero, dp.Combatant(), "long_sword", power_attack=True, charge_meters=5, dice=dp.FixedDice([9] * 20))
    assert r.own_basic_defense_penalty == 3  # 2 + a charge bonus of 3, capped at basic defense 3
    assert "攻击方的基础防御降低3" in r.trace[-1].text


def test_shooting_into_a_grapple(dp):
    """DP-52: a ranged single-target attack into a grapple loses 1 success per person in it; every
    2 points of called-shot penalty reduction cancel 1 of them."""
    archer = dp.Combatant(strength=4, dexterity=4, shooting=4, specialty=2)
    plain = dp.attack(archer, dp.Combatant(), "short_bow", distance=5, dice=dp.FixedDice([9] * 20)).net
    into = dp.attack(archer, dp.Combatant(), "short_bow", distance=5, grapple_people=2, dice=dp.FixedDice([9] * 20))
    assert into.net == plain - 2 and any("擒抱中有2人，成功数减2" in t.text for t in into.trace)
    eased = dp.attack(archer, dp.Combatant(), "short_bow", distance=5, grapple_people=2, called_shot_reduction=2,
                      dice=dp.FixedDice([9] * 20))
    assert eased.net == plain - 1
    melee = dp.attack(archer, dp.Combatant(), "long_sword", grapple_people=2, dice=dp.FixedDice([9] * 20))
    assert melee.net == dp.attack(archer, dp.Combatant(), "long_sword", dice=dp.FixedDice([9] * 20)).net


def test_called_shot_penalty_reduction_is_mirrored_by_the_dodge_bonus(dp, hero):
    """DP-32: an ability reducing the called-shot penalty reduces the aware defender's dodge bonus
    the same (R13): the pool after defense changes by the reduction twice."""
    aware = dp.Combatant(basic_defense=2)
    full = odds_dice(dp, hero, aware, "long_sword", called_shot="head")
    assert odds_dice(dp, hero, aware, "long_sword", called_shot="head", called_shot_reduction=2) == full + 2 + 2


def test_a_prone_target_saves_worse_against_a_bombard(dp):
    """DP-44 (R17): prone, a target loses 1 success on its save against area damage."""
    gunner = dp.Combatant(strength=4, intelligence=4, shooting=4, specialty=2)
    r = dp.bombard(gunner, dp.Combatant(reflex_save=3, prone=True), "mortar", distance=100,
                   dice=dp.FixedDice([9] * 40))
    assert any("倒地的目标回避范围伤害，成功数减1" in t.text for t in r.trace)


def test_artillery_resolves_as_a_bombard_not_an_attack(dp, hero, dummy):
    """DP-15: a 【炮击】 weapon is refused by attack (its damage is the bombard's X, not the net), and
    the bombard's pool is 智力+射击+专业."""
    with pytest.raises(dp.UseBombard, match="炮击"):
        dp.attack(hero, dummy, "mortar", distance=1)
    r = dp.bombard(hero, dummy, "mortar", distance=1, dice=dp.FixedDice([1] * 20))
    assert r.rolls[0].dice == 3 + 3 + 1


def test_a_bombard_applies_r3_to_the_defenders_extras(dp):
    """DP-02 (R3), DP-15: against a bombard a component at 0 loses its extras, as in attack: a
    flat-footed defender keeps no basic extras."""
    gunner = dp.Combatant(intelligence=4, shooting=4, specialty=2)
    big = dp.Combatant(size=10, basic_defense=2, basic_extras=2, flat_footed=True)
    r = dp.bombard(gunner, big, "mortar", distance=50, dice=dp.FixedDice([9] * 10))
    assert r.hit  # 1 success would be cancelled by the 2 basic extras if flat-footed kept them
    r = dp.bombard(gunner, dp.Combatant(size=10, basic_defense=0, basic_extras=2), "mortar", distance=50,
                   dice=dp.FixedDice([9] * 10))
    assert r.hit


def test_called_shot_contests(dp):
    """DP-32: disarm, sunder and throat are contested after the hit: disarm knocks the weapon away
    when the net beats STR+武技+专业; sunder deals 1 item damage per failure (two hands +4, the
    bigger side gets the size difference); throat deepens the severity of 1 damage per net over
    the fortitude save."""
    hero = dp.Combatant(strength=5, martial=4, specialty=2)
    foe = dp.Combatant(strength=2, martial=1)
    r = dp.attack(hero, foe, "long_sword", called_shot="disarm", dice=dp.FixedDice([9] * 30))
    assert (r.net, r.disarmed, r.damage) == (11, True, 0)
    r = dp.attack(hero, foe, "long_sword", called_shot="sunder", target_two_handed=True, dice=dp.FixedDice([9] * 30))
    assert (r.net, r.item_damage) == (11, 11 - (2 + 1 + 4))
    r = dp.attack(hero, dp.Combatant(fortitude_save=2), "long_sword", called_shot="throat",
                  dice=dp.FixedDice([9] * 30))
    assert (r.net, r.severity_steps, r.damage) == (9, 9 - 2, 9)
    plain = dp.attack(hero, foe, "long_sword", dice=dp.FixedDice([9] * 30))
    assert (plain.disarmed, plain.item_damage, plain.severity_steps) == (False, 0, 0)


def test_willpower_for_defense_and_movement(dp, hero):
    """DP-64 (R19): 1 willpower gives a defense +2DP (the attack rolls 2 dice fewer) or +10 m of
    movement this round (a longer charge)."""
    defender = dp.Combatant(willpower=1)
    assert odds_dice(dp, hero, defender, "long_sword", defender_willpower=True) == \
        odds_dice(dp, hero, defender, "long_sword") - 2
    with pytest.raises(dp.BadWillpower):
        dp.attack(hero, dp.Combatant(willpower=0), "long_sword", defender_willpower=True)
    runner = dp.Combatant(strength=5, basic_defense=5, move_speed=5, willpower=1)
    with pytest.raises(dp.ChargeTooFar):
        dp.attack(runner, dp.Combatant(), "long_sword", charge_meters=12)
    dp.attack(runner, dp.Combatant(), "long_sword", charge_meters=12, willpower_move=True, dice=dp.FixedDice([1] * 40))


def test_a_prone_attacker_cannot_charge(dp, hero):
    """DP-44: prone, a character moves at half speed and cannot charge."""
    with pytest.raises(dp.ProneCannotCharge):
        dp.attack(dp.Combatant(prone=True, move_speed=10), dp.Combatant(), "long_sword", charge_meters=3)


def test_feint_reads_the_defenders_specialty_and_errors_name_the_real_problem(dp, hero):
    """DP-55: the defender rolls 感知+洞察+察言观色专业; DP-42/DP-50: parrying with a natural weapon and
    tripping with a weapon that cannot trip say so (not 'ranged')."""
    r = dp.feint(hero, dp.Combatant(wisdom=1, insight=1), defender_specialty=2, dice=dp.FixedDice([1] * 40))
    assert r.rolls[1].dice == 1 + 1 + 2
    with pytest.raises(dp.NaturalCannotParry, match="天生武器"):
        dp.parry(hero, "claw")
    with pytest.raises(dp.CannotTrip, match="绊摔"):
        dp.trip(hero, dp.Combatant(), "long_sword")
    assert dp.WEAPONS["energy_pistol"].speed == 8  # DP-40's example: energy weapons carry speed 8


def test_cover_and_total_defense_help_the_reflex_save_against_a_bombard(dp):
    """DP-43, DP-40: active cover applies to reflex saves against areas, and total defense adds the
    basic defense to them."""
    gunner = dp.Combatant(intelligence=4, shooting=4, specialty=2)
    small = dp.Combatant(reflex_save=3, cover_defense=2, basic_defense=4)
    r = dp.bombard(gunner, small, "mortar", distance=50, dice=dp.FixedDice([1] * 40))
    assert r.rolls[1].dice == 3 + 2
    r = dp.bombard(gunner, small, "mortar", distance=50, total_defense=True, dice=dp.FixedDice([1] * 40))
    assert r.rolls[1].dice == 3 + 2 + 4


def test_bombard_against_a_large_target_in_total_defense(dp):
    """DP-15, DP-40: 「你的防御和对抗范围攻击的判定上获得相当于你的基本防御的闪避加值」 holds for a target
    of size >= 10 meeting the bombard with its normal defense: INT 4 + 射击 3 + 专业 1 = 8 DP less basic
    defense 3 = 5 dice; in total defense the dodge bonus 3 is subtracted too: 2 dice."""
    gunner = dp.Combatant(intelligence=4, shooting=3, specialty=1)
    big = dp.Combatant(size=12, basic_defense=3)
    assert dp.bombard(gunner, big, "mortar", distance=50, dice=dp.FixedDice([1] * 5)).rolls[0].dice == 5
    r = dp.bombard(gunner, big, "mortar", distance=50, total_defense=True, dice=dp.FixedDice([9, 1]))
    assert r.rolls[0].dice == 8 - 3 - 3 and r.hit


def test_returned_bull_rush_penalises_the_original_rusher(dp):
    """DP-51 (R20): 「他可以选择用反射动作对你进行一次冲撞。你在对抗中受到-2DP的不利减值」: "你" is the
    original rusher, now resisting. The returner (STR 5 + 武技 3 = 8 DP) rolls in full; the original
    rusher resists with max(STR 1, DEX 3) + 0 - 2 = 1 DP."""
    returner = dp.Combatant(strength=5, martial=3)
    rusher = dp.Combatant(strength=1, athletics=0)
    r = dp.bull_rush(returner, rusher, returned=True, dice=dp.FixedDice([1] * 8 + [1]))
    assert (r.rolls[0].dice, r.rolls[1].dice) == (8, 3 - 2)


def test_overrun_past_a_blocker_that_cannot_block(dp):
    """DP-60: 「如果敌人已经处于倒地状态；或者敌人处于定身、昏迷、睡眠等无法移动身体…可以无需闯越判定，直接
    通过」: no dice are rolled, every blocker is passed, and no standard action is spent."""
    a = dp.Combatant(strength=4, martial=2)
    r = dp.overrun(a, dp.Combatant(prone=True), blockers=2, dice=dp.FixedDice([]))
    assert (r.passed, r.success, r.contested) == (2, True, False) and r.rolls == ()
    r = dp.overrun(a, dp.Combatant(), blocker_cannot_block=True, dice=dp.FixedDice([]))
    assert (r.passed, r.contested) == (1, False)
    assert "无需闯越判定" in r.text()
    assert dp.overrun(a, dp.Combatant(), dice=dp.FixedDice([9] * 6 + [1] * 3)).contested


def test_total_defense_without_pinpointing_the_attacker(dp):
    """DP-40 (R10): the dodge bonus equal to basic defense comes with total defense; stripping the weapon's
    own speed needs the attacker pinpointed (「如果你能够精确定位…」). Pistol speed 5, basic defense 6:
    pinpointed -> 5 + 6 fewer dice; not pinpointed -> only the dodge 6."""
    d = dp.Combatant(basic_defense=6)
    gunner = dp.Combatant(dexterity=4, shooting=15, specialty=1)
    plain = odds_dice(dp, gunner, d, "pistol", distance=10)
    assert plain - odds_dice(dp, gunner, d, "pistol", distance=10, total_defense=True) == 5 + 6
    assert plain - odds_dice(dp, gunner, d, "pistol", distance=10, total_defense=True,
                             attacker_pinpointed=False) == 6


def test_grapple_extras_are_declared_rulings(tmp_path):
    """DP-52, DP-53: the touch attack's 「取得了1个以上的成功数」 counts the attacker's extras
    (touch_counts_attack_extras), and the grapple contest and pin do not add them
    (grapple_contest_attack_extras), each a ruling a table can flip. STR 4 + 武技 2 = 6 DP with 2 extras:
    a touch of no successes still hits (0 + 2 >= 1); the contest's 1 success against 1 is a tie (fails),
    and with the extras counted it wins by 1 + 2 - 1 = 2."""
    stock, pack = flipped(tmp_path, "dp", "grapple_contest_attack_extras", True)
    args = {"attacker": {"strength": 4, "martial": 2, "attack_extras": 2}, "defender": {"strength": 1}}
    faces = [1] * 6 + [9, 1, 1, 1, 1, 1] + [9]
    out = oracle_run(stock, "grapple", args, faces)
    assert (out["touched"], out["success"]) == (True, False)
    out = oracle_run(pack, "grapple", args, faces)
    assert (out["success"], out["net"]) == (True, 2)
    assert oracle_run(pack, "pin", args, [9, 1, 1, 1, 1, 1] + [9])["net"] == 2
    assert oracle_run(stock, "pin", args, [9, 1, 1, 1, 1, 1] + [9])["net"] == 0
    (_, no_touch) = flipped(tmp_path / "t", "dp", "touch_counts_attack_extras", False)
    assert oracle_run(no_touch, "grapple", args, [1] * 6)["touched"] is False


def test_placeholders_are_rulings(dp, hero, dummy):
    """DP-16, DP-17, DP-20: the seed gives no vehicle-weapon range multiplier and no pool for resource
    attacks: both are declared rulings (5 by default: the vehicle cannon's 200 m x 5 = 1000 m)."""
    assert dp.RULINGS["vehicle_range_multiplier"] == 5 and dp.RULINGS["resource_attack_range_multiplier"] == 5
    assert dp.RULINGS["resource_attack_placeholder_pool"] is True and dp.ATTACK_TYPES["other"].resource_defined
    dp.attack_odds(hero, dummy, "vehicle_cannon", distance=1000)
    with pytest.raises(dp.OutOfRange):
        dp.attack(hero, dummy, "vehicle_cannon", distance=1001)


def test_attacking_the_grappled_opponent(dp):
    """DP-52 擒抱中攻击对手: 「你必须先发起一次擒抱对抗，并在对抗中胜出。接着，你可以以力量+武技+肉搏相关专业对
    对方发起攻击，每个成功数造成1点冲击伤害…无论如何你都只能造成冲击伤害」, natural weapons or melee weapons of
    size <= own size - 3. STR 4 + 武技 2 + 专业 1 = 7 DP contest against max(STR 2 + 武技 1, reflex 0) = 3:
    2 successes to 0 wins; the attack is 7 DP less basic defense 2 = 5 dice, 3 successes = 3 blunt damage
    (the dagger's damage 1 and lethal type do not count). DP-53: a pinner attacks without the contest."""
    a = dp.Combatant(strength=4, martial=2, specialty=1, size=4)
    d = dp.Combatant(strength=2, martial=1, basic_defense=2)
    r = dp.grapple_attack(a, d, "dagger", dice=dp.FixedDice([9, 9, 1, 1, 1, 1, 1] + [1, 1, 1] + [9, 9, 9, 1, 1]))
    assert (r.contest_won, r.hit, r.damage, r.damage_type) == (True, True, 3, "blunt")
    assert [x.dice for x in r.rolls] == [7, 3, 5]
    lost = dp.grapple_attack(a, d, "dagger", dice=dp.FixedDice([1] * 7 + [1] * 3))
    assert (lost.contest_won, lost.damage) == (False, 0) and len(lost.rolls) == 2
    pinned = dp.grapple_attack(a, d, "dagger", pinned=True, dice=dp.FixedDice([9, 9, 1, 1, 1]))
    assert (pinned.damage, len(pinned.rolls)) == (2, 1)
    with pytest.raises(dp.TooManyHandsFree):
        dp.grapple_attack(dp.Combatant(size=3), d, "dagger")  # 1 > 3 - 3
    with pytest.raises(dp.TooManyHandsFree):
        dp.grapple_attack(a, d, "pistol")


def test_moving_in_a_grapple(dp):
    """DP-52 保持擒抱: 「当你们中的一人试图移动时，需要进行力量对抗，主动移动者每胜出1，则可带着对方移动1米，最多
    不得超过主动移动者的速度」; DP-53: a pinner moves the pinned target at half speed with no contest. STR 5 against
    STR 2: 3 successes to 1 -> 2 m; speed 1 caps it at 1 m; pinned, speed 10 -> 5 m and no dice."""
    mover, other = dp.Combatant(strength=5), dp.Combatant(strength=2)
    r = dp.grapple_move(mover, other, dice=dp.FixedDice([9, 9, 9, 1, 1] + [9, 1]))
    assert (r.success, r.meters) == (True, 2)
    slow = dp.grapple_move(dp.Combatant(strength=5, move_speed=1), other, dice=dp.FixedDice([9, 9, 9, 1, 1] + [9, 1]))
    assert slow.meters == 1
    tie = dp.grapple_move(mover, other, dice=dp.FixedDice([9, 1, 1, 1, 1] + [9, 1]))
    assert (tie.success, tie.meters) == (False, 0)
    pinned = dp.grapple_move(mover, other, pinned=True, dice=dp.FixedDice([]))
    assert (pinned.meters, pinned.rolls) == (5, ())


def test_artillery_strength_one_hand_and_aim(dp):
    """DP-15, DP-21, DP-22, DP-61: the bombard reads the strength requirement (-2 DP a point short), one hand on a
    two-handed artillery piece (requirement + half its size, at least 1, and half the aiming bonus) and aim
    (+1 a round, at most 3 range units). 智力4+射击3+专业1 = 8 DP; the mortar needs STR 3, size 6, two hands.
    STR 1, two hands: 2 short -> 4 dice. STR 5: 8 dice; one hand: requirement 3 + 3 = 6, 1 short -> 6 dice.
    Aim 2 rounds at 50 m: two hands 10 dice; one hand 6 + floor(2/2) = 7. Aiming at 301 m (> 3 x 100) is refused."""
    small = dp.Combatant(size=3)

    def dice(gunner, **kw):
        return dp.bombard(gunner, small, "mortar", distance=50, dice=dp.FixedDice([1] * 30), **kw).rolls[0].dice

    weak = dp.Combatant(strength=1, intelligence=4, shooting=3, specialty=1)
    strong = dp.Combatant(strength=5, intelligence=4, shooting=3, specialty=1)
    assert (dice(weak), dice(strong), dice(strong, hands=1)) == (4, 8, 6)
    assert (dice(strong, aim_rounds=2), dice(strong, hands=1, aim_rounds=2)) == (10, 7)
    with pytest.raises(dp.AimOutOfReach):
        dp.bombard(strong, small, "mortar", distance=301, aim_rounds=1)
    assert dice(weak, vehicle_mounted=True) == 4 + 0 + 1  # 智力+器用+专业: a mounted gun has no strength requirement


def test_single_action_preconditions_the_seed_states(dp, hero):
    """DP-61: 「敌人需要能被精确定位或模糊定位」 to aim; DP-33: 「如果你在攻击中同时攻击多个对象，则必须所有对象都处于
    无助状态」; DP-52: 「对一个目标维持擒抱需要占用两只手」; DP-60: 「敌人闪躲：防御者可以选择闪过闯越者」 passes with
    no check, and a failed overrun steps back one square, falling there when it is occupied."""
    with pytest.raises(dp.AimUnlocated):
        dp.attack(hero, dp.Combatant(), "short_bow", distance=10, aim_rounds=1, target_unlocated=True)
    helpless = dp.Combatant(helpless=True)
    with pytest.raises(dp.NotHelpless):
        dp.attack(hero, helpless, "long_sword", coup_de_grace=True, targets=2)
    dp.attack(hero, helpless, "long_sword", coup_de_grace=True, targets=2, all_targets_helpless=True,
              dice=dp.FixedDice([]))
    with pytest.raises(dp.GrappleNeedsTwoHands):
        dp.grapple(hero, dp.Combatant(), free_hands=1)
    a = dp.Combatant(strength=4, martial=2)
    r = dp.overrun(a, dp.Combatant(), blocker_dodges=True, dice=dp.FixedDice([]))
    assert (r.passed, r.contested) == (1, False)
    stopped = dp.overrun(a, dp.Combatant(strength=5), square_behind_occupied=True,
                         dice=dp.FixedDice([1] * 6 + [9] * 5))
    assert (stopped.passed, stopped.stepped_back, stopped.fell) == (0, True, True)
    assert not dp.overrun(a, dp.Combatant(strength=5), dice=dp.FixedDice([1] * 6 + [9] * 5)).fell


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
