"""Hand-written baselines: the same rules written directly in Python, for the ratio benchmarks.

Each function implements the same rule, options and refusals as the generated
procedure it is compared with, in the style a careful programmer would write
by hand (straight-line code, the same dice source).
"""

from __future__ import annotations

from typing import Any


def faithful_pool(random: Any, dice: int) -> int:
    """A `.ww` pool roll: d10, 8+ succeeds, a 10 adds a die (R1)."""
    successes = 0
    while dice > 0:
        dice -= 1
        face = int(random() * 10) + 1
        if face >= 8:
            successes += 1
            if face >= 10:
                dice += 1
    return successes


def d20_attack(die: Any, attacker: Any, target: Any, weapon: Any, distance: int = 5,
               proficient: bool = True, willing: bool = False, flanking: bool = False) -> tuple[bool, bool, int]:
    """The d20 weapon attack (D20-01 ... D20-10): reach/range checks, layers, finesse, crit, damage."""
    props = weapon.properties
    ranged = weapon.attack_type == "ranged"
    if not ranged:
        reach = 5 + (5 if "reach" in props else 0) + 5 * max(0, attacker.size - 3)
        if distance > reach:
            raise ValueError("out of reach")
    else:
        limit = weapon.range_long or weapon.range_normal
        if distance > limit:
            raise ValueError("out of range")
    layers = (1 if willing else 0) - (1 if ranged and distance > weapon.range_normal else 0)
    str_mod = (attacker.strength - 10) // 2
    dex_mod = (attacker.dexterity - 10) // 2
    mod = max(str_mod, dex_mod) if "finesse" in props else dex_mod if ranged else str_mod
    bonus = mod + (attacker.proficiency if proficient else 0) + (3 if flanking and not ranged else 0)
    if layers == 0:
        natural = die(20)
    else:
        faces = [die(20) for _ in range(abs(layers) + 1)]
        natural = max(faces) if layers > 0 else min(faces)
    if natural + bonus < target.armor_class:
        return False, False, 0
    crit = natural >= 21 - attacker.crit_range
    total = 0
    for count, sides in weapon.damage_dice.terms:
        for _ in range(count * (2 if crit else 1)):
            total += die(sides)
    return True, crit, max(0, total + weapon.damage_dice.flat + mod)


