"""d20's turn structure and positions without a map, carried by the fight: D20-F12 (two-weapon
fighting as a bonus action), D20-F10 (a held vehicle), D20-F03 (a hostile in reach) and D20-F04
(flanking holding or lapsing with its preconditions)."""

from __future__ import annotations

import pytest

HIT = [15, 3, 15, 3]


def _incapacitate(d20, f, name):
    data = f.to_dict()
    for m in data["members"]:
        if m["name"] == name:
            m["stats"]["incapacitated"] = True
    return d20.fight_from_dict(data)


def test_d20_f12_the_offhand_attack_is_a_bonus_action_after_a_light_attack(d20):
    """D20-F12 (D20-14): with the turn budget on, an attack spends the action, the off-hand attack
    the bonus action, and only after an attack with a light melee weapon this turn."""
    f = d20.start_fight({"甲": d20.Combatant(dexterity=16, proficiency=2), "乙": d20.Combatant(armor_class=10)},
                        turns=True)
    roles = {"attacker": "甲", "target": "乙"}
    with pytest.raises(d20.RuleError, match="副手附赠攻击只能在本回合已用另一把轻型近战武器进行攻击动作之后"):
        f.resolve("attack", roles, weapon="dagger", offhand=True, dice=d20.FixedDice(HIT))
    a, f = f.act("attack", roles, weapon="dagger", dice=d20.FixedDice(HIT))
    assert a.result.light_main and a.result.action_kind == "standard"
    assert "light_attacked" in [c.id for c in f.member("甲").conditions]
    with pytest.raises(d20.RuleError, match="动作"):  # the action is spent
        f.resolve("attack", roles, weapon="dagger", dice=d20.FixedDice(HIT))
    b, f = f.act("attack", roles, weapon="shortsword", offhand=True, dice=d20.FixedDice(HIT))
    assert b.result.action_kind == "bonus" and b.result.hit
    assert any("本回合已用轻型武器攻击" in x for x in b.applied)
    with pytest.raises(d20.RuleError, match="附赠动作"):  # the bonus action is spent too
        f.resolve("attack", roles, weapon="shortsword", offhand=True, dice=d20.FixedDice(HIT))
    f = f.next_turn().next_turn()  # 甲's next turn: the condition ended with the last one
    assert "light_attacked" not in [c.id for c in f.member("甲").conditions]
    with pytest.raises(d20.RuleError, match="副手附赠攻击只能"):
        f.resolve("attack", roles, weapon="dagger", offhand=True, dice=d20.FixedDice(HIT))
    # a longsword attack is no light attack: no off-hand attack after it
    g = d20.start_fight({"甲": d20.Combatant(strength=16), "乙": d20.Combatant()}, turns=True)
    a, g = g.act("attack", roles, weapon="longsword", dice=d20.FixedDice(HIT))
    assert not a.result.light_main and g.member("甲").conditions == ()


def test_d20_f10_a_held_vehicle_until_it_escapes_or_is_released(d20):
    """D20-F10 (D20-21, R39): a grapple beating the DC holds the vehicle (speed 0); the vehicle's
    escape is the grappler's new check below the DC; release needs no action; an incapacitated
    grappler lets go."""
    big = dict(vehicle_size=3, length=10, width=10, height=10)
    f = d20.start_fight({"甲": d20.Combatant(strength=20, proficiency=6, athletics=True), "乙": d20.Combatant()})
    with pytest.raises(d20.RuleError, match="只有正擒抱着载具时"):
        f.resolve("vehicle_check", {"grappler": "甲"}, power="nuclear", resisting=True, bonus=0, **big)
    a, f = f.act("vehicle_check", {"grappler": "甲"}, power="nuclear", bonus=100, dice=d20.FixedDice([10]), **big)
    assert a.result.takes_hold and a.result.vehicle_speed_zero
    assert [c.id for c in f.member("甲").conditions] == ["holding_vehicle"] and "甲进入擒抱着载具" in f.log
    kept, f1 = f.act("vehicle_check", {"grappler": "甲"}, power="nuclear", resisting=True, bonus=100,
                     dice=d20.FixedDice([10]), **big)
    assert not kept.result.breaks_free and kept.result.vehicle_speed_zero and f1.member("甲").conditions
    lost, f2 = f.act("vehicle_check", {"grappler": "甲"}, power="nuclear", resisting=True, bonus=0,
                     dice=d20.FixedDice([1]), **big)
    assert lost.result.breaks_free and f2.member("甲").conditions == ()
    _, f3 = f.act("release_vehicle", {"grappler": "甲"})
    assert f3.member("甲").conditions == ()
    f4 = _incapacitate(d20, f, "甲")
    _, f4 = f4.act("hide", {"character": "乙"})
    assert f4.member("甲").conditions == ()


