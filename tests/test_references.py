"""References in rule files (issue 32): a `ref` field may name an entry by its id or by its Chinese
name, and the IR holds the id; an unknown reference gets a "did you mean" and, for a short table,
every choice with its name. Checked with the bundled dp rules (DP-11: the weapons table)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules

ROOT = Path(__file__).resolve().parent.parent
DAGGER = "{id: dagger, name: 匕首, attack_type: melee, damage: 1, damage_type: lethal"


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEC_CACHE_DIR", "off")


def _dp_with(tmp_path: Path, dagger: str) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules" / "dp", rules / "dp")
    weapons = rules / "dp" / "tables" / "weapons.yaml"
    text = weapons.read_text(encoding="utf-8")
    assert DAGGER in text
    weapons.write_text(text.replace(DAGGER, dagger), encoding="utf-8")
    return rules


def _dagger(build) -> dict:
    (rs,) = build.rulesets
    return next(e for e in rs.table("weapons").entries if e.id == "dagger").values


def test_a_reference_may_be_the_chinese_name_and_the_ir_holds_the_id(tmp_path: Path):
    build = compile_rules([_dp_with(tmp_path, DAGGER.replace("attack_type: melee", "attack_type: 白刃")
                                    .replace("damage_type: lethal", "damage_type: 严重"))], stop_after="lower")
    assert build.ok, [d.format() for d in build.diagnostics]
    values = _dagger(build)
    assert values["attack_type"] == "melee" and values["damage_type"] == "lethal"


def test_the_same_build_by_id_and_by_name(tmp_path: Path):
    by_id = compile_rules([_dp_with(tmp_path / "a", DAGGER)], stop_after="lower")
    by_name = compile_rules([_dp_with(tmp_path / "b", DAGGER.replace("attack_type: melee", "attack_type: 白刃"))],
                            stop_after="lower")
    assert by_id.ok and by_name.ok
    assert _dagger(by_id) == _dagger(by_name)


def test_an_unknown_reference_lists_a_short_table_with_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("RULEC_LANG", "en")
    build = compile_rules([_dp_with(tmp_path, DAGGER.replace("damage_type: lethal", "damage_type: fire"))])
    (d,) = [d for d in build.diagnostics if d.code == "unknown-ref"]
    assert d.span.file.endswith("weapons.yaml") and d.span.line == 9
    assert "'fire'" in d.message and "damage_types" in d.message
    assert d.hint is not None and "lethal (严重)" in d.hint and "blunt (冲击)" in d.hint
    zh = d.in_language("zh")
    assert "没有条目 'fire'" in zh.message and "lethal（严重）" in zh.hint  # the same diagnostic in Chinese


def test_a_misspelt_reference_gets_did_you_mean_by_id_or_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("RULEC_LANG", "en")
    build = compile_rules([_dp_with(tmp_path / "a", DAGGER.replace("attack_type: melee", "attack_type: mele"))])
    (d,) = [d for d in build.diagnostics if d.code == "unknown-ref"]
    assert "did you mean 'melee' (白刃)?" in d.hint
    build = compile_rules([_dp_with(tmp_path / "b", DAGGER.replace("attack_type: melee", "attack_type: 白人"))])
    (d,) = [d for d in build.diagnostics if d.code == "unknown-ref"]
    assert "did you mean 'melee' (白刃)?" in d.hint
