"""Rules across a fight: state declared in the rules, effects declared by procedures, states that
act, the immutable fight API, and exact odds over a sequence of actions (checked against a
brute-force enumeration, and in the slow run against seeded simulation of the fight API)."""

from __future__ import annotations

import itertools
import math
import shutil
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from every_ruleset import FIGHTING

ROOT = Path(__file__).resolve().parent.parent


def jaw(tracks, fight, attacker="甲", defender="乙", faces=None):
    return fight.act("attack", {"attacker": attacker, "defender": defender}, weapon="fist", part="jaw",
                     dice=tracks.FixedDice(faces or [9] * 30))


def test_three_jaw_hits_reach_unconscious_and_the_state_takes_defense_away(tracks):
    """TR-F08, TR-F10, TR-F16; TR-60, TR-68, TR-69 (R60): points on a track carry across attacks; past three times the
    capacity the track's state (眩晕 → 昏迷) begins, and 昏迷 takes away basic, dodge and mental
    defense (its flags in the states table) while parry stays."""
    weak = tracks.Combatant(dexterity=1, perception=1, basic_defense=2, dodge_defense=1, parry_defense=1)
    hitter = tracks.Combatant(strength=6, fighting=5)
    fight = tracks.start_fight({"甲": hitter, "乙": weak})
    assert tracks.state_threshold(weak, "dizzy") == 3 * (2 * 1 + 1) + 1
    for _ in range(3):  # 11 − 3 (the jaw) − 4 (defense) = 4 dice, each a success: 4 points a hit
        _, fight = jaw(tracks, fight)
    member = fight.member("乙")
    assert member.track_points("dizzy") >= 10 and "unconscious" in member.states
    assert "乙进入昏迷" in fight.log
    seen = fight.effective("乙")
    assert (seen.basic_defense, seen.dodge_defense, seen.mental_defense, seen.parry_defense) == (0, 0, 0, 1)
    assert fight.member("乙").base.basic_defense == 2  # the base stats are unchanged
    # the next attack is resolved against the effective defense: 2 more dice than against the fresh one
    def mean(odds):
        return sum(v * p for v, p in odds.marginal("successes").items())

    fresh = tracks.attack_odds(hitter, weak, "fist", part="jaw")
    later = tracks.attack_odds(hitter, seen, "fist", part="jaw")
    assert mean(later) > mean(fresh)
    action, _ = jaw(tracks, fight)  # the trace of the next attack says which state applied
    assert "乙处于昏迷：基础防御、闪避防御、精神防御视为最低" in action.text()


def test_the_attackers_own_penalty_lasts_until_its_next_turn(dp):
    """DP-F01; DP-30 (R11): a power attack's −2 basic defense is a modifier on the attacker until the start
    of its next turn; the other combatant's turn in between keeps it."""
    fight = dp.start_fight({"王": dp.Combatant(strength=5, martial=4, basic_defense=4), "吴": dp.Combatant()})
    _, fight = fight.act("attack", {"attacker": "王", "defender": "吴"}, weapon="long_sword", power_attack=True,
                         dice=dp.FixedDice([9] * 30))
    assert fight.effective("王").basic_defense == 2 and "王的基础防御-2（攻击与防御的对抗，直到其下一回合开始）" in fight.log
    action = fight.resolve("attack", {"attacker": "吴", "defender": "王"}, weapon="fist", dice=dp.FixedDice([1] * 30))
    assert action.applied == ("王的基础防御-2（攻击与防御的对抗）",)
    fight = fight.next_turn()  # 吴's turn
    assert fight.actor == "吴" and fight.effective("王").basic_defense == 2
    fight = fight.next_turn()  # 王's turn again: it lapses
    assert fight.actor == "王" and fight.round == 2 and fight.effective("王").basic_defense == 4
    assert fight.member("吴").counter("damage") > 0


