"""Resources and lowered capacities as fight data (runtime/fight_resources.py): dp's 意志力 pool
(DP-F15, DP-64) with its optional empty-pool knockout, tracks' magazine (TR-F19), 困倦's capacity
lowered by missed long rests (TR-F13) and the long rest's recovery as a fight action (TR-F14)."""

from __future__ import annotations

import pytest

WIN = [9] * 40


def _knockout(dp):  # the optional rule 「池为空时昏迷」 switched on (the ruling willpower_empty_knockout)
    import rulec_dp.fight as F

    spec = F.FIGHT_RULES.resources["willpower"]
    assert spec.on_empty == "drained" and spec.knocks is False  # off by default
    return F.FIGHT_RULES._replace(resources={"willpower": spec._replace(knocks=True)})


def test_dp_f15_willpower_is_a_resource_spent_across_the_fight(dp):
    """DP-F15 / DP-64: the pool starts at 意志力, each use spends 1 (willpower_spend, and an attack's
    own willpower options); the procedures read what is left; spending past it is refused."""
    f = dp.start_fight({"甲": dp.Combatant(willpower=2, strength=5, martial=3), "乙": dp.Combatant(willpower=1)})
    assert f.resource("甲", "willpower") == 2 and "意志力2/2" in f.status("甲")
    a, f = f.act("willpower_spend", {"character": "甲"}, use="check")
    assert a.result.willpower_left == 1 and "甲的意志力-1（意志力的使用，剩余1）" in f.log
    a, f = f.act("attack", {"attacker": "甲", "defender": "乙"}, weapon="long_sword", willpower=True,
                 defender_willpower=True, dice=dp.FixedDice(WIN))
    assert f.resource("甲", "willpower") == 0 and f.resource("乙", "willpower") == 0
    assert f.effective("甲").willpower == 0 and "意志力0/2" in f.status("甲")
    with pytest.raises(dp.RuleError):  # nothing left: the procedure's own check, then the fight's refusal
        f.resolve("willpower_spend", {"character": "甲"}, use="check")
    back = dp.fight_from_dict(f.to_dict())
    assert back.to_dict() == f.to_dict() and back.resource("甲", "willpower") == 0
    a, f = f.act("willpower_regain", {"character": "甲"}, points=5)
    assert f.resource("甲", "willpower") == 2 and "甲的意志力+2（恢复意志力，剩余2，已满）" in f.log


def test_dp_f15_the_fight_refuses_a_spend_past_the_pool(dp):
    """DP-F15: an attack spending 2 (check and move) with 1 left is refused with the reason."""
    f = dp.start_fight({"甲": dp.Combatant(willpower=1, strength=5, move_speed=5), "乙": dp.Combatant()})
    with pytest.raises(dp.RuleError, match="甲的意志力只剩1，不能再消耗2"):
        f.resolve("attack", {"attacker": "甲", "defender": "乙"}, weapon="long_sword", willpower=True,
                  willpower_move=True, dice=dp.FixedDice(WIN))


def test_dp_64_empty_pool_knockout_is_an_optional_rule(dp):
    """DP-64: 「若你的意志力池为空，你会立刻失去意识…直到你恢复了至少1点意志力才会醒来」, default off;
    not when the last point kept the character conscious; restoring a point wakes it."""
    plain = dp.start_fight({"甲": dp.Combatant(willpower=1)})
    _, plain = plain.act("willpower_spend", {"character": "甲"}, use="check")
    assert plain.member("甲").conditions == ()  # the ruling is off
    rules = _knockout(dp)
    f = dp.Fight.start(rules, {"甲": dp.Combatant(willpower=1), "乙": dp.Combatant()})
    _, kept = f.act("willpower_spend", {"character": "甲"}, use="conscious")
    assert "drained" not in [c.id for c in kept.member("甲").conditions]  # spent to stay conscious: spared
    _, f = f.act("willpower_spend", {"character": "甲"}, use="check")
    assert [c.id for c in f.member("甲").conditions] == ["drained"] and f.effective("甲").helpless
    assert "甲的意志力已空" in f.log and "甲进入昏迷" in f.log
    with pytest.raises(dp.RuleError, match="昏迷"):
        f.resolve("willpower_spend", {"character": "甲"}, use="check")
    _, f = f.act("willpower_regain", {"character": "甲"})
    assert f.member("甲").conditions == () and "甲的昏迷结束（意志力恢复）" in f.log


