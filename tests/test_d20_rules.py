"""d20: attack resolution, range and reach, flanking, contests and vehicles (D20-01 ... D20-23)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture()
def fighter(d20):
    return d20.Combatant(strength=16, dexterity=14, proficiency=2)


@pytest.fixture()
def ac15(d20):
    return d20.Combatant(armor_class=15)


def test_attack_roll_vs_ac(d20, fighter, ac15):
    """D20-01 (R30): d20 + modifiers >= AC hits; longsword: STR +3, proficiency +2."""
    assert d20.attack(fighter, ac15, "longsword", dice=d20.FixedDice([10, 4])).hit      # 15 >= 15
    assert not d20.attack(fighter, ac15, "longsword", dice=d20.FixedDice([9])).hit      # 14 < 15
    assert d20.attack_odds(fighter, ac15, "longsword").hit_probability == pytest.approx(11 / 20)


def test_ability_modifiers(d20, ac15):
    """D20-02: STR for melee, DEX for ranged, the better for finesse; spells use the casting ability."""
    strong = d20.Combatant(strength=18, dexterity=8)
    quick = d20.Combatant(strength=8, dexterity=18)
    assert d20.attack(strong, ac15, "longsword", dice=d20.FixedDice([10, 1])).total == 10 + 4 + 2
    assert d20.attack(quick, ac15, "longbow", distance=30, dice=d20.FixedDice([10, 1])).total == 10 + 4 + 2
    assert d20.attack(quick, ac15, "rapier", dice=d20.FixedDice([10, 1])).total == 10 + 4 + 2
    mage = d20.Combatant(spell_ability=16, proficiency=3)
    r = d20.spell_attack(mage, ac15, dice_count=2, dice_sides=10, dice=d20.FixedDice([12 - 1, 3, 4]))
    assert r.total == 11 + 3 + 3 and r.damage == 7


def test_proficiency(d20, fighter, ac15):
    """D20-03: proficiency is added only when proficient (unarmed strikes count as proficient)."""
    assert d20.attack(fighter, ac15, "longsword", proficient=False, dice=d20.FixedDice([10])).total == 13
    r = d20.attack(fighter, ac15, dice=d20.FixedDice([10]))  # unarmed strike by default
    assert r.total == 15 and r.damage == 1 + 3 and r.damage_type == "bludgeoning"


def test_crit_range_and_crit_dice(d20, ac15):
    """D20-04 (R30, R31): a hit with d20 >= 21 - crit range crits; every damage die twice, modifiers once."""
    keen = d20.Combatant(strength=16, crit_range=2)
    r = d20.attack(keen, ac15, "greatsword", sneak_dice=1, dice=d20.FixedDice([19, 1, 2, 3, 4, 5, 6]))
    assert r.crit
    assert r.damage == (1 + 2 + 3 + 4) + (5 + 6) + 3  # 4d6 + 2d6 sneak + STR 3
    assert not d20.attack(d20.Combatant(strength=16), ac15, "greatsword", dice=d20.FixedDice([19, 1, 1])).crit


def test_natural_one_and_twenty_option_is_off(d20, ac15):
    """D20-05 (R30): off by default, a natural 20 that misses the AC neither hits nor crits."""
    weak = d20.Combatant(strength=1, proficiency=0)
    ac30 = d20.Combatant(armor_class=30)
    r = d20.attack(weak, ac30, "club", dice=d20.FixedDice([20]))
    assert not r.hit and not r.crit
    assert d20.RULINGS["natural_one_twenty"] is False


def test_willing_target_grants_advantage(d20, fighter, ac15):
    """D20-06: advantage, still rolled: the higher of two d20."""
    r = d20.attack(fighter, ac15, "longsword", willing=True, dice=d20.FixedDice([3, 17, 4]))
    assert r.natural == 17 and len(r.rolls[0].faces) == 2


def test_unseen(d20, fighter, ac15):
    """D20-07 (R35): unseen target -> disadvantage, a wrong guess misses; unseen attacker -> advantage."""
    r = d20.attack(fighter, ac15, "longsword", target_unseen=True, dice=d20.FixedDice([18, 5]))
    assert r.natural == 5
    assert not d20.attack(fighter, ac15, "longsword", guessed_wrong=True, dice=d20.FixedDice([20])).hit
    r = d20.attack(fighter, ac15, "longsword", attacker_unseen=True, dice=d20.FixedDice([5, 18, 4]))
    assert r.natural == 18
    hidden = d20.Combatant(strength=16, hidden=True)
    r = d20.attack(hidden, ac15, "longsword", dice=d20.FixedDice([1, 17, 4]))
    assert r.revealed and r.natural == 17  # hidden is unseen: advantage, without attacker_unseen too
    wrong = d20.attack(fighter, ac15, "longsword", guessed_wrong=True, dice=d20.FixedDice([20]))
    assert "目标不在所猜的位置" not in wrong.text() and "目标不在所猜的位置" in wrong.text(gm=True)
    assert any(s.kind == "gm" for s in wrong.trace)  # the DM does not tell the player


def test_ranges(d20, fighter, ac15):
    """D20-08 (R34): beyond normal range one disadvantage layer; beyond long range refused."""
    r = d20.attack(fighter, ac15, "longbow", distance=200, dice=d20.FixedDice([18, 5, 1]))
    assert r.natural == 5
    with pytest.raises(d20.OutOfRange, match="600"):
        d20.attack(fighter, ac15, "longbow", distance=601)
    r = d20.attack(fighter, ac15, "handaxe", thrown=True, distance=30, dice=d20.FixedDice([18, 5, 1]))
    assert r.natural == 5
    with pytest.raises(d20.NotThrown):
        d20.attack(fighter, ac15, "longsword", thrown=True, distance=10)
    with pytest.raises(d20.OutOfRange):
        d20.spell_attack(fighter, ac15, dice_count=1, dice_sides=8, spell_range=60, distance=61)


def test_ranged_attack_with_hostile_in_reach(d20, fighter, ac15):
    """D20-09 (R34): a hostile, seeing, non-incapacitated creature in reach adds a disadvantage layer."""
    r = d20.attack(fighter, ac15, "longbow", distance=30, hostile_nearby=True, dice=d20.FixedDice([18, 5]))
    assert r.natural == 5
    both = d20.attack_odds(fighter, ac15, "longbow", distance=200, hostile_nearby=True)
    # two disadvantage layers stack: three d20 keep the lowest (R32)
    assert both.probability(natural=20) == pytest.approx(1 / 20**3)


def test_reach(d20, fighter, ac15):
    """D20-10: 5 ft reach, +5 ft with a reach weapon, more for larger creatures."""
    d20.attack_odds(fighter, ac15, "glaive", distance=10)
    with pytest.raises(d20.OutOfReach):
        d20.attack(fighter, ac15, "longsword", distance=10)
    d20.attack_odds(d20.Combatant(strength=16, size=4), ac15, "longsword", distance=10)


def test_flanking_squares(d20):
    """D20-11 (R33): the centre line between allies passes through the enemy's centre; +3 bonus."""
    m = d20.Combatant()
    r = d20.flanking(m, m, m, ax=0, ay=1, bx=2, by=1, ex=1, ey=1)
    assert r.flanks and r.bonus == 3
    assert d20.flanking(m, m, m, ax=0, ay=0, bx=2, by=2, ex=1, ey=1).flanks       # diagonal
    assert not d20.flanking(m, m, m, ax=0, ay=0, bx=2, by=1, ex=1, ey=1).flanks
    big = d20.Combatant(size=4)  # a large enemy in (1,1)-(2,2); centre at (2, 2)
    assert d20.flanking(m, m, big, ax=0, ay=1, bx=3, by=1, ex=1, ey=1).flanks is False
    assert d20.flanking(m, m, big, ax=0, ay=1, bx=3, by=2, ex=1, ey=1).flanks  # passes (2, 2) exactly
    assert d20.flanking(m, m, big, ax=0, ay=0, bx=3, by=3, ex=1, ey=1).flanks
    # a large ally qualifies through any one of its cells
    assert d20.flanking(big, m, m, ax=-1, ay=0, bx=2, by=1, ex=1, ey=1).flanks


