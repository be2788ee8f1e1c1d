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

`check_ruleset` here runs them in order: the manifest's declarations (manifest.py), the stats,
rulings and rule inventory (inventory.py), the tables (entries.py), the procedures, presets, fight
and gaps; it gives the ruleset as `ir.Ruleset` (one declaration of its fields) with its procedures
still as checked.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..ir import (
    ErrorType,
    NotModelled,
    OddsPreset,
    Ruleset,
    Stat,
    Table,
)
from ..load import Document, SourceFolder
from ..memo import current
from ..record import MutableRecord, replace
from ..formula.check import BUILTINS, Binding, FormulaSpec, Scope
from ..ir import expr as ir
from ..formula.syntax import parse
from .context import Reporter, compile_formula
from .checks import check_uses
from .fight import check_effects, check_fight
from .gaps import check_gaps
from .literals import check_literals
from .entries import check_tables
from .procedures import CheckedProcedure, check_procedures
from .quick import check_quick
from .table_files import TableFiles
from .scopes import base_scope
from .table_schema import table_schema
from ..messages import say
from .manifest import check_dice, check_features, check_helpers, check_table_decls
from .inventory import check_rule_ids, check_rule_index, check_rulings, check_stats


class LoadedSource(MutableRecord):
    folder: SourceFolder
    manifest: Document
    docs: list[tuple[Document, str]]

    @property
    def id(self) -> str:
        return str(self.manifest.data.get("id", ""))


def _unique(items: list[tuple[str, Any]], what: str, doc_span: Any, rep: Reporter) -> None:
    seen: dict[str, Any] = {}
    for key, span in items:
        if key in seen:
            rep.error(span, "duplicate-id", say("duplicate-id.defined-twice-first-at", what=what, key_=key, value=seen[key]))
        else:
            seen[key] = span


class Checked(MutableRecord):
    """A ruleset that passed validation, for the lowering pass: the IR `Ruleset` it becomes in all
    but its procedures (one declaration of a ruleset's fields, `ir.Ruleset`), with its procedures
    as checked, which lowering turns into IR procedures."""

    ruleset: Ruleset  # `procedures` still empty
    procedures: list[CheckedProcedure]


def check_ruleset(base: LoadedSource, packs: list[LoadedSource], *, declarations_only: bool = False) -> tuple[Checked | None, list[Diagnostic]]:
    """Validate one ruleset and the packs that extend it (only its declarations when a file that
    may hold some could not be read)."""
    rep = Reporter()
    m = base.manifest
    raw = m.data
    dice = check_dice(m, rep)
    decls, table_meta = check_table_decls(m, rep)
    errors = tuple(ErrorType(e["id"], e["name"], e["message"], e.get("description", ""),
                             m.span(("errors", i))) for i, e in enumerate(raw.get("errors", [])))
    _unique([(e.id, e.span) for e in errors], "error type", None, rep)
    helpers = check_helpers(m, rep)

    table_files = TableFiles()
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
                schemas[tid] = current().intern(("table-schema", base.id, tid),
                                           table_schema(base.id, table_meta[tid], decls.fields[tid]))
            problems, clean = table_files.check(doc, schemas[tid])
            rep.diags.extend(problems)
            if clean is not None:
                table_docs.append((clean, origin))
        if kind in ("ruleset", "pack"):
            rep.error(doc.span(("kind",)), "second-manifest", say("second-manifest.folder-has-one-manifest", kind=kind))

    stat_groups, stats = check_stats([(d, o) for d, k, o in all_docs if k == "stats"], rep)
    rulings = check_rulings([(d, o) for d, k, o in all_docs if k == "rulings"], rep)
    sections, rules = check_rule_index([d for d, k, o in all_docs if k == "rule_index"], rep)
    features = check_features(m, dice, rulings, rep)
    if declarations_only or rep.diags and any(
            d.span.file in (m.file, *(doc.file for doc, k, _ in all_docs if k in ("stats", "rulings", "rule_index")))
            for d in rep.diags):
        return None, rep.diags  # the declarations everything else reads are broken: stop here

    rule_ids = {r.id for r in rules}
    scope = base_scope(rulings, helpers, decls)
    _declared_formulas(m, scope, rep)
    structure = (m, *(p.manifest for p in packs), *(d for d, k, _ in all_docs if k != "table"))
    tables = check_tables(table_docs, decls, table_meta, stats, scope, rule_ids, rep, base.id, structure)
    table_ids = {t.id: {e.id for e in t.entries} for t in tables}
    # Everything the procedures are checked against comes from the files other than tables, and
    # from the tables' entry ids: which tables there are, and whether each entry a parameter
    # defaults to is one. A resident build keeps them while those stay the same.
    proc_docs = [d for d, k, _ in all_docs if k == "procedures"]
    defaults = tuple((p["type"], p["default"], p["default"] in table_ids[p["type"]])
                     for d in proc_docs for proc in d.data.get("procedures", []) if isinstance(proc, dict)
                     for p in proc.get("params", []) if isinstance(p, dict) and p.get("type") in table_ids
                     and p.get("default") is not None and isinstance(p.get("default"), str))
    sources = (*structure, current().intern(("table-ids", base.id), (tuple(table_ids), defaults)))
    kept = current().get("procedures", *sources)
    if kept is None:
        before = len(rep.diags)
        procedures = check_procedures(proc_docs, stats, scope, table_ids, decls, errors, rule_ids, dice, rep)
        if len(rep.diags) == before:
            current().put("procedures", sources, procedures)
    else:  # copies: the effects are checked again below, against this build's tables
        procedures = [replace(p) for p in kept]
    for s in stats:
        check_rule_ids(s.rules, rule_ids, s.span, rep)
    for r in rulings:
        check_rule_ids(r.rules, rule_ids, r.span, rep)
    declared = {str(p.get("id")) for d, k, o in all_docs if k == "procedures" for p in d.data.get("procedures", [])
                if isinstance(p, dict)}
    presets = _odds_presets(m, procedures, tables, stats, rep, declared)
    fight = check_fight(m, tables, procedures, stats, rep, rulings)
    if fight is not None:
        for c in fight.conditions:
            check_rule_ids(c.rules, rule_ids, c.span, rep)
        for rel in fight.relation_rules:
            check_rule_ids(rel.rules, rule_ids, fight.span, rep)
        if fight.turn is not None:
            check_rule_ids(fight.turn.rules, rule_ids, fight.turn.span, rep)
    for proc in procedures:
        if proc.effects_at is not None:
            fdoc, fpath = proc.effects_at
            proc.effects = check_effects(proc, proc.raw_effects, fdoc, fpath, fight, stats, tables, rep)
            proc.checks = check_uses(proc, proc.raw_checks, fdoc, fpath[:-1] + ("checks",), fight, tables, rep)
    gaps = tuple(NotModelled(tuple(g["rules"]), g["what"], g["reason"], m.span(("not_modelled", i)),
                             g["lacks"], g.get("needs", ""))
                 for i, g in enumerate(m.data.get("not_modelled", [])))
    for g in gaps:
        check_rule_ids(g.rules, rule_ids, g.span, rep)
    check_gaps(gaps, m.data.get("fight"), fight, helpers, stats, tables, rep)
    quick = check_quick(m, tables, rep)
    if rep.diags:
        return None, rep.diags
    files = sorted({base.manifest.file, *(d.file for d, _, _ in all_docs), *(p.manifest.file for p in packs)})
    ruleset = Ruleset(base.id, raw["name"], raw["version"], raw.get("description", ""),
                      raw.get("source", {}).get("file", ""), dice, stat_groups, stats, rulings, sections, rules,
                      errors, tables, (), tuple(p.id for p in packs), tuple(files), m.span(()), helpers=helpers,
                      features=features, odds_presets=presets, not_modelled=gaps, fight=fight, quick=quick)
    return Checked(ruleset, procedures), []


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


