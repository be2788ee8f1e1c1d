"""tracks: flow, attacks, defense, damage, called shots and condition tracks (TR-01 ... TR-73)."""

from __future__ import annotations

import pytest
from ruling_flip import flipped, oracle_run


def test_rounds(tracks):
    """TR-01: surprise rounds have 3 s turns, combat rounds 6 s."""
    assert tracks.ROUNDS["surprise"].turn_seconds == 3
    assert tracks.ROUNDS["combat"].turn_seconds == 6


def test_initiative_orders_and_rerolls_only_the_tied(tracks):
    """TR-02 (R50): successes, then extras, then re-roll only those still tied."""
    entries = [("甲", 2, 1), ("乙", 2, 1), ("丙", 2, 0), ("丁", 2, 3)]
    # 甲 1 success, 乙 1, 丙 2, 丁 0 -> 丙 first; 甲 and 乙 tie (1 + extras 1); 丁 last.
    faces = [9, 1, 9, 1, 9, 9, 1, 1] + [1, 1, 9, 1]  # re-roll: 甲 0, 乙 1
    order, trace = tracks.initiative_order(entries, dice=tracks.FixedDice(faces))
    assert order == ["丙", "乙", "甲", "丁"]
    assert any("平手，重新检定：甲、乙" in line for line in trace)
    # extras break a tie in successes without a re-roll
    order, _ = tracks.initiative_order([("甲", 1, 0), ("乙", 1, 2)], dice=tracks.FixedDice([9, 9]))
    assert order == ["乙", "甲"]


def test_detection(tracks):
    """TR-03: perception vs agility; +3 per halving of speed against hearing; full cover hides."""
    seeker = tracks.Combatant(perception=2, detect=0)
    hider = tracks.Combatant(dexterity=1, hide=0)
    r = tracks.detect(seeker, hider, sense="hearing", speed_halvings=1, dice=tracks.FixedDice([9, 9, 9, 9, 1, 1]))
    assert r.rolls[1].dice == 1 + 3 and r.noticed is False  # 2 vs 2: ties go to the hider
    assert not tracks.detect(seeker, hider, fully_hidden=True, dice=tracks.FixedDice([])).noticed


def test_supernatural_detection(tracks):
    """TR-04: a weaker detection influence cannot contest at all."""
    seeker = tracks.Combatant(perception=9, influence=1)
    hider = tracks.Combatant(influence=3)
    assert not tracks.detect(seeker, hider, supernatural=True, dice=tracks.FixedDice([])).noticed


def test_leaving_the_area(tracks):
    """TR-05, TR-34 (R57): before the attack no effect; after it started half damage and points."""
    assert tracks.leave_area(damage=9, points=5, timing="before").damage == 0
    r = tracks.leave_area(damage=9, points=5, timing="during")
    assert (r.damage, r.points) == (4, 2)
    r = tracks.leave_area(damage=9, timing="during", blocked=True, intended_meters=3)
    assert (r.damage, r.defense_penalty) == (9, 3)


def test_action_durations_and_response_timing(tracks):
    """TR-06, TR-35 (R51): a longer action cannot answer a shorter one."""
    a = tracks.ACTIONS
    assert (a["standard"].own_turn_ticks, a["move"].own_turn_ticks, a["swift"].own_turn_ticks) == (9, 6, 3)
    assert (a["free"].own_turn_ticks, a["free"].off_turn_ticks, a["reflex"].next_turn_ticks) == (1, 3, 3)
    assert not tracks.can_respond("reflex", "free").allowed
    assert tracks.can_respond("reflex", "standard").allowed
    assert not tracks.can_respond("readied", "move", readied_seconds=3).allowed  # 9 ticks > 6
    assert tracks.can_respond("readied", "move", readied_seconds=2).allowed  # R51: 3 ticks a second
    # TR-06: only reflex, free and (triggered) readied actions act off-turn, however short
    assert not tracks.can_respond("standard", "free").allowed
    assert not tracks.can_respond("swift", "standard").allowed
    with pytest.raises(tracks.ReadiedNeedsDuration):
        tracks.can_respond("readied", "standard")