def dp_attack(random: Any, attacker: Any, defender: Any, weapon: Any, distance: int = 0) -> tuple[bool, int]:
    """The dp attack vs defense (DP-01 ... DP-05) for a weapon at a distance, no other options."""
    at = weapon.attack_type
    short = max(0, weapon.strength - attacker.strength)
    base = weapon.base_range or 10
    increments = 0
    if at.ranged:
        mult = max(1, at.range_multiplier(attacker, at, weapon) - at.multiplier_loss_per_short_point * short)
        if distance > base * mult:
            raise ValueError("out of range")
        increments = max(0, -(-distance // base) - 1)
    speed = at.speed if weapon.speed < 0 else weapon.speed
    if at.point_blank_ignores_speed and distance <= 5:
        speed = 0
    basic = 0 if defender.flat_footed or defender.helpless else defender.basic_defense
    basic_left = max(0, basic - speed)
    armor_left = max(0, defender.armor_defense - weapon.armor_piercing // 2)
    cover = defender.cover_defense + (2 if defender.prone and at.ranged else 0)
    extras = ((defender.basic_extras if basic_left > 0 else 0) + (defender.armor_extras if armor_left > 0 else 0)
              + (defender.parry_extras if defender.parry_defense > 0 else 0)
              + (defender.cover_extras if cover > 0 else 0) + (defender.dodge_extras if defender.dodge_defense > 0 else 0))
    remaining = basic_left + armor_left + defender.parry_defense + cover + defender.dodge_defense
    pool = (at.pool(attacker, at, weapon) - 2 * increments - (2 * increments if short else 0) - 2 * short
            - weapon.oversize_penalty + (2 if defender.prone and not at.ranged else 0))
    dice = max(0, pool - remaining)
    raw = faithful_pool(random, dice)
    after = raw - extras
    if after <= 0:
        return False, 0
    return True, after + attacker.attack_extras


def d20_specialised(random: Any, bonus: int = 5, ac: int = 15, crit_min: int = 20, sides: int = 8,
                    mod: int = 3) -> tuple[bool, bool, int, str, int, int, bool]:
    """One specific attack written by hand: +5 to hit vs AC 15, 1d8+3, crit on 20.

    It draws faces from `random` inline (`int(random() * sides) + 1`, what SeededDice.die
    does) and returns the same nine outcome fields as the generated `attack`, so the
    comparison is the same work on the same dice primitive.
    """
    natural = int(random() * 20) + 1
    total = natural + bonus
    if total < ac:
        return False, False, 0, "slashing", natural, total, False, False, "standard"
    if natural >= crit_min:
        return True, True, int(random() * sides) + int(random() * sides) + 2 + mod, "slashing", natural, total, False, False, "standard"
    return True, False, int(random() * sides) + 1 + mod, "slashing", natural, total, False, False, "standard"


def d20_specialised_dice(dice: Any, bonus: int = 5, ac: int = 15, crit_min: int = 20, sides: int = 8,
                         mod: int = 3) -> tuple[bool, bool, int, str, int, int, bool]:
    """`d20_specialised` taking the same dice object the generated roller takes (`dice.die(sides)`),
    so neither side gets a cheaper dice primitive: the fair baseline of the prepared attack."""
    die = dice.die
    natural = die(20)
    total = natural + bonus
    if total < ac:
        return False, False, 0, "slashing", natural, total, False, False, "standard"
    if natural >= crit_min:
        return True, True, die(sides) + die(sides) + mod, "slashing", natural, total, False, False, "standard"
    return True, False, die(sides) + mod, "slashing", natural, total, False, False, "standard"


def dp_specialised(random: Any, dice: int = 8, defender_extras: int = 3,
                   extras: int = 5) -> tuple[bool, int, int, str, bool, bool, str, int, int, int, int, int, bool, int,
                                             int, int, bool, bool, bool]:
    """One specific dp attack written by hand: the seed's 8 dice after defense, 3 defender extras, +5.

    It returns the same sixteen outcome fields as the generated `attack` (hit, net, damage,
    damage type, melee, melee hit, condition, condition points, dice, defender extras, the attacker's own basic
    defense penalty, and the called-shot contest's severity steps, disarm and item damage, the willpower each side spent,
    and whether the weapon left the hand, was seized and must be reloaded).
    """
    raw = faithful_pool(random, dice)
    after = raw - defender_extras
    if after <= 0:
        return False, 0, 0, "blunt", True, False, "", 0, dice, defender_extras, 0, 0, False, 0, 0, 0, False, False, False
    net = after + extras
    return True, net, net, "blunt", True, True, "", 0, dice, defender_extras, 0, 0, False, 0, 0, 0, False, False, False


def tracks_fight_update(fight: dict[str, Any], defender: str, result: Any, accumulate: Any, recover: Any,
                        dice: Any) -> dict[str, Any]:
    """The effects of the tracks attack written by hand on plain dicts: what `Fight.apply` does for
    it, the same work a careful programmer keeping the fight as dicts would do. The defender's
    damage counter grows (saturated, a log line); a defender in a track's state who takes damage
    gets the recovery rule (`recover`) for that track; the points of the track the attack names
    grow (saturated at 10,000, the top the accumulation rule accepts) and the accumulation rule
    (`accumulate`) says the state they cause (a log line each). The fight is a new dict (the
    changed member's dicts copied, the log kept to its last 1,000 lines), the old one unchanged,
    as `Fight` is an immutable value. The names are the tracks ruleset's; the base stats stand
    for the effective ones (the benchmark's fight has no modifiers or states when it runs)."""
    members = dict(fight["members"])
    m = members[defender]
    counters, points, states = m["counters"], m["points"], m["states"]
    log: list[str] = []
    damage = result.damage
    if damage:
        total = min(max(counters.get("damage", 0) + damage, -1_000_000_000), 1_000_000_000)
        counters = {**counters, "damage": total}
        log.append(f"{defender}的所受伤害{damage:+d}（共{total}）")
        if damage > 0 and states:
            for track, current in list(points.items()):
                state = TRACK_STATES.get(track)
                if current <= 0 or state not in states:
                    continue
                left, awake = recover(m["base"], track, current=current, taken=min(damage, 10_000), dice=dice)
                if left != current:
                    points = {**points, track: left}
                    log.append(f"{defender}的{TRACK_NAMES[track]}{left - current:+d}（昏迷中受到伤害，共{left}）")
                if awake:
                    states = [s for s in states if s != state]
                    log.append(f"{defender}的{STATE_NAMES[state]}解除")
    track, gained = result.track, result.points
    if track and gained:
        before = points.get(track, 0)
        total = min(max(before + gained, 0), 10_000)
        points = {**points, track: total}
        log.append(f"{defender}的{TRACK_NAMES[track]}{gained:+d}（共{total}）")
        state = accumulate(m["base"], track, current=min(before, total), gained=max(0, total - before), dice=dice)[3]
        if state and state not in states:
            states = sorted([*states, state])
            log.append(f"{defender}进入{STATE_NAMES[state]}")
    members[defender] = {"base": m["base"], "counters": counters, "points": points, "states": states}
    return {"turn": fight["turn"], "members": members, "log": (fight["log"] + log)[-1000:]}


TRACK_NAMES = {"dizzy": "眩晕", "pain": "剧痛", "dazzle": "目眩", "tinnitus": "耳鸣"}
TRACK_STATES = {"dizzy": "unconscious", "pain": "helpless", "dazzle": "blind", "tinnitus": "deaf"}
STATE_NAMES = {"unconscious": "昏迷", "helpless": "无助", "blind": "目盲", "deaf": "耳聋"}