def test_a_grapple_is_a_relation_and_an_incapacitated_grappler_loses_it(d20):
    """D20-15, D20-17: a won grapple makes the attacker hold the target; escaping ends it; an
    incapacitated grappler's grapple ends by itself when the target tries."""
    fight = d20.start_fight({"甲": d20.Combatant(strength=18, athletics=True), "乙": d20.Combatant()})
    _, fight = fight.act("grapple", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([20, 1]))
    assert fight.holds("grapple", "甲", "乙") and "甲擒抱乙" in fight.log
    _, fight = fight.act("escape_grapple", {"escaper": "乙", "grappler": "甲"}, dice=d20.FixedDice([1, 20]))
    assert fight.holds("grapple", "甲", "乙")
    _, fight = fight.act("escape_grapple", {"escaper": "乙", "grappler": "甲"}, dice=d20.FixedDice([20, 1]))
    assert not fight.holds("grapple", "甲", "乙") and "甲对乙的擒抱结束" in fight.log
    _, fight = fight.act("shove", {"attacker": "甲", "target": "乙"}, knock_prone=True, dice=d20.FixedDice([20, 1]))
    assert "prone" in fight.member("乙").states


def test_a_fight_is_immutable_and_round_trips_through_json(tracks):
    import json

    fight = tracks.start_fight({"甲": tracks.Combatant(strength=5, fighting=3), "乙": tracks.Combatant()})
    action, after = jaw(tracks, fight)
    assert fight.member("乙").counter("damage") == 0 and after.member("乙").counter("damage") > 0
    with pytest.raises(AttributeError):
        after.turn = 3  # type: ignore[misc]
    again = tracks.fight_from_dict(json.loads(json.dumps(after.to_dict(), ensure_ascii=False)))
    assert again.to_dict() == after.to_dict() and again.status("乙") == after.status("乙")
    with pytest.raises(tracks.OutOfBounds):
        tracks.fight_from_dict({"members": [{"name": "x", "stats": {"力量": "很多"}}]})
    with pytest.raises(tracks.OutOfBounds):
        fight.resolve("attack", {"attacker": "甲", "defender": "丙"}, weapon="fist")


def _required(g, action):
    """Plain values for the options of `action` that have no default (1, false, a table's first entry)."""
    import inspect

    types = {p[0]: p[2] for p in g.PROCEDURE_INFO[action]["params"]}
    out = {}
    for name, p in inspect.signature(getattr(g, action)).parameters.items():
        kind = types.get(name, "combatant")
        if p.default is inspect.Parameter.empty and p.kind is not p.VAR_KEYWORD and kind != "combatant":
            out[name] = 1 if kind == "int" else False if kind == "bool" else next(iter(getattr(g, kind.upper())))
    return out


@pytest.mark.parametrize("ruleset", FIGHTING)
def test_every_fight_is_immutable_bounded_and_round_trips_through_json(ruleset, package):
    """Every ruleset with a fight section: a fight cannot be changed in place, survives JSON after
    each of its actions, and refuses what a stranger could send (a long name, a member it does not
    hold, too many modifiers)."""
    import json

    g = package(ruleset)
    stat = next(iter(g.FIGHT_RULES.stats))
    fight = g.start_fight({"甲": g.Combatant(), "乙": g.Combatant()})
    with pytest.raises(AttributeError):
        fight.turn = 3  # type: ignore[misc]
    acted = 0
    for action, spec in g.FIGHT_RULES.actions.items():
        roles = dict(zip(spec.roles, ["甲", "乙"] * len(spec.roles)))
        try:
            _, fight = fight.act(action, roles, dice=g.SeededDice(acted), **_required(g, action))
        except g.RuleError:
            continue  # a required option, or a rule that refuses it here
        acted += 1
        again = g.fight_from_dict(json.loads(json.dumps(fight.to_dict(), ensure_ascii=False)))
        assert again.to_dict() == fight.to_dict()
        with pytest.raises(g.OutOfBounds):
            fight.resolve(action, dict(zip(spec.roles, ["丙"] * len(spec.roles))))
    assert acted, f"{ruleset}: no action of its fight acts between two plain combatants"
    with pytest.raises(g.OutOfBounds):
        g.start_fight({"名" * 101: g.Combatant()})
    with pytest.raises(g.OutOfBounds):
        g.fight_from_dict({"members": [{"name": "x", "stats": {}, "modifiers": [[stat, 1, -1, "y"]] * 101}]})