def test_tr_f19_a_burst_spends_the_magazine_and_a_reload_fills_it(tracks):
    """TR-F19 (TR-15): a shooter counting its ammunition spends each burst's rounds, is refused a
    burst the magazine no longer holds, and a reload fills it to the weapon's magazine."""
    f = tracks.start_fight({"甲": tracks.Combatant(counts_ammo=True, loaded_rounds=3), "乙": tracks.Combatant()})
    roles = {"attacker": "甲", "defender": "乙"}
    a, f = f.act("firearm", roles, weapon="pistol", shots=2, dice=tracks.FixedDice(WIN))
    assert f.resource("甲", "magazine") == 1 and "甲的弹匣中的子弹-2（枪械射击与连射，剩余1）" in f.log
    with pytest.raises(tracks.RuleError, match="甲的弹匣中的子弹只剩1，不能再消耗2"):
        f.resolve("firearm", roles, weapon="pistol", shots=2, dice=tracks.FixedDice(WIN))
    _, f = f.act("reload", {"shooter": "甲"}, weapon="pistol")
    assert f.resource("甲", "magazine") == 12 and "弹匣中的子弹12/500" in f.status("甲")
    other = tracks.start_fight({"甲": tracks.Combatant(), "乙": tracks.Combatant()})  # not counting: unchanged
    _, other = other.act("firearm", roles, weapon="pistol", shots=6, dice=tracks.FixedDice(WIN))
    assert other.member("甲").resources == ()


def test_tr_f13_missed_long_rests_lower_drowsy_capacity_in_the_fight(tracks):
    """TR-F13 (TR-67, R61): each missed long rest lowers 困倦's capacity by 1 and adds a point; the
    debuff and the state read the lowered capacity; an enhanced long rest gives both back."""
    f = tracks.start_fight({"甲": tracks.Combatant(max_focus=4), "乙": tracks.Combatant()})
    for _ in range(2):
        a, f = f.act("miss_long_rest", {"creature": "甲"})
    assert a.result.capacity == 2 and a.result.points == 2  # its inputs came from the fight
    assert f.member("甲").lowered == (("drowsy", 2),) and "困倦累积槽-2" in f.status("甲")
    assert "甲的困倦累积槽-1（缺少长休息，共降低2）" in f.log
    from rulec_tracks._runtime.fight_resources import capacity_kw
    from rulec_tracks._runtime.fight_until import state_threshold

    m = f.member("甲")  # the fewest points into the state: above 3 × 4 at full capacity, above 3 × 2 now
    assert state_threshold(f.rules, m.base, "drowsy") == 13
    assert state_threshold(f.rules, m.base, "drowsy", capacity=capacity_kw(f.rules, m, "drowsy")) == 7
    _, f = f.act("deal_points", {"target": "甲"}, track="drowsy", points=3)  # 5 points against capacity 2
    assert f._debuff_amounts(f.member("甲")) == (("drowsy", 3),)
    assert "unconscious" not in f.member("甲").states  # 5 is not above 3 × 2
    _, f = f.act("deal_points", {"target": "甲"}, track="drowsy", points=2)
    assert "unconscious" in f.member("甲").states  # 7 > 6: the state against the lowered capacity
    back = tracks.fight_from_dict(f.to_dict())
    assert back.member("甲").lowered == (("drowsy", 2),)
    a, f = f.act("enhanced_long_rest", {"creature": "甲"}, rest_hours=9)
    assert a.result.recovered == 2 and f.member("甲").lowered == () and f.member("甲").track_points("drowsy") == 5


def test_tr_f13_the_wake_rule_reads_the_lowered_capacity(tracks):
    """TR-F13 with TR-F11 (R62): 昏迷 from 困倦 lifts below three times the *current* capacity."""
    f = tracks.start_fight({"甲": tracks.Combatant(max_focus=4), "乙": tracks.Combatant()})
    for _ in range(2):
        _, f = f.act("miss_long_rest", {"creature": "甲"})  # capacity 2, 2 points
    _, f = f.act("deal_points", {"target": "甲"}, track="drowsy", points=5)  # 7 > 3 × 2
    assert "unconscious" in f.member("甲").states
    _, f = f.act("fixed_damage", {"defender": "甲"}, amount=1)  # 6 points: not below 6 (at capacity 4: awake)
    assert "unconscious" in f.member("甲").states and f.member("甲").track_points("drowsy") == 6
    _, f = f.act("fixed_damage", {"defender": "甲"}, amount=1)
    assert "unconscious" not in f.member("甲").states


