"""Pass 2, validate (the ruleset as a whole): the documents of one ruleset and its packs -> a
`Checked` ruleset for lowering, and every diagnostic.

All validation lives in this package: each table file against the schema generated from its
table's declaration (entry by entry, remembering clean entries), and the semantic checks that
need name resolution: ids and names unique in a ruleset (after normalisation), references between
tables, field declarations, formulas and trace sentences typed in their scope, rule ids in the
inventory, pack overrides only where they say `override: true` and inside the bundled ranges, the
helpers and features the manifest declares, the odds presets, and the analyses of the whole rules
(bounds of the quantities that drive work, rulings and flags read by some procedure). Every
problem is collected; a broken declaration stops the checks that would only repeat it.
"""

from __future__ import annotations

import dataclasses

import keyword
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..engines import ENGINES
from ..ir import (
    Dice,
    EnumValue,
    ErrorType,
    FieldDecl,
    FightSpec,
    Helper,
    NotModelled,
    OddsPreset,
    RuleRef,
    Ruling,
    Section,
    Stat,
    StatGroup,
    Table,
)
from ..load import Document, SourceFolder
from ..build.keep import NO_KEEP, Keep
from ..build.memo import NO_MEMO, Memo
from ..runtime.sources import parse_dice
from ..formula.check import BUILTINS, Binding, FormulaSpec, Scope
from ..ir import expr as ir
from ..formula.syntax import parse
from .context import Reporter, compile_formula
from .fight import check_effects, check_fight
from .gaps import check_gaps
from .literals import check_literals
from .entries import check_tables
from .names import identity
from .procedures import CheckedProcedure, check_procedures
from .quick import check_quick
from .schema import TableFiles
from .scopes import TableDecls, base_scope
from .table_schema import table_schema
from ..messages import say

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

    def report(sub: tuple[str, ...], code: str, message: str) -> None:
        rep.error(doc.span(("dice", *sub)), code, message)

    return ENGINES[raw["engine"]].lower(raw, doc.span(("dice",)), report)  # type: ignore[no-any-return]


def _field_decl(table_id: str, raw: dict[str, Any], doc: Document, path: tuple[Any, ...],
                tables: set[str], rep: Reporter) -> FieldDecl:
    span = doc.span(path)
    ftype = raw["type"]
    values = tuple(EnumValue(v["id"], v["name"], v.get("description", "")) for v in raw.get("values", []))
    default = raw.get("default", _MISSING)
    required = bool(raw.get("required", False))
    if ftype in ("enum", "enum_list") and not values:
        rep.error(span, "bad-field", say("bad-field.field-type-needs-values", id=raw['id'], ftype=ftype))
    if ftype == "ref":
        target = raw.get("table")
        if target is None:
            rep.error(span, "bad-field", say("bad-field.field-type-ref-needs", id=raw['id']))
        elif target not in tables:
            rep.error(doc.span(path + ("table",)), "unknown-table", say("unknown-table.no-table-2", target=target),
                      did_you_mean(target, tables))
    for key in ("min", "max"):
        if key in raw and ftype != "int":
            rep.error(doc.span(path + (key,)), "bad-field", say("bad-field.only-applies-int-fields", key_=key))
    if "min" in raw and "max" in raw and raw["min"] > raw["max"]:
        rep.error(span, "bad-field", say("bad-field.min-more-than-max", min=raw['min'], max=raw['max']))
    for ctx in raw.get("context", []):
        if ctx["table"] not in tables:
            rep.error(span, "unknown-table", say("unknown-table.no-table", table=ctx['table']), did_you_mean(ctx["table"], tables))
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
                     tuple((c["param"], c["table"]) for c in raw.get("context", [])), span,
                     _labels(raw, ftype, doc, path, rep), raw.get("not_modelled", ""))


def _labels(raw: dict[str, Any], ftype: str, doc: Document, path: tuple[Any, ...],
            rep: Reporter) -> tuple[tuple[int, str], ...]:
    labels = raw.get("labels", [])
    if labels and ftype != "int":
        rep.error(doc.span(path + ("labels",)), "bad-labels", say("bad-labels.only-int-field-may"))
    for i, label in enumerate(labels):
        if ("min" in raw and label["value"] < raw["min"]) or ("max" in raw and label["value"] > raw["max"]):
            rep.error(doc.span(path + ("labels", i, "value")), "bad-labels",
                      say("bad-labels.outside-field-range-so", value=label['value']))
    return tuple((label["value"], label["name"]) for label in labels)


