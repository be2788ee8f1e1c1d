"""`rulec import 5e-srd`: both SRD layouts, merging with what a user wrote, and refusing rather
than writing a file that would not validate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulec.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SRD_2014 = ROOT / "data" / "5e-srd" / "5e-SRD-Equipment.json"
BUNDLED = ROOT / "rules" / "d20" / "tables" / "weapons.yaml"


def cat(*indexes: str) -> list[dict[str, str]]:
    return [{"index": i, "name": i.title(), "url": f"/api/2024/equipment-categories/{i}"} for i in indexes]


def dmg(dice: str, kind: str) -> dict[str, object]:
    return {"damage_dice": dice, "damage_type": {"index": kind, "name": kind.title()}}


# Items in the 2024 layout of 5e-database (src/2024/5e-SRD-Equipment.json): categories as a list,
# no weapon_category or weapon_range, a weapon mastery.
SRD_2024 = [
    {"index": "acid", "name": "Acid", "equipment_categories": cat("adventuring-gear"), "weight": 1},
    {"index": "club", "name": "Club",
     "equipment_categories": cat("simple-melee-weapons", "simple-weapons", "melee-weapons", "weapons"),
     "damage": dmg("1d4", "bludgeoning"), "range": {"normal": 5}, "weight": 2,
     "properties": [{"index": "light", "name": "Light"}], "mastery": {"index": "slow", "name": "Slow"}},
    {"index": "dart", "name": "Dart",
     "equipment_categories": cat("ranged-weapons", "simple-ranged-weapons", "simple-weapons", "weapons"),
     "damage": dmg("1d4", "piercing"), "range": {"normal": 20, "long": 60}, "weight": 0.25,
     "properties": [{"index": "finesse"}, {"index": "thrown"}], "throw_range": {"normal": 20, "long": 60}},
    {"index": "longsword", "name": "Longsword",
     "equipment_categories": cat("martial-melee-weapons", "martial-weapons", "melee-weapons", "weapons"),
     "damage": dmg("1d8", "slashing"), "two_handed_damage": dmg("1d10", "slashing"), "range": {"normal": 5},
     "weight": 3, "properties": [{"index": "versatile"}], "mastery": {"index": "sap", "name": "Sap"}},
]


@pytest.fixture
def d20(tmp_path: Path) -> Path:
    copy = tmp_path / "d20"
    shutil.copytree(ROOT / "rules" / "d20", copy)
    return copy


def imp(source: Path, into: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["import", "5e-srd", str(source), "--into", str(into), *extra])
    return result.exit_code, result.output


def write_json(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def test_the_2014_file_reproduces_the_bundled_weapons_table(d20: Path):
    code, out = imp(SRD_2014, d20 / "tables" / "weapons.yaml")
    assert code == 0, out
    assert "37 weapons from the SRD" in out
    assert (d20 / "tables" / "weapons.yaml").read_text(encoding="utf-8") == BUNDLED.read_text(encoding="utf-8")


def test_the_2024_layout_imports_its_weapons(d20: Path, tmp_path: Path):
    target = d20 / "tables" / "weapons.yaml"
    target.unlink()  # else the 2014 weapons the 2024 file lacks are kept beside them
    code, out = imp(write_json(tmp_path / "2024.json", SRD_2024), target)
    assert code == 0, out
    text = target.read_text(encoding="utf-8")
    assert text.count("\n  - {id: ") == 3  # acid is not a weapon
    assert "{id: club, name: 短棒, name_en: Club, category: simple, attack_type: melee" in text
    assert "range_normal: 20, range_long: 60, throw_normal: 20, throw_long: 60" in text
    assert "versatile_dice: 1d10" in text and "notes: 'Mastery: Sap.'" in text


@pytest.mark.parametrize("content, message", [
    ('[{"index": "club", "name": "Club", "category": "weapon"}]', "no item is in a layout this importer knows"),
    ('[{"index": "acid", "equipment_categories": [{"index": "adventuring-gear"}]}]', "the file holds no weapons"),
    ("[]", "the file holds no weapons"),
    ('{"weapons": []}', "1:1: error[import]: expected a JSON list of equipment items, found a JSON object"),
    ('[\n  {"index": "club",\n   "name": "Club" "x": 1}\n]', "3:19: error[import]: not valid JSON: Expecting ','"),
    ('[{"index": "a"}] x', "1:18: error[import]: not valid JSON: Extra data"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (b"\xff\xfe[", "not UTF-8 text"),
])
def test_unreadable_or_unknown_files_are_refused_and_nothing_is_written(d20: Path, tmp_path: Path,
                                                                       content: str | bytes, message: str):
    source = tmp_path / "eq.json"
    source.write_bytes(content if isinstance(content, bytes) else content.encode())
    target = d20 / "tables" / "weapons.yaml"
    code, out = imp(source, target)
    assert code == 1 and message in out and "nothing was written" in out, out
    assert target.read_text(encoding="utf-8") == BUNDLED.read_text(encoding="utf-8")


def test_an_item_in_no_known_layout_is_named_at_its_line(d20: Path, tmp_path: Path):
    items = [*SRD_2024, {"index": "mystery", "name": "Mystery"}]
    source = write_json(tmp_path / "eq.json", items)
    line = source.read_text(encoding="utf-8").splitlines().index('    "index": "mystery",')  # the line above is '{'
    code, out = imp(source, d20 / "tables" / "weapons.yaml")
    assert code == 1 and f"eq.json:{line}:3: error[import]: item 4 is in no layout this importer knows" in out, out


def test_an_unmappable_weapon_is_reported_at_its_line(d20: Path, tmp_path: Path):
    bad = tmp_path / "eq.json"
    bad.write_text('[\n {"index": "laser", "name": "Laser", "equipment_category": {"index": "weapon"},'
                   ' "weapon_category": "Exotic", "weapon_range": "Ranged", "properties": [{"index": "burst"}]}]')
    code, out = imp(bad, d20 / "tables" / "weapons.yaml")
    assert code == 1 and "eq.json:2:2: error[import]: weapon 'laser': unknown property 'burst'" in out
    assert "unknown weapon_category 'Exotic'" in out


def test_a_hand_written_file_is_never_overwritten(d20: Path):
    sizes = d20 / "tables" / "sizes.yaml"
    before = sizes.read_text(encoding="utf-8")
    code, out = imp(SRD_2014, sizes)
    assert code == 1 and "was not written by `rulec import 5e-srd`" in out and "srd_weapons.yaml" in out
    assert sizes.read_text(encoding="utf-8") == before


def test_hand_added_weapons_survive_a_re_import(d20: Path):
    """README 'Adding a weapon': hand-written weapons go in a file of their own, which a re-import
    never touches; one added to the imported file itself is kept, and the import says so."""
    own = d20 / "tables" / "my_weapons.yaml"
    own.write_text("kind: table\ntable: weapons\nentries:\n"
                   "  - {id: katana, name: 太刀, category: martial, attack_type: melee, damage_dice: 1d10, "
                   "damage_type: slashing}\n", encoding="utf-8")
    imported = d20 / "tables" / "weapons.yaml"
    imported.write_text(imported.read_text(encoding="utf-8").replace(
        "name: 长剑,", "name: 我的长剑,") + "  - {id: sabre, name: 军刀, category: martial, attack_type: melee, "
        "damage_dice: 1d8, damage_type: slashing}\n", encoding="utf-8")
    code, out = imp(SRD_2014, imported)
    assert code == 0, out
    assert "kept 1 entries that are not in the SRD file: sabre" in out
    assert "replaced 1 entries that differed from the SRD data: longsword" in out
    text = imported.read_text(encoding="utf-8")
    assert "{id: sabre, name: 军刀" in text and "name: 长剑," in text and "我的长剑" not in text
    assert "katana" in own.read_text(encoding="utf-8")
    assert CliRunner().invoke(main, ["validate", str(d20)]).exit_code == 0


def test_a_result_that_would_not_validate_is_not_written(d20: Path):
    """Importing into a second file while the first still holds the same weapons would define each
    twice: the check of the whole ruleset refuses it, naming the user's folder."""
    target = d20 / "tables" / "srd_weapons.yaml"
    code, out = imp(SRD_2014, target)
    assert code == 1 and "error[duplicate-id]: 'club' is defined twice in 'weapons'" in out
    assert "rulec-import-" not in out  # the temporary copy is never named
    assert not target.exists()


def test_the_target_must_be_in_a_ruleset_or_a_pack(tmp_path: Path):
    code, out = imp(SRD_2014, tmp_path / "weapons.yaml")
    assert code == 1 and "must be inside a ruleset or pack folder" in out


def test_into_a_pack_checks_it_with_its_base(tmp_path: Path):
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("kind: pack\nid: srd_extra\nname: SRD\nextends: d20\n", encoding="utf-8")
    code, out = imp(SRD_2014, pack / "weapons.yaml", "--rules", str(ROOT / "rules" / "d20"))
    assert code == 1 and "already exists in 'weapons'" in out  # the base has them: override needed
    code, out = imp(write_json(tmp_path / "2024.json", [SRD_2024[0]]), pack / "weapons.yaml")
    assert code == 1 and "holds no weapons" in out


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