def test_flanking_hexes(d20):
    """D20-12 (R33): hexes between the allies around the enemy: 2 for medium or smaller."""
    m = d20.Combatant()
    assert d20.flanking(m, m, m, hex_grid=True, ax=1, ay=0, bx=-1, by=0, ex=0, ey=0).flanks
    assert not d20.flanking(m, m, m, hex_grid=True, ax=1, ay=0, bx=0, by=-1, ex=0, ey=0).flanks
    assert (d20.RULINGS["hex_between_large"], d20.RULINGS["hex_between_huge"], d20.RULINGS["hex_between_gargantuan"]) == (4, 5, 6)


def test_d20_12_hex_footprints_give_the_seeds_2_4_5(d20):
    """D20-12 (R33): a large space is four hexes (a rhombus, perimeter 10), huge seven (perimeter
    12): two creatures on opposite sides are 4 and 5 hexes apart, exactly the seed's counts, and
    one hex round from there is not a flank. Large and huge no longer share a footprint."""
    from rulec.runtime.geometry import hex_cells, hex_perimeter

    assert [len(hex_cells(0, 0, s)) for s in (3, 4, 5)] == [1, 4, 7]
    assert [len(hex_perimeter(hex_cells(0, 0, s))) for s in (3, 4, 5, 6)] == [6, 10, 12, 18]
    m = d20.Combatant()

    def flanks(enemy_size, a, b):
        return d20.flanking(m, m, d20.Combatant(size=enemy_size), hex_grid=True, ax=a[0], ay=a[1], bx=b[0], by=b[1],
                            ex=0, ey=0).flanks

    # large (rhombus (0,0) (1,0) (0,1) (1,1)): (2,-1) and (-1,2) face each other across the short diagonal
    assert flanks(4, (2, -1), (-1, 2)) and not flanks(4, (2, -1), (-1, 1))
    assert flanks(4, (2, 0), (-1, 1)) and not flanks(4, (2, 0), (0, 2))
    # huge (radius 1): opposite hexes of its ring of 12 are 5 apart
    assert flanks(5, (2, 0), (-2, 0)) and not flanks(5, (2, 0), (-2, 1))
    # gargantuan (radius 2): opposite is 8 apart, 6 is enough ("至少6")
    assert flanks(6, (3, 0), (-3, 0)) and flanks(6, (3, 0), (-3, 2)) and not flanks(6, (3, 0), (-3, 3))


