"""Exact odds over a plan (`Fight.until_plan`): an opening, then a repeated cycle, until any
declared condition, state, counter total or track total — following the whole fight state. Checked
against the independent chains where the state does not feed back, against `until_state` where
only a track does, against brute-force enumeration of every die (small cases), and against seeded
simulation of the fight API (the large run in the slow job)."""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from typing import Any

import pytest

ROLES = {"attacker": "甲", "defender": "乙"}


def step(procedure: str, end_turn: bool = True, roles: Any = None, **options: Any) -> dict:
    return {"procedure": procedure, "roles": roles or ROLES, "options": options, "end_turn": end_turn}


def simulate(module: Any, fight: Any, plan: Any, target: Any, n: int, seed: int, cap: int = 60) -> list[int]:
    """The number of actions each of `n` seeded fights needs (the fight API, real dice)."""
    opening, cycle = plan.get("opening", []), plan["cycle"]
    dice = module.SeededDice(seed)
    counts = []
    for _ in range(n):
        f, k = fight, 0
        while not f.reached(target) and k < cap:
            s = opening[k] if k < len(opening) else cycle[(k - len(opening)) % len(cycle)]
            k += 1
            try:
                _, f = f.act(s["procedure"], s["roles"], dice=dice, **s["options"])
            except module.Refused:
                pass
            if s["end_turn"]:
                actor = s["roles"][list(s["roles"])[0]]
                for _ in range(len(f.members)):
                    f = f.next_turn()
                    if f.actor == actor:
                        break
        counts.append(k)
    return counts


def test_a_plan_of_one_attack_equals_the_independent_chain(dp, d20):
    """With nothing carried into later attacks, the fight's chain is the plain chain over the total."""
    a = dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5)
    b = dp.Combatant(basic_defense=4, parry_defense=2)
    fight = dp.start_fight({"甲": a, "乙": b})
    got = fight.until_plan([step("attack", weapon="拳")], {"who": "乙", "counter": "damage", "at_least": 20})
    want = dp.until("attack", "damage", 20, a, b, "拳")
    assert len(got.probabilities) == len(want.probabilities)
    assert max(abs(x - y) for x, y in zip(got.probabilities, want.probabilities)) < 1e-12
    attacker, target = d20.Combatant(dexterity=14, proficiency=2), d20.Combatant(armor_class=12)
    fight = d20.start_fight({"甲": attacker, "乙": target})
    roles = {"attacker": "甲", "target": "乙"}
    got = fight.until_plan([step("attack", roles=roles, weapon="dagger")], {"who": "乙", "counter": "damage", "at_least": 9})
    want = d20.until("attack", "damage", 9, attacker, target, "dagger")
    assert abs(got.expected - want.expected) < 1e-12


def test_the_plain_chain_shortcut_equals_the_chain_over_fights(dp, tracks):
    """One action repeated that leaves the state as it was (but for the counted total) is solved as
    the plain chain over the total; the same plan written with an opening takes the chain over
    fight states: they agree."""
    a = dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5)
    b = dp.Combatant(basic_defense=4, parry_defense=2)
    fight = dp.start_fight({"甲": a, "乙": b})
    target = {"who": "乙", "counter": "damage", "at_least": 15}
    short = fight.until_plan([step("attack", weapon="拳")], target)
    full = fight.until_plan({"opening": [step("attack", weapon="拳")], "cycle": [step("attack", weapon="拳")]}, target)
    assert len(short.probabilities) <= len(full.probabilities) + 1
    assert max(abs(x - y) for x, y in zip(short.probabilities, full.probabilities)) < 1e-12
    assert abs(short.expected - full.expected) < 1e-9


def test_a_plan_to_a_track_state_equals_until_state(tracks):
    """TR-60, TR-F08: 目眩's debuff lowers 基础防御, so each later eye hit comes sooner; a plan to the
    state 目盲 follows it exactly as `until_state` does."""
    attacker = tracks.Combatant(strength=6, fighting=5)
    guarded = tracks.Combatant(basic_defense=4, eye_hp=3)
    fight = tracks.start_fight({"甲": attacker, "乙": guarded})
    want = fight.until_state("attack", ROLES, "defender", "dazzle", weapon="fist", part="eyes")
    got = fight.until_plan([step("attack", weapon="fist", part="eyes")], {"who": "乙", "state": "blind"})
    assert abs(got.expected - want.expected) < 1e-9