_MISSING = object()


def _default_problem(ftype: str, default: Any, raw: dict[str, Any], values: tuple[EnumValue, ...]) -> str | None:
    ids = [v.id for v in values]
    if ftype == "int":
        if not isinstance(default, int) or isinstance(default, bool):
            return say("declarations.default-int-field-whole")
        if ("min" in raw and default < raw["min"]) or ("max" in raw and default > raw["max"]):
            return say("declarations.default-outside", default=default, get=raw.get('min'), get2=raw.get('max'))
    elif ftype == "bool" and not isinstance(default, bool):
        return say("declarations.default-bool-field-true")
    elif ftype == "enum" and default is not None and default not in ids:
        return say("declarations.default-not-one", default=default, ids=ids)
    elif ftype == "enum_list" and (not isinstance(default, list) or any(d not in ids for d in default)):
        return say("declarations.default-list", ids=ids)
    elif ftype in ("text", "dice", "ref") and default is not None and not isinstance(default, str):
        return say("declarations.default-field-text-null", ftype=ftype)
    elif ftype == "formula" and not isinstance(default, str):
        return say("declarations.default-formula-field-formula")
    return None


def _unique(items: list[tuple[str, Any]], what: str, doc_span: Any, rep: Reporter) -> None:
    seen: dict[str, Any] = {}
    for key, span in items:
        if key in seen:
            rep.error(span, "duplicate-id", say("duplicate-id.defined-twice-first-at", what=what, key_=key, value=seen[key]))
        else:
            seen[key] = span


@dataclass
class Checked:
    """A ruleset that passed validation, with its checked procedures, for the lowering pass."""

    id: str
    name: str
    version: str
    description: str
    source_file: str
    dice: Dice
    stat_groups: tuple[StatGroup, ...]
    stats: tuple[Stat, ...]
    rulings: tuple[Ruling, ...]
    sections: tuple[Section, ...]
    rules: tuple[RuleRef, ...]
    errors: tuple[ErrorType, ...]
    tables: tuple[Table, ...]
    procedures: list[CheckedProcedure]
    helpers: tuple[Helper, ...]
    features: tuple[str, ...]
    presets: tuple[OddsPreset, ...]
    packs: tuple[str, ...]
    files: tuple[str, ...]
    span: Span
    extra: dict[str, Any] = field(default_factory=dict)
    not_modelled: tuple[NotModelled, ...] = ()
    fight: FightSpec | None = None


def _tables(m: Document, rep: Reporter) -> tuple[TableDecls, dict[str, dict[str, Any]]]:
    raw = m.data
    table_ids = {t["id"] for t in raw.get("tables", [])}
    decl_fields: dict[str, tuple[FieldDecl, ...]] = {}
    table_meta: dict[str, dict[str, Any]] = {}
    for ti, t in enumerate(raw.get("tables", [])):
        if t["id"] in decl_fields:
            rep.error(m.span(("tables", ti)), "duplicate-id", say("duplicate-id.table-declared-twice", id=t['id']))
            continue
        fields = []
        seen_fields: set[str] = set()
        for fi, f in enumerate(t["fields"]):
            path = ("tables", ti, "fields", fi)
            if f["id"] in seen_fields or f["id"] in ("id", "name", "description", "rules", "override",
                                                      "not_specified", "given"):
                rep.error(m.span(path), "duplicate-id", say("duplicate-id.field-declared-twice-reserved", id=f['id']))
                continue
            seen_fields.add(f["id"])
            fields.append(_field_decl(t["id"], f, m, path, table_ids, rep))
        decl_fields[t["id"]] = tuple(fields)
        table_meta[t["id"]] = {**t, "span": m.span(("tables", ti))}
        if t.get("group_by") and t["group_by"] not in seen_fields:
            rep.error(m.span(("tables", ti, "group_by")), "unknown-field",
                      say("unknown-field.group-by-names-no", id=t['id']), did_you_mean(t["group_by"], seen_fields))
        index = t.get("index")
        if index is not None:
            decl = next((f for f in fields if f.id == index), None)
            if decl is None or decl.type not in ("int", "text", "enum"):
                rep.error(m.span(("tables", ti, "index")), "bad-index",
                          say("bad-index.index-names-no-int", id=t['id']), did_you_mean(index, seen_fields))
            elif not decl.required and decl.default is None:
                rep.error(m.span(("tables", ti, "index")), "bad-index",
                          say("bad-index.index-field-must-required", index=index))
    indexes = {tid: meta["index"] for tid, meta in table_meta.items() if meta.get("index")}
    return TableDecls(decl_fields, {t: meta["name"] for t, meta in table_meta.items()}, indexes), table_meta


