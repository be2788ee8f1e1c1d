"""Per-ruleset JSON Schema for scenario files (`rulec resolve` / `rulec odds`).

A scenario names a procedure, gives the combatants' stats (ASCII ids or Chinese
names, with the ruleset's ranges), the other arguments (entries by id or name,
numbers in their declared ranges), optional fixed dice faces, and optionally
what the outcome should be (`expect`, used by tests of the seeds' examples).
"""

from __future__ import annotations

from typing import Any

from ..ir import Procedure, Ruleset
from ..load.reading import MAX_SCENARIO_ITEMS  # the loader bounds every list of a scenario by it

BASE = "https://rulec.dev/schema/generated/"


def _stats_schema(rs: Ruleset) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for s in rs.stats:
        one: dict[str, Any] = ({"type": "integer", "minimum": s.min, "maximum": s.max} if s.type == "int"
                               else {"type": "boolean"})
        props[s.id] = {**one, "title": s.name}
        props[s.name] = {**one, "title": s.id}
    return {"type": "object", "additionalProperties": False, "properties": props}


def _param_schema(rs: Ruleset, p: Procedure) -> dict[str, Any]:
    props: dict[str, Any] = {}
    combatants: dict[str, Any] = {}
    for prm in p.params:
        if prm.type == "int":
            props[prm.id] = {"type": "integer", "minimum": prm.min, "maximum": prm.max, "title": prm.name}
        elif prm.type == "bool":
            props[prm.id] = {"type": "boolean", "title": prm.name}
        elif prm.type == "combatant":
            combatants[prm.id] = {"$ref": "#/$defs/stats", "title": prm.name}
        else:  # one enumeration of the table's entries in $defs, however many arguments name it
            props[prm.id] = {"$ref": f"#/$defs/{_table_def(prm.type)}", "title": prm.name}
    needed = [prm.id for prm in p.params if prm.type != "combatant" and not prm.optional and prm.default is None]
    names = {prm.id: prm.name for prm in p.params if prm.type != "combatant"}
    for pid in list(props):  # an argument by its Chinese name too, as stats are
        props[names[pid]] = {**props[pid], "title": pid}
    args: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": props}
    if needed:  # by id or by name
        args["allOf"] = [{"anyOf": [{"required": [pid]}, {"required": [names[pid]]}]} for pid in needed]
    then: dict[str, Any] = {"properties": {
        "args": args,
        "combatants": {"type": "object", "additionalProperties": False, "properties": combatants,
                       "required": list(combatants)},
    }, "required": [k for k, v in (("args", needed), ("combatants", combatants)) if v]}
    return {"if": {"properties": {"procedure": {"const": p.id}}, "required": ["procedure"]}, "then": then}


def _table_def(table: str) -> str:
    return f"table_{table}"


def _table_defs(rs: Ruleset) -> dict[str, Any]:
    """The entries (by id or by name) of each table a procedure's argument names."""
    used = sorted({prm.type for p in rs.procedures for prm in p.params
                   if prm.type not in ("int", "bool", "combatant")})
    out = {}
    for name in used:
        table = rs.table(name)
        out[_table_def(name)] = {"enum": sorted({e.id for e in table.entries} | {e.name for e in table.entries})}
    return out


def _example(rs: Ruleset, p: Procedure) -> dict[str, Any]:
    """A scenario of the first procedure with every required argument given."""
    out: dict[str, Any] = {"kind": "scenario", "ruleset": rs.id, "procedure": p.id}
    combatants: dict[str, Any] = {prm.id: {} for prm in p.params if prm.type == "combatant"}
    args: dict[str, Any] = {}
    for prm in p.params:
        if prm.type == "combatant" or prm.optional or prm.default is not None:
            continue
        if prm.type in ("int", "bool"):
            args[prm.id] = prm.min if prm.type == "int" else False
        elif rs.table(prm.type).entries:
            args[prm.id] = rs.table(prm.type).entries[0].id
    if combatants:
        out["combatants"] = combatants
    if args:
        out["args"] = args
    return out


def scenario_schema(rs: Ruleset) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{BASE}{rs.id}/scenario.schema.json",
        "title": f"{rs.id}: 场景",
        "description": f"A scenario for `rulec resolve` and `rulec odds` with the '{rs.id}' rules.",
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "ruleset", "procedure"],
        "properties": {
            "kind": {"const": "scenario"},
            "ruleset": {"const": rs.id},
            "procedure": {"enum": [p.id for p in rs.procedures]},
            "title": {"type": "string", "maxLength": 200},
            "description": {"type": "string", "maxLength": 4000},
            "rules": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z][A-Z0-9]*-[0-9]{2,3}$"}},
            "combatants": {"type": "object"},
            "args": {"type": "object"},
            "dice": {"type": "array", "maxItems": MAX_SCENARIO_ITEMS,
                     "items": {"type": "integer", "minimum": 1, "maximum": 1000}},
            "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
            "expect": {"type": "object", "description": "Expected outcome fields, or {error: code}."},
        },
        "allOf": [_param_schema(rs, p) for p in rs.procedures],
        "$defs": {"stats": _stats_schema(rs), **_table_defs(rs)},
        "examples": [_example(rs, rs.procedures[0])] if rs.procedures else [],
    }


