"""Conditions beyond their turn-bound expiry (runtime/fight_events.py): what follows an expiry
(`then:`), endings on what the holder takes (`takes:`), the end of the round (`round_end:`), and
the turn a condition shortens (`turn_pools:`) — with the rules of the seeds they carry, named by id,
the same in JavaScript, and checked at build time."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from rulec.build.facade import compile_rules
from rulec.messages import say

ROOT = Path(__file__).resolve().parent.parent
ROLES = {"attacker": "甲", "defender": "乙"}


def test_dp_f15_staying_conscious_ends_in_unconsciousness_once_per_scene(dp):
    """DP-F15 (DP-64, R19): 1 willpower keeps a character conscious 「到下个自己回合结束」, then
    「当保持清醒的时间结束你会立刻昏迷」 (昏迷: helpless, no action, until the fight ends); 「这种用法每个场景
    只能使用一次」 — the fight is the scene."""
    f = dp.start_fight({"甲": dp.Combatant(willpower=3), "乙": dp.Combatant()}).next_turn()  # 乙's turn
    _, f = f.act("willpower_spend", {"character": "甲"}, use="conscious")
    with pytest.raises(dp.RuleError) as once:
        f.resolve("willpower_spend", {"character": "甲"}, use="conscious")
    assert once.value.message == "以意志力保持清醒每个场景只能使用一次"
    f.resolve("willpower_spend", {"character": "甲"}, use="check")  # the other uses stay open
    f = f.next_turn()  # 甲's own turn: still conscious until its end
    assert "staying_conscious" in [c.id for c in f.active_conditions("甲")]
    f = f.next_turn()
    assert f.log[-2:] == ("甲的以意志保持清醒结束", "甲进入昏迷")
    assert f.effective("甲").helpless is True
    with pytest.raises(dp.RuleError) as refused:
        f.resolve("willpower_spend", {"character": "甲"}, use="check")
    assert refused.value.message.startswith("甲处于昏迷状态，不能进行自由动作")
    for _ in range(4):  # 「一个场景后才会醒来」: no turn ends it
        f = f.next_turn()
    assert "unconscious" in [c.id for c in f.active_conditions("甲")]
    assert f.to_dict() == dp.fight_from_dict(f.to_dict()).to_dict()
    g = dp.start_fight({"甲": dp.Combatant(willpower=1), "乙": dp.Combatant()})
    _, g = g.act("willpower_spend", {"character": "甲"}, use="conscious")  # on its own turn: 「下个自己回合」
    g = g.next_turn().next_turn()
    assert "staying_conscious" in [c.id for c in g.active_conditions("甲")]
    assert g.next_turn().log[-1] == "甲进入昏迷"


def test_tr_f18_concentration_is_interrupted_by_damage_or_points(tracks):
    """TR-F18 (TR-18, TR-36): an attack or counter contest voids an action that needs concentration
    by dealing damage or points during it (专注中 ends, and the log says why); it lasts until its
    holder's next turn; TR-F10 (TR-63) 震慑: 「专注检定默认失败」, so 震慑 cannot begin one."""
    f = tracks.start_fight({"甲": tracks.Combatant(strength=6, fighting=5), "乙": tracks.Combatant()})
    _, f = f.act("concentrate", {"character": "乙"})
    _, f = f.act("deal_points", {"target": "乙"}, track="pain", points=0)  # nothing taken: it goes on
    assert [c.id for c in f.active_conditions("乙")] == ["concentrating"]
    _, f = f.act("attack", ROLES, weapon="fist", dice=tracks.FixedDice([9] * 40))
    assert "乙的专注中结束（所受伤害+" in f.log[-1]
    _, f = f.act("concentrate", {"character": "乙"})
    _, f = f.act("deal_points", {"target": "乙"}, track="dizzy", points=2)
    assert f.log[-1] == "乙的专注中结束（眩晕+2）"
    _, f = f.act("concentrate", {"character": "乙"})
    f = f.next_turn()
    assert f.log[-1] == "乙的专注中结束" and not f.active_conditions("乙")
    stored = f.to_dict()
    stored["members"][1]["states"] = ["awed"]
    with pytest.raises(tracks.RuleError) as refused:
        tracks.fight_from_dict(stored).resolve("concentrate", {"character": "乙"})
    assert refused.value.message == "乙处于震慑状态，不能进行这个行动（开始专注动作）"
    _, f = f.act("concentrate", {"character": "乙"})  # 震慑 during it: its concentration check fails
    stored = f.to_dict()
    stored["members"][1]["states"] = ["awed"]
    _, f = tracks.fight_from_dict(stored).act("parry", {"defender": "甲"})
    assert f.log[-1] == "乙的专注中结束（震慑）"