def test_d20_f03_a_hostile_in_reach_lasts_while_it_is_able_and_sees_you(d20):
    """D20-F03 (D20-09, R34): while a hostile that is not incapacitated and can see you has you in
    reach, your ranged attacks take a disadvantage layer; it lapses when the hostile is
    incapacitated, when you hide, or when you leave its reach."""
    f = d20.start_fight({"甲": d20.Combatant(dexterity=16), "乙": d20.Combatant(), "丙": d20.Combatant()})
    roles = {"attacker": "甲", "target": "乙"}
    free = f.resolve("attack", roles, weapon="shortbow", distance=30, dice=d20.FixedDice([18, 3]))
    _, f = f.act("engage", {"hostile": "丙", "creature": "甲"})
    assert f.holds("threat", "丙", "甲")
    near = f.resolve("attack", roles, weapon="shortbow", distance=30, dice=d20.FixedDice([18, 5, 3]))
    assert near.result.natural == 5 and free.result.natural == 18  # disadvantage: the lower die
    assert any("身边有敌" in x for x in near.applied)
    melee = f.resolve("attack", roles, weapon="shortsword", dice=d20.FixedDice([18, 3]))
    assert melee.result.natural == 18  # melee attacks are not affected
    spell = dict(dice_count=1, dice_sides=10, distance=30)
    ranged = f.resolve("spell_attack", roles, **spell, dice=d20.FixedDice([18, 5, 3]))  # a ranged spell too (R34)
    alone = d20.spell_attack(d20.Combatant(dexterity=16), d20.Combatant(), **spell, dice=d20.FixedDice([18, 5, 3]))
    assert ranged.result.total == alone.total - 13 and any("身边有敌" in x for x in ranged.applied)
    gone = _incapacitate(d20, f, "丙")
    _, gone = gone.act("hide", {"character": "乙"})
    assert not gone.holds("threat", "丙", "甲") and "丙对甲的近身威胁结束（失能）" in gone.log
    _, hid = f.act("hide", {"character": "甲"})
    assert not hid.holds("threat", "丙", "甲")
    _, left = f.act("disengage", {"hostile": "丙", "creature": "甲"})
    assert left.member("甲").conditions == () and not left.relations


def test_d20_f04_flanking_follows_its_preconditions(d20):
    """D20-F04 (D20-11/13): two flankers of one enemy both get the flanking bonus against it; when
    one is incapacitated, charmed, can no longer see the enemy or leaves its position, the other's
    flanking lapses too; attacking another enemy gets no bonus."""
    f = d20.start_fight({"甲": d20.Combatant(strength=10), "乙": d20.Combatant(strength=10),
                         "丙": d20.Combatant(armor_class=13), "丁": d20.Combatant(armor_class=13)})
    _, f = f.act("flank_position", {"flanker": "甲", "enemy": "丙"})
    one = f.resolve("attack", {"attacker": "甲", "target": "丙"}, weapon="club", dice=d20.FixedDice([10, 3]))
    assert one.result.total == 12  # one flanker is no flanking
    _, f = f.act("flank_position", {"flanker": "乙", "enemy": "丙"})
    assert f.effective("丙").flankers == 2
    for who in ("甲", "乙"):
        two = f.resolve("attack", {"attacker": who, "target": "丙"}, weapon="club", dice=d20.FixedDice([10, 3]))
        assert two.result.total == 15 and two.result.hit
    other = f.resolve("attack", {"attacker": "甲", "target": "丁"}, weapon="club", dice=d20.FixedDice([10, 3]))
    assert other.result.total == 12
    spell = dict(dice_count=1, dice_sides=6)  # a melee spell attack flanks too, a ranged one does not
    touch = f.resolve("spell_attack", {"attacker": "甲", "target": "丙"}, melee=True, **spell,
                      dice=d20.FixedDice([10, 3]))
    ranged = f.resolve("spell_attack", {"attacker": "甲", "target": "丙"}, distance=30, **spell,
                       dice=d20.FixedDice([10, 3]))
    assert touch.result.total == ranged.result.total + d20.RULINGS["flanking_bonus"]
    down = _incapacitate(d20, f, "乙")
    _, down = down.act("hide", {"character": "丁"})
    assert down.effective("丙").flankers == 1 and "乙对丙的夹击结束（失能）" in down.log
    lapsed = down.resolve("attack", {"attacker": "甲", "target": "丙"}, weapon="club", dice=d20.FixedDice([10, 3]))
    assert lapsed.result.total == 12
    _, charmed = f.act("charm", {"charmer": "丙", "creature": "乙"})  # charmed by the enemy it flanks
    assert charmed.effective("丙").flankers == 1 and "乙对丙的夹击结束（被丙魅惑）" in charmed.log
    _, elsewhere = f.act("charm", {"charmer": "丁", "creature": "乙"})  # by another: it still flanks 丙
    assert elsewhere.effective("丙").flankers == 2 and elsewhere.effective("乙").charmed is True
    _, again = charmed.act("flank_position", {"flanker": "乙", "enemy": "丙"})  # cannot flank its charmer
    assert again.effective("丙").flankers == 1
    _, freed = charmed.act("end_charm", {"charmer": "丙", "creature": "乙"})
    _, freed = freed.act("flank_position", {"flanker": "乙", "enemy": "丙"})
    assert freed.effective("丙").flankers == 2 and freed.effective("乙").charmed is False
    _, hid = f.act("hide", {"character": "丙"})  # the flankers cannot see it
    assert hid.effective("丙").flankers == 0
    _, moved = f.act("leave_flank", {"flanker": "甲", "enemy": "丙"})
    assert moved.effective("丙").flankers == 1
    back = d20.fight_from_dict(f.to_dict())
    assert back.to_dict() == f.to_dict()