def test_three_attack_modes(tracks):
    """TR-10: check-as-damage, hit check + fixed damage, fixed damage vs resistance."""
    modes = {t.id: t.mode for t in tracks.ATTACK_TYPES.values()}
    assert modes["melee"] == "check_damage" and modes["firearm"] == "hit_fixed" and modes["area"] == "fixed_resist"
    with pytest.raises(tracks.WrongMode):
        tracks.attack(tracks.Combatant(), tracks.Combatant(), "pistol")
    r = tracks.fixed_damage(tracks.Combatant(resistance=2, damage_reduction=1, absorption=1), amount=10)
    assert r.damage == 10 - 2 - 1 - 1


def test_attack_check_is_damage(tracks):
    """TR-11 (R52): key attribute + skill + weapon damage + bonus - defense; successes are damage."""
    a = tracks.Combatant(strength=4, weapon_skill=3)
    d = tracks.Combatant(basic_defense=2)
    r = tracks.attack(a, d, "sword", dice=tracks.FixedDice([9, 9, 1, 1, 1, 1, 1, 1]))
    assert r.rolls[0].dice == 4 + 3 + 3 - 2 and r.damage == 2


def test_damage_cap_and_uncapped_extra_damage(tracks):
    """TR-12, TR-13 (R53): successes + extras above the cap are lost; extra damage is added after."""
    a = tracks.Combatant(strength=2, fighting=1, extra_successes=2)
    d = tracks.Combatant()
    r = tracks.attack(a, d, "fist", extra_damage=5, dice=tracks.FixedDice([9, 9, 9]))
    assert r.damage == min(2 + 1, 3 + 2) + 5
    caps = {t.id: t.to_dict()['cap'] for t in tracks.ATTACK_TYPES.values()}
    assert caps["unarmed"] == "力量 + 格斗" and caps["short_throw"] == "投掷 + 武器.武器伤害"


def test_throw_and_bow_ranges(tracks):
    """TR-14 (R54): STR m short, STR x 10 m long, bow STR requirement x 10 m; -3 per multiple; limit at 0."""
    a = tracks.Combatant(strength=3, dexterity=3, throwing=2)
    d = tracks.Combatant()
    near = tracks.attack_odds(a, d, "dagger", distance=3)
    far = tracks.attack_odds(a, d, "dagger", distance=6)   # floor((6 - 3) / 3) = 1 increment
    assert near.expected("successes") > far.expected("successes")
    with pytest.raises(tracks.PastLimit):
        tracks.attack(a, d, "dagger", distance=12)         # 3 increments: 6 - 9 <= 0
    tracks.attack_odds(tracks.Combatant(strength=4, archery=3), d, "longbow", distance=40)


def test_pistol_burst_worked_example(tracks):
    """TR-15 (R55): a 3-damage pistol, 6 shots at 110 m (50 m range): -21 on each hit check, 2 per hit."""
    shooter = tracks.Combatant(dexterity=5, firearms=20)
    r = tracks.firearm(shooter, tracks.Combatant(), "pistol", shots=6, distance=110, dice=tracks.SeededDice(3))
    assert (r.penalty, r.per_hit) == (21, 2)
    assert r.damage == 2 * r.hits
    assert tracks.firearm(shooter, tracks.Combatant(), "pistol", shots=1, dice=tracks.SeededDice(1)).penalty == 0
    with pytest.raises(tracks.BurstTooLarge):
        tracks.firearm(shooter, tracks.Combatant(), "pistol", shots=13)


def test_burst_fire_odds(tracks):
    """TR-15: the exact distribution of hits is binomial over the shots; damage = hits x per hit."""
    shooter = tracks.Combatant(dexterity=5, firearms=20)
    odds = tracks.firearm_odds(shooter, tracks.Combatant(), "pistol", shots=6, distance=110)
    hits = odds.marginal("hits")
    assert set(hits) == set(range(7)) and sum(hits.values()) == pytest.approx(1.0)
    assert odds.expected_damage == pytest.approx(2 * odds.expected("hits"))