def test_tr_f03_each_attack_from_hiding_adds_3_to_the_next_search(tracks):
    """TR-F03 (TR-03): 「在攻击结束后，侦查方会在针对攻击者的侦查检定上获得可叠加的3点加值」 — each attack
    from hiding counts once more (a stacking condition the search reads as 受袭后加值次数), until the
    seeker finds the attacker."""
    f = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant(perception=2, detect=1)})
    _, f = f.act("detect", {"seeker": "乙", "hider": "甲"}, dice=tracks.FixedDice([1] * 20))
    for _ in range(2):
        action, f = f.act("attack", ROLES, weapon="fist", dice=tracks.FixedDice([1] * 40))
        assert action.result.from_hiding is True
    assert {c.id: c.value for c in f.active_conditions("乙")}["struck_from_hiding"] == 2
    search = f.resolve("detect", {"seeker": "乙", "hider": "甲"}, dice=tracks.FixedDice([1] * 20))
    assert "乙的受隐藏方攻击后的侦查加值：受袭后加值次数为2" in search.applied
    assert "掷.ww9" in search.text(gm=True)  # 感知2 + 侦查1 + 3×2
    _, f = f.act("detect", {"seeker": "乙", "hider": "甲"}, dice=tracks.FixedDice([9] * 9 + [1] * 20))
    assert not f.active_conditions("乙")  # found: the bonus, 未发现 and 受隐藏方攻击 all end


def test_tr_71_tr_f10_a_helpless_contestant_fails_the_contest(tracks):
    """TR-71, TR-F10 (R60): 无助 — 「竞争检定默认失败」: the fight gives the helpless combatant 无助, and
    the detection contest reads it (a helpless seeker never notices, a helpless hider is always found)."""
    f = tracks.start_fight({"甲": tracks.Combatant(dexterity=9, hide=9), "乙": tracks.Combatant()})
    stored = f.to_dict()
    stored["members"][0]["states"] = ["helpless"]
    f = tracks.fight_from_dict(stored)
    assert f.effective("甲").helpless is True
    action = f.resolve("detect", {"seeker": "乙", "hider": "甲"}, dice=tracks.FixedDice([1] * 40))
    assert action.result.noticed is True and "躲藏方无助，竞争检定默认失败" in action.text(gm=True)
    action = f.resolve("detect", {"seeker": "甲", "hider": "乙"}, dice=tracks.FixedDice([6] * 40))
    assert action.result.noticed is False


def test_tr_f01_surprise_round_turns_are_three_seconds_until_the_round_ends(tracks):
    """TR-F01 (TR-01): 「突袭轮每一回合的持续时间仅有三秒」, and the surprise round ends 「当每个加入
    突袭轮的角色都进行过自己的回合后」: the turn budget holds 3 s while 突袭轮 lasts, 6 s after; the
    surprised combatant is 定身 for its surprise turn."""
    f = tracks.start_fight({"甲": tracks.Combatant(strength=6, fighting=5), "乙": tracks.Combatant()}, turns=True)
    for who in ("甲", "乙"):
        _, f = f.act("surprise_round", {"character": who})
    _, f = f.act("surprise", {"target": "乙"})
    assert f.left("甲") == "3秒" and f.left("乙") == "3秒"
    _, f = f.act("attack", ROLES, weapon="fist", dice=tracks.FixedDice([1] * 40))
    with pytest.raises(tracks.RuleError) as over:
        f.resolve("attack", ROLES, weapon="fist")
    assert over.value.message.startswith("甲本回合剩余0秒")
    f = f.next_turn()
    with pytest.raises(tracks.RuleError):  # 定身 for its surprise turn
        f.resolve("attack", {"attacker": "乙", "defender": "甲"}, weapon="fist")
    f = f.next_turn()
    assert f.log[-4:] == ("甲的突袭轮结束", "乙的突袭轮结束", "乙的被突袭结束", "第2轮")
    assert f.left("甲") == "6秒"


def test_event_endings_are_checked_at_build_time(tmp_path: Path):
    """An unknown `takes:`, a `then:` to an undeclared condition or state, and a `turn_pools:` of an
    undeclared pool or above the turn are FILE:LINE:COL diagnostics."""
    target = tmp_path / "tracks"
    shutil.copytree(ROOT / "rules" / "tracks", target)
    manifest = target / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    for old, new in [("{takes: damage}", "{takes: damag}"),
                     ("      turn_pools: {time: 9}\n      ends: [{round_end: 1}]",
                      "      turn_pools: {tim: 9}\n      then: {condition: nope, state: nah}\n"
                      "      ends: [{round_end: 1}]"),
                     ("      turn_pools: {time: 9}\n      ends: [{turn_end: holder}]",
                      "      turn_pools: {time: 99}\n      ends: [{turn_end: holder}]")]:
        assert old in text, old
        text = text.replace(old, new, 1)
    manifest.write_text(text, encoding="utf-8")
    out = [d.format() for d in compile_rules([target], stop_after="validate").diagnostics]
    lines = {i + 1: line for i, line in enumerate(text.splitlines())}

    def at(needle: str, message: str) -> None:
        row = next(n for n, line in lines.items() if needle in line)
        assert any(f"ruleset.yaml:{row}:" in m and message in m for m in out), (needle, out)

    at("{takes: damag}", str(say("bad-condition.not-takeable", what="damag")))
    at("turn_pools: {tim: 9}", str(say("bad-turn.no-pool", pool="tim")))
    at("then: {condition: nope", str(say("bad-condition.no-condition", id="nope")))
    at("then: {condition: nope", str(say("bad-condition.no-state", id="nah")))
    at("turn_pools: {time: 99}", str(say("bad-condition.pool-above-turn", pool="time", most=99, per_turn=18)))


