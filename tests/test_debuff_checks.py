"""tracks TR-60..TR-70: a debuff lowers the *checks* of declared kinds (「对应部位进行的感知检定」,
「意志与智力检定」), not the stat they use; the fight passes the penalty to exactly the procedures
that declare a check of that kind, and the action says so. Build-time checks of the declarations."""

from __future__ import annotations

from pathlib import Path

from rulec.build.facade import compile_rules

ROOT = Path(__file__).resolve().parent.parent


def _fight_with_points(tracks, track):
    """甲 (the one whose checks are lowered) with 5 points on `track` (an eye or ear slot of 2: a
    debuff of 3); 乙 a hider."""
    seeker = tracks.Combatant(perception=5, detect=2, eye_hp=2, ear_hp=2)
    fight = tracks.start_fight({"甲": seeker, "乙": tracks.Combatant(dexterity=1)})
    return fight._with(members=(fight.member("甲")._replace(points=((track, 5),)), fight.member("乙")))


def test_tr60_dazzle_lowers_the_sight_perception_check_not_hearing(tracks):
    """TR-60: 目眩 lowers the eyes' perception checks (a detection by sight) and basic defense, not a
    detection by hearing: perception itself is not lowered."""
    fight = _fight_with_points(tracks, "dazzle")
    assert fight.member("甲").track_points("dazzle") == 5
    assert fight.effective("甲").perception == 5
    roles = {"seeker": "甲", "hider": "乙"}
    sight = fight.resolve("detect", roles, sense="sight", dice=tracks.FixedDice([1] * 20))
    assert sight.result.rolls[0].dice == 5 + 2 - 3
    assert "甲的目眩减益：视觉感知检定-3" in sight.applied
    by_name = fight.resolve("detect", roles, sense="视觉", dice=tracks.FixedDice([1] * 20))
    assert by_name.result.rolls[0].dice == 4
    hearing = fight.resolve("detect", roles, sense="hearing", dice=tracks.FixedDice([1] * 20))
    assert hearing.result.rolls[0].dice == 5 + 2
    assert not any("视觉感知检定" in s for s in hearing.applied)
    assert "甲的减益：基础防御-3" in fight.applied_to("甲")


def test_tr60_tinnitus_lowers_the_hearing_check_not_sight(tracks):
    """TR-60: 耳鸣 lowers the ears' perception checks (hearing), not sight."""
    fight = _fight_with_points(tracks, "tinnitus")
    roles = {"seeker": "甲", "hider": "乙"}
    assert fight.resolve("detect", roles, sense="hearing", dice=tracks.FixedDice([1] * 20)).result.rolls[0].dice == 4
    assert fight.resolve("detect", roles, sense="sight", dice=tracks.FixedDice([1] * 20)).result.rolls[0].dice == 7


def test_tr63_mental_bind_lowers_will_and_intelligence_checks_not_intelligence(tracks):
    """TR-63, TR-42: 精神束缚 lowers 意志检定 and 智力检定 by the excess; effective INT stays, so a
    chaos-scale check is still allowed (chaos 2 < INT 3) and only its pool is lower."""
    bound = tracks.Combatant(will=2, intelligence=3, chaos=2)  # capacity 2×2+3 = 7
    fight = tracks.start_fight({"甲": bound})
    member = fight.member("甲")._replace(points=(("mental_bind", 9),))  # a debuff of 2
    fight = fight._with(members=(member,))
    assert fight.effective("甲").intelligence == 3 and fight.effective("甲").will == 2
    chaos = fight.resolve("chaos_check", {"character": "甲"}, skill=3, dice=tracks.FixedDice([1] * 10))
    assert chaos.result.rolls[0].dice == 3 + 3 - 2 - 2
    assert "甲的精神束缚减益：智力检定-2" in chaos.applied
    will = fight.resolve("will_check", {"character": "甲"}, skill=1, dice=tracks.FixedDice([1] * 10))
    assert will.result.rolls[0].dice == 2 + 1 - 2
    assert "甲的精神束缚减益：意志检定-2" in will.applied
    assert "甲的精神束缚减益：意志检定、智力检定-2" in fight.applied_to("甲")