@pytest.mark.slow
def test_d20_12_hex_flanking_python_and_node_agree(tmp_path):
    """D20-12: geometry.py and geometry.js give the same answer for every pair of cells of the
    ring around each size of enemy (and a large ally beside it), with each size's needed count."""
    import json
    import subprocess
    from itertools import product

    from rulec.runtime.geometry import flanks_hex, hex_cells, hex_perimeter

    root = Path(__file__).resolve().parent.parent
    cases = []
    for e_size, needed in ((3, 2), (4, 4), (5, 5), (6, 6)):
        ring = hex_perimeter(hex_cells(0, 0, e_size)) + [(5, 5)]
        for a, b in product(ring, ring):
            for a_size in (3, 4):
                cases.append([a[0], a[1], a_size, b[0], b[1], 3, 0, 0, e_size, needed])
    script = tmp_path / "run.js"
    script.write_text("class RuleError extends Error {}\n" + (root / "compiler/runtime/js/geometry.js").read_text(
        encoding="utf-8") + "\nconst cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
        "process.stdout.write(JSON.stringify(cases.map(c => _rt_flanks_hex(...c))));\n", encoding="utf-8")
    done = subprocess.run(["node", str(script)], input=json.dumps(cases), capture_output=True, text=True, timeout=60,
                          check=True)
    assert json.loads(done.stdout) == [flanks_hex(*c) for c in cases]
    assert sum(flanks_hex(*c) for c in cases) > 100  # the cases flank and fail to flank


def test_flanking_preconditions(d20):
    """D20-13: both must see, be able to attack, not be incapacitated or charmed by the target."""
    m = d20.Combatant()
    pos = dict(ax=0, ay=1, bx=2, by=1, ex=1, ey=1)
    assert not d20.flanking(m, m, m, b_sees=False, **pos).flanks
    assert not d20.flanking(m, d20.Combatant(incapacitated=True), m, **pos).flanks
    assert not d20.flanking(m, m, m, a_charmed=True, **pos).flanks
    assert not d20.flanking(m, m, m, a_can_attack=False, **pos).flanks
    assert d20.attack(m, d20.Combatant(armor_class=14), "club", flanking=True, dice=d20.FixedDice([9, 1])).hit