def _helpers(m: Document, rep: Reporter) -> tuple[Helper, ...]:
    """The manifest's helper functions: each must be a function of one of rulec's helper modules
    (compiler/runtime/), taking as many arguments as it declares."""
    import importlib
    import inspect

    out = []
    for i, h in enumerate(m.data.get("helpers", [])):
        path = ("helpers", i)
        try:
            module = importlib.import_module(f"..runtime.{h['module']}", __package__)
        except ImportError:
            rep.error(m.span(path + ("module",)), "unknown-module", say("unknown-module.rulec-has-no-runtime", module=h['module']),
                      did_you_mean(h["module"], HELPER_MODULES) or say("unknown-module.helper-modules", helper_modules=', '.join(HELPER_MODULES)))
            continue
        fn = getattr(module, h["id"], None) if h["module"] in HELPER_MODULES else None
        if not callable(fn) or h["id"].startswith("_"):
            rep.error(m.span(path + ("id",)), "unknown-helper", say("unknown-helper.runtime-module-has-no", module=h['module'], id=h['id']), did_you_mean(h["id"], [n for n in dir(module) if not n.startswith("_")]))
            continue
        arity = len(inspect.signature(fn).parameters)
        if arity != len(h["params"]):
            rep.error(m.span(path + ("params",)), "bad-helper",
                      say("bad-helper.takes-argument-are-declared", module=h['module'], id=h['id'], arity=arity, n_params=len(h['params'])))
            continue
        out.append(Helper(h["id"], h["name"], h["module"], tuple(h["params"]), h["returns"],
                          h.get("description", ""), m.span(path)))
    return tuple(out)


HELPER_MODULES = ("geometry",)


def _features(m: Document, dice: Dice, rulings: tuple[Ruling, ...], rep: Reporter) -> tuple[str, ...]:
    from ..features import FEATURES

    out = []
    keys = {r.key for r in rulings}
    for i, fid in enumerate(m.data.get("features", [])):
        path = ("features", i)
        feature = FEATURES.get(fid)
        if feature is None:
            rep.error(m.span(path), "unknown-feature", say("unknown-feature.no-feature", fid=fid), did_you_mean(fid, FEATURES))
            continue
        if feature.engine != dice.engine:
            rep.error(m.span(path), "wrong-engine", say("wrong-engine.needs-dice-engine", fid=fid, engine=feature.engine))
        for key in feature.rulings:
            if key not in keys:
                rep.error(m.span(path), "missing-ruling",
                          say("missing-ruling.feature-reads-ruling-which", fid=fid, key_=key),
                          say("missing-ruling.add-rulings-yaml-name", key_=key))
        out.append(fid)
    return tuple(out)


