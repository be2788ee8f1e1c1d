"""Schema and semantic diagnostics: file:line:col, every problem in every file, did-you-mean hints."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from rulec.diagnostics import format_json

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def dp_copy(tmp_path: Path) -> Path:
    target = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", target)
    return target


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def messages(build) -> list[str]:
    return [d.format() for d in build.diagnostics]


def test_misspelt_key_has_position_and_hint(dp_copy: Path):
    weapons = dp_copy / "tables" / "weapons.yaml"
    replace(weapons, "id: long_sword, name: 长剑, attack_type: melee, damage: 3,",
            "id: long_sword, name: 长剑, attack_type: melee, damge: 3,")
    out = messages(compile_rules([dp_copy]))
    assert any("weapons.yaml:10:" in m and "error[unknown-key]: 'damge' is not allowed here; did you mean 'damage'?" in m
               for m in out), out
    assert any("missing required key 'damage'" in m for m in out)


def test_all_problems_in_all_files_at_once(dp_copy: Path):
    replace(dp_copy / "tables" / "weapons.yaml", "damage: 3, damage_type: lethal, strength: 3,",
            "damage: 99, damage_type: lethal, strength: 3,")
    replace(dp_copy / "tables" / "called_shots.yaml", "track: stun,", "track: stunn,")
    replace(dp_copy / "stats.yaml", "group: attribute, min: 0, max: 30, default: 3}", "group: atribute, min: 0, max: 30, default: 3}")
    build = compile_rules([dp_copy])
    out = messages(build)
    assert any("weapons.yaml" in m and "[out-of-range]: 99 is above the maximum 50" in m for m in out), out
    assert any("stats.yaml" in m and "atribute" in m for m in out), out
    assert not build.ok and build.files == {}


def test_bad_reference_gets_did_you_mean(dp_copy: Path):
    replace(dp_copy / "tables" / "called_shots.yaml", "track: stun,", "track: stunn,")
    out = messages(compile_rules([dp_copy]))
    assert any("[unknown-ref]: no entry 'stunn' in table 'condition_tracks'; did you mean 'stun' (晕眩)?" in m for m in out), out


def test_formula_error_points_at_the_column(dp_copy: Path):
    replace(dp_copy / "tables" / "attack_types.yaml", "pool: 力量 + 武技 + 专业 + 武器.武器伤害\n    action: standard\n    default_damage_type: blunt",
            "pool: 力量 + 武技 + 专业 + 武器.武器伤hai\n    action: standard\n    default_damage_type: blunt")
    out = messages(compile_rules([dp_copy]))
    hit = [m for m in out if "error[formula]" in m]
    assert hit and "attack_types.yaml:8:26:" in hit[0] and "unknown name '武器.武器伤hai'" in hit[0], out


def test_unknown_name_in_procedure_and_template(dp_copy: Path):
    replace(dp_copy / "procedures" / "save.yaml", "max(0, attack_successes + attack_extras - save_successes - save_extras)",
            "max(0, attack_successes + attack_extra - save_successes - save_extras)")
    replace(dp_copy / "procedures" / "save.yaml", "造成{胜出数}点", "造成{胜出}点")
    out = messages(compile_rules([dp_copy]))
    assert any("unknown name 'attack_extra'; did you mean 'attack_extras'?" in m for m in out), out
    assert any("[template]: unknown name '胜出'" in m for m in out), out


def test_duplicate_ids(dp_copy: Path):
    replace(dp_copy / "tables" / "weapons.yaml", "id: dagger,", "id: fist,")
    out = messages(compile_rules([dp_copy]))
    assert any("[duplicate-id]: 'fist' is defined twice in 'weapons'" in m for m in out), out


def test_json_format(dp_copy: Path):
    replace(dp_copy / "tables" / "weapons.yaml", "damage: 3, damage_type: lethal, strength: 3,",
            "damage: 3, damage_type: lethl, strength: 3,")
    build = compile_rules([dp_copy])
    data = json.loads(format_json(build.diagnostics))
    assert data[0]["code"] == "unknown-ref" and data[0]["line"] == 10 and data[0]["hint"].startswith("did you mean 'lethal' (严重)?")


def test_wrong_shape_and_unknown_kind(tmp_path: Path):
    rs = tmp_path / "x"
    rs.mkdir()
    (rs / "ruleset.yaml").write_text("- 1\n- 2\n")
    (rs / "other.yaml").write_text("kind: weapon\n")
    out = messages(compile_rules([rs]))
    assert any("ruleset.yaml:1:1: error[wrong-shape]" in m for m in out), out
    assert any("other.yaml:1:7: error[bad-value]: unknown kind \"weapon\"" in m for m in out), out


def test_stray_yaml_file_is_reported(tmp_path: Path):
    (tmp_path / "lonely.yaml").write_text("kind: stats\n")
    out = messages(compile_rules([tmp_path]))
    assert any("lonely.yaml" in m and "stray-file" in m for m in out) or any("no-ruleset" in m for m in out)


def test_an_id_with_a_trailing_newline_is_refused(dp_copy: Path):
    """Patterns mean what they mean in editors (ECMA-262): `$` is the end of the text."""
    weapons = dp_copy / "tables" / "weapons.yaml"
    replace(weapons, "id: long_sword,", 'id: "long_sword\\n",')
    out = messages(compile_rules([dp_copy]))
    assert any("weapons.yaml:10:" in m and "error[bad-format]" in m for m in out), out


@pytest.mark.parametrize("text, code", [
    ("name: 长\u200b剑", "U+200B ZERO WIDTH SPACE"),
    ("name: \"长\\u202e剑\"", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("name: \"长\\x07剑\"", "U+0007"),
])
def test_invisible_and_control_characters_are_diagnostics(dp_copy: Path, text: str, code: str):
    weapons = dp_copy / "tables" / "weapons.yaml"
    replace(weapons, "name: 长剑", text)
    out = messages(compile_rules([dp_copy]))
    assert any("weapons.yaml:10:" in m and "error[bad-character]" in m and code in m for m in out), out


def test_a_ruling_no_procedure_reads_is_a_diagnostic(dp_copy: Path):
    """Every ruling changes something (validate/usage.py): one nothing reads is an error at its
    line, unless it says why with not_modelled (then the page shows the reason)."""
    rulings = dp_copy / "rulings.yaml"
    text = rulings.read_text(encoding="utf-8")
    rulings.write_text(text + "  - {key: spare, name: 备用, value: 3, min: 0, max: 9, text: 没有过程读取。}\n",
                       encoding="utf-8")
    line = len(text.splitlines()) + 1
    out = messages(compile_rules([dp_copy]))
    assert f"rulings.yaml:{line}:5: error[unused-ruling]: ruling 'spare' (备用) is read by no procedure" in out[0], out
    rulings.write_text(text + "  - {key: spare, name: 备用, value: 3, min: 0, max: 9, text: 没有过程读取。, "
                       "not_modelled: 本章之外的规则。}\n", encoding="utf-8")
    build = compile_rules([dp_copy])
    assert build.ok, messages(build)
    assert "不读取：本章之外的规则。" in build.files["reference/dp.md"].decode()


def test_a_flag_or_an_error_nothing_uses_is_a_diagnostic(dp_copy: Path):
    replace(dp_copy / "ruleset.yaml", "      - {id: trauma_source, name: C级创伤来源, type: bool, default: true, ",
            "      - {id: shiny, name: 闪亮, type: bool, default: false}\n"
            "      - {id: trauma_source, name: C级创伤来源, type: bool, default: true, ")
    replace(dp_copy / "ruleset.yaml", "errors:\n", "errors:\n  - {id: never, name: 从不, message: 从不发生}\n")
    out = "\n".join(messages(compile_rules([dp_copy])))
    assert "error[unused-field]: the flag 'shiny' (闪亮) of table 'called_shots' is read by no procedure" in out
    assert "error[unused-error]: no procedure raises the error 'never' (从不)" in out


def test_the_coup_de_grace_ruling_is_read(tmp_path: Path):
    """DP-33 (R14): with coup_de_grace_keeps_defender_extras set to false by a pack, the defender's
    extras no longer cancel successes: 2 armor extras cost the stock rules 2 of the net (checked on
    the oracle of the IR)."""
    from oracle import Oracle

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("kind: pack\nid: mercy\nname: 慈悲\nextends: dp\n", encoding="utf-8")
    (pack / "rulings.yaml").write_text("kind: rulings\nrulings:\n  - {key: coup_de_grace_keeps_defender_extras, "
                                       "value: false, override: true}\n", encoding="utf-8")
    results = {}
    for label, paths in (("stock", [ROOT / "rules" / "dp"]), ("pack", [ROOT / "rules" / "dp", pack])):
        (rs,) = compile_rules(paths, stop_after="lower").rulesets
        attack = next(p for p in rs.procedures if p.id == "attack")
        stats = {st.id: st.default for st in rs.stats}
        hero = {**stats, "strength": 5, "martial": 3, "specialty": 1}
        helpless = {**stats, "helpless": True, "armor_defense": 2, "armor_extras": 2}
        out = Oracle(rs).run(attack, {"attacker": hero, "defender": helpless, "weapon": "long_sword",
                                      "coup_de_grace": True}, lambda sides: 1)
        results[label] = dict(zip([o.id for o in attack.result], out))["net"]
    assert (results["stock"], results["pack"]) == (12 - 2 - 2, 12 - 2)


def test_a_rule_number_in_a_procedure_formula_is_a_diagnostic(dp_copy: Path):
    """Rule numbers are rulings (validate/literals.py): a number other than 0 and 1 in a step's
    formula is reported at its column unless the step lists it as definitional, with a reason;
    a listed number the step no longer uses is reported too."""
    special = dp_copy / "procedures" / "special.yaml"
    replace(special, "defender.size <= rulings.overrun_size_multiple * attacker.size",
            "defender.size <= 3 * attacker.size")
    line = next(i for i, x in enumerate(special.read_text(encoding="utf-8").splitlines(), 1) if "3 * attacker" in x)
    out = messages(compile_rules([dp_copy]))
    assert any(f"special.yaml:{line}:" in m and "error[rule-literal]: the number 3 in this formula encodes a rule"
               in m for m in out), out
    replace(special, "value: 2, text: 第2名阻挡者（本流程逐个展开阻挡者）", "value: 7, text: 过期")
    out = "\n".join(messages(compile_rules([dp_copy])))
    assert "error[stale-definitional]: the step's formulas no longer use the number 7" in out
    assert "the number 2 in this formula" in out


def test_a_declared_formula_is_one_definition_for_every_call(tmp_path: Path):
    """d20's ability modifier is declared once (`formulas:`) and called by id or Chinese name; its
    own numbers are definitional there, and a call expands to the same tree as the copy did."""
    d20 = tmp_path / "d20"
    shutil.copytree(ROOT / "rules" / "d20", d20)
    attack = d20 / "procedures" / "attack.yaml"
    replace(attack, 'value: "ability_mod(attacker.strength)"', 'value: "属性调整值(attacker.strength)"')
    build = compile_rules([d20], stop_after="lower")
    assert build.ok, messages(build)
    replace(attack, 'value: "属性调整值(attacker.strength)"', 'value: "ability_mod(attacker.strength, 2)"')
    out = "\n".join(messages(compile_rules([d20])))
    assert "error[formula]: ability_mod() takes 1 argument(s), got 2" in out


@pytest.mark.parametrize("lacks, needs, where", [
    ("relation", "grapple", "the fight declares the relation 'grapple'"),
    ("condition", "prone", "combatants carry the true/false stat 'prone'"),
    ("geometry", "hexgrid", None),  # a helper dp does not declare: not stale
    ("state_across_actions", "relations", None),  # not a facility of the vocabulary: a schema error
    ("no_number", None, None),
])
def test_a_declared_gap_whose_lack_the_ruleset_has_is_a_diagnostic(dp_copy: Path, lacks, needs, where):
    """Gaps cannot go stale: a not_modelled entry says, from a closed vocabulary, what the ruleset lacks
    (validate/gaps.py); once the ruleset has it (a grapple gap while the fight declares the grapple
    relation, a condition gap while combatants carry the flag), the entry is an error at its line."""
    manifest = dp_copy / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    line = text.splitlines().index("not_modelled:") + 2
    entry = f"  - {{rules: [DP-52], what: 试验, lacks: {lacks}, {f'needs: {needs}, ' if needs else ''}reason: 试验。}}\n"
    manifest.write_text(text.replace("not_modelled:\n", "not_modelled:\n" + entry, 1), encoding="utf-8")
    build = compile_rules([dp_copy])
    out = messages(build)
    if where is not None:
        assert f"ruleset.yaml:{line}:5: error[stale-gap]: not_modelled '试验' says it lacks {lacks} '{needs}', " \
               f"but {where}" in out[0], out
    elif lacks == "state_across_actions":
        assert not build.ok and not any("stale-gap" in m for m in out), out
    else:
        assert build.ok, out
        shown = "原文没有数值" if lacks == "no_number" else "缺少几何函数（hexgrid）"
        assert f"| DP-52 | 试验 | {shown} | 试验。 |" in build.files["reference/dp.md"].decode()


def test_a_gap_must_say_what_it_lacks(dp_copy: Path):
    """The vocabulary is closed and `needs` goes with the lacks that name something (and only with them)."""
    manifest = dp_copy / "ruleset.yaml"
    for entry, problem in [("{rules: [DP-52], what: 试验, reason: 试验。}", "missing required key 'lacks'"),
                           ("{rules: [DP-52], what: 试验, lacks: relation, reason: 试验。}", "'needs'"),
                           ("{rules: [DP-52], what: 试验, lacks: nothing, reason: 试验。}", "nothing"),
                           ("{rules: [DP-52], what: 试验, lacks: referee, needs: grapple, reason: 试验。}", "needs")]:
        text = (ROOT / "rules" / "dp" / "ruleset.yaml").read_text(encoding="utf-8")
        manifest.write_text(text.replace("not_modelled:\n", f"not_modelled:\n  - {entry}\n", 1), encoding="utf-8")
        out = "\n".join(messages(compile_rules([dp_copy])))
        assert "ruleset.yaml:" in out and problem in out, (entry, out)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