def test_energy_attack(tracks):
    """TR-16: INT or WIS (感知) + energy skill + weapon damage."""
    caster = tracks.Combatant(intelligence=2, perception=5, energy=3)
    r = tracks.attack(caster, tracks.Combatant(), "fire_bolt", distance=10, dice=tracks.FixedDice([1] * 10))
    assert r.rolls[0].dice == 5 + 3 + 2


def test_charge_worked_example(tracks):
    """TR-17 (R56): speed 40, +3 skill, 50 kg at the STR-4 limit -> check 7 with 4 extra successes."""
    r = tracks.charge(tracks.Combatant(move_speed=40), tracks.Combatant(), skill_bonus=3, load_tier=4,
                      dice=tracks.FixedDice([9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]))
    assert r.rolls[0].command == ".ww7+4"
    assert r.damage == r.self_damage == 1 + 4


def test_attack_and_counter_contests(tracks):
    """TR-18, TR-36: damage or negative points negate an action that needs concentration."""
    assert tracks.interrupt(True, damage=1).negated
    assert not tracks.interrupt(False, damage=5).negated
    assert not tracks.interrupt(True).negated


def test_attack_influence(tracks):
    """TR-19: the highest of energy, ability and weapon influence."""
    assert tracks.influence("fire_bolt", energy_influence=1, ability_influence=0).influence == 2
    assert tracks.influence(energy_influence=4, ability_influence=3).influence == 4


def test_attack_type_conversion(tracks):
    """TR-20: against a target smaller than the weapon, an area attack reduced by resistance + dodge."""
    tiny = tracks.Combatant(size=-3, resistance=1, dexterity=1, dodge=0)
    r = tracks.conversion(tiny, "sword", dice=tracks.FixedDice([9]))
    assert r.converts and r.coverage == 2 and r.damage == 3 - 1 - 1
    assert not tracks.conversion(tiny, "sword", from_called_shot=True, dice=tracks.FixedDice([])).converts


def test_parry(tracks):
    """TR-30: the bonus from skill, lasting 6 s; a broken weapon absorbs its damage."""
    r = tracks.parry(tracks.Combatant(weapon_skill=4), incoming=7, weapon_absorbed=3)
    assert (r.parry_bonus, r.seconds, r.damage) == (4, 6, 4)


def test_dodge(tracks):
    """TR-31: DEX + dodge successes reduce the damage of applicable attacks."""
    r = tracks.dodge(tracks.Combatant(dexterity=2, dodge=1), incoming=5, dice=tracks.FixedDice([9, 9, 1]))
    assert r.damage == 3
    assert tracks.dodge(tracks.Combatant(), incoming=5, applicable=False, dice=tracks.FixedDice([])).damage == 5


def test_hiding_behind_obstacles(tracks):
    """TR-32: break through (minus what the obstacle takes) or aim at the exposed part."""
    assert tracks.take_cover(incoming=8, obstacle_takes=3).damage == 5
    assert tracks.take_cover(incoming=8, obstacle_takes=3, aim_exposed=True).damage == 8
    assert tracks.take_cover(incoming=8, obstacle_takes=3, aim_exposed=True, fully_covered=True).damage == 5


def test_resist(tracks):
    """TR-33: resistance lowers fixed damage; mental damage meets mental resistance."""
    d = tracks.Combatant(resistance=1, mental_resistance=4)
    assert tracks.fixed_damage(d, amount=5).damage == 4
    assert tracks.fixed_damage(d, amount=5, damage_type="mental").damage == 1


def test_breaking_projectiles(tracks):
    """TR-37: the check takes a penalty equal to the projectile's speed; structure reached stops it."""
    r = tracks.break_projectile(tracks.Combatant(), "javelin", check=6, structure=2, dice=tracks.FixedDice([9, 9, 1]))
    assert r.rolls[0].dice == 3 and r.destroyed


def test_damage_types(tracks):
    """TR-40: physical, energy and mental families."""
    families = {t.family for t in tracks.DAMAGE_TYPES.values()}
    assert families == {"physical", "energy", "mental"}