def brute_force(marginal: dict[int, float], threshold: int, n: int) -> list[float]:
    """P(the running total first reaches `threshold` at action k), k = 1..n, by enumerating every
    sequence of n outcomes."""
    out = [0.0] * n
    for seq in itertools.product(marginal.items(), repeat=n):
        p = math.prod(q for _, q in seq)
        total = 0
        for k, (v, _) in enumerate(seq):
            total += v
            if total >= threshold:
                out[k] += p
                break
    return out


@pytest.mark.parametrize("marginal, threshold", [
    ({0: 0.5, 1: 0.3, 2: 0.2}, 3),
    ({0: 0.2, 3: 0.8}, 7),
    ({0: 0.9, 5: 0.1}, 5),
])
def test_sequence_odds_agree_with_brute_force_enumeration(tracks, marginal, threshold):
    from rulec.runtime.fight import attacks_until

    n = 6
    exact = attacks_until(marginal, threshold, max_attacks=n)
    assert all(abs(a - b) < 1e-12 for a, b in zip(exact.probabilities, brute_force(marginal, threshold, n)))
    assert abs(sum(exact.probabilities) + exact.tail - 1) < 1e-12


def test_attacks_until_a_state_from_the_package(tracks):
    """The exact distribution of jaw attacks until 眩晕 reaches its state, from the package: the
    marginal of one attack's points, chained to the threshold the ruleset's add_points gives."""
    attacker = tracks.Combatant(strength=4, fighting=2)
    defender = tracks.Combatant(dexterity=2, perception=2)
    threshold = tracks.state_threshold(defender, "dizzy")
    odds = tracks.until("attack", "points", threshold, attacker, defender, "fist", part="jaw")
    marginal = tracks.attack_odds(attacker, defender, "fist", part="jaw").marginal("points")
    assert abs(sum(odds.probabilities) + odds.tail - 1) < 1e-9
    assert abs(odds.probabilities[0] - sum(p for v, p in marginal.items() if v >= threshold)) < 1e-12
    assert 1 < odds.expected < 100 and odds.median >= 1


def test_effects_are_checked_at_build_time(tmp_path: Path):
    dp = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", dp)
    attack = dp / "procedures" / "attack.yaml"
    text = attack.read_text(encoding="utf-8")
    attack.write_text(text.replace("{target: defender, counter: damage, add: damage}",
                                   "{target: defendr, counter: damages, add: hit}", 1), encoding="utf-8")
    out = "\n".join(d.format() for d in compile_rules([dp]).diagnostics)
    assert "error[bad-effect]: 'defendr' is not a combatant parameter of 'attack'; did you mean 'defender'?" in out
    assert "error[bad-effect]: no counter 'damages' in the fight section; did you mean 'damage'?" in out
    assert "error[bad-effect]: 'hit' is not a whole-number outcome of procedure 'attack'" in out


@pytest.mark.slow
def test_sequence_odds_agree_with_seeded_simulation_of_the_fight_api(tracks):
    """Over 100,000 seeded fights, the mean number of jaw attacks until 眩晕's state is within 4σ of
    the exact chain's mean."""
    attacker = tracks.Combatant(strength=4, fighting=2)
    defender = tracks.Combatant(dexterity=1, perception=1)
    threshold = tracks.state_threshold(defender, "dizzy")
    exact = tracks.until("attack", "points", threshold, attacker, defender, "fist", part="jaw")
    mean = exact.expected
    var = sum((k + 1) ** 2 * p for k, p in enumerate(exact.probabilities)) - mean ** 2
    dice = tracks.SeededDice(20261201)
    n, total = 100_000, 0
    for _ in range(n):
        fight = tracks.start_fight({"甲": attacker, "乙": defender})
        count = 0
        while "unconscious" not in fight.member("乙").states:
            count += 1
            _, fight = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", part="jaw", dice=dice)
        total += count
    assert abs(total / n - mean) < 4 * math.sqrt(var / n)


