"""Pass 3, lower: validated documents of one ruleset (+ its packs) -> `ir.Ruleset`.

Lowering is where the semantic checks live, because they need the same name
resolution the IR needs: ids unique in a ruleset, references between tables
resolve, field declarations are consistent, formulas and trace sentences use
only declared names, rule ids are in the inventory, and a pack overrides an
existing entry only when it says `override: true`. Every problem is collected;
nothing stops at the first one.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass
from typing import Any

from .diagnostics import Diagnostic, did_you_mean
from .ir import (
    Dice,
    OddsPreset,
    Procedure,
    Table,
    EnumValue,
    ErrorType,
    FieldDecl,
    RuleRef,
    Ruleset,
    Ruling,
    Section,
    Stat,
    StatGroup,
)
from .load import Document
from .lower_entries import lower_tables
from .lower_procedures import lower_procedures
from .lowering_context import Reporter
from .runtime.dice import parse_dice
from .scopes import TableDecls
from .sources import SourceFolder
from .table_schema import table_schema
from .validate import TableFiles

RESERVED_STATS = {"to_dict", "replace", "given"}


@dataclass
class LoadedSource:
    folder: SourceFolder
    manifest: Document
    docs: list[tuple[Document, str]]

    @property
    def id(self) -> str:
        return str(self.manifest.data.get("id", ""))


def _dice(doc: Document, rep: Reporter) -> Dice:
    raw = doc.data["dice"]
    span = doc.span(("dice",))
    if raw["engine"] == "pool":
        sides, s_at, a_at = raw["sides"], raw["success_at"], raw["add_die_at"]
        if s_at > sides:
            rep.error(doc.span(("dice", "success_at")), "bad-dice",
                      f"success_at {s_at} is more than the {sides} sides")
        if a_at == 1:
            rep.error(doc.span(("dice", "add_die_at")), "bad-dice",
                      "add_die_at 1 would add a die on every face; the pool would never end")
        if a_at > sides:
            rep.error(doc.span(("dice", "add_die_at")), "bad-dice",
                      f"add_die_at {a_at} is more than the {sides} sides (use 0 for no added dice)")
        return Dice("pool", raw.get("name", "骰池"), sides, s_at, a_at, raw.get("bot_prefix", ".ww"),
                    raw.get("bot_default_add_die_at", 10), "stack", span)
    return Dice("d20", raw.get("name", "d20"), 20, 0, 0, raw.get("bot_prefix", ".r"), 0,
                raw.get("layers", "stack"), span)


def _field_decl(table_id: str, raw: dict[str, Any], doc: Document, path: tuple[Any, ...],
                tables: set[str], rep: Reporter) -> FieldDecl:
    span = doc.span(path)
    ftype = raw["type"]
    values = tuple(EnumValue(v["id"], v["name"], v.get("description", "")) for v in raw.get("values", []))
    default = raw.get("default", _MISSING)
    required = bool(raw.get("required", False))
    if ftype in ("enum", "enum_list") and not values:
        rep.error(span, "bad-field", f"field '{raw['id']}' of type {ftype} needs 'values'")
    if ftype == "ref":
        target = raw.get("table")
        if target is None:
            rep.error(span, "bad-field", f"field '{raw['id']}' of type ref needs 'table'")
        elif target not in tables:
            rep.error(doc.span(path + ("table",)), "unknown-table", f"no table '{target}'",
                      did_you_mean(target, tables))
    for key in ("min", "max"):
        if key in raw and ftype != "int":
            rep.error(doc.span(path + (key,)), "bad-field", f"'{key}' only applies to int fields")
    if "min" in raw and "max" in raw and raw["min"] > raw["max"]:
        rep.error(span, "bad-field", f"min {raw['min']} is more than max {raw['max']}")
    for ctx in raw.get("context", []):
        if ctx["table"] not in tables:
            rep.error(span, "unknown-table", f"no table '{ctx['table']}'", did_you_mean(ctx["table"], tables))
    if default is _MISSING:
        implicit = {"bool": False, "text": "", "enum_list": []}
        if ftype in implicit:
            default = implicit[ftype]
        else:
            default = None
            required = required or ftype not in ("ref", "dice")
    else:
        problem = _default_problem(ftype, default, raw, values)
        if problem:
            rep.error(doc.span(path + ("default",)), "bad-default", problem)
    if ftype == "dice" and isinstance(default, str):
        try:
            parse_dice(default)
        except ValueError as exc:
            rep.error(doc.span(path + ("default",)), "bad-dice", str(exc))
    return FieldDecl(raw["id"], raw["name"], ftype, raw.get("description", ""), required,
                     raw.get("min"), raw.get("max"),
                     tuple(default) if isinstance(default, list) else default, values,
                     raw.get("table"), raw.get("result", "int") if ftype == "formula" else None,
                     tuple((c["param"], c["table"]) for c in raw.get("context", [])), span)


_MISSING = object()


def _default_problem(ftype: str, default: Any, raw: dict[str, Any], values: tuple[EnumValue, ...]) -> str | None:
    ids = [v.id for v in values]
    if ftype == "int":
        if not isinstance(default, int) or isinstance(default, bool):
            return "the default of an int field is a whole number"
        if ("min" in raw and default < raw["min"]) or ("max" in raw and default > raw["max"]):
            return f"default {default} is outside {raw.get('min')}..{raw.get('max')}"
    elif ftype == "bool" and not isinstance(default, bool):
        return "the default of a bool field is true or false"
    elif ftype == "enum" and default is not None and default not in ids:
        return f"default {default!r} is not one of {ids}"
    elif ftype == "enum_list" and (not isinstance(default, list) or any(d not in ids for d in default)):
        return f"the default is a list of {ids}"
    elif ftype in ("text", "dice", "ref") and default is not None and not isinstance(default, str):
        return f"the default of a {ftype} field is text or null"
    elif ftype == "formula" and not isinstance(default, str):
        return "the default of a formula field is a formula"
    return None


def _unique(items: list[tuple[str, Any]], what: str, doc_span: Any, rep: Reporter) -> None:
    seen: dict[str, Any] = {}
    for key, span in items:
        if key in seen:
            rep.error(span, "duplicate-id", f"{what} '{key}' is defined twice (first at {seen[key]})")
        else:
            seen[key] = span


def lower_ruleset(base: LoadedSource, packs: list[LoadedSource]) -> tuple[Ruleset | None, list[Diagnostic]]:
    """Lower one ruleset and the packs that extend it."""
    rep = Reporter()
    m = base.manifest
    raw = m.data
    dice = _dice(m, rep)
    if raw.get("initiative") and dice.engine != "pool":
        rep.error(m.span(("initiative",)), "wrong-engine", "initiative_order needs the pool dice engine")
    table_ids = {t["id"] for t in raw.get("tables", [])}
    decl_fields: dict[str, tuple[FieldDecl, ...]] = {}
    table_meta: dict[str, dict[str, Any]] = {}
    for ti, t in enumerate(raw.get("tables", [])):
        if t["id"] in decl_fields:
            rep.error(m.span(("tables", ti)), "duplicate-id", f"table '{t['id']}' is declared twice")
            continue
        fields = []
        seen_fields: set[str] = set()
        for fi, f in enumerate(t["fields"]):
            path = ("tables", ti, "fields", fi)
            if f["id"] in seen_fields or f["id"] in ("id", "name", "description", "rules", "override",
                                                      "not_specified", "given"):
                rep.error(m.span(path), "duplicate-id", f"field '{f['id']}' is declared twice or reserved")
                continue
            seen_fields.add(f["id"])
            fields.append(_field_decl(t["id"], f, m, path, table_ids, rep))
        decl_fields[t["id"]] = tuple(fields)
        table_meta[t["id"]] = {**t, "span": m.span(("tables", ti))}
        if t.get("group_by") and t["group_by"] not in seen_fields:
            rep.error(m.span(("tables", ti, "group_by")), "unknown-field",
                      f"group_by names no field of '{t['id']}'", did_you_mean(t["group_by"], seen_fields))
    decls = TableDecls(decl_fields, {t: meta["name"] for t, meta in table_meta.items()})
    errors = tuple(ErrorType(e["id"], e["name"], e["message"], e.get("description", ""),
                             m.span(("errors", i))) for i, e in enumerate(raw.get("errors", [])))
    _unique([(e.id, e.span) for e in errors], "error type", None, rep)

    table_files = TableFiles(base.id)
    schemas: dict[str, dict[str, Any]] = {}
    all_docs = [(d, k, "ruleset") for d, k in base.docs] + [
        (d, k, p.id) for p in packs for d, k in p.docs
    ]
    for doc, kind, origin in all_docs:
        if origin != "ruleset" and kind not in ("table", "rulings"):
            rep.error(doc.span(("kind",)), "pack-kind",
                      f"a homebrew pack may hold tables and rulings, not '{kind}'")
        if kind == "table":
            tid = doc.data["table"]
            if tid not in decl_fields:
                rep.error(doc.span(("table",)), "unknown-table",
                          f"ruleset '{base.id}' declares no table '{tid}'", did_you_mean(tid, decl_fields))
                continue
            if tid not in schemas:
                schemas[tid] = table_schema(base.id, table_meta[tid], decl_fields[tid])
            rep.diags.extend(table_files.check(doc, schemas[tid]))
        if kind in ("ruleset", "pack"):
            rep.error(doc.span(("kind",)), "second-manifest",
                      f"a folder has one manifest; this '{kind}' file is not it")
    table_files.save()

    stat_groups, stats = _stats([(d, o) for d, k, o in all_docs if k == "stats"], rep)
    rulings = _rulings([(d, o) for d, k, o in all_docs if k == "rulings"], rep)
    sections, rules = _rule_index([d for d, k, o in all_docs if k == "rule_index"], rep)
    if rep.diags:
        return None, rep.diags

    rule_ids = {r.id for r in rules}
    tables = lower_tables(base.id, [(d, o) for d, k, o in all_docs if k == "table"], decls, table_meta,
                          stats, rulings, rule_ids, rep)
    procedures = lower_procedures([d for d, k, o in all_docs if k == "procedures"], stats, rulings,
                                  tables, decls, errors, rule_ids, dice, rep)
    for s in stats:
        _check_rules(s.rules, rule_ids, s.span, rep)
    for r in rulings:
        _check_rules(r.rules, rule_ids, r.span, rep)
    presets = _odds_presets(m, procedures, tables, stats, rep)
    if rep.diags:
        return None, rep.diags
    files = sorted({base.manifest.file, *(d.file for d, _, _ in all_docs),
                    *(p.manifest.file for p in packs)})
    return Ruleset(base.id, raw["name"], raw["version"], raw.get("description", ""),
                   raw.get("source", {}).get("file", ""), dice, stat_groups, stats, rulings, sections,
                   rules, errors, tables, procedures, tuple(p.id for p in packs), tuple(files),
                   m.span(()), bool(raw.get("initiative", False)), presets), []


def _odds_presets(m: Document, procedures: tuple[Procedure, ...], tables: tuple[Table, ...],
                  stats: tuple[Stat, ...], rep: Reporter) -> tuple[OddsPreset, ...]:
    """Check the reference odds presets against the procedures and tables they name."""
    out = []
    procs = {p.id: p for p in procedures}
    stat_keys = {s.id for s in stats} | {s.name for s in stats}
    for i, o in enumerate(m.data.get("reference", {}).get("odds", [])):
        path = ("reference", "odds", i)
        proc = procs.get(o["procedure"])
        if proc is None:
            rep.error(m.span(path + ("procedure",)), "unknown-procedure", f"no procedure '{o['procedure']}'",
                      did_you_mean(o["procedure"], procs))
            continue
        params = {p.id: p for p in proc.params}
        param = params.get(o["param"])
        if param is None or param.type != o["table"]:
            rep.error(m.span(path + ("param",)), "bad-param",
                      f"'{o['param']}' is not a parameter of '{proc.id}' that takes a '{o['table']}' entry")
        for cid, values in o.get("combatants", {}).items():
            if cid not in params or params[cid].type != "combatant":
                rep.error(m.span(path + ("combatants", cid)), "bad-param", f"'{cid}' is not a combatant parameter",
                          did_you_mean(cid, params))
            for key in values:
                if key not in stat_keys:
                    rep.error(m.span(path + ("combatants", cid, key), key=True), "unknown-stat",
                              f"no stat '{key}'", did_you_mean(key, stat_keys))
        for key in o.get("args", {}):
            if key not in params:
                rep.error(m.span(path + ("args", key), key=True), "bad-param", f"'{key}' is not a parameter of "
                          f"'{proc.id}'", did_you_mean(key, params))
        target = o["vary"]["target"]
        head, _, stat = target.partition(".")
        given = {o["param"], head, *o.get("args", {})}
        for prm in proc.params:
            if prm.default is None and not prm.optional and prm.type != "combatant" and prm.id not in given:
                rep.error(m.span(path), "missing-arg",
                          f"the odds preset does not give '{prm.id}' ({prm.name}), which '{proc.id}' needs "
                          f"(it has no default)", f"add it under args: {{{prm.id}: ...}}")
        if head not in params or (stat and (params[head].type != "combatant" or stat not in stat_keys)) or (
                not stat and params[head].type != "int"):
            rep.error(m.span(path + ("vary", "target")), "bad-param",
                      f"'{target}' is neither an int parameter nor <combatant>.<stat> of '{proc.id}'")
        out.append(OddsPreset(o["title"], o["table"], proc.id, o["param"],
                              tuple((k, tuple(v.items())) for k, v in o.get("combatants", {}).items()),
                              tuple(o.get("args", {}).items()), target, o["vary"]["name"],
                              tuple(o["vary"]["values"]), o.get("max_entries", 300), m.span(path)))
    return tuple(out)


def _check_rules(ids: tuple[str, ...], known: set[str], span: Any, rep: Reporter) -> None:
    for rid in ids:
        if rid not in known:
            rep.error(span, "unknown-rule", f"rule id '{rid}' is not in the rule inventory",
                      did_you_mean(rid, known))


def _stats(docs: list[tuple[Document, str]], rep: Reporter) -> tuple[tuple[StatGroup, ...], tuple[Stat, ...]]:
    groups: list[StatGroup] = []
    stats: list[Stat] = []
    names: dict[str, Any] = {}
    ids: dict[str, Any] = {}
    for doc, _origin in docs:
        for g in doc.data.get("groups", []):
            groups.append(StatGroup(g["id"], g["name"]))
        for i, s in enumerate(doc.data["stats"]):
            span = doc.span(("stats", i))
            if keyword.iskeyword(s["id"]) or s["id"] in RESERVED_STATS:
                rep.error(doc.span(("stats", i, "id")), "reserved-name", f"'{s['id']}' is a reserved word")
            for key, table in ((s["id"], ids), (s["name"], names)):
                if key in table:
                    rep.error(span, "duplicate-id", f"stat '{key}' is defined twice (first at {table[key]})")
                table[key] = span
            stype = s.get("type", "int")
            lo, hi = s.get("min", 0 if stype == "int" else 0), s.get("max", 1000 if stype == "int" else 1)
            default = s.get("default", False if stype == "bool" else max(lo, min(0, hi)))
            if stype == "int" and (isinstance(default, bool) or not lo <= default <= hi):
                rep.error(doc.span(("stats", i, "default")), "bad-default",
                          f"default {default!r} is outside {lo}..{hi}")
            if stype == "bool" and not isinstance(default, bool):
                rep.error(doc.span(("stats", i, "default")), "bad-default", "a bool stat defaults to true or false")
            stats.append(Stat(s["id"], s["name"], s["group"], stype, lo, hi, default,
                              s.get("description", ""), tuple(s.get("rules", [])), span))
    known_groups = {g.id for g in groups}
    for s in stats:
        if groups and s.group not in known_groups:
            rep.error(s.span, "unknown-group", f"stat group '{s.group}' is not declared",
                      did_you_mean(s.group, known_groups))
    return tuple(groups), tuple(stats)


def _rulings(docs: list[tuple[Document, str]], rep: Reporter) -> tuple[Ruling, ...]:
    out: dict[str, Ruling] = {}
    for doc, origin in docs:
        for i, r in enumerate(doc.data["rulings"]):
            span = doc.span(("rulings", i))
            ruling = Ruling(r["key"], r.get("ruling", ""), r["name"], r["value"], r["text"],
                            tuple(r.get("rules", [])), span)
            if "min" in r and isinstance(r["value"], int) and r["value"] < r["min"]:
                rep.error(doc.span(("rulings", i, "value")), "out-of-range", f"{r['value']} is below {r['min']}")
            if "max" in r and isinstance(r["value"], int) and r["value"] > r["max"]:
                rep.error(doc.span(("rulings", i, "value")), "out-of-range", f"{r['value']} is above {r['max']}")
            if r["key"] in out:
                if origin != "ruleset" and r.get("override"):
                    old = out[r["key"]]
                    if type(old.value) is not type(ruling.value):
                        rep.error(span, "wrong-type", f"ruling '{r['key']}' holds {type(old.value).__name__}")
                    out[r["key"]] = Ruling(old.key, old.ruling, old.name, ruling.value, ruling.text,
                                           old.rules, span)
                    continue
                rep.error(span, "duplicate-id", f"ruling '{r['key']}' is defined twice (first at "
                                                f"{out[r['key']].span})",
                          "add override: true to change it from a pack" if origin != "ruleset" else None)
                continue
            if r.get("override"):
                rep.error(span, "nothing-to-override", f"no ruling '{r['key']}' to override")
            out[r["key"]] = ruling
    return tuple(out.values())


def _rule_index(docs: list[Document], rep: Reporter) -> tuple[tuple[Section, ...], tuple[RuleRef, ...]]:
    sections: list[Section] = []
    rules: list[RuleRef] = []
    seen: dict[str, Any] = {}
    for doc in docs:
        sections += [Section(s["id"], s["name"]) for s in doc.data.get("sections", [])]
        for i, r in enumerate(doc.data["rules"]):
            span = doc.span(("rules", i))
            if r["id"] in seen:
                rep.error(span, "duplicate-id", f"rule '{r['id']}' is listed twice (first at {seen[r['id']]})")
                continue
            seen[r["id"]] = span
            rules.append(RuleRef(r["id"], r["title"], r.get("section"), r.get("summary", ""),
                                 bool(r.get("referee_call", False)), span))
    known = {s.id for s in sections}
    for r in rules:
        if r.section is not None and r.section not in known:
            rep.error(r.span, "unknown-section", f"section '{r.section}' is not declared",
                      did_you_mean(r.section, known))
    return tuple(sections), tuple(rules)

