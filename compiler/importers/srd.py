"""Map the weapons of a 5e SRD equipment file to entries of the d20 `weapons` table.

Reads `5e-SRD-Equipment.json` as 5e-database publishes it, in either layout:

- 2014: each item has `equipment_category` (a weapon's index is `weapon`) and
  `weapon_category` / `weapon_range` ("Simple"/"Martial", "Melee"/"Ranged");
- 2024: each item has a list `equipment_categories` (a weapon's includes `weapons`,
  and `simple-weapons`/`martial-weapons`, `melee-weapons`/`ranged-weapons`) and may
  name a `mastery`, kept in the entry's notes.

Each weapon maps to damage dice and type, normal/long range, thrown range, versatile
damage and the properties the resolvers use. An item it cannot map (unknown layout,
property or damage type, unreadable dice) gets a diagnostic at its line; nothing is
dropped silently. Writing the table file is `srd_write`'s job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import QUOTE_CHARS, Diagnostic, Span, cut, quote
from ..runtime.sources import parse_dice
from .srd_json import read_items
from ..messages import say

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
MARKER = "# Imported by `rulec import 5e-srd`"
HEADER = ("# yaml-language-server: $schema=../../../generated/schema/d20/weapons.schema.json\n"
          f"{MARKER} from the 5e SRD equipment data (MIT, 5e-database);\n"
          "# edit the importer or re-run it rather than editing entries by hand.\n")
LAYOUTS = "2014 (`equipment_category`) or 2024 (`equipment_categories`)"


def _category_indexes(item: dict[str, Any]) -> list[str]:
    return [str(c.get("index")) for c in item.get("equipment_categories", []) if isinstance(c, dict)]


def layout_of(item: Any) -> str | None:
    """'2014', '2024' or None (not an equipment item of a layout this importer knows)."""
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("equipment_category"), dict):
        return "2014"
    if isinstance(item.get("equipment_categories"), list):
        return "2024"
    return None


def is_weapon(item: dict[str, Any], layout: str) -> bool:
    if layout == "2014":
        return bool(item["equipment_category"].get("index") == "weapon")
    return "weapons" in _category_indexes(item)


def _classes(item: dict[str, Any], layout: str) -> tuple[str, str]:
    """(category, attack type) as the 2014 fields spell them, lower-cased."""
    if layout == "2014":
        return str(item.get("weapon_category", "")).lower(), str(item.get("weapon_range", "")).lower()
    cats = _category_indexes(item)
    category = next((c.removesuffix("-weapons") for c in cats if c in ("simple-weapons", "martial-weapons")), "")
    kind = next((c.removesuffix("-weapons") for c in cats if c in ("melee-weapons", "ranged-weapons")), "")
    return category, kind


def _entry(item: dict[str, Any], layout: str, where: Span) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    diags: list[Diagnostic] = []
    index = str(item.get("index", "?"))

    def bad(message: str) -> None:
        diags.append(Diagnostic(where, "import", say("import.weapon", index=quote(index), message=message)))

    category, kind = _classes(item, layout)
    entry: dict[str, Any] = {
        "id": index.replace("-", "_"),
        "name": NAMES_ZH.get(index, str(item.get("name", index))),
        "name_en": str(item.get("name", index)),
        "category": category,
        "attack_type": kind,
    }
    if category not in ("simple", "martial"):
        bad(say("srd.unknown-weapon-category", get=quote(item.get('weapon_category'))) if layout == "2014" else
            say("srd.equipment-categories-name-neither"))
    if kind not in ("melee", "ranged"):
        bad(say("srd.unknown-weapon-range", get=quote(item.get('weapon_range'))) if layout == "2014" else
            say("srd.equipment-categories-name-neither-2"))
    damage = item.get("damage")
    if damage is not None:
        dice = str(damage.get("damage_dice", ""))
        try:
            parse_dice(dice)
        except ValueError as exc:
            bad(say("srd.damage-dice", dice=quote(dice), exc=cut(str(exc), QUOTE_CHARS)))
        entry["damage_dice"] = dice
        dtype = damage.get("damage_type", {}).get("index")
        if dtype not in DAMAGE_TYPES:
            bad(say("srd.unknown-damage-type", dtype=quote(dtype)))
        entry["damage_type"] = dtype
    props = [p.get("index") for p in item.get("properties", [])]
    for p in props:
        if p not in PROPERTIES:
            bad(say("srd.unknown-property", p=quote(p)))
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
    notes = [str(s) for s in item.get("special") or []]
    mastery = item.get("mastery")
    if isinstance(mastery, dict) and mastery.get("name"):
        notes.append(f"Mastery: {mastery['name']}.")
    if notes:
        entry["notes"] = " ".join(notes)
    if damage is None and "special" not in props:
        bad(say("srd.has-no-damage-no"))
    return (None if diags else entry), diags


def import_srd(path: Path, shown: str) -> tuple[list[dict[str, Any]] | None, list[Diagnostic]]:
    """The weapons table entries of the file, or None with diagnostics (nothing half-mapped)."""
    items, diags = read_items(path, shown)
    if items is None:
        return None, diags
    layouts = [(item, layout_of(item), where) for item, where in items]
    if items and not any(layout for _, layout, _ in layouts):
        return None, [Diagnostic(Span(shown), "import", say("import.no-item-layout-importer", layouts=LAYOUTS))]
    entries = []
    for item, layout, where in layouts:
        if layout is None:
            diags.append(Diagnostic(where, "import", say("import.item-no-layout-importer", value=where.path[0], layouts=LAYOUTS)))
            continue
        if not is_weapon(item, layout):
            continue
        try:
            entry, problems = _entry(item, layout, where)
        except (AttributeError, TypeError, ValueError, OverflowError) as exc:  # a field of an unexpected JSON
            # type, or a number no field can hold (a weight of 1e308 is infinite once scaled)
            entry, problems = None, [Diagnostic(where, "import", say("import.weapon-field-has-unexpected", get=quote(str(item.get('index', '?'))), exc=cut(str(exc), QUOTE_CHARS)))]
        diags += problems
        if entry is not None:
            entries.append(entry)
    if not diags and not entries:
        diags.append(Diagnostic(Span(shown), "import", say("import.file-holds-no-weapons")))
    return (None, diags) if diags else (entries, [])


def table_text(entries: list[dict[str, Any]]) -> str:
    """The table file holding `entries`, one flow mapping per line."""
    lines = [HEADER, "kind: table\ntable: weapons\nentries:\n"]
    for e in entries:
        lines.append("  - " + yaml.safe_dump(e, allow_unicode=True, default_flow_style=True, width=10000,
                                             sort_keys=False).strip() + "\n")
    return "".join(lines)
