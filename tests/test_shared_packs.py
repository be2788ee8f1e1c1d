"""What a pack or ruleset folder from a stranger may not do (an adversarial review of 2026-12-07,
each finding a test): send a build into another build's folder through its own rulec.toml,
rewrite a bundled ruling's text, hide or reorder text with the characters of its file names,
pass its files off as the bundled rules', or name an id after a word of the generated code
(an internal error, or a package whose `text()` no longer works)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from rulec.load.sources import discover

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "cases" / "valid_tiny" / "rules" / "tiny"
PACK = "kind: pack\nid: {id}\nname: 自制\nextends: {extends}\n"


def rulec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulec", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "NO_COLOR": "1", "RULEC_CACHE_DIR": "off", "RULEC_LANG": "en"})


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts and p.name != ".rulec-stat"}


def _pack(where: Path, pid: str = "brew", extends: str = "tiny") -> Path:
    where.mkdir(parents=True)
    (where / "pack.yaml").write_text(PACK.format(id=pid, extends=extends), encoding="utf-8")
    (where / "weapons.yaml").write_text("kind: table\ntable: weapons\nentries:\n  - {id: hammer, name: 锤, damage: 2}\n",
                                        encoding="utf-8")
    return where


def _codes(paths: list[Path]) -> list[str]:
    return [d.code for d in compile_rules(paths, stop_after="lower").diagnostics]


def test_a_packs_own_config_never_takes_another_builds_folder(tmp_path: Path) -> None:
    project = tmp_path / "p"
    shutil.copytree(TINY, project / "rules" / "tiny")
    assert rulec("build", cwd=project).returncode == 0  # the bundled rules' build in generated/
    bundled = _tree(project / "generated")
    pack = _pack(project / "evil")
    (pack / "rulec.toml").write_text('rules = ["../rules", "."]\nout = "../generated"\n', encoding="utf-8")
    refused = rulec("build", cwd=pack)
    assert refused.returncode == 1 and "--out" in refused.stderr and "nothing was written" in refused.stderr
    assert _tree(project / "generated") == bundled
    assert rulec("build", "--out", "../generated", cwd=pack).returncode == 0  # said on the command line: done
    (pack / "rulec.toml").write_text('rules = ["../rules", "."]\nout = "../brew_build"\n', encoding="utf-8")
    assert rulec("build", cwd=pack).returncode == 0  # a folder of its own
    again = rulec("build", cwd=pack)  # its own build again: the same packs
    assert again.returncode == 0, again.stderr


def test_a_pack_changes_a_rulings_value_only(tmp_path: Path) -> None:
    dp = ROOT / "rules" / "dp"
    pack = tmp_path / "brew"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK.format(id="brew", extends="dp"), encoding="utf-8")
    rulings = pack / "rulings.yaml"
    rulings.write_text("kind: rulings\nrulings:\n  - {key: power_attack_bonus, value: 3, text: 新说明, override: true}\n",
                       encoding="utf-8")
    result = compile_rules([dp, pack], stop_after="lower")
    (diag,) = [d for d in result.diagnostics if d.code == "pack-changes-ruling-text"]
    assert diag.span.line == 3 and diag.span.file.endswith("rulings.yaml")
    rulings.write_text("kind: rulings\nrulings:\n  - {key: power_attack_bonus, value: 3}\n", encoding="utf-8")
    (stock,) = compile_rules([dp], stop_after="lower").rulesets
    (packed,) = compile_rules([dp, pack], stop_after="lower").rulesets
    old, new = (next(r for r in rs.rulings if r.key == "power_attack_bonus") for rs in (stock, packed))
    assert (new.value, new.name, new.text, new.rules) == (3, old.name, old.text, old.rules)


@pytest.mark.parametrize("name", ["weap\u202elmay.yaml", "a\u200bb.yaml", "line\nbreak.yaml"])
def test_a_file_name_that_hides_or_reorders_text_is_a_diagnostic(tmp_path: Path, name: str) -> None:
    pack = _pack(tmp_path / "brew")
    (pack / "weapons.yaml").rename(pack / name)
    assert "bad-character" in _codes([TINY, pack])


def test_a_pack_named_like_the_rules_folder_is_told_apart(tmp_path: Path) -> None:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    pack = _pack(tmp_path / "evil", pid="rules")
    (pack / "tiny").mkdir()
    (pack / "weapons.yaml").rename(pack / "tiny" / "weapons.yaml")
    for order in ([tmp_path / "rules", pack], [pack, tmp_path / "rules"]):
        folders, diags = discover(order)
        assert not diags
        names = {f.name for f in folders}
        assert names == {"rules/tiny", "rules~2"}  # the ruleset keeps its name, whatever the order
        shown = [f.source_name(p) for f in folders for p in f.files]
        assert len(set(shown)) == len(shown) and "rules~2/tiny/weapons.yaml" in shown


@pytest.mark.parametrize("where, old, new", [
    ("ruleset.yaml", "{id: range, name: 射程", "{id: class, name: 射程"),  # a table field: a Python keyword
    ("attack.yaml", "{id: damage, name: 伤害, value: hits}", "{id: text, name: 伤害, value: hits}"),  # result.text()
    ("attack.yaml", "{id: damage, name: 伤害, value: hits}", "{id: constructor, name: 伤害, value: hits}"),  # JS
    ("attack.yaml", "{id: distance, name: 距离", "{id: default, name: 距离"),  # a JS parameter name
])
def test_an_id_named_after_a_word_of_the_generated_code_is_a_diagnostic(tmp_path: Path, where: str, old: str,
                                                                       new: str) -> None:
    copy = tmp_path / "tiny"
    shutil.copytree(TINY, copy)
    text = (copy / where).read_text(encoding="utf-8")
    assert old in text
    (copy / where).write_text(text.replace(old, new), encoding="utf-8")
    diags = compile_rules([copy]).diagnostics
    reserved = [d for d in diags if d.code == "reserved-name"]
    assert reserved and reserved[0].span.file.endswith(where) and reserved[0].span.line > 1, diags
    assert not [d for d in diags if d.code == "internal"]


THROWN = ('kind: table\ntable: attack_types\nentries:\n  - {{id: thrown, name: 投掷, default_base_range: 10, '
          'pool: "(力量 if 武器.重投掷 else max(力量, 敏捷)) + 运动 + 专业 + 武器.武器伤害", action: standard, ranged: true, '
          'speed: 1, range_multiplier: "{formula}", default_damage_type: lethal, override: true}}\n')


@pytest.mark.parametrize("formula, refused", [("99999999*99999999*99999999", True), ("力量 * 99999999 * 99999999", True),
                                              ("力量 * 1000", False)])
def test_an_entry_formula_past_what_javascript_holds_exactly_is_a_diagnostic(tmp_path: Path, formula: str,
                                                                           refused: bool) -> None:
    """Python computes an entry formula exactly, JavaScript as a float: a value that can pass 2^53 - 1
    would make the two packages differ, so it is refused at the formula (validate/bounds.py)."""
    pack = tmp_path / "brew"
    pack.mkdir()
    (pack / "pack.yaml").write_text(PACK.format(id="brew", extends="dp"), encoding="utf-8")
    (pack / "attack_types.yaml").write_text(THROWN.format(formula=formula), encoding="utf-8")
    diags = compile_rules([ROOT / "rules" / "dp", pack], stop_after="optimise").diagnostics
    found = [d for d in diags if d.code == "inexact-number"]
    assert bool(found) == refused, diags
    assert not found or (found[0].span.file.endswith("attack_types.yaml") and found[0].span.line == 4)


MINI = ROOT / "tests" / "cases" / "rulesets" / "mini"


@pytest.mark.parametrize("value, refused", [
    ("distance * distance * distance * distance * distance * distance * distance * distance * distance * distance"
     " * distance", True),  # 40^11: 4.2e17
    ("min(9, distance * 99999999 * 99999999)", True),  # a part of the formula, even when its whole is small
    ("(distance * 99999999 * 99999999 if distance > 40 else 0) + 1", False),  # a branch that cannot happen
    ("distance * distance * distance * distance * distance * distance * distance * distance", False),  # 40^8: 6.6e12
])
def test_a_procedure_formula_past_what_javascript_holds_exactly_is_a_diagnostic(tmp_path: Path, value: str,
                                                                               refused: bool) -> None:
    """A procedure's own arithmetic (any part of a formula: JavaScript computes each as a float)
    whose bound, as far as the intervals give one, passes 2^53 - 1 is refused at the formula."""
    copy = tmp_path / "mini"
    shutil.copytree(MINI, copy)
    attack = copy / "attack.yaml"
    text = attack.read_text(encoding="utf-8")
    step = '      - {let: dice, name: 掷骰数'
    numbers = sorted({int(n) for n in re.findall(r"\d+", value)} - {0, 1})
    definitional = "[" + ", ".join(f"{{value: {n}, text: 测试}}" for n in numbers) + "]"
    new = f'      - {{let: big, name: 大数, value: "{value}", definitional: {definitional}}}\n'
    attack.write_text(text.replace(step, new + step), encoding="utf-8")
    line = text[:text.index(step)].count("\n") + 1
    diags = compile_rules([copy], stop_after="optimise").diagnostics
    found = [d for d in diags if d.code == "inexact-number"]
    assert bool(found) == refused, [d.format() for d in diags]
    assert not [d for d in diags if d.code != "inexact-number" and d.severity == "error"], [d.format() for d in diags]
    if found:
        assert found[0].span.file.endswith("attack.yaml") and found[0].span.line == line
        assert "JavaScript" in found[0].message and "9007199254740991" in found[0].message


BIG = "      - {id: big, name: 大数, type: int, min: 0, max: 1000000, default: 0}\n"


@pytest.mark.parametrize("where, value, refused", [
    ("result", "min(1, floor((" + " * ".join(["big"] * 53) + ") / big))", True),  # past what a float holds
    ("step", "distance > 40 and distance * 99999999 * 99999999 > 5", False),  # `and` evaluates it only then
    ("step", "distance <= 40 or distance * 99999999 * 99999999 > 5", False),  # `or` likewise
    ("step", "distance >= 0 and distance * 99999999 * 99999999 > 5", True),
])
def test_the_exactness_check_on_huge_bounds_and_guarded_operands(tmp_path: Path, where: str, value: str,
                                                                 refused: bool) -> None:
    """A bound past 2^1000 is a diagnostic, not an OverflowError of the analysis (an internal error);
    an operand of `and`/`or` is bounded under what the operands before it tell, as a branch is."""
    copy = tmp_path / "mini"
    shutil.copytree(MINI, copy)
    attack = copy / "attack.yaml"
    text = attack.read_text(encoding="utf-8").replace("      - {id: distance,", BIG + "      - {id: distance,")
    numbers = sorted({int(n) for n in re.findall(r"\d+", value)} - {0, 1})
    definitional = "[" + ", ".join(f"{{value: {n}, text: 测试}}" for n in numbers) + "]"
    if where == "result":
        text = text.replace("      - {id: damage, name: 伤害, value: hits}",
                            f'      - {{id: damage, name: 伤害, value: hits}}\n      - {{id: odd, name: 怪, value: "{value}"}}')
        assert not numbers
    else:
        step = '      - {let: dice, name: 掷骰数'
        text = text.replace(step, f'      - {{let: odd, name: 怪, value: "{value}", definitional: {definitional}}}\n'
                            + step)
    attack.write_text(text, encoding="utf-8")
    diags = compile_rules([copy], stop_after="optimise").diagnostics
    assert not [d for d in diags if d.code != "inexact-number" and d.severity == "error"], [d.format() for d in diags]
    found = [d for d in diags if d.code == "inexact-number"]
    assert bool(found) == refused, [d.format() for d in diags]
    if where == "result":
        assert "e+" in found[0].message  # past 10^18: shown as a magnitude, not three hundred digits