def test_dp_f01_a_feint_opening_shortens_the_attacks(dp):
    """DP-F01: a feint's 措手不及 lowers the target's parry for the feinter's next melee attack, and
    that attack uses it up: feint, then attack, needs fewer attacks than attacking at once (the feint
    itself is one action), and a feint before every attack helps every attack."""
    a = dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5, intelligence=6)
    b = dp.Combatant(basic_defense=2, parry_defense=6)
    fight = dp.start_fight({"甲": a, "乙": b})
    target = {"who": "乙", "counter": "damage", "at_least": 12}
    plain = fight.until_plan([step("attack", weapon="拳")], target)
    feint = fight.until_plan({"opening": [step("feint", end_turn=False)], "cycle": [step("attack", weapon="拳")]},
                             target)
    every = fight.until_plan([step("feint", end_turn=False), step("attack", weapon="拳")], target)
    assert feint.expected - 1 < plain.expected
    assert every.expected / 2 < plain.expected


def test_d20_f02_an_attack_from_hiding_then_ordinary_ones(d20):
    """D20-F02 (R35): hidden, the first attack has advantage and reveals the attacker, hit or miss;
    the later attacks are ordinary."""
    attacker, target = d20.Combatant(dexterity=14, proficiency=2), d20.Combatant(armor_class=15)
    fight = d20.start_fight({"甲": attacker, "乙": target})
    roles = {"attacker": "甲", "target": "乙"}
    aim = {"who": "乙", "counter": "damage", "at_least": 8}
    plain = fight.until_plan([step("attack", roles=roles, weapon="dagger")], aim)
    hidden = fight.until_plan({"opening": [step("hide", end_turn=True, roles={"character": "甲"}),
                                           step("attack", roles=roles, weapon="dagger")],
                               "cycle": [step("attack", roles=roles, weapon="dagger")]}, aim)
    assert hidden.expected - 1 < plain.expected < hidden.expected


def test_a_condition_target_and_a_list_of_targets(dp):
    """DP-F05: a plan may aim at a condition (倒地 from 绊摔); a list of targets is reached by any."""
    a = dp.Combatant(strength=5, athletics=6, martial=6)
    b = dp.Combatant(strength=3, athletics=2, balance=1)
    fight = dp.start_fight({"甲": a, "乙": b})
    prone = fight.until_plan([step("trip")], {"who": "乙", "condition": "prone"})
    either = fight.until_plan([step("trip")], [{"who": "乙", "condition": "prone"},
                                               {"who": "乙", "counter": "damage", "at_least": 1}])
    assert 1 <= prone.expected and abs(sum(prone.probabilities) + prone.tail - 1) < 1e-9
    assert either.expected <= prone.expected + 1e-12
    assert fight.reached({"who": "乙", "condition": "prone"}) is False


class _Prefix:
    """A dice source that gives the faces of `prefix`, then raises LookupError(sides)."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.seen: list[int] = []

    def die(self, sides: int) -> int:
        i = len(self.seen)
        self.seen.append(sides)
        if i < len(self.prefix):
            return self.prefix[i]
        raise LookupError(sides)


def _faces_tree(play: Any) -> list[tuple[Fraction, Any]]:
    """Every way the dice can fall for `play(dice)`: (probability, what it returned), by depth-first
    enumeration of each die's faces (the fight API with real dice, no odds)."""
    out: list[tuple[Fraction, Any]] = []
    stack: list[list[int]] = [[]]
    while stack:
        prefix = stack.pop()
        source = _Prefix(prefix)
        sides_seen = source.seen
        try:
            value = play(source)
        except LookupError as more:
            sides = more.args[0]
            stack += [prefix + [face] for face in range(1, sides + 1)]
            continue
        p = Fraction(1)
        for s in sides_seen:
            p /= s
        out.append((p, value))
    return out