def test_two_weapon_fighting(d20, ac15):
    """D20-14 (R36): light weapons only; the bonus attack adds the ability modifier only if negative."""
    strong = d20.Combatant(strength=16)
    weak = d20.Combatant(strength=6)
    assert d20.attack(strong, ac15, "shortsword", offhand=True, light_attack_made=True, dice=d20.FixedDice([15, 4])).damage == 4
    assert d20.attack(weak, ac15, "club", offhand=True, light_attack_made=True, dice=d20.FixedDice([19, 4])).damage == 4 - 2
    with pytest.raises(d20.NotLight):
        d20.attack(strong, ac15, "longsword", offhand=True, light_attack_made=True)


def test_grapple(d20):
    """D20-15 (R37): size limit, free hand, tie fails, incapacitated defenders roll a 1."""
    a = d20.Combatant(strength=14, athletics=True)
    d = d20.Combatant(strength=14)
    r = d20.grapple(a, d, dice=d20.FixedDice([10, 12]))
    assert (r.attack_total, r.defend_total, r.success) == (14, 14, False)  # tie fails
    assert not r.retry_this_turn
    r = d20.grapple(a, d20.Combatant(incapacitated=True), dice=d20.FixedDice([2]))
    assert r.defend_total == 1 and r.success
    with pytest.raises(d20.TooLarge):
        d20.grapple(a, d20.Combatant(size=5))
    with pytest.raises(d20.NoFreeHand):
        d20.grapple(a, d, free_hand=False)
    with pytest.raises(d20.IntangibleTarget):
        d20.grapple(a, d20.Combatant(intangible=True))


def test_size_advantage_layers(d20):
    """D20-16 (R32, R37): each size category of difference is one advantage layer for the larger side."""
    big = d20.Combatant(size=5)
    small = d20.Combatant(size=4)
    r = d20.grapple(big, small, dice=d20.FixedDice([3, 17, 9]))
    assert r.rolls[0].faces == (3, 17) and r.rolls[1].faces == (9,)
    odds = d20.grapple_odds(d20.Combatant(size=6), d20.Combatant(size=5))
    assert odds.total() == pytest.approx(1.0)


def test_escape_grapple(d20):
    """D20-17: the escaper must beat the grappler's STR (Athletics)."""
    r = d20.escape_grapple(d20.Combatant(dexterity=16, acrobatics=True), d20.Combatant(strength=10),
                           dice=d20.FixedDice([10, 10]))
    assert r.escape_total == 15 and r.success


def test_moving_while_grappling(d20):
    """D20-18: half speed unless the target is two sizes smaller; moving it costs 5 ft."""
    me = d20.Combatant(speed=30, size=3)
    assert d20.grapple_move(me, d20.Combatant(size=3), grappling=True).speed == 15
    assert d20.grapple_move(me, d20.Combatant(size=1), grappling=True).speed == 30
    assert d20.grapple_move(me, d20.Combatant(), grappling=True).reposition_cost == 5


def test_several_grapplers(d20):
    """D20-19 (R41): a STR contest against the other grappler, who may waive it."""
    a, b = d20.Combatant(strength=14), d20.Combatant(strength=14)
    assert not d20.drag(a, b, b, dice=d20.FixedDice([10, 10])).success
    assert d20.drag(a, b, b, waived=True, dice=d20.FixedDice([])).success


def test_shove(d20):
    """D20-20 (R38): prone or push 5 + X ft; an obstacle stops it with 1d6 per full 5 ft left."""
    a = d20.Combatant(strength=18, athletics=True)
    d = d20.Combatant(strength=10)
    r = d20.shove(a, d, dice=d20.FixedDice([15, 5]))
    assert r.push_feet == 5 + (15 + 4 + 2) - 5
    r = d20.shove(a, d, obstacle_at=5, dice=d20.FixedDice([15, 5, 3, 4, 6]))
    assert r.push_feet == 5 and r.obstacle_damage == 3 + 4 + 6  # 21 - 5 = 16 ft left -> 3d6
    assert d20.shove(a, d, knock_prone=True, dice=d20.FixedDice([15, 5])).prone


def test_vehicle_dc_worked_example(d20):
    """D20-23 (R39): a 1000 x 120 x 40 ft nuclear carrier, three categories above a medium grappler: DC 125."""
    saiyan = d20.Combatant(size=3)
    r = d20.vehicle_dc(saiyan, "核能", vehicle_size=6, length=1000, width=120, height=40)
    assert (r.mean_size, r.dc) == (170, 125)
    assert "DC = 35 + 15 + 75 = 125" in r.text()