def check_ruleset(base: LoadedSource, packs: list[LoadedSource], *, declarations_only: bool = False,
                  memo: Memo = NO_MEMO, keep: Keep = NO_KEEP) -> tuple[Checked | None, list[Diagnostic]]:
    """Validate one ruleset and the packs that extend it (only its declarations when a file that
    may hold some could not be read)."""
    rep = Reporter()
    m = base.manifest
    raw = m.data
    dice = _dice(m, rep)
    decls, table_meta = _tables(m, rep)
    errors = tuple(ErrorType(e["id"], e["name"], e["message"], e.get("description", ""),
                             m.span(("errors", i))) for i, e in enumerate(raw.get("errors", [])))
    _unique([(e.id, e.span) for e in errors], "error type", None, rep)
    helpers = _helpers(m, rep)

    table_files = TableFiles(base.id, memo, keep)
    schemas: dict[str, dict[str, Any]] = {}
    all_docs = [(d, k, "ruleset") for d, k in base.docs] + [(d, k, p.id) for p in packs for d, k in p.docs]
    table_docs: list[tuple[Document, str]] = []
    for doc, kind, origin in all_docs:
        if origin != "ruleset" and kind not in ("table", "rulings"):
            rep.error(doc.span(("kind",)), "pack-kind", say("pack-kind.homebrew-pack-may-hold", kind=kind))
        if kind == "table":
            tid = doc.data["table"]
            if tid not in decls.fields:
                rep.error(doc.span(("table",)), "unknown-table",
                          say("unknown-table.ruleset-declares-no-table", id=base.id, tid=tid), did_you_mean(tid, decls.fields))
                continue
            if tid not in schemas:
                schemas[tid] = keep.intern(("table-schema", base.id, tid),
                                           table_schema(base.id, table_meta[tid], decls.fields[tid]))
            problems, clean = table_files.check(doc, schemas[tid])
            rep.diags.extend(problems)
            if clean is not None:
                table_docs.append((clean, origin))
        if kind in ("ruleset", "pack"):
            rep.error(doc.span(("kind",)), "second-manifest", say("second-manifest.folder-has-one-manifest", kind=kind))
    table_files.save()

    stat_groups, stats = _stats([(d, o) for d, k, o in all_docs if k == "stats"], rep)
    rulings = _rulings([(d, o) for d, k, o in all_docs if k == "rulings"], rep)
    sections, rules = _rule_index([d for d, k, o in all_docs if k == "rule_index"], rep)
    features = _features(m, dice, rulings, rep)
    if declarations_only or rep.diags and any(
            d.span.file in (m.file, *(doc.file for doc, k, _ in all_docs if k in ("stats", "rulings", "rule_index")))
            for d in rep.diags):
        return None, rep.diags  # the declarations everything else reads are broken: stop here

    rule_ids = {r.id for r in rules}
    scope = base_scope(rulings, helpers, decls)
    _declared_formulas(m, scope, rep)
    structure = (m, *(p.manifest for p in packs), *(d for d, k, _ in all_docs if k != "table"))
    tables = check_tables(table_docs, decls, table_meta, stats, scope, rule_ids, rep, keep, base.id, structure)
    table_ids = {t.id: {e.id for e in t.entries} for t in tables}
    # Everything the procedures are checked against comes from the files other than tables, and
    # from the tables' entry ids: which tables there are, and whether each entry a parameter
    # defaults to is one. A resident build keeps them while those stay the same.
    proc_docs = [d for d, k, _ in all_docs if k == "procedures"]
    defaults = tuple((p["type"], p["default"], p["default"] in table_ids[p["type"]])
                     for d in proc_docs for proc in d.data.get("procedures", []) if isinstance(proc, dict)
                     for p in proc.get("params", []) if isinstance(p, dict) and p.get("type") in table_ids
                     and p.get("default") is not None and isinstance(p.get("default"), str))
    sources = (*structure, keep.intern(("table-ids", base.id), (tuple(table_ids), defaults)))
    kept = keep.get("procedures", *sources)
    if kept is None:
        before = len(rep.diags)
        procedures = check_procedures(proc_docs, stats, scope, table_ids, decls, errors, rule_ids, dice, rep)
        if len(rep.diags) == before:
            keep.put("procedures", sources, procedures)
    else:  # copies: the effects are checked again below, against this build's tables
        procedures = [dataclasses.replace(p) for p in kept]
    for s in stats:
        _check_rules(s.rules, rule_ids, s.span, rep)
    for r in rulings:
        _check_rules(r.rules, rule_ids, r.span, rep)
    declared = {str(p.get("id")) for d, k, o in all_docs if k == "procedures" for p in d.data.get("procedures", [])
                if isinstance(p, dict)}
    presets = _odds_presets(m, procedures, tables, stats, rep, declared)
    fight = check_fight(m, tables, procedures, stats, rep, rulings)
    if fight is not None:
        for c in fight.conditions:
            _check_rules(c.rules, rule_ids, c.span, rep)
        for rel in fight.relation_rules:
            _check_rules(rel.rules, rule_ids, fight.span, rep)
        if fight.turn is not None:
            _check_rules(fight.turn.rules, rule_ids, fight.turn.span, rep)
    for proc in procedures:
        if proc.effects_at is not None:
            fdoc, fpath = proc.effects_at
            proc.effects = check_effects(proc, proc.raw_effects, fdoc, fpath, fight, stats, tables, rep)
    gaps = tuple(NotModelled(tuple(g["rules"]), g["what"], g["reason"], m.span(("not_modelled", i)),
                             g["lacks"], g.get("needs", ""))
                 for i, g in enumerate(m.data.get("not_modelled", [])))
    for g in gaps:
        _check_rules(g.rules, rule_ids, g.span, rep)
    check_gaps(gaps, m.data.get("fight"), fight, helpers, stats, tables, rep)
    quick = check_quick(m, tables, rep)
    if rep.diags:
        return None, rep.diags
    files = sorted({base.manifest.file, *(d.file for d, _, _ in all_docs), *(p.manifest.file for p in packs)})
    return Checked(base.id, raw["name"], raw["version"], raw.get("description", ""),
                   raw.get("source", {}).get("file", ""), dice, stat_groups, stats, rulings, sections, rules,
                   errors, tables, procedures, helpers, features, presets, tuple(p.id for p in packs),
                   tuple(files), m.span(()), extra={"quick": quick}, not_modelled=gaps, fight=fight), []