@pytest.mark.slow  # several seconds: CI's slow job
def test_a_fight_scenario_prints_each_step_and_checks_the_state(tmp_path: Path, monkeypatch):
    """A scenario with a sequence of actions (kind: fight): `rulec resolve` prints the trace and the
    state after each; its expectations on the final state are checked (exit 1 on a difference)."""
    monkeypatch.setenv("RULEC_LANG", "zh")  # the trace lines it checks are the Chinese ones
    from click.testing import CliRunner

    from rulec.cli.main import main

    example = ROOT / "examples" / "tracks" / "three_jaw_hits.yaml"
    result = CliRunner().invoke(main, ["resolve", str(example), "--rules", str(ROOT / "rules" / "tracks")])
    assert result.exit_code == 0, result.output
    assert "— 第3步：攻击（检定即伤害）（攻击者：甲、防御者：乙）" in result.output
    assert "· 乙进入昏迷" in result.output and "乙：所受伤害12，眩晕12，昏迷" in result.output
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(example.read_text(encoding="utf-8").replace("points: {dizzy: 12}", "points: {dizzy: 13}"),
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["resolve", str(wrong), "--lang", "en", "--rules", str(ROOT / "rules" / "tracks")])
    assert result.exit_code == 1 and "乙 dizzy points: expected 13, got 12" in result.output


