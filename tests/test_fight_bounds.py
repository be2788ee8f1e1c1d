"""A fight can never get stuck or be fed out-of-range state (issue 27).

`Fight.apply` keeps every value within its declared range (points saturate at the top the
accumulation procedure accepts, modifiers of one source merge), so after any number of heavy
actions every action still resolves; `fight_from_dict` refuses anything outside those ranges, and
nothing but the package's `OutOfBounds` ever comes out of it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulec.build.facade import compile_rules
from every_ruleset import FIGHTING, SOURCES, engine

ROOT = Path(__file__).resolve().parent.parent


class MaxDice:
    """A valid dice source that always rolls the die's highest face."""

    def die(self, sides: int) -> int:
        return sides


class HighDice:
    """The highest face on every other die, the one below it between: for dice pools, which add a
    die on the highest face (a source that always rolls it is refused, LimitExceeded, by design)."""

    def __init__(self) -> None:
        self.high = False

    def die(self, sides: int) -> int:
        self.high = not self.high
        return sides if self.high or sides == 1 else sides - 1


@pytest.fixture(scope="module")
def rulesets() -> dict[str, Any]:
    build = compile_rules(SOURCES, stop_after="lower")
    return {rs.id: rs for rs in build.rulesets}


def _top(g: Any, rs: Any) -> Any:
    return g.Combatant(**{s.id: s.max for s in rs.stats if s.type == "int"})


def _random_args(rs: Any, proc: Any, names: list[str], rng: random.Random) -> tuple[dict[str, str], dict[str, Any]]:
    tables = {t.id: [e.id for e in t.entries] for t in rs.tables}
    roles: dict[str, str] = {}
    options: dict[str, Any] = {}
    people = rng.sample(names, len(names))
    for q in proc.params:
        if q.type == "combatant":
            roles[q.id] = people[len(roles) % len(people)]
        elif q.type == "int":
            options[q.id] = rng.choice([q.max, q.max, q.min, q.default if isinstance(q.default, int) else q.max])
        elif q.type == "bool":
            options[q.id] = rng.random() < 0.5
        elif q.type in tables:
            options[q.id] = rng.choice(tables[q.type])
    return roles, options


def _dice(g: Any, ruleset: str, i: int) -> Any:
    return MaxDice() if engine(ruleset) == "d20" else HighDice()


def _canary(g: Any, rs: Any, ruleset: str, procs: list[Any]) -> tuple[str, tuple[str, ...], dict[str, Any]]:
    """An ordinary heavy action of the ruleset, which must resolve after anything: the first action
    (of two roles at most) that resolves between two fresh combatants at the top of every stat with
    its whole numbers at the top of their ranges (else at their defaults), no true/false option set,
    and the first entry of each table that works."""
    tables = {t.id: [e.id for e in t.entries] for t in rs.tables}
    fresh = g.start_fight({n: _top(g, rs) for n in ("甲", "乙")})
    for proc in procs:
        roles = tuple(g.FIGHT_RULES.actions[proc.id].roles)
        if not 1 <= len(roles) <= 2:
            continue
        for ints in ("max", "default"):
            for k in range(10):
                options: dict[str, Any] = {}
                for q in proc.params:
                    if q.type == "int":
                        options[q.id] = q.max if ints == "max" or not isinstance(q.default, int) else q.default
                    elif q.type in tables:
                        options[q.id] = tables[q.type][k % len(tables[q.type])]
                try:
                    fresh.resolve(proc.id, dict(zip(roles, ("甲", "乙"))), dice=_dice(g, ruleset, 0), **options)
                except g.RuleError:
                    continue
                return proc.id, roles, options
    raise AssertionError(f"{ruleset}: no action resolves between two fresh combatants")


@pytest.mark.parametrize("ruleset", FIGHTING)
def test_heavy_actions_never_leave_a_combatant_stuck(ruleset: str, rulesets, package) -> None:  # type: ignore[no-untyped-def]
    _drive(package(ruleset), ruleset, rulesets, 150)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", FIGHTING)
def test_a_thousand_heavy_actions_never_leave_a_combatant_stuck(ruleset: str, rulesets, package) -> None:  # type: ignore[no-untyped-def]
    _drive(package(ruleset), ruleset, rulesets, 1000)