def _declared_formulas(m: Document, scope: Scope, rep: Reporter) -> None:
    """The manifest's `formulas:` (one declaration of what procedures would otherwise copy, like
    the ability modifier), added to `scope` by id and Chinese name; each may call the ones above."""
    for i, f in enumerate(m.data.get("formulas", [])):
        path = ("formulas", i)
        for key in (f["id"], f["name"]):
            if key in scope.formulas or key in scope.helpers or key in BUILTINS:
                rep.error(m.span(path + ("id",)), "duplicate-id", say("duplicate-id.function-already-exists", key_=key))
        inner = scope.child()
        for p in f["params"]:
            inner.add([(p,)], Binding(ir.Param(ir.INT, p, p)))
        formula = compile_formula(f["value"], inner, (ir.INT, ir.BOOL), m, path + ("value",), rep)
        if formula is None:
            continue
        check_literals(f, {"value": formula}, m, path, rep)
        spec = FormulaSpec(f["id"], f["name"], tuple(f["params"]), parse(str(f["value"])), scope.bindings,
                           formula.type)
        scope.formulas[f["id"]] = scope.formulas[f["name"]] = spec


def _odds_presets(m: Document, procedures: list[CheckedProcedure], tables: tuple[Table, ...],
                  stats: tuple[Stat, ...], rep: Reporter, declared: set[str]) -> tuple[OddsPreset, ...]:
    """Check the reference odds presets against the procedures and tables they name (a procedure
    that is declared but failed its own checks is reported there, not again here)."""
    out = []
    procs = {p.id: p for p in procedures}
    stat_keys = {s.id for s in stats} | {s.name for s in stats}
    for i, o in enumerate(m.data.get("reference", {}).get("odds", [])):
        path = ("reference", "odds", i)
        proc = procs.get(o["procedure"])
        if proc is None and o["procedure"] in declared:
            continue
        if proc is None:
            rep.error(m.span(path + ("procedure",)), "unknown-procedure", say("unknown-procedure.no-procedure", procedure=o['procedure']),
                      did_you_mean(o["procedure"], procs))
            continue
        params = {p.id: p for p in proc.params}
        param = params.get(o["param"])
        if param is None or param.type != o["table"]:
            rep.error(m.span(path + ("param",)), "bad-param",
                      say("bad-param.not-parameter-that-takes", param=o['param'], id=proc.id, table=o['table']))
        for cid, values in o.get("combatants", {}).items():
            if cid not in params or params[cid].type != "combatant":
                rep.error(m.span(path + ("combatants", cid)), "bad-param", say("bad-param.not-combatant-parameter", cid=cid),
                          did_you_mean(cid, params))
            for key in values:
                if key not in stat_keys:
                    rep.error(m.span(path + ("combatants", cid, key), key=True), "unknown-stat",
                              say("unknown-stat.no-stat", key_=key), did_you_mean(key, stat_keys))
        for key in o.get("args", {}):
            if key not in params:
                rep.error(m.span(path + ("args", key), key=True), "bad-param", say("bad-param.not-parameter", key_=key, id=proc.id), did_you_mean(key, params))
        target = o["vary"]["target"]
        head, _, stat = target.partition(".")
        given = {o["param"], head, *o.get("args", {})}
        for prm in proc.params:
            if prm.default is None and not prm.optional and prm.type != "combatant" and prm.id not in given:
                rep.error(m.span(path), "missing-arg",
                          say("missing-arg.odds-preset-does-not", id=prm.id, name=prm.name, id2=proc.id), say("missing-arg.add-under-args", id=prm.id))
        if head not in params or (stat and (params[head].type != "combatant" or stat not in stat_keys)) or (
                not stat and params[head].type != "int"):
            rep.error(m.span(path + ("vary", "target")), "bad-param",
                      say("bad-param.neither-int-parameter-nor", target=target, id=proc.id))
        out.append(OddsPreset(o["title"], o["table"], proc.id, o["param"],
                              tuple((k, tuple(v.items())) for k, v in o.get("combatants", {}).items()),
                              tuple(o.get("args", {}).items()), target, o["vary"]["name"],
                              tuple(o["vary"]["values"]), o.get("max_entries", 300), m.span(path),
                              o.get("until", {}).get("at", 0), o.get("until", {}).get("name", "")))
    return tuple(out)