def test_vehicle_grapple_worked_example(d20):
    """D20-21 (R39): a check of 136 beats DC 125 and holds the carrier; escape when a new check < DC."""
    saiyan = d20.Combatant(size=3)
    args = dict(vehicle_size=6, length=1000, width=120, height=40)
    r = d20.vehicle_check(saiyan, "nuclear", bonus=126, dice=d20.FixedDice([10]), **args)
    assert (r.total, r.holds) == (136, True)
    r = d20.vehicle_check(saiyan, "nuclear", bonus=100, dice=d20.FixedDice([10]), **args)
    assert not r.holds and r.escapes  # a result, not an error


def test_vehicle_shove(d20):
    """D20-22 (R40): push 5 + (check - DC) ft when the check beats the DC."""
    r = d20.vehicle_check(d20.Combatant(), "nuclear", vehicle_size=6, length=1000, width=120, height=40,
                          bonus=126, shove=True, dice=d20.FixedDice([10]))
    assert r.shove_feet == 5 + 11


def test_power_sources_not_in_source_are_refused(d20):
    """D20-23: only nuclear has a base in the seed; the others are marked and refused clearly."""
    with pytest.raises(d20.NotSpecifiedBySource, match="动力"):
        d20.vehicle_dc(d20.Combatant(), "steam", vehicle_size=5, length=100, width=30, height=20)


def test_thrown_off_hand_and_always_proficient_unarmed(d20, fighter, ac15):
    """D20-14: a light off-hand weapon may be thrown instead; D20-03: everyone is proficient with
    an unarmed strike; D20-04: the net deals no damage, not its ability modifier."""
    r = d20.attack(fighter, ac15, "dagger", offhand=True, light_attack_made=True, thrown=True, distance=20, dice=d20.FixedDice([15, 3]))
    assert r.hit
    with_prof = d20.attack(fighter, ac15, "unarmed_strike", dice=d20.FixedDice([10]))
    without = d20.attack(fighter, ac15, "unarmed_strike", proficient=False, dice=d20.FixedDice([10]))
    assert with_prof.total == without.total
    net = d20.attack(fighter, ac15, "net", distance=5, dice=d20.FixedDice([19]))
    assert net.hit and net.damage == 0


def test_willing_targets_and_escaping_an_incapacitated_grappler(d20, fighter, ac15):
    """D20-06: a willing target must be conscious and not charmed; D20-17: when the grappler is
    incapacitated the grapple ends, no contest."""
    with pytest.raises(d20.WillingNeedsConscious):
        d20.attack(fighter, d20.Combatant(armor_class=15, charmed=True), "longsword", willing=True)
    r = d20.escape_grapple(d20.Combatant(), d20.Combatant(incapacitated=True), dice=d20.FixedDice([1]))
    assert r.success and "自动终止" in r.text()


def test_a_target_against_a_wall_and_a_vehicle_shove(d20, fighter):
    """D20-20: obstacle_at=0 is a target already against a wall (all the push is blocked), −1 no
    obstacle; D20-22: shoving a vehicle needs no free hand and may knock it prone."""
    t = d20.Combatant()
    r = d20.shove(fighter, t, obstacle_at=0, dice=d20.FixedDice([20, 1] + [6] * 10))
    assert r.push_feet == 0 and r.obstacle_damage > 0
    r = d20.vehicle_check(fighter, "nuclear", vehicle_size=3, length=10, width=10, height=10, shove=True,
                          free_hand=False, knock_prone=True, bonus=20, dice=d20.FixedDice([20]))
    assert r.total > r.dc and r.prone and not r.holds and r.shove_feet == 0


def test_melee_spell_attack_reach_grows_with_size(d20):
    """D20-10: 「少数法术也会发动一次近战攻击」 and 「体型更大的生物的触及范围也会相应扩大」: a large caster
    (one category above medium) reaches 5 + 5 = 10 ft with a melee spell attack, as with a weapon; 15 ft is
    out of its reach; a medium caster reaches 5 ft."""
    target = d20.Combatant(armor_class=10)
    large = d20.Combatant(size=4)
    r = d20.spell_attack(large, target, dice_count=1, dice_sides=8, melee=True, distance=10,
                         dice=d20.FixedDice([15, 3]))
    assert r.hit
    with pytest.raises(d20.OutOfReach):
        d20.spell_attack(large, target, dice_count=1, dice_sides=8, melee=True, distance=15)
    with pytest.raises(d20.OutOfReach):
        d20.spell_attack(d20.Combatant(size=3), target, dice_count=1, dice_sides=8, melee=True, distance=10)