def test_odds_until_a_running_total(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("RULEC_LANG", "zh")  # the lines it checks are the Chinese ones
    from click.testing import CliRunner

    from rulec.cli.main import main

    example = ROOT / "examples" / "d20" / "dagger_crit.yaml"
    result = CliRunner().invoke(main, ["odds", str(example), "--until", "伤害=20", "--rules", str(ROOT / "rules" / "d20")])
    assert result.exit_code == 0, result.output
    assert "累计伤害达到20所需的次数：期望" in result.output
    result = CliRunner().invoke(main, ["odds", str(example), "--lang", "en", "--until", "hit=2", "--rules", str(ROOT / "rules" / "d20")])
    assert result.exit_code == 1 and "whole-number outcome" in result.output


@pytest.mark.parametrize("marginal, threshold", [({0: 0.5, 1: 0.3, 2: 0.2}, 3), ({0: 0.2, 3: 0.8}, 7),
                                                 ({0: 0.95, 5: 0.05}, 12), ({1: 1.0}, 4)])
def test_the_mean_attacks_solve_agrees_with_the_chain(marginal, threshold):
    from rulec.runtime.fight import attacks_until, expected_attacks

    chain = attacks_until(marginal, threshold, max_attacks=5000)
    assert chain.tail < 1e-12
    assert abs(expected_attacks(marginal, threshold) - chain.expected) < 1e-9


def test_damage_wakes_an_unconscious_combatant(tracks):
    """TR-F11, TR-69 (R62), a recovery rule over the state (fight.on_damage): damage to a combatant in 昏迷
    lowers the points of the track that caused it by as much; below three times the capacity it
    wakes."""
    weak = tracks.Combatant(dexterity=1, perception=1, basic_defense=2, dodge_defense=1, parry_defense=1)
    fight = tracks.start_fight({"甲": tracks.Combatant(strength=6, fighting=5), "乙": weak})
    for _ in range(3):
        _, fight = jaw(tracks, fight, faces=[9] * 4)
    assert "unconscious" in fight.member("乙").states
    _, fight = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", dice=tracks.FixedDice([9] * 12))
    member = fight.member("乙")
    assert member.track_points("dizzy") == 12 - 10 and "unconscious" not in member.states
    assert "乙的眩晕-10（昏迷中受到伤害，共2）" in fight.log and "乙的昏迷解除" in fight.log


def test_fight_inputs_from_strangers_are_bounded(tracks):
    """A fight comes from chat input and stored JSON: names, modifiers and the work of an exact
    sequence computation are bounded (OutOfBounds, never a hang)."""
    from rulec.runtime.core import OutOfBounds
    from rulec.runtime.fight import MAX_CHAIN_WORK, attacks_until

    with pytest.raises(tracks.OutOfBounds):
        tracks.start_fight({"名" * 101: tracks.Combatant()})
    with pytest.raises(tracks.OutOfBounds):
        tracks.fight_from_dict({"members": [{"name": "x", "stats": {}, "modifiers": [["strength", 1, -1, "y"]] * 101}]})
    with pytest.raises(OutOfBounds):
        attacks_until({v: 0.01 for v in range(100)}, 100_000, 10_000)
    assert 100_000 * 100 * 10_000 > MAX_CHAIN_WORK


def test_a_tracks_debuff_lowers_the_checks_it_names(tracks):
    """TR-F09: TR-60, TR-68 (R60): past the capacity, a track's debuff lowers the kinds of check it
    names by the difference (眩晕: 感知 and 敏捷 checks), not the stats; the fight says so; the
    capacity itself is measured without the debuff (test_debuff_checks.py: each kind of check)."""
    weak = tracks.Combatant(dexterity=2, perception=2, basic_defense=2)  # 眩晕 capacity 2×2+2 = 6
    fight = tracks.start_fight({"甲": tracks.Combatant(strength=8, fighting=5), "乙": weak})
    _, fight = jaw(tracks, fight, faces=[9] * 8)  # 8 points: a debuff of 2
    seen = fight.effective("乙")
    assert (seen.perception, seen.dexterity) == (2, 2)
    assert fight.applied_to("乙") == ("乙的眩晕减益：视觉感知检定、听觉感知检定、触觉感知检定、敏捷检定-2",)
    dodge = fight.resolve("dodge", {"defender": "乙"}, incoming=3, dice=tracks.FixedDice([1] * 5))
    assert dodge.result.rolls[0].dice == 0
    assert tracks.state_threshold(weak, "dizzy") == 19


def test_sequence_odds_follow_the_state_as_it_changes(tracks):
    """`Fight.until_state`: each total of points has its own odds, from the target's stats as the
    fight would see them. For 眩晕 (its debuff lowers 感知 and 敏捷, not a defense) it equals the
    independent chain; for 目眩 (its debuff lowers 基础防御) later hits come sooner."""
    attacker = tracks.Combatant(strength=6, fighting=5)
    plain = tracks.Combatant(dexterity=2, perception=2)
    fight = tracks.start_fight({"甲": attacker, "乙": plain})
    roles = {"attacker": "甲", "defender": "乙"}
    same = fight.until_state("attack", roles, "defender", "dizzy", weapon="fist", part="jaw")
    iid = tracks.until("attack", "points", tracks.state_threshold(plain, "dizzy"), attacker, plain, "fist", part="jaw")
    assert abs(same.expected - iid.expected) < 1e-9
    guarded = tracks.Combatant(basic_defense=4, eye_hp=3)
    fight = tracks.start_fight({"甲": attacker, "乙": guarded})
    follows = fight.until_state("attack", roles, "defender", "dazzle", weapon="fist", part="eyes")
    iid = tracks.until("attack", "points", tracks.state_threshold(guarded, "dazzle"), attacker, guarded, "fist",
                       part="eyes")
    assert follows.expected < iid.expected and abs(sum(follows.probabilities) + follows.tail - 1) < 1e-9


@pytest.mark.slow
def test_state_following_odds_agree_with_seeded_fights(tracks):
    """Over 100,000 seeded fights with the fight API (debuffs acting), the mean number of eye
    attacks until 目盲 is within 4σ of `until_state`'s exact mean."""
    attacker = tracks.Combatant(strength=6, fighting=5)
    guarded = tracks.Combatant(basic_defense=4, eye_hp=3)
    start = tracks.start_fight({"甲": attacker, "乙": guarded})
    roles = {"attacker": "甲", "defender": "乙"}
    exact = start.until_state("attack", roles, "defender", "dazzle", weapon="fist", part="eyes")
    mean = exact.expected
    var = sum((k + 1) ** 2 * p for k, p in enumerate(exact.probabilities)) - mean ** 2
    dice = tracks.SeededDice(12)
    n, total = 100_000, 0
    for _ in range(n):
        fight, count = start, 0
        while "blind" not in fight.member("乙").states:
            count += 1
            _, fight = fight.act("attack", roles, weapon="fist", part="eyes", dice=dice)
        total += count
    assert abs(total / n - mean) < 4 * math.sqrt(var / n)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
