"""Per-table JSON Schemas, generated from a table's field declarations.

The ruleset manifest declares each table's fields with types and bounds; this
module turns a declaration into a closed, self-contained draft 2020-12 schema
for the table's rule files. The validator uses it, and the build writes it to
`generated/schema/<ruleset>/<table>.schema.json` so that editors with a YAML
language server (and check-jsonschema in CI) can complete and check the files.
"""

from __future__ import annotations

from typing import Any

from ..ir import FieldDecl

ID_PATTERN = "^[a-z][a-z0-9_]{0,47}$"
RULE_ID_PATTERN = "^[A-Z][A-Z0-9]*-[0-9]{2,3}$"
DICE_PATTERN = r"^\s*([0-9]*d[0-9]+|[0-9]+)(\s*[-+]\s*([0-9]*d[0-9]+|[0-9]+))*\s*$"
BASE = "https://rulec.dev/schema/generated/"


def _field_schema(decl: FieldDecl) -> dict[str, Any]:
    s: dict[str, Any]
    if decl.type == "int":
        s = {"type": "integer"}
        if decl.min is not None:
            s["minimum"] = decl.min
        if decl.max is not None:
            s["maximum"] = decl.max
    elif decl.type == "bool":
        s = {"type": "boolean"}
    elif decl.type == "text":
        s = {"type": "string", "maxLength": 2000}
    elif decl.type == "enum":
        s = {"enum": [v.id for v in decl.values]}
    elif decl.type == "enum_list":
        s = {"type": "array", "uniqueItems": True, "items": {"enum": [v.id for v in decl.values]}}
    elif decl.type == "ref":
        s = {"type": "string", "minLength": 1, "maxLength": 80}  # an entry's id or its name: entries.py resolves it
    elif decl.type == "dice":
        s = {"type": "string", "pattern": DICE_PATTERN, "description": "dice like 2d6+1d4+3"}
    else:
        s = {"anyOf": [{"type": "string", "minLength": 1, "maxLength": 400},
                       {"type": "integer", "minimum": -1000000, "maximum": 1000000}]}
    if not decl.required and decl.default is None and decl.type in ("text", "enum", "ref", "dice"):
        s = {"anyOf": [s, {"type": "null"}]}
    s["title"] = decl.name
    if decl.description:
        s["description"] = decl.description
    if decl.default is not None:
        s["default"] = list(decl.default) if isinstance(decl.default, tuple) else decl.default
    return s


def _example_value(d: FieldDecl) -> Any:
    if d.type == "int":
        return d.min or 0
    if d.values:
        return d.values[0].id if d.type == "enum" else [d.values[0].id]
    return {"dice": "1d6", "ref": "example", "bool": False, "text": "示例"}.get(d.type, "0")


def entry_schema(fields: tuple[FieldDecl, ...]) -> dict[str, Any]:
    props: dict[str, Any] = {
        "id": {"type": "string", "pattern": ID_PATTERN, "title": "编号",
               "description": "ASCII id: lower case letters, digits and underscores"},
        "name": {"type": "string", "minLength": 1, "maxLength": 80, "title": "名称"},
        "description": {"type": "string", "maxLength": 4000, "title": "说明"},
        "rules": {"type": "array", "uniqueItems": True, "items": {"type": "string", "pattern": RULE_ID_PATTERN},
                  "title": "规则编号"},
        "override": {"type": "boolean", "description": "In a homebrew pack: replace the bundled entry with this id."},
        "not_specified": {"type": "string", "maxLength": 300,
                          "description": "The source names this entry without giving its numbers (R63)."},
    }
    for decl in fields:
        props[decl.id] = _field_schema(decl)
    required = ["id", "name"] + [d.id for d in fields if d.required]
    return {"type": "object", "additionalProperties": False, "required": required, "properties": props}


def table_schema(ruleset_id: str, meta: dict[str, Any], fields: tuple[FieldDecl, ...]) -> dict[str, Any]:
    """The schema of a rule file holding entries of one table."""
    entry = entry_schema(fields)
    example = {"id": "example", "name": "示例"}
    for d in fields:
        if d.required:
            example[d.id] = _example_value(d)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{BASE}{ruleset_id}/{meta['id']}.schema.json",
        "title": f"{ruleset_id}: {meta['name']}",
        "description": meta.get("description") or f"Entries of the '{meta['id']}' table of ruleset '{ruleset_id}'.",
        "type": "object",
        "additionalProperties": False,
        "required": ["kind", "table", "entries"],
        "properties": {
            "kind": {"const": "table"},
            "table": {"const": meta["id"]},
            "entries": {"type": "array", "items": entry},
        },
        "examples": [{"kind": "table", "table": meta["id"], "entries": [example]}],
    }


def editor_table_schema(rs: Any, t: Any) -> dict[str, Any]:
    """The schema written to generated/schema/<ruleset>/<table>.schema.json for editors: the table
    file's schema, where every reference field lists the ids of the entries it may name (with
    their Chinese names), so a YAML language server can complete them."""
    meta = {"id": t.id, "name": t.name, "description": t.description}
    schema = table_schema(rs.id, meta, t.fields)
    props = schema["properties"]["entries"]["items"]["properties"]
    for decl in t.fields:
        if decl.type != "ref" or decl.table is None:
            continue
        target = rs.table(decl.table)
        ids = [e.id for e in target.entries]
        names = [e.name for e in target.entries if e.name not in ids]
        choice: dict[str, Any] = {"enum": ids + names, "enumDescriptions": [e.name for e in target.entries] + names,
                                  "title": decl.name,
                                  "description": f"the id (or the name) of an entry of '{decl.table}'"}
        props[decl.id] = {"anyOf": [choice, {"type": "null"}]} if "anyOf" in props[decl.id] else choice
        for example in schema["examples"]:
            for entry in example["entries"]:
                if decl.id in entry:
                    entry[decl.id] = ids[0] if ids else None
    return schema