def fight_schema(rs: Ruleset) -> dict[str, Any]:
    """A fight scenario (kind: fight): named combatants and a sequence of actions, each resolved
    with the fight's state and applied to it; expectations on outcomes and on the state after."""
    state = {"type": "object", "additionalProperties": False, "properties": {
        "counters": {"type": "object", "maxProperties": 50,
                     "additionalProperties": {"type": "integer", "minimum": -10**9, "maximum": 10**9}},
        "points": {"type": "object", "maxProperties": 50,
                   "additionalProperties": {"type": "integer", "minimum": -10**9, "maximum": 10**9}},
        "states": {"type": "array", "maxItems": 50, "items": {"type": "string", "maxLength": 100}},
        "conditions": {"type": "array", "maxItems": 50, "items": {"enum": _condition_ids(rs)},
                       "description": "Every condition the combatant has after the last action (its own, its relations', its states')."},
        "holds": {"type": "object", "maxProperties": 20, "description": "Relation id -> the combatants it holds.",
                  "additionalProperties": {"type": "array", "maxItems": 20, "items": {"type": "string", "maxLength": 100}}},
    }}
    roles = sorted({prm.id for p in rs.procedures for prm in p.params if prm.type == "combatant"})
    action = {"type": "object", "additionalProperties": False, "required": ["procedure", "roles"], "properties": {
        "procedure": {"enum": [p.id for p in rs.procedures if any(q.type == "combatant" for q in p.params)]},
        "roles": {"type": "object", "additionalProperties": False, "maxProperties": 10,
                  "properties": {r: {"type": "string", "maxLength": 100} for r in roles}},
        "args": {"type": "object", "maxProperties": 100},
        "dice": {"type": "array", "maxItems": MAX_SCENARIO_ITEMS, "items": {"type": "integer", "minimum": 1, "maximum": 1000}},
        "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
        "next_turn": {"type": "boolean", "description": "Advance to the next combatant's turn after this action."},
        "expect": {"type": "object", "description": "Expected outcome fields of this action, or {error: code}."},
    }}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{BASE}{rs.id}/fight.schema.json",
        "title": f"{rs.id}: 战斗场景",
        "description": f"A sequence of actions in one fight with the '{rs.id}' rules (`rulec resolve`, `rulec test`).",
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "ruleset", "combatants"],
        "anyOf": [{"required": ["actions"]}, {"required": ["until"]}],
        "properties": {
            "kind": {"const": "fight"},
            "ruleset": {"const": rs.id},
            "title": {"type": "string", "maxLength": 200},
            "description": {"type": "string", "maxLength": 4000},
            "rules": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z][A-Z0-9]*-F?[0-9]{2,3}$"}},
            "combatants": {"type": "object", "minProperties": 1, "maxProperties": 20,
                           "additionalProperties": {"$ref": "#/$defs/stats"}},
            "turns": {"type": "boolean", "description": "Count each combatant's turn as the budget the ruleset's turn "
                      "structure declares (fight: turn_structure:): an action that does not fit is refused."},
            "actions": {"type": "array", "minItems": 1, "maxItems": 200, "items": action},
            "expect": {"type": "object", "maxProperties": 20, "additionalProperties": state,
                       "description": "Each combatant's state after the last action."},
            "until": _until_schema(rs, action),
        },
        "$defs": {"stats": _stats_schema(rs)},
        "examples": [_fight_example(rs)],
    }


def _condition_ids(rs: Ruleset) -> list[str]:
    assert rs.fight is not None
    return sorted({c.id for c in rs.fight.conditions} | {c for r in rs.fight.relation_rules for c in (r.held, r.holder) if c})


def _until_schema(rs: Ruleset, action: dict[str, Any]) -> dict[str, Any]:
    """`until:` of a fight scenario: a plan (an opening, then a cycle repeated) and a target, for
    `rulec odds` (the exact number of actions from the state after `actions`)."""
    assert rs.fight is not None
    step = {**action, "properties": {k: v for k, v in action["properties"].items() if k in ("procedure", "roles", "args")}}
    step["properties"]["end_turn"] = {"type": "boolean",
                                      "description": "End the acting combatant's turn after this step (the others' turns pass)."}
    counters = [c for c, _ in rs.fight.counters]
    states = sorted({e.id for e in rs.table(rs.fight.states).entries}) if rs.fight.states else []
    tracks = sorted({e.id for e in rs.table(rs.fight.tracks).entries}) if rs.fight.tracks else []
    target = {"type": "object", "additionalProperties": False, "required": ["who"], "minProperties": 2, "maxProperties": 3,
              "properties": {"who": {"type": "string", "maxLength": 100},
                             "condition": {"enum": _condition_ids(rs) or [""]}, "state": {"enum": states or [""]},
                             "counter": {"enum": counters or [""]}, "points": {"enum": tracks or [""]},
                             "at_least": {"type": "integer", "minimum": 1, "maximum": 10**9}}}
    return {"type": "object", "additionalProperties": False, "required": ["cycle", "target"],
            "description": "A plan and its target: `rulec odds` gives the exact number of actions until the target.",
            "properties": {
                "opening": {"type": "array", "maxItems": 50, "items": step},
                "cycle": {"type": "array", "minItems": 1, "maxItems": 50, "items": step},
                "target": {"oneOf": [target, {"type": "array", "minItems": 1, "maxItems": 20, "items": target}]},
                "max_actions": {"type": "integer", "minimum": 1, "maximum": 10_000},
                "expect": {"type": "object", "additionalProperties": False, "properties": {
                    "expected": {"type": "number", "minimum": 0},
                    "tolerance": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000}}},
            }}


def _fight_example(rs: Ruleset) -> dict[str, Any]:
    p = next((p for p in rs.procedures if p.effects), None) or rs.procedures[0]
    roles = [q.id for q in p.params if q.type == "combatant"]
    names = ["甲", "乙", "丙", "丁"]
    example = _example(rs, p)
    return {"kind": "fight", "ruleset": rs.id, "combatants": {n: {} for n in names[:len(roles)]},
            "actions": [{"procedure": p.id, "roles": dict(zip(roles, names)), "args": example.get("args", {})}]}