class Scripted:
    """A fixed sequence of fight steps (tests/test_js_fight.py's format), run in Python as it is
    built, for the Node driver to run the same."""

    def __init__(self, m: Any, combatants: list[list[Any]], turns: bool) -> None:
        from test_js_fight import snapshot

        self.m, self.snapshot = m, snapshot
        self.steps: list[dict[str, Any]] = []
        self.records: list[dict[str, Any]] = []
        self.fight = m.start_fight({n: m.Combatant(**s) for n, s in combatants}, turns)
        self.steps.append({"op": "start", "combatants": combatants, "turns": turns})
        self.records.append(snapshot(self.fight))

    def act(self, proc: str, roles: dict[str, str], faces: list[int] | None = None, **options: Any) -> "Scripted":
        self.steps.append({"op": "act", "proc": proc, "roles": roles, "options": options,
                           "dice": {"fixed": faces or [5] * 60}})
        try:
            action, self.fight = self.fight.act(proc, roles, **options, dice=self.m.FixedDice(faces or [5] * 60))
            self.records.append({"text": action.text(gm=True), "applied": list(action.applied),
                                 "used": [list(u) for u in action.used], **self.snapshot(self.fight)})
        except self.m.RuleError as exc:
            self.records.append({"error": exc.code, "message": exc.message})
        return self

    def put_state(self, index: int, state: str) -> "Scripted":
        """The fight stored, member `index` put into `state`, and read back (the driver's `load`)."""
        import json

        data = json.loads(json.dumps(self.fight.to_dict()))
        data["members"][index]["states"] = sorted({*data["members"][index].get("states", []), state})
        self.steps.append({"op": "load", "data": data})
        self.fight = self.m.fight_from_dict(data)
        self.records.append(self.snapshot(self.fight))
        return self

    def next(self, times: int = 1) -> "Scripted":
        for _ in range(times):
            self.steps.append({"op": "next"})
            self.fight = self.fight.next_turn()
            self.records.append(self.snapshot(self.fight))
        return self


@pytest.mark.slow
def test_events_agree_in_javascript(request: pytest.FixtureRequest) -> None:
    """DP-F15, TR-F18, TR-F03, TR-71, TR-F01 step by step in Node as in Python (the JS twin of
    fight_events.py: the same log, statuses, budgets, refusals and stored fights)."""
    from test_js_fight import NODE, check_agree

    if NODE is None:
        pytest.skip("Node.js is not installed")
    built = request.getfixturevalue("built")
    dp, tracks = request.getfixturevalue("dp"), request.getfixturevalue("tracks")
    will = (Scripted(dp, [["甲", {"willpower": 2}], ["乙", {}]], False).next()
            .act("willpower_spend", {"character": "甲"}, use="conscious")
            .act("willpower_spend", {"character": "甲"}, use="conscious").next(2)
            .act("willpower_spend", {"character": "甲"}, use="check"))
    fighters = [["甲", {"strength": 6, "fighting": 5}], ["乙", {"perception": 2}]]
    hide = (Scripted(tracks, fighters, True).act("surprise_round", {"character": "甲"})
            .act("surprise_round", {"character": "乙"}).act("surprise", {"target": "乙"})
            .act("detect", {"seeker": "乙", "hider": "甲"}, [1] * 30)
            .act("attack", ROLES, [1] * 40, weapon="fist").act("attack", ROLES, weapon="fist").next()
            .act("concentrate", {"character": "乙"}).next()
            .act("attack", ROLES, [6] * 40, weapon="fist").act("attack", ROLES, [6] * 40, weapon="fist")
            .act("detect", {"seeker": "乙", "hider": "甲"}, [9] * 9 + [1] * 30)
            .act("concentrate", {"character": "乙"}).act("deal_points", {"target": "乙"}, track="mental_bind", points=40)
            .act("concentrate", {"character": "乙"}).put_state(1, "awed").act("parry", {"defender": "甲"})
            .act("concentrate", {"character": "乙"}))
    seen = check_agree([(built / "js" / "dp" / "index.js", [will]), (built / "js" / "tracks" / "index.js", [hide])])
    assert seen["refused"] >= 2 and seen["expired"] >= 1, seen