def test_reduction_order(tracks):
    """TR-41 (R58): defense/resistance, then damage reduction, then absorption, then HP."""
    r = tracks.fixed_damage(tracks.Combatant(resistance=3, damage_reduction=2, absorption=10), amount=10)
    assert (r.damage, r.absorbed) == (0, 5)
    assert "固定伤害10 → 抵抗3后7 → 减免后5 → 吸收5 → 最终伤害0 → 生命值0" in r.text()


def test_chaos_scale(tracks):
    """TR-42 (R64): INT checks take -chaos; none possible at chaos >= INT."""
    r = tracks.chaos_check(tracks.Combatant(intelligence=5, chaos=2), skill=1, dice=tracks.FixedDice([1] * 4))
    assert r.rolls[0].dice == 4
    with pytest.raises(tracks.PeriodicImpossible):
        tracks.chaos_check(tracks.Combatant(intelligence=5, chaos=5))


def test_called_shot_part_sizes(tracks):
    """TR-50 (R59): part size offsets 4 / 3 / 2, penalty equal to the size difference."""
    offsets = {p.id: p.size_offset for p in tracks.BODY_PARTS.values()}
    assert offsets == {"vitals": 4, "eyes": 3, "ears": 3, "jaw": 3, "abdomen": 2, "limbs": 2, "held_item": 2}
    a = tracks.Combatant(strength=4, weapon_skill=3)
    r = tracks.attack(a, tracks.Combatant(), "sword", part="eyes", dice=tracks.FixedDice([1] * 7))
    assert r.rolls[0].dice == 10 - 3


def test_called_shot_effects(tracks):
    """TR-51: vitals -> severe (END reduces); eyes -> dazzle points (resistance reduces); held item -> item only."""
    a = tracks.Combatant(strength=5, weapon_skill=5)
    d = tracks.Combatant(endurance=2, resistance=1)
    r = tracks.attack(a, d, "sword", part="vitals", dice=tracks.FixedDice([9] * 4 + [1] * 5 + [9, 1]))
    assert r.damage == 4 and r.severe == 4 - 1
    r = tracks.attack(a, d, "sword", part="eyes", dice=tracks.FixedDice([9] * 4 + [1] * 6))
    assert (r.track, r.points) == ("dazzle", 4 - 1)
    r = tracks.attack(a, d, "sword", part="held_item", dice=tracks.FixedDice([9] * 4 + [1] * 7))
    assert (r.damage, r.item_damage) == (0, 4)


def test_dazzle_and_tinnitus(tracks):
    """TR-60 (R60): capacity = the part's HP slot; debuff = excess; state past 3x (equal is not over)."""
    c = tracks.Combatant(eye_hp=2)
    assert tracks.add_points(c, "目眩", gained=3).debuff == 1
    assert tracks.add_points(c, "dazzle", gained=6).state == ""
    assert tracks.add_points(c, "dazzle", gained=7).state == "blind"
    assert tracks.add_points(tracks.Combatant(ear_hp=1), "tinnitus", gained=4).state == "deaf"


def test_mental_seal(tracks):
    """TR-61: capacity = key attribute + WIL."""
    c = tracks.Combatant(mental_key=2, will=3)
    assert tracks.add_points(c, "mental_seal", gained=6).debuff == 1


def test_blind_deaf_sealed_states(tracks):
    """TR-62: without another working sense, no basic or dodge defense and no active defense."""
    for sid in ("blind", "deaf", "sealed"):
        s = tracks.STATES[sid]
        assert s.loses_basic_defense and s.loses_dodge_defense and s.no_active_defense and s.needs_no_other_sense


def test_mental_bind(tracks):
    """TR-63: capacity 2 x WIL + INT; state 震慑."""
    c = tracks.Combatant(will=2, intelligence=1)
    assert tracks.add_points(c, "mental_bind", gained=16).state == "awed"
    assert tracks.STATES["awed"].concentration_fails


