"""Import the weapons of the 5e SRD equipment file into a d20 `weapons` table file.

Reads `5e-SRD-Equipment.json` as published (a list of equipment items), keeps
the 37 items whose `equipment_category.index` is `weapon`, and maps each to an
entry of the d20 ruleset's `weapons` table: damage dice and type, melee reach
or normal/long range, thrown range, versatile damage and the properties the
resolvers use. An item it cannot map (unknown property or damage type,
unreadable dice) gets a diagnostic naming it; nothing is dropped silently.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Diagnostic, Span
from ..runtime.sources import parse_dice

PROPERTIES = {"ammunition", "finesse", "heavy", "light", "loading", "reach", "special", "thrown",
              "two-handed", "versatile", "monk"}
DAMAGE_TYPES = {"bludgeoning", "piercing", "slashing"}
NAMES_ZH = {
    "club": "短棒", "dagger": "匕首", "greatclub": "巨棒", "handaxe": "手斧", "javelin": "标枪",
    "light-hammer": "轻锤", "mace": "硬头锤", "quarterstaff": "长棍", "sickle": "镰刀", "spear": "矛",
    "crossbow-light": "轻弩", "dart": "飞镖", "shortbow": "短弓", "sling": "投石索", "battleaxe": "战斧",
    "flail": "链枷", "glaive": "长柄刀", "greataxe": "巨斧", "greatsword": "巨剑", "halberd": "戟",
    "lance": "骑枪", "longsword": "长剑", "maul": "巨锤", "morningstar": "钉头锤", "pike": "长矛",
    "rapier": "刺剑", "scimitar": "弯刀", "shortsword": "短剑", "trident": "三叉戟", "war-pick": "战镐",
    "warhammer": "战锤", "whip": "鞭子", "blowgun": "吹箭筒", "crossbow-hand": "手弩",
    "crossbow-heavy": "重弩", "longbow": "长弓", "net": "捕网",
}
HEADER = ("# yaml-language-server: $schema=../../../generated/schema/d20/weapons.schema.json\n"
          "# Imported by `rulec import 5e-srd` from the 5e SRD equipment data (MIT, 5e-database);\n"
          "# edit the importer or re-run it rather than editing entries by hand.\n")


def _entry(item: dict[str, Any], where: Span) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    diags: list[Diagnostic] = []
    index = str(item.get("index", "?"))

    def bad(message: str) -> None:
        diags.append(Diagnostic(where, "import", f"weapon '{index}': {message}"))

    entry: dict[str, Any] = {
        "id": index.replace("-", "_"),
        "name": NAMES_ZH.get(index, str(item.get("name", index))),
        "name_en": str(item.get("name", index)),
        "category": str(item.get("weapon_category", "")).lower(),
        "attack_type": str(item.get("weapon_range", "")).lower(),
    }
    if entry["category"] not in ("simple", "martial"):
        bad(f"unknown weapon_category {item.get('weapon_category')!r}")
    if entry["attack_type"] not in ("melee", "ranged"):
        bad(f"unknown weapon_range {item.get('weapon_range')!r}")
    damage = item.get("damage")
    if damage is not None:
        dice = str(damage.get("damage_dice", ""))
        try:
            parse_dice(dice)
        except ValueError as exc:
            bad(f"damage dice {dice!r}: {exc}")
        entry["damage_dice"] = dice
        dtype = damage.get("damage_type", {}).get("index")
        if dtype not in DAMAGE_TYPES:
            bad(f"unknown damage type {dtype!r}")
        entry["damage_type"] = dtype
    props = [p.get("index") for p in item.get("properties", [])]
    for p in props:
        if p not in PROPERTIES:
            bad(f"unknown property {p!r}")
    entry["properties"] = [p.replace("-", "_") for p in props if p in PROPERTIES]
    rng = item.get("range", {})
    if entry["attack_type"] == "ranged":
        entry["range_normal"] = int(rng.get("normal", 0))
        if "long" in rng:
            entry["range_long"] = int(rng["long"])
    throw = item.get("throw_range")
    if throw:
        entry["throw_normal"] = int(throw.get("normal", 0))
        entry["throw_long"] = int(throw.get("long", throw.get("normal", 0)))
    versatile = item.get("two_handed_damage")
    if versatile:
        entry["versatile_dice"] = str(versatile.get("damage_dice"))
    if "weight" in item:
        entry["weight"] = int(round(float(item["weight"]) * 10))
    special = item.get("special")
    if special:
        entry["notes"] = " ".join(str(s) for s in special)
    if damage is None and "special" not in props:
        bad("has no damage and no special rule")
    return (None if diags else entry), diags


def import_srd(path: Path, shown: str) -> tuple[str | None, list[Diagnostic]]:
    """The YAML text of the weapons table, or None with diagnostics."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, [Diagnostic(Span(shown), "import", f"cannot read the SRD file: {exc}")]
    if not isinstance(data, list):
        return None, [Diagnostic(Span(shown), "import", "expected a JSON list of equipment items")]
    entries = []
    diags: list[Diagnostic] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or item.get("equipment_category", {}).get("index") != "weapon":
            continue
        entry, problems = _entry(item, Span(shown, 1, 1, (i,)))
        diags += problems
        if entry is not None:
            entries.append(entry)
    if diags:
        return None, diags
    lines = [HEADER, "kind: table\ntable: weapons\nentries:\n"]
    for e in entries:
        lines.append("  - " + yaml.safe_dump(e, allow_unicode=True, default_flow_style=True, width=10000,
                                             sort_keys=False).strip() + "\n")
    return "".join(lines), []