def _drive(g: Any, ruleset: str, rulesets: Any, count: int) -> None:
    """`count` random actions (arguments at the top of their ranges, the highest face on every die)
    between three combatants at the top of every stat: after each, the ruleset's ordinary heavy
    action still resolves and applies between every pair, and the fight survives to_dict and
    fight_from_dict."""
    rs = rulesets[ruleset]
    procs = [p for p in rs.procedures if p.id in g.FIGHT_RULES.actions]
    assert procs, f"{ruleset} declares a fight but no action"
    names = ["甲", "乙", "丙"]
    fight = g.start_fight({n: _top(g, rs) for n in names})
    rng = random.Random(27)
    canary, first, options = _canary(g, rs, ruleset, procs)
    for i in range(count):
        proc = rng.choice(procs)
        roles, args = _random_args(rs, proc, names, rng)
        try:
            action = fight.resolve(proc.id, roles, dice=_dice(g, ruleset, i), **args)
        except g.RuleError:
            pass  # an argument the rules refuse (out of reach, ...): what a bot would answer
        else:
            fight = fight.apply(action)
        if i % 7 == 0:
            fight = fight.next_turn()
        if i % 25 == 0 or i == count - 1:
            for a, b in (("甲", "乙"), ("乙", "丙"), ("丙", "甲")):
                try:
                    check = fight.resolve(canary, dict(zip(first, (a, b))), dice=_dice(g, ruleset, i), **options)
                except g.RuleError as refused:  # a condition that forbids acting (昏迷) is a rule, not a stuck value
                    assert refused.code == "refused", refused
                else:
                    fight.apply(check)
            data = json.loads(json.dumps(fight.to_dict(), ensure_ascii=False))
            again = g.fight_from_dict(data)
            assert again.to_dict() == fight.to_dict()
    for m in fight.members:
        assert all(0 <= v <= g.FIGHT_RULES.points_max for _, v in m.points)
        assert len(m.modifiers) <= 100


def test_points_saturate_at_add_points_top_and_the_log_says_so(tracks) -> None:  # type: ignore[no-untyped-def]
    """Eleven heavy eye hits used to pass 10,000 目眩 points (add_points' `current` range) and every
    later action on the combatant raised OutOfBounds."""
    top = tracks.Combatant(strength=30, fighting=30)
    fight = tracks.start_fight({"甲": top, "乙": tracks.Combatant()})
    assert tracks.FIGHT_RULES.points_max == 10_000
    for _ in range(30):
        _, fight = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", part="eyes",
                             extra_damage=1000, dice=HighDice())
    assert fight.member("乙").track_points("dazzle") == 10_000
    assert any("已达上限10000" in line for line in fight.log)
    assert tracks.fight_from_dict(fight.to_dict()).member("乙").track_points("dazzle") == 10_000


def test_a_modifier_repeated_within_a_turn_merges_instead_of_piling_up(dp) -> None:  # type: ignore[no-untyped-def]
    """dp's attack lowers the attacker's 基础防御 until its next turn: 300 attacks in one turn used
    to pass 100 modifiers, after which every attack by that combatant raised OutOfBounds."""
    fighter = dp.Combatant(strength=5, martial=8, specialty=7)
    fight = dp.start_fight({"甲": fighter, "乙": dp.Combatant()})
    for i in range(300):
        _, fight = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="long_sword",
                             dice=dp.SeededDice(i))
    assert len(fight.member("甲").modifiers) <= 1
    assert dp.fight_from_dict(fight.to_dict()).to_dict() == fight.to_dict()


# ---- fight_from_dict: every value refused outside its declared range ----

def _stored(tracks: Any) -> dict[str, Any]:
    fight = tracks.start_fight({"甲": tracks.Combatant(strength=9, fighting=9), "乙": tracks.Combatant()})
    for i in range(4):
        _, fight = fight.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", part="jaw",
                             dice=tracks.SeededDice(i))
    data: dict[str, Any] = fight.to_dict()
    return data


def _deep(depth: int) -> Any:
    out: Any = 1
    for _ in range(depth):
        out = [out]
    return out


@pytest.mark.parametrize("damage", [
    lambda d: d["members"][1]["points"].update(dizzy=10 ** 9),
    lambda d: d["members"][1]["points"].update(dizzy=10_001),
    lambda d: d["members"][1]["points"].update(dizzy=-1),
    lambda d: d["members"][1]["points"].update(nonsense=1),
    lambda d: d["members"][1]["counters"].update(damage=10 ** 9 + 1),
    lambda d: d["members"][1].update(name="甲"),  # a duplicate member name
    lambda d: d["members"][1].update(states=["unconscious"] * 1_000_000),
    lambda d: d["members"][1].update(states=["unconscious", "unconscious"]),
    lambda d: d["members"][1].update(name="乙\u202e"),
    lambda d: d["members"][1].update(name=_deep(10_000)),
    lambda d: d["members"][1]["stats"].update(strength=_deep(10_000)),
    lambda d: d["members"][1]["stats"].update(strength=10 ** 5000),
    lambda d: d["members"][1].update(extra=1),
    lambda d: d.update(extra=1),
    lambda d: d.update(log=["x" * 100_000]),
    lambda d: d.update(log=["x"] * 1001),
    lambda d: d.update(log=_deep(10_000)),
    lambda d: d.update(turn=10 ** 9),
    lambda d: d.update(turn=-1),
    lambda d: d.update(turn=True),
    lambda d: d.update(members=d["members"] * 51),
    lambda d: d.update(members=[]),
    lambda d: d.update(relations=[["grapple", "甲", "乙"]] * 2),
    lambda d: d.update(relations=[[["grapple"], "甲", "乙"]]),
    lambda d: d["members"][0].update(modifiers=[["strength", 1, -1, "攻击（检定即伤害）"]] * 101),
    lambda d: d["members"][0].update(modifiers=[[["strength"], 1, -1, "x"]]),
    lambda d: d["members"][0].update(modifiers=[["strength", 1, -1, {}]]),
])
def test_out_of_range_stored_fights_are_refused(tracks, damage) -> None:  # type: ignore[no-untyped-def]
    data = _stored(tracks)
    damage(data)
    with pytest.raises(tracks.OutOfBounds):
        tracks.fight_from_dict(data)