def test_plan_odds_agree_with_brute_force_enumeration_of_every_die(d20):
    """Two dagger attacks: P(6 damage within k actions) by enumerating every die (the slow job runs
    hide first, then three actions)."""
    _brute(d20, hide=False, actions=2)


@pytest.mark.slow
def test_plan_odds_from_hiding_agree_with_brute_force_enumeration_of_every_die(d20):
    """D20-F02: hide, then dagger attacks (the first with advantage), by enumerating every die."""
    _brute(d20, hide=True, actions=3)


def _brute(d20: Any, hide: bool, actions: int) -> None:
    """P(6 damage within k actions) by enumerating every face of every die each action rolls
    through the fight API (`act` with real dice, never the odds functions), state by state, equals
    the plan's exact chain."""
    attacker, target = d20.Combatant(dexterity=12), d20.Combatant(armor_class=14)
    start = d20.start_fight({"甲": attacker, "乙": target})
    roles = {"attacker": "甲", "target": "乙"}
    plan = {"opening": [step("hide", end_turn=False, roles={"character": "甲"})] if hide else [],
            "cycle": [step("attack", roles=roles, weapon="dagger")]}
    exact = start.until_plan(plan, {"who": "乙", "counter": "damage", "at_least": 6}, max_actions=actions)

    def successors(f: Any, hide: bool) -> list[tuple[Fraction, Any]]:
        if hide:
            return [(p, g) for p, g in _faces_tree(lambda dice: f.act("hide", {"character": "甲"}, dice=dice)[1])]
        return [(p, g.next_turn().next_turn())
                for p, g in _faces_tree(lambda dice: f.act("attack", roles, weapon="dagger", dice=dice)[1])]

    reached = [Fraction(0)] * (actions + 1)
    live: list[tuple[Fraction, Any]] = [(Fraction(1), start)]
    for k in range(1, actions + 1):
        nxt: dict[Any, tuple[Fraction, Any]] = {}
        for p, f in live:
            for q, g in successors(f, hide and k == 1):
                if g.member("乙").counter("damage") >= 6:
                    reached[k] += p * q
                    continue
                key = (tuple(m[2:] for m in g.members), g.turn, g.relations)
                nxt[key] = (nxt[key][0] + p * q if key in nxt else p * q, g)
        live = list(nxt.values())
    for k in range(1, actions + 1):
        assert abs(exact.at_most(k) - float(sum(reached[:k + 1]))) < 1e-12


def test_plan_odds_agree_with_seeded_fights(dp):
    """DP-F01: 300 seeded fights (feint, then attacks) within 4σ of the exact mean (the slow job
    runs 100,000)."""
    _seeded(dp, 300)


@pytest.mark.slow
def test_plan_odds_agree_with_100000_seeded_fights(dp):
    _seeded(dp, 100_000)


def _seeded(dp: Any, n: int) -> None:
    a = dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5, intelligence=6)
    b = dp.Combatant(basic_defense=2, parry_defense=6)
    fight = dp.start_fight({"甲": a, "乙": b})
    plan = {"opening": [step("feint", end_turn=False)], "cycle": [step("attack", weapon="拳")]}
    target = {"who": "乙", "counter": "damage", "at_least": 12}
    exact = fight.until_plan(plan, target)
    mean = exact.expected
    var = sum((k + 1) ** 2 * p for k, p in enumerate(exact.probabilities)) - mean ** 2
    counts = simulate(dp, fight, plan, target, n, seed=7)
    assert abs(sum(counts) / n - mean) < 4 * math.sqrt(var / n)