def test_a_resource_effect_may_spend_a_number(dp):
    """`spend: 2` (a number, not a result field) spends that much; the refusal says so."""
    import rulec_dp.fight as F

    spec = F.FIGHT_RULES.actions["willpower_spend"]
    effect = next(e for e in spec.effects if e.kind == "resource")._replace(field="", duration="2")
    actions = {**F.FIGHT_RULES.actions, "willpower_spend": spec._replace(effects=(effect,))}
    f = dp.Fight.start(F.FIGHT_RULES._replace(actions=actions), {"甲": dp.Combatant(willpower=3)})
    _, f = f.act("willpower_spend", {"character": "甲"}, use="check")
    assert f.resource("甲", "willpower") == 1
    with pytest.raises(dp.RuleError, match="只剩1，不能再消耗2"):
        f.resolve("willpower_spend", {"character": "甲"}, use="check")


def test_tr_f14_a_long_rests_recovery_is_a_fight_action(tracks):
    """TR-F14 (TR-73): the recovery reads the track's points from the fight and removes its
    successes from them; a state the points no longer reach lifts."""
    f = tracks.start_fight({"甲": tracks.Combatant(max_focus=2), "乙": tracks.Combatant()})
    _, f = f.act("deal_points", {"target": "甲"}, track="drowsy", points=10)
    before = f.member("甲").track_points("drowsy")
    state = f.rules.track_states["drowsy"]
    assert state in f.member("甲").states
    a, f = f.act("recover", {"creature": "甲"}, track="drowsy", check_dice=8, dice=tracks.FixedDice([9] * 8))
    assert a.result.recovered == 8 and f.member("甲").track_points("drowsy") == before - 8
    assert state not in f.member("甲").states and f"甲的困倦-8（共{before - 8}）" in f.log


def test_stored_resources_are_checked(dp, tracks):
    """A stored resource past its top, negative or unknown, and a lowered capacity past the top the
    accumulation procedure accepts, are refused like the rest of the fight state."""
    f = dp.start_fight({"甲": dp.Combatant(willpower=2)})
    _, f = f.act("willpower_spend", {"character": "甲"}, use="check")
    data = f.to_dict()
    assert data["members"][0]["resources"] == {"willpower": 1}
    for bad in ({"willpower": 3}, {"willpower": -1}, {"stamina": 1}, {"willpower": "1"}):
        data["members"][0]["resources"] = bad
        with pytest.raises(dp.OutOfBounds):
            dp.fight_from_dict(data)
    t = tracks.start_fight({"甲": tracks.Combatant()}).to_dict()
    for bad in ({"drowsy": 101}, {"drowsy": 0}, {"nothing": 1}):
        t["members"][0]["lowered"] = bad
        with pytest.raises(tracks.OutOfBounds):
            tracks.fight_from_dict(t)


@pytest.mark.slow
def test_resources_are_checked_at_build_time(tmp_path, monkeypatch):
    """An unknown resource, an unknown stat and a bad amount are FILE:LINE:COL diagnostics."""
    import shutil
    from pathlib import Path

    from rulec.build.facade import compile_rules

    monkeypatch.setenv("RULEC_LANG", "en")
    source = Path(__file__).resolve().parent.parent / "rules" / "dp"

    def built(*edits: tuple[str, str, str]) -> str:
        copy = tmp_path / f"dp{len(list(tmp_path.iterdir()))}"
        shutil.copytree(source, copy)
        for name, old, new in edits:
            text = (copy / name).read_text(encoding="utf-8")
            assert old in text
            (copy / name).write_text(text.replace(old, new), encoding="utf-8")
        return "\n".join(d.format() for d in compile_rules([copy]).diagnostics)

    out = built(("ruleset.yaml", "      start: willpower\n", "      start: will_power\n"),
                ("procedures/defense.yaml", "resource: willpower, spend: spent", "resource: wilpower, spend: spent"))
    assert "ruleset.yaml:" in out and "there is no whole-number stat 'will_power'" in out
    assert "defense.yaml:" in out and "no resource 'wilpower' in the fight section; did you mean 'willpower'?" in out
    out = built(("ruleset.yaml", "      max: willpower\n", "      max: -3\n"))
    assert "ruleset.yaml:" in out and "-3" in out