def _check_rules(ids: tuple[str, ...], known: set[str], span: Any, rep: Reporter) -> None:
    for rid in ids:
        if rid not in known:
            rep.error(span, "unknown-rule", say("unknown-rule.rule-id-not-rule-2", rid=rid),
                      did_you_mean(rid, known))


def _stats(docs: list[tuple[Document, str]], rep: Reporter) -> tuple[tuple[StatGroup, ...], tuple[Stat, ...]]:
    groups: list[StatGroup] = []
    stats: list[Stat] = []
    keys: dict[str, Any] = {}  # ids and names: a combatant is given by either, so they share one namespace
    for doc, _origin in docs:
        for g in doc.data.get("groups", []):
            groups.append(StatGroup(g["id"], g["name"]))
        for i, s in enumerate(doc.data["stats"]):
            span = doc.span(("stats", i))
            if keyword.iskeyword(s["id"]) or s["id"] in RESERVED_STATS:
                rep.error(doc.span(("stats", i, "id")), "reserved-name", say("reserved-name.reserved-word", id=s['id']))
            for key in {identity(s["id"]), identity(s["name"])}:
                if key in keys:
                    rep.error(span, "duplicate-id", say("duplicate-id.stat-defined-twice-first", key_=key, value=keys[key]))
                keys[key] = span
            stype = s.get("type", "int")
            lo, hi = s.get("min", 0 if stype == "int" else 0), s.get("max", 1000 if stype == "int" else 1)
            default = s.get("default", False if stype == "bool" else max(lo, min(0, hi)))
            if stype == "int" and (isinstance(default, bool) or not lo <= default <= hi):
                rep.error(doc.span(("stats", i, "default")), "bad-default",
                          say("bad-default.default-outside", default=default, lo=lo, hi=hi))
            if stype == "bool" and not isinstance(default, bool):
                rep.error(doc.span(("stats", i, "default")), "bad-default", say("bad-default.bool-stat-defaults-true"))
            stats.append(Stat(s["id"], s["name"], s["group"], stype, lo, hi, default,
                              s.get("description", ""), tuple(s.get("rules", [])), span))
    known_groups = {g.id for g in groups}
    for s in stats:
        if groups and s.group not in known_groups:
            rep.error(s.span, "unknown-group", say("unknown-group.stat-group-not-declared", group=s.group),
                      did_you_mean(s.group, known_groups))
    return tuple(groups), tuple(stats)