def test_paralysis(tracks):
    """TR-64: capacity 2 x DEX + END; state 定身."""
    r = tracks.add_points(tracks.Combatant(dexterity=3, endurance=2), "paralysis", gained=25)
    assert (r.capacity, r.debuff, r.state) == (8, 17, "immobilized")


def test_entangle(tracks):
    """TR-65: capacity = base move speed."""
    assert tracks.add_points(tracks.Combatant(move_speed=5), "entangle", gained=6).debuff == 1


def test_immobilized(tracks):
    """TR-66: no physical actions, no basic or dodge defense."""
    s = tracks.STATES["immobilized"]
    assert s.no_physical_actions and s.loses_basic_defense and s.loses_dodge_defense and not s.no_mental_actions


def test_drowsy_missed_rest(tracks):
    """TR-67 (R61): each missed long rest lowers capacity by 1 and adds 1 point."""
    c = tracks.Combatant(max_focus=4)
    r = tracks.miss_long_rest(c, current=3)
    assert (r.points, r.capacity) == (4, 3)
    r = tracks.miss_long_rest(c, current=r.points, capacity_loss=r.capacity_loss)
    assert (r.points, r.capacity, r.debuff) == (5, 2, 3)


def test_dizzy(tracks):
    """TR-68: capacity 2 x DEX + PER; state 昏迷."""
    assert tracks.add_points(tracks.Combatant(dexterity=1, perception=1), "dizzy", gained=10).state == "unconscious"


def test_unconscious_wakes(tracks):
    """TR-69 (R62): damage lowers the causing track's points; below 3x capacity the creature wakes."""
    c = tracks.Combatant(dexterity=1, perception=1)  # capacity 3, state past 9
    r = tracks.unconscious_hit(c, current=11, taken=2)
    assert (r.points, r.awake) == (9, False)
    assert tracks.unconscious_hit(c, current=11, taken=3).awake
    assert tracks.STATES["unconscious"].no_actions


def test_pain_adds_fear(tracks):
    """TR-70: capacity = max focus; gaining pain also gives fear equal to the excess; state 无助."""
    r = tracks.add_points(tracks.Combatant(max_focus=4), "剧痛", current=3, gained=3)
    assert (r.debuff, r.fear) == (2, 2)
    assert tracks.add_points(tracks.Combatant(max_focus=1), "pain", gained=4).state == "helpless"


def test_helpless(tracks):
    """TR-71: no defenses, no focus use, contests fail."""
    s = tracks.STATES["helpless"]
    assert s.loses_parry_defense and s.no_focus and s.contests_fail


def test_unspecified_tracks_are_refused(tracks):
    """TR-72 (R63): tracks and states named without rules are declared and refused clearly."""
    for tid in ("fatigue", "deformation", "freezing", "madness"):
        assert tracks.CONDITION_TRACKS[tid].not_specified
        with pytest.raises(tracks.NotSpecifiedBySource, match="没有给出具体规则"):
            tracks.add_points(tracks.Combatant(), tid, gained=1)
    assert all(tracks.STATES[s].not_specified for s in ("exhausted", "reified", "berserk"))


def test_recovery(tracks):
    """TR-73: a long rest recovers points equal to the check's successes (not supernatural ones)."""
    r = tracks.recover(tracks.Combatant(), "dizzy", current=5, check_dice=3, dice=tracks.FixedDice([9, 9, 1]))
    assert (r.points, r.recovered) == (3, 2)
    assert tracks.recover(tracks.Combatant(), "dizzy", current=5, check_dice=3, supernatural=True, dice=tracks.FixedDice([])).points == 5


def test_enhanced_long_rest_recovery(tracks):
    """TR-67 (R61): an enhanced long rest recovers (rest time − drowsy points) points, both of the
    drowsy points and of the lowered capacity; drowsy pairs with 昏迷 and wakes on damage."""
    r = tracks.enhanced_long_rest(tracks.Combatant(), current=3, capacity_loss=3, rest_hours=8)
    assert (r.recovered, r.points, r.capacity_loss) == (5, 0, 0)
    assert tracks.CONDITION_TRACKS["drowsy"].state.id == "unconscious"
    with pytest.raises(tracks.NoEnhancedRest):
        tracks.enhanced_long_rest(tracks.Combatant(), rest_hours=8, track="dizzy")


