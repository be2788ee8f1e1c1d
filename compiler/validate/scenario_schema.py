"""Per-ruleset JSON Schema for scenario files (`rulec resolve` / `rulec odds`).

A scenario names a procedure, gives the combatants' stats (ASCII ids or Chinese
names, with the ruleset's ranges), the other arguments (entries by id or name,
numbers in their declared ranges), optional fixed dice faces, and optionally
what the outcome should be (`expect`, used by tests of the seeds' examples).
"""

from __future__ import annotations

from typing import Any

from ..ir import Procedure, Ruleset

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
        else:
            table = rs.table(prm.type)
            keys = sorted({e.id for e in table.entries} | {e.name for e in table.entries})
            props[prm.id] = {"enum": keys, "title": prm.name}
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
            "dice": {"type": "array", "maxItems": 10000,
                     "items": {"type": "integer", "minimum": 1, "maximum": 1000}},
            "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
            "expect": {"type": "object", "description": "Expected outcome fields, or {error: code}."},
        },
        "allOf": [_param_schema(rs, p) for p in rs.procedures],
        "$defs": {"stats": _stats_schema(rs)},
        "examples": [_example(rs, rs.procedures[0])] if rs.procedures else [],
    }