def test_the_round_trip_holds(tracks) -> None:  # type: ignore[no-untyped-def]
    data = _stored(tracks)
    assert tracks.fight_from_dict(data).to_dict() == data


JUNK: list[Any] = [None, True, 0, -1, 10 ** 9, 10 ** 10, 10 ** 400, 1.5, float("nan"), "", "x" * 1000, "\u202e",
                   [], {}, [[[]]], {"a": 1}, _deep(5000), ["unconscious"] * 50, {"dizzy": 10 ** 6}]


def _damage(data: Any, rng: random.Random) -> Any:
    """`data` with one node (a value, a key, an item) replaced, removed or duplicated."""
    data = _copy(data, 8)
    holders = []

    def walk(node: Any, depth: int) -> None:
        if depth <= 0:
            return
        if isinstance(node, dict):
            holders.append(node)
            for v in node.values():
                walk(v, depth - 1)
        elif isinstance(node, list):
            holders.append(node)
            for v in node:
                walk(v, depth - 1)

    walk(data, 8)
    node = rng.choice(holders)
    keys = list(node.keys()) if isinstance(node, dict) else list(range(len(node)))
    choice = rng.random()
    if isinstance(node, dict) and (choice < 0.15 or not keys):
        node[rng.choice(["extra", "name", "stats", "dizzy", "damage", "turn", 5])] = rng.choice(JUNK)
    elif not keys:
        node.append(rng.choice(JUNK))
    elif choice < 0.3:
        del node[rng.choice(keys)]
    elif choice < 0.45 and isinstance(node, list):
        node.append(_copy(node[rng.choice(keys)], 8))
    else:
        node[rng.choice(keys)] = rng.choice(JUNK)
    return data


def _copy(node: Any, depth: int) -> Any:
    """A copy down to `depth` levels (deeper junk is shared: it is never changed)."""
    if depth <= 0:
        return node
    if isinstance(node, dict):
        return {k: _copy(v, depth - 1) for k, v in node.items()}
    if isinstance(node, list):
        return [_copy(v, depth - 1) for v in node]
    return node


def _feed(tracks: Any, n: int, seed: int) -> int:
    rng = random.Random(seed)
    base = _stored(tracks)
    accepted = 0
    for _ in range(n):
        data = base
        for _ in range(rng.randint(1, 3)):
            data = _damage(data, rng)
        try:
            fight = tracks.fight_from_dict(data)
        except tracks.OutOfBounds:
            continue
        accepted += 1
        assert tracks.fight_from_dict(fight.to_dict()).to_dict() == fight.to_dict()
        for a, b in (("甲", "乙"), ("乙", "甲")):
            if a in [m.name for m in fight.members] and b in [m.name for m in fight.members]:
                fight.act("attack", {"attacker": a, "defender": b}, weapon="fist", part="eyes", dice=HighDice())
    return accepted


def test_damaged_stored_fights_give_only_the_packages_errors(tracks) -> None:  # type: ignore[no-untyped-def]
    """Seeded random damage to a stored fight (values, keys and items replaced by junk, removed or
    duplicated): fight_from_dict gives a fight that round-trips and acts, or OutOfBounds; never
    anything else (no RecursionError, TypeError, ...)."""
    assert _feed(tracks, 300, 27) > 0


@pytest.mark.slow
def test_damaged_stored_fights_give_only_the_packages_errors_long(tracks) -> None:  # type: ignore[no-untyped-def]
    assert _feed(tracks, 10_000, 2027) > 0


def test_an_accumulation_procedure_without_a_top_for_points_is_a_diagnostic(tmp_path: Path) -> None:
    """The fight saturates points at the top of add_points' `current`/`gained`: a pack that drops
    the max is told at its manifest, not left with a fight that fails at run time."""
    import shutil

    target = tmp_path / "tracks"
    shutil.copytree(ROOT / "rules" / "tracks", target)
    procs = target / "procedures" / "tracks.yaml"
    text = procs.read_text(encoding="utf-8")
    procs.write_text(text.replace("{id: gained, name: 获得点数, type: int, min: 0, max: 10000}",
                                  "{id: gained, name: 获得点数, type: int, min: 5, max: 10000}", 1), encoding="utf-8")
    found = [d.format() for d in compile_rules([target], stop_after="lower").diagnostics]
    assert any("error[bad-accumulate]" in d and "'gained' of procedure 'add_points'" in d for d in found), found


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