def _stat_value(stat: Stat, value: Any, span: Span, rep: Reporter) -> None:
    """A stat's value given in the manifest (an odds preset's combatant, or a value it varies a
    stat over): of the stat's type and inside its range, as the generated `Combatant` requires."""
    shown = ("true" if value else "false") if isinstance(value, bool) else value  # as YAML writes it
    if stat.type == "bool":
        if not isinstance(value, bool):
            rep.error(span, "bad-stat-value", say("bad-stat-value.bool-stat-takes-true", stat=stat.name, value=shown))
    elif isinstance(value, bool) or not isinstance(value, int):
        rep.error(span, "bad-stat-value", say("bad-stat-value.int-stat-takes-whole", stat=stat.name, value=shown))
    elif not stat.min <= value <= stat.max:
        rep.error(span, "bad-stat-value",
                  say("bad-stat-value.outside-stat-range", stat=stat.name, value=value, lo=stat.min, hi=stat.max))


def _odds_presets(m: Document, procedures: list[CheckedProcedure], tables: tuple[Table, ...],
                  stats: tuple[Stat, ...], rep: Reporter, declared: set[str]) -> tuple[OddsPreset, ...]:
    """Check the reference odds presets against the procedures and tables they name (a procedure
    that is declared but failed its own checks is reported there, not again here)."""
    out = []
    procs = {p.id: p for p in procedures}
    by_key = {**{s.id: s for s in stats}, **{s.name: s for s in stats}}
    stat_keys = set(by_key)
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
            for key, value in values.items():
                stat = by_key.get(key)
                if stat is None:
                    rep.error(m.span(path + ("combatants", cid, key), key=True), "unknown-stat",
                              say("unknown-stat.no-stat", key_=key), did_you_mean(key, stat_keys))
                else:
                    _stat_value(stat, value, m.span(path + ("combatants", cid, key)), rep)
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
        elif stat and by_key[stat].type == "bool":
            rep.error(m.span(path + ("vary", "target")), "bad-stat-value",
                      say("bad-stat-value.vary-bool-stat", target=target))
        elif stat:  # each value is a stat of the combatant the page makes: inside the stat's range
            for j, value in enumerate(o["vary"]["values"]):
                _stat_value(by_key[stat], value, m.span(path + ("vary", "values", j)), rep)
        out.append(OddsPreset(o["title"], o["table"], proc.id, o["param"],
                              tuple((k, tuple(v.items())) for k, v in o.get("combatants", {}).items()),
                              tuple(o.get("args", {}).items()), target, o["vary"]["name"],
                              tuple(o["vary"]["values"]), o.get("max_entries", 300), m.span(path),
                              o.get("until", {}).get("at", 0), o.get("until", {}).get("name", "")))
    return tuple(out)