# The same fights in JavaScript (tests/js/fight_driver.mjs): every log line, status, stored fight,
# effective stats, applied sentence and refusal agree with Python.
_SEQUENCES = {
    "dp": [
        {"op": "start", "combatants": [["甲", {"willpower": 2, "strength": 5}], ["乙", {"willpower": 1}]]},
        {"op": "act", "proc": "willpower_spend", "roles": {"character": "甲"}, "options": {"use": "check"},
         "dice": {"fixed": []}},
        {"op": "act", "proc": "attack", "roles": {"attacker": "甲", "defender": "乙"},
         "options": {"weapon": "long_sword", "willpower": True, "willpower_move": True}, "dice": {"fixed": WIN}},
        {"op": "act", "proc": "attack", "roles": {"attacker": "甲", "defender": "乙"},
         "options": {"weapon": "long_sword", "willpower": True, "defender_willpower": True}, "dice": {"fixed": WIN}},
        {"op": "roundtrip"},
        {"op": "act", "proc": "willpower_regain", "roles": {"character": "甲"}, "options": {"points": 9},
         "dice": {"fixed": []}},
    ],
    "tracks": [
        {"op": "start", "combatants": [["甲", {"max_focus": 3, "counts_ammo": True, "loaded_rounds": 3}], ["乙", {}]]},
        {"op": "act", "proc": "firearm", "roles": {"attacker": "甲", "defender": "乙"},
         "options": {"weapon": "pistol", "shots": 2}, "dice": {"fixed": WIN}},
        {"op": "act", "proc": "firearm", "roles": {"attacker": "甲", "defender": "乙"},
         "options": {"weapon": "pistol", "shots": 2}, "dice": {"fixed": WIN}},
        {"op": "act", "proc": "reload", "roles": {"shooter": "甲"}, "options": {"weapon": "pistol"},
         "dice": {"fixed": []}},
        {"op": "act", "proc": "miss_long_rest", "roles": {"creature": "甲"}, "options": {}, "dice": {"fixed": []}},
        {"op": "act", "proc": "deal_points", "roles": {"target": "甲"}, "options": {"track": "drowsy", "points": 6},
         "dice": {"fixed": []}},
        {"op": "roundtrip"},
        {"op": "act", "proc": "recover", "roles": {"creature": "甲"}, "options": {"track": "drowsy", "check_dice": 4},
         "dice": {"fixed": [9, 9, 9, 1]}},
        {"op": "act", "proc": "enhanced_long_rest", "roles": {"creature": "甲"}, "options": {"rest_hours": 8},
         "dice": {"fixed": []}},
    ],
}


def _python_records(m, steps):  # what tests/js/fight_driver.mjs records, in Python
    from test_js_fight import snapshot

    records, fight = [], None
    for s in steps:
        try:
            if s["op"] == "start":
                fight = m.start_fight({n: m.Combatant(**st) for n, st in s["combatants"]})
                records.append(snapshot(fight))
            elif s["op"] == "roundtrip":
                fight = m.fight_from_dict(fight.to_dict())
                records.append(snapshot(fight))
            else:
                action, fight = fight.act(s["proc"], s["roles"], **s["options"], dice=m.FixedDice(s["dice"]["fixed"]))
                records.append({"text": action.text(gm=True), "applied": list(action.applied),
                                "used": [list(u) for u in action.used], **snapshot(fight)})
        except m.RuleError as exc:
            records.append({"error": exc.code, "message": exc.message})
    return records


@pytest.mark.slow
def test_resources_agree_in_javascript(request, dp, tracks):
    """DP-F15, TR-F13, TR-F14, TR-F19 in the JavaScript runtime: the same sentences, refusals and stored state."""
    from test_js_fight import NODE, run_node

    if NODE is None:
        pytest.skip("Node.js is not installed (CI installs it)")
    built = request.getfixturevalue("built")
    modules = {"dp": dp, "tracks": tracks}
    node = run_node([(built / "js" / name / "index.js", [steps]) for name, steps in _SEQUENCES.items()])
    for (name, steps), (js_records,) in zip(_SEQUENCES.items(), node):
        py_records = _python_records(modules[name], steps)
        assert any("error" in r and "只剩" in r["message"] for r in py_records)  # a refusal is among them
        for i, (js, py) in enumerate(zip(js_records, py_records)):
            assert js == py, f"{name} step {i}: {steps[i]}"