def test_vehicle_grapple_size_exception_is_its_own_ruling(d20):
    """D20-21: the variant's 「被擒抱目标的体型不能比你大超过一级」 against its own example (a medium grappler
    holds a carrier three categories larger) is a ruling of its own, not R39 (the DC formula), and gives
    the example as its reason; by default the example wins and the carrier can be grappled."""
    from pathlib import Path

    from rulec.build.facade import compile_rules

    (rs,) = compile_rules([Path(__file__).resolve().parent.parent / "rules" / "d20"], stop_after="lower").rulesets
    ruling = next(r for r in rs.rulings if r.key == "vehicle_grapple_size_limit")
    assert not ruling.ruling and "核动力航母" in ruling.text and "大三级" in ruling.text
    r = d20.vehicle_check(d20.Combatant(size=3), "nuclear", vehicle_size=6, length=1000, width=120, height=40,
                          bonus=126, dice=d20.FixedDice([10]))
    assert r.holds


def test_vehicle_shove_into_an_obstacle(d20):
    """D20-22 (R38, R40): 「如果你将对手击退到了一个除地面以外的实体障碍物，那么它会中止击退，并受到每5尺剩余击退距离
    1d6点钝击伤害」 holds for a shoved vehicle too. Check 136 against the carrier's DC 125: push 5 + 11 = 16 ft; an
    obstacle at 4 ft stops it there with 12 ft left -> 2d6 (faces 3 and 5 = 8)."""
    args = dict(vehicle_size=6, length=1000, width=120, height=40, bonus=126, shove=True)
    r = d20.vehicle_check(d20.Combatant(), "nuclear", obstacle_at=4, dice=d20.FixedDice([10, 3, 5]), **args)
    assert (r.shove_feet, r.obstacle_damage) == (4, 8)
    r = d20.vehicle_check(d20.Combatant(), "nuclear", obstacle_at=20, dice=d20.FixedDice([10]), **args)
    assert (r.shove_feet, r.obstacle_damage) == (16, 0)


def test_moving_with_a_grappled_vehicle(d20):
    """D20-21 擒抱中移动: 「你可以拖行或背起受你擒抱的载具，但你的速度因此减半，而除非该载具的体型比你小两级或更多」,
    and 5 ft of movement moves it 5 ft. A medium grappler (speed 30) with a huge vehicle: 15 ft; with a tiny one
    (two categories smaller): 30 ft. A held vehicle gains no speed bonus: its speed is 0 while held."""
    saiyan = d20.Combatant(size=3, speed=30)
    assert d20.vehicle_move(saiyan, vehicle_size=5, vehicle_held=True).speed == 15
    r = d20.vehicle_move(saiyan, vehicle_size=1, vehicle_held=True)
    assert (r.speed, r.halved, r.reposition_cost) == (30, False, 5)
    held = d20.vehicle_check(saiyan, "nuclear", vehicle_size=6, length=1000, width=120, height=40, bonus=126,
                             dice=d20.FixedDice([10]))
    assert held.holds and held.vehicle_speed_zero and "无法受益于任何速度加值" in held.text()


def test_volunteering_and_provoking(d20):
    """D20-06: 「一个意识清醒，也没有受到魅惑或支配的生物」 may volunteer: a dominated one may not. D20-09: a ranged
    attack with a hostile creature in reach 「可能引发该生物的借机攻击」 (the seed does not define the opportunity
    attack: the trace says it may be provoked; the outcome fields stay those of every attack)."""
    with pytest.raises(d20.WillingNeedsConscious):
        d20.attack(d20.Combatant(), d20.Combatant(dominated=True), "longsword", willing=True)
    r = d20.attack(d20.Combatant(), d20.Combatant(), "shortbow", distance=30, hostile_nearby=True,
                   dice=d20.FixedDice([10, 10, 3]))
    assert "可能引发该生物的借机攻击" in r.text()
    assert "借机攻击" not in d20.attack(d20.Combatant(), d20.Combatant(), "longsword", dice=d20.FixedDice([10, 3])).text()


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