def test_charge_worked_example_against_damage_reduction(tracks):
    """TR-41 (R58), TR-17: the seed's charge (speed 40, +3, load tier 4 -> .ww7+4) against a target with
    damage reduction 2 and absorption 1: one success -> 1 + 4 = 5 (cap 10), 5 - 2 = 3, absorbs 1 -> 2 to HP.
    The charger takes the same base damage, 5, less its own reduction 1 -> 4; the push is the 2 taken."""
    charger = tracks.Combatant(move_speed=40, damage_reduction=1)
    target = tracks.Combatant(damage_reduction=2, absorption=1)
    r = tracks.charge(charger, target, skill_bonus=3, load_tier=4,
                      dice=tracks.FixedDice([9, 1, 1, 1, 1, 1, 1] + [1, 1, 1]))
    assert r.rolls[0].command == ".ww7+4"
    assert (r.damage, r.self_damage, r.pushed_meters) == (2, 4, 2)
    assert "伤害5经伤害减免2、伤害吸收1后，最终伤害2" in r.text()


def test_charge_obstacle_damage_is_reduced_too(tracks):
    """TR-41, TR-17: the collision's damage (the meters not moved, at most the obstacle's structure) is
    damage taken too, by each side through its own reduction: 3 successes -> 3; the target's reduction 1
    leaves 2, so it is pushed 2 m (no resisting dice) into an obstacle at 1 m: 1 m not moved -> impact 1,
    which its reduction takes to 0; the charger takes 3 + 1 (no reduction); it moved 1 m."""
    charger = tracks.Combatant(move_speed=40)
    target = tracks.Combatant(damage_reduction=1, strength=0, dexterity=0)
    r = tracks.charge(charger, target, obstacle_at=1, obstacle_structure=5,
                      dice=tracks.FixedDice([9, 9, 9, 1]))
    assert (r.damage, r.self_damage, r.pushed_meters) == (2 + 0, 3 + 1, 1)


def test_conversion_goes_through_reduction_and_absorption(tracks):
    """TR-41, TR-20: the converted area attack (sword damage 3) less resistance 1 and 0 dodge
    successes = 2, then reduction 1 -> 1, then absorption 1 -> 0."""
    tiny = tracks.Combatant(size=-3, resistance=1, dexterity=1, damage_reduction=1, absorption=1)
    r = tracks.conversion(tiny, "sword", dice=tracks.FixedDice([1]))
    assert (r.converts, r.damage, r.absorbed) == (True, 0, 1)
    r = tracks.conversion(tracks.Combatant(size=-3, dexterity=1, damage_reduction=1), "sword",
                          dice=tracks.FixedDice([1]))
    assert r.damage == 3 - 1


def test_charge_reads_extras_alone_hit(tmp_path):
    """TR-11, TR-17: the charge hits as every other attack does, by the extras_alone_hit ruling: no
    success with 4 load-tier extras misses by default, and hits for 0 + 4 when a table flips it."""
    stock, pack = flipped(tmp_path, "tracks", "extras_alone_hit", True)
    args = {"attacker": {"move_speed": 40}, "defender": {}, "skill_bonus": 3, "load_tier": 4}
    assert oracle_run(stock, "charge", args, [1] * 7)["damage"] == 0
    assert oracle_run(pack, "charge", args, [1] * 7 + [1, 1, 1])["damage"] == 4