def _rulings(docs: list[tuple[Document, str]], rep: Reporter) -> tuple[Ruling, ...]:
    """Rulings of the ruleset, then the packs' overrides. A whole-number ruling of a ruleset declares
    the range a homebrewer may set it to (min, max), and a pack's override must stay inside it: a
    pack that builds must never make a resolver roll a billion dice or divide by zero."""
    out: dict[str, Ruling] = {}
    for doc, origin in docs:
        for i, r in enumerate(doc.data["rulings"]):
            span = doc.span(("rulings", i))
            value = r["value"]
            lo, hi = r.get("min"), r.get("max")
            if isinstance(value, int) and not isinstance(value, bool):
                if lo is not None and value < lo:
                    rep.error(doc.span(("rulings", i, "value")), "out-of-range", say("out-of-range.below", value=value, lo=lo))
                if hi is not None and value > hi:
                    rep.error(doc.span(("rulings", i, "value")), "out-of-range", say("out-of-range.above", value=value, hi=hi))
                if origin == "ruleset" and (lo is None or hi is None):
                    rep.error(span, "missing-range", say("missing-range.ruling-holds-number-declare", key_=r['key']), say("missing-range.add-min-max"))
            bare = "name" not in r and "text" not in r  # {key, value}: in a pack, an override of that ruling
            if ("name" in r) != ("text" in r):
                missing = "text" if "name" in r else "name"
                rep.error(span, "missing-key", say("missing-key.missing-required-key", key_=missing),
                          say("missing-key.ruling-name-or-text"))
                continue
            if bare and (origin == "ruleset" or r["key"] not in out):
                rep.error(span, "missing-key", say("missing-key.ruling-no-name-text", key_=r["key"])
                          if origin == "ruleset" else say("missing-key.no-ruling-to-override", key_=r["key"]),
                          say("missing-key.add-name-text") if origin == "ruleset" else
                          did_you_mean(r["key"], out) or say("missing-key.add-name-text-new"))
                continue
            ruling = Ruling(r["key"], r.get("ruling", ""), r.get("name", ""), value, r.get("text", ""),
                            tuple(r.get("rules", [])), span, lo, hi, r.get("not_modelled", ""))
            if r["key"] in out:
                if origin != "ruleset" and (r.get("override") or bare):
                    old = out[r["key"]]
                    if type(old.value) is not type(value):
                        rep.error(doc.span(("rulings", i, "value")), "wrong-type",
                                  say("wrong-type.ruling-holds", key_=r['key'], value=say("declarations.true-false") if isinstance(old.value, bool) else say("declarations.whole-number")))
                    elif isinstance(value, int) and not isinstance(value, bool) and (
                            (old.min is not None and value < old.min) or (old.max is not None and value > old.max)):
                        rep.error(doc.span(("rulings", i, "value")), "out-of-range",
                                  say("out-of-range.outside-range-ruleset-allows", value=value, min=old.min, max=old.max, key_=r['key'], span=old.span))
                    out[r["key"]] = Ruling(old.key, old.ruling, old.name, value, r.get("text", old.text), old.rules,
                                           span, old.min, old.max, old.not_modelled)
                    continue
                rep.error(span, "duplicate-id", say("duplicate-id.ruling-defined-twice-first", key_=r['key'], span=out[r['key']].span),
                          say("duplicate-id.add-override-true-change") if origin != "ruleset" else None)
                continue
            if r.get("override"):
                rep.error(span, "nothing-to-override", say("nothing-to-override.no-ruling-override", key_=r['key']))
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
                rep.error(span, "duplicate-id", say("duplicate-id.rule-listed-twice-first", id=r['id'], value=seen[r['id']]))
                continue
            seen[r["id"]] = span
            rules.append(RuleRef(r["id"], r["title"], r.get("section"), r.get("summary", ""),
                                 bool(r.get("referee_call", False)), span))
    known = {s.id for s in sections}
    for r in rules:
        if r.section is not None and r.section not in known:
            rep.error(r.span, "unknown-section", say("unknown-section.section-not-declared", section=r.section),
                      did_you_mean(r.section, known))
    return tuple(sections), tuple(rules)