def test_d20_f07_movement_is_a_turn_budget_halved_while_dragging(d20):
    """D20-F07 (D20-18): a turn's movement is the mover's speed in feet, spent in parts between
    actions; dragging a creature it grapples halves its speed (each foot costs two) unless the
    creature is two sizes smaller, and moving it 5 ft within reach costs 5 ft; only a creature it
    grapples can be dragged, and while it grapples it drags or lets go before a plain move; the budget resets on its next turn and is refused when it does not fit."""
    me, held, tiny = d20.Combatant(strength=20, speed=30, size=3), d20.Combatant(size=3), d20.Combatant(size=1)
    f = d20.start_fight({"甲": me, "乙": held, "丙": tiny}, turns=True)
    assert "移动力30尺" in f.left("甲")
    with pytest.raises(d20.RuleError, match="只有在擒抱目标时才能拖拽它"):  # no grapple, no dragging
        f.resolve("grapple_move", {"mover": "甲", "target": "乙"}, feet=5)
    a, f = f.act("move", {"mover": "甲"}, feet=10)
    assert a.result.feet == 10 and "移动力20尺" in f.left("甲") and "动作1次" in f.left("甲")
    _, f = f.act("grapple", {"attacker": "甲", "target": "乙"}, dice=d20.FixedDice([20, 1]))
    assert f.holds("grapple", "甲", "乙") and "grappled_by" in [c.id for c in f.active_conditions("乙")]
    with pytest.raises(d20.RuleError, match="移动力20尺，不能进行"):  # 15 ft dragged costs 30
        f.resolve("grapple_move", {"mover": "甲", "target": "乙"}, feet=15)
    drag, f = f.act("grapple_move", {"mover": "甲", "target": "乙"}, feet=5, reposition=True)
    assert (drag.result.halved, drag.result.spent) == (True, 15)
    assert any("被擒抱" in x for x in drag.applied) and "移动力5尺" in f.left("甲")
    with pytest.raises(d20.RuleError, match="只有在擒抱目标时"):  # 丙 is not held by 甲
        f.resolve("grapple_move", {"mover": "甲", "target": "丙"}, feet=1)
    with pytest.raises(d20.RuleError, match="在自己的回合外不能进行移动（移动）"):  # no moving on another's turn
        f.act("release_grapple", {"grappler": "甲", "target": "乙"})[1].next_turn().resolve("move", {"mover": "甲"}, feet=5)
    f = f.next_turn().next_turn().next_turn()  # 甲's next turn: the full speed again
    assert "移动力30尺" in f.left("甲")
    drag, f = f.act("grapple_move", {"mover": "甲", "target": "乙"}, feet=15)
    assert drag.result.spent == 30 and "移动力0尺" in f.left("甲")
    # a creature two sizes smaller does not slow the mover; released, it cannot be dragged
    _, g = d20.start_fight({"甲": me, "丙": tiny}, turns=True).act(
        "grapple", {"attacker": "甲", "target": "丙"}, dice=d20.FixedDice([20, 20, 20, 1]))
    drag, g = g.act("grapple_move", {"mover": "甲", "target": "丙"}, feet=30)
    assert (drag.result.halved, drag.result.spent) == (False, 30)
    with pytest.raises(d20.RuleError, match="甲处于擒抱他人状态，不能进行这个行动（移动）"):
        g.resolve("move", {"mover": "甲"}, feet=5)  # holding, it drags or lets go first
    _, g = g.act("release_grapple", {"grappler": "甲", "target": "丙"})
    assert not g.holds("grapple", "甲", "丙")
    g.next_turn().next_turn().resolve("move", {"mover": "甲"}, feet=5)  # its next turn (movement spent)
    with pytest.raises(d20.RuleError, match="只有在擒抱目标时"):
        g.resolve("grapple_move", {"mover": "甲", "target": "丙"})
    # a slowed mover (speed 20) has 20 ft; a move beyond its speed is the procedure's own error
    h = d20.start_fight({"甲": d20.Combatant(speed=20)}, turns=True)
    assert "移动力20尺" in h.left("甲")
    with pytest.raises(d20.RuleError, match="超过移动速度20尺"):
        h.resolve("move", {"mover": "甲"}, feet=25)