def test_abdomen_hit_deals_damage_and_records_nausea(tracks):
    """TR-51: 「攻击腹部会造成恶心点数，被攻击者使用抗性降低」: the seed gives the damage and the points, not
    the nausea track's capacity. STR 5 + sword skill 5 + sword 3 - abdomen penalty 2 = 11 dice, 4 successes
    (cap 5 + 3) -> 4 damage; resistance 1 -> 3 nausea points; in a fight the damage is taken, the points
    are recorded, and no debuff or state follows (the capacity is unknown)."""
    a = tracks.Combatant(strength=5, weapon_skill=5)
    d = tracks.Combatant(resistance=1)
    faces = [9] * 4 + [1] * 7
    r = tracks.attack(a, d, "sword", part="abdomen", dice=tracks.FixedDice(faces))
    assert (r.damage, r.track, r.points) == (4, "nausea", 3)
    assert "原文没有给出恶心的累积槽" in r.text()
    fight = tracks.start_fight({"甲": a, "乙": d})
    _, fight = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="sword", part="abdomen",
                      dice=tracks.FixedDice(faces))
    assert fight.status("乙") == "乙：所受伤害4，恶心3"
    assert fight.effective("乙") == d
    r = tracks.add_points(tracks.Combatant(), "nausea", current=30, gained=3)
    assert (r.points, r.debuff, r.state) == (33, 0, "")
    assert "只记录点数，不产生减益或负面状态" in r.text()


def test_reflex_and_readied_actions_can_be_answered(tracks):
    """TR-35, TR-06 (R51): a reflex action takes 「自己回合外的两秒」 (6 ticks) and a readied action its
    declared length, so an action no longer than that can answer them; free actions answer off-turn ones."""
    assert tracks.can_respond("reflex", "reflex").allowed                       # 6 <= 6
    assert tracks.can_respond("free", "reflex").allowed                         # 3 <= 6
    assert tracks.can_respond("readied", "reflex", readied_seconds=2).allowed   # 6 <= 6
    assert not tracks.can_respond("readied", "reflex", readied_seconds=3).allowed  # 9 > 6
    assert tracks.can_respond("reflex", "readied", action_readied_seconds=3).allowed  # 6 <= 9
    assert not tracks.can_respond("reflex", "readied", action_readied_seconds=1).allowed  # 6 > 3
    assert not tracks.can_respond("reflex", "free", action_off_turn=True).allowed  # 6 > 3 (free off-turn 1 s)
    assert tracks.can_respond("free", "free", action_off_turn=True).allowed     # 3 <= 3
    with pytest.raises(tracks.ReadiedNeedsDuration):
        tracks.can_respond("reflex", "readied")
    with pytest.raises(tracks.NotOffTurn):
        tracks.can_respond("reflex", "standard", action_off_turn=True)


def test_charge_skill_is_the_better_of_athletics_and_fighting(tracks):
    """TR-17: 「相关技艺为运动系或格斗系」 for the charger as for the defender: the better of 运动 and 格斗
    (ruling charge_skill_best_of), plus any bonus on the charge itself. Speed 40 -> key 4; 运动 2, 格斗 3 -> 3;
    the seed's +3 bonus -> .ww10+4."""
    charger = tracks.Combatant(move_speed=40, athletics=2, fighting=3)
    r = tracks.charge(charger, tracks.Combatant(), skill_bonus=3, load_tier=4, dice=tracks.FixedDice([1] * 10))
    assert r.rolls[0].command == ".ww10+4"
    assert tracks.RULINGS["charge_skill_best_of"] is True


def test_leaving_the_area_against_a_firearm_or_a_charge(tracks):
    """TR-34 (R57): 「在对方攻击开始后，攻击结束前若是成功脱离攻击范围，则仅会受到一半的最终伤害」 for every attack
    kind: a firearm's 2 hits of 3 -> 6, halved 3; the seed's charge (.ww7+4) with 1 success -> 5, halved 2."""
    gun = tracks.firearm(tracks.Combatant(dexterity=5), tracks.Combatant(), "pistol", shots=1, left_area=True,
                         dice=tracks.FixedDice([9] * 30))
    full = tracks.firearm(tracks.Combatant(dexterity=5), tracks.Combatant(), "pistol", shots=1,
                          dice=tracks.FixedDice([9] * 30))
    assert gun.damage == full.damage // 2
    r = tracks.charge(tracks.Combatant(move_speed=40), tracks.Combatant(), skill_bonus=3, load_tier=4, left_area=True,
                      dice=tracks.FixedDice([9] + [1] * 9 + [1] * 10))
    assert r.damage == 5 // 2


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