def test_tr64_tr68_dexterity_checks_lowered_in_dodge_and_hiding(tracks):
    """TR-64, TR-68: 麻痹 and 眩晕 lower 敏捷检定 (a dodge, a hiding roll) and add up; a penalty the
    caller passes wins."""
    agile = tracks.Combatant(dexterity=4, dodge=2, endurance=1, perception=1)  # 麻痹 cap 9, 眩晕 cap 9
    fight = tracks.start_fight({"甲": agile, "乙": tracks.Combatant(perception=3)})
    member = fight.member("甲")._replace(points=(("dizzy", 10), ("paralysis", 11)))  # debuffs 1 and 2
    fight = fight._with(members=(member, fight.member("乙")))
    dodge = fight.resolve("dodge", {"defender": "甲"}, incoming=5, dice=tracks.FixedDice([1] * 10))
    assert dodge.result.rolls[0].dice == 4 + 2 - 3
    own = fight.resolve("dodge", {"defender": "甲"}, incoming=5, dodge_penalty=0, dice=tracks.FixedDice([1] * 10))
    assert own.result.rolls[0].dice == 6
    hide = fight.resolve("detect", {"seeker": "乙", "hider": "甲"}, dice=tracks.FixedDice([1] * 20))
    assert hide.result.rolls[1].dice == 4 - 3
    assert fight.effective("甲").dexterity == 4


def test_tr70_pain_lowers_the_endurance_check_against_a_vital_hit(tracks):
    """TR-70, TR-51: 剧痛 lowers 耐力检定, so the defender's check against 重创 has fewer dice."""
    hurt = tracks.Combatant(endurance=4, max_focus=1)
    fight = tracks.start_fight({"甲": tracks.Combatant(strength=5, fighting=3), "乙": hurt})
    member = fight.member("乙")._replace(points=(("pain", 3),))  # a debuff of 2
    fight = fight._with(members=(fight.member("甲"), member))
    action = fight.resolve("attack", {"attacker": "甲", "defender": "乙"}, weapon="fist", part="vitals",
                           dice=tracks.FixedDice([9] * 30))
    assert action.result.rolls[1].dice == 4 - 2 and "乙的剧痛减益：耐力检定-2" in action.applied


def test_tr65_entangle_lowers_a_dodge_against_gunfire_only_when_the_target_dodges(tracks):
    """TR-65, TR-31: a check whose kind depends on a true/false option (枪械射击's 目标闪避): without
    the dodge nothing is lowered or said; with it the 敏捷检定 of the dodge is."""
    caught = tracks.Combatant(dexterity=4, dodge=1, move_speed=2)  # 纠缠 capacity 2: 5 points, a debuff of 3
    fight = tracks.start_fight({"甲": tracks.Combatant(dexterity=6, firearms=4), "乙": caught})
    fight = fight._with(members=(fight.member("甲"), fight.member("乙")._replace(points=(("entangle", 5),))))
    roles = {"attacker": "甲", "defender": "乙"}
    plain = fight.resolve("firearm", roles, weapon="pistol", dice=tracks.FixedDice([9] * 30))
    assert not any("敏捷检定" in s for s in plain.applied) and len(plain.result.rolls) == 1
    dodging = fight.resolve("firearm", roles, weapon="pistol", defender_dodges=True, dice=tracks.FixedDice([9] * 30))
    assert "乙的纠缠减益：敏捷检定-3" in dodging.applied
    assert dodging.result.rolls[-1].dice == 4 + 1 - 3


def _tracks_copy(tmp_path: Path, edit) -> Path:
    import shutil

    folder = tmp_path / "tracks"
    shutil.copytree(ROOT / "rules" / "tracks", folder)
    edit(folder)
    return folder


def _diags(folder: Path):
    return compile_rules([folder], stop_after="validate").diagnostics


def test_unknown_check_ids_are_file_line_col_diagnostics(tmp_path):
    """TR-60: a debuff or a procedure naming a kind of check that `fight: checks:` does not declare,
    a penalty parameter that is not a whole number from 0, and a `when` value that is not an entry of
    the option's table are each a diagnostic at the id."""
    def edit(folder: Path) -> None:
        m = folder / "ruleset.yaml"
        m.write_text(m.read_text(encoding="utf-8").replace("checks: [sight_perception], stats", "checks: [sight_percepton], stats"),
                     encoding="utf-8")
        f = folder / "procedures" / "flow.yaml"
        text = f.read_text(encoding="utf-8")
        text = text.replace("{check: touch_perception, role: seeker, lowers: seek_penalty, when: {sense: touch}}",
                            "{check: smell, role: seeker, lowers: skill_x, when: {sense: smel}}")
        f.write_text(text, encoding="utf-8")
    folder = _tracks_copy(tmp_path, edit)
    found = _diags(folder)
    texts = [(d.code, d.span.file, d.span.line, d.message) for d in found]
    codes = [c for c, *_ in texts]
    assert codes.count("unknown-check") == 2 and codes.count("bad-check") == 2, texts
    for d in found:
        assert d.span.line > 0 and d.span.col > 0
    assert any("sight_perception" in str(d.hint) for d in found if d.code == "unknown-check")