def test_plans_and_targets_from_strangers_are_bounded(dp):
    a, b = dp.Combatant(), dp.Combatant()
    fight = dp.start_fight({"甲": a, "乙": b})
    ok = {"who": "乙", "counter": "damage", "at_least": 5}
    bad_plans: list[Any] = [None, [], {"cycle": []}, {"opening": [], "cycle": [{"procedure": "nope", "roles": ROLES}]},
                            [{"procedure": "attack", "roles": {"attacker": "甲"}}],
                            [{"procedure": "attack", "roles": {"attacker": "甲", "defender": "丙"}}],
                            [step("attack", weapon=["拳"])], [step("attack", dice=3)], [step("attack")] * 101,
                            [{**step("attack", weapon="拳"), "end_turn": "yes"}], [{"procedure": "attack"}]]
    for plan in bad_plans:
        with pytest.raises(dp.OutOfBounds):
            fight.until_plan(plan, ok)
    bad_targets: list[Any] = [None, {}, {"who": "丙", "condition": "prone"}, {"who": "乙", "condition": "nope"},
                              {"who": "乙", "counter": "damage", "at_least": 0}, {"who": "乙", "state": "x", "condition": "prone"},
                              {"who": "乙", "condition": "prone", "at_least": 2}, [ok] * 51, []]
    for target in bad_targets:
        with pytest.raises(dp.OutOfBounds):
            fight.until_plan([step("attack", weapon="拳")], target)
    with pytest.raises(dp.OutOfBounds):
        fight.until_plan([step("attack", weapon="拳")], ok, max_actions=0)


def test_expected_until_is_the_plans_mean(dp, tracks):
    """`expected_until` solves a plain repeated action for its mean (no cut-off) and otherwise
    takes the chain's; both equal `until_plan`'s mean where its tail is negligible."""
    a = dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5)
    fight = dp.start_fight({"甲": a, "乙": dp.Combatant(basic_defense=4, parry_defense=2)})
    target = {"who": "乙", "counter": "damage", "at_least": 15}
    plain = [step("attack", weapon="拳")]
    assert abs(fight.expected_until(plain, target) - fight.until_plan(plain, target).expected) < 1e-9
    feint = {"opening": [step("feint", end_turn=False)], "cycle": plain}
    assert abs(fight.expected_until(feint, target) - fight.until_plan(feint, target).expected) < 1e-12
    attacker, guarded = tracks.Combatant(strength=6, fighting=5), tracks.Combatant(basic_defense=4, eye_hp=3)
    tf = tracks.start_fight({"甲": attacker, "乙": guarded})
    eyes = [step("attack", weapon="fist", part="eyes")]
    hp = {"who": "乙", "counter": "damage", "at_least": 12}
    assert abs(tf.expected_until(eyes, hp) - tf.until_plan(eyes, hp, max_actions=1000).expected) < 1e-9


def test_what_a_chain_keeps_of_an_action_is_kept_apart_by_target_and_roles(dp):
    """A chain's reads of an action (the fields it reads, the checks of the plain shortcut) are kept
    for every later chain of the same rules: a chain counting another combatant, or acting with the
    roles swapped, gets its own, so each answer is the one a fresh process gives, in any order."""
    a = dp.Combatant(strength=5, martial=8, specialty=7, attack_extras=5)
    b = dp.Combatant(strength=3, martial=4, basic_defense=4, parry_defense=2)
    fight = dp.start_fight({"甲": a, "乙": b})
    core = sys.modules[type(fight).__module__.rsplit(".", 1)[0] + ".core"]
    swapped = {"attacker": "乙", "defender": "甲"}
    cases = [([step("attack", weapon="拳")], {"who": "乙", "counter": "damage", "at_least": 12}),
             ([step("attack", roles=swapped, weapon="拳")], {"who": "甲", "counter": "damage", "at_least": 12}),
             ([step("attack", weapon="拳")], {"who": "乙", "counter": "damage", "at_least": 30}),
             ([step("attack", weapon="拳")], {"who": "甲", "counter": "damage", "at_least": 12})]
    fresh = []
    for plan, target in cases:
        core.clear_caches()
        fresh.append(fight.expected_until(plan, target, max_actions=20))
    assert None not in fresh[:3] and len(set(fresh[:3])) == 3
    assert fresh[3] is None  # 甲 takes no damage from its own attacks
    for order in (cases, cases[::-1]):
        got = [fight.expected_until(p, t, max_actions=20) for p, t in order]
        assert got == (fresh if order is cases else fresh[::-1])