def test_d20_f07_dragging_a_held_vehicle_spends_movement(d20):
    """D20-F07 with D20-F10 (D20-21): dragging a held vehicle halves the grappler's speed unless it
    is two sizes smaller, spent from the turn's movement; without the hold it cannot be dragged."""
    big = dict(vehicle_size=3, length=10, width=10, height=10)
    f = d20.start_fight({"甲": d20.Combatant(strength=20, proficiency=6, athletics=True, speed=30)}, turns=True)
    with pytest.raises(d20.RuleError, match="只有在擒抱目标时"):
        f.resolve("vehicle_move", {"grappler": "甲"}, vehicle_size=3, feet=5)
    _, f = f.act("vehicle_check", {"grappler": "甲"}, power="nuclear", bonus=100, dice=d20.FixedDice([10]), **big)
    a, f = f.act("vehicle_move", {"grappler": "甲"}, vehicle_size=3, feet=10)
    assert (a.result.halved, a.result.spent) == (True, 20) and "移动力10尺" in f.left("甲")


@pytest.mark.slow
@pytest.mark.parametrize("file, old, new, said", [
    ("procedures/positions.yaml", "    costs: {movement: feet}\n", "    costs: {movement: fet}\n",
     "procedure 'move': costs 'movement' -> 'fet' must be one of its whole-number outcome fields"),
    ("procedures/positions.yaml", "    costs: {movement: feet}\n", "    costs: {moving: feet}\n",
     "the turn structure has no pool 'moving'"),
    ("ruleset.yaml", "per_turn: speed, unit: 尺}", "per_turn: sped, unit: 尺}",
     "turn pool 'movement': per_turn 'sped' is neither a number nor a whole-number stat"),
])
def test_d20_f07_stat_pools_and_costs_are_checked_at_build_time(tmp_path, monkeypatch, file, old, new, said):
    """D20-F07: a pool's stat must be a whole-number stat and `costs:` must name a declared pool and
    a whole-number outcome — each a FILE:LINE:COL diagnostic, nothing written."""
    import shutil
    from pathlib import Path

    from rulec.build.facade import compile_rules

    monkeypatch.setenv("RULEC_LANG", "en")
    copy = tmp_path / "d20"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules" / "d20", copy)
    path = copy / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    out = "\n".join(d.format() for d in compile_rules([copy]).diagnostics)
    assert f"{file.split('/')[-1]}:" in out and said in out, out


def test_d20_f04_a_relation_ended_by_an_undeclared_relation_is_a_build_error(tmp_path, monkeypatch):
    """D20-F04: `ends_if_held_by:` names relations of the fight; a misspelt one is a FILE:LINE:COL
    diagnostic with a suggestion, not a relation that silently never ends."""
    import shutil
    from pathlib import Path

    from rulec.build.facade import compile_rules

    monkeypatch.setenv("RULEC_LANG", "en")
    copy = tmp_path / "d20"
    shutil.copytree(Path(__file__).resolve().parent.parent / "rules" / "d20", copy)
    path = copy / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    assert "ends_if_held_by: [charm]" in text
    path.write_text(text.replace("ends_if_held_by: [charm]", "ends_if_held_by: [charme]", 1), encoding="utf-8")
    row = next(i + 1 for i, line in enumerate(text.splitlines()) if "ends_if_held_by" in line)
    out = [d.format() for d in compile_rules([copy], stop_after="validate").diagnostics]
    assert any(f"ruleset.yaml:{row}:" in m and "no relation 'charme' in the fight section" in m and "charm" in m
               for m in out), out
