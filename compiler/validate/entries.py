"""Checking table entries: schema-checked YAML entries -> `ir.Table`s.

Fills defaults, resolves references between tables (with "did you mean"), parses dice
expressions, checks formula fields in their entry scope (one shared function per distinct
formula text, named after the first entry that has it, so a thousand weapons with the same
formula cost one function), and applies homebrew packs: a pack entry with an existing id
replaces it only with `override: true`, and only an entry of the ruleset or of another pack:
two entries of one pack (or of the ruleset) with the same id are an error whatever `override`
says, since one of them would be dropped without a word.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..diagnostics import Span, did_you_mean
from ..formula.check import Scope
from ..ir import DiceExpr, Entry, FieldDecl, FieldValue, FormulaField, Stat, Table
from ..ir.expr import BOOL, INT
from ..memo import current
from ..load import Document
from ..runtime.sources import parse_dice
from .context import Reporter, compile_formula
from .names import identity
from .table_files import FailedEntry
from .scopes import TableDecls, entry_formula_scope
from ..messages import say

_Raw = tuple[dict[str, Any], Document, tuple[Any, ...], str]


def _collect(docs: list[tuple[Document, str]], decls: TableDecls, rep: Reporter,
             only: set[str] | None = None) -> tuple[dict[str, dict[str, _Raw]], dict[str, set[str]]]:
    """The entries of each table (or of the tables `only` names) by id, and the ids of entries
    that failed their schema."""
    raw: dict[str, dict[str, _Raw]] = {t: {} for t in decls.fields}
    failed: dict[str, set[str]] = {t: set() for t in decls.fields}
    for doc, origin in docs:
        tid = doc.data["table"]
        if tid not in raw or (only is not None and tid not in only):
            continue
        for i, e in enumerate(doc.data["entries"]):
            if isinstance(e, FailedEntry):  # reported already; a reference to it is not a second error
                if e.id is not None:
                    failed[tid].add(e.id)
                continue
            path = ("entries", i)
            existing = raw[tid].get(e["id"])
            if existing is not None:
                first = existing[1].span(existing[2])
                if existing[3] == origin:  # a sibling: override replaces what another source defined, never this
                    rep.error(doc.span(path + ("id",)), "duplicate-id",
                              say("duplicate-id.defined-twice-first-at-2", id=e['id'], tid=tid, first=first),
                              say("duplicate-id.override-true-replaces-entry") if origin != "ruleset" else None)
                elif origin != "ruleset" and e.get("override"):
                    raw[tid][e["id"]] = (e, doc, path, origin)
                elif origin != "ruleset":
                    rep.error(doc.span(path + ("id",)), "override-needed",
                              say("override-needed.already-exists-at", id=e['id'], tid=tid, first=first),
                              say("override-needed.add-override-true-replace"))
                else:
                    rep.error(doc.span(path + ("id",)), "duplicate-id",
                              say("duplicate-id.defined-twice-first-at-3", id=e['id'], tid=tid, first=first))
                continue
            if e.get("override"):
                rep.error(doc.span(path + ("override",)), "nothing-to-override",
                          say("nothing-to-override.no-entry-override", id=e['id'], tid=tid),
                          did_you_mean(e["id"], raw[tid]))
            raw[tid][e["id"]] = (e, doc, path, origin)
    return raw, failed


_CONVERTED = frozenset({"ref", "dice", "formula", "enum_list"})  # the field types `make` does more than read


def check_tables(docs: list[tuple[Document, str]], decls: TableDecls, table_meta: dict[str, dict[str, Any]],
                 stats: tuple[Stat, ...], base: Scope, rule_ids: set[str], rep: Reporter, ruleset_id: str = "", structure: tuple[Any, ...] = ()) -> tuple[Table, ...]:
    """The checked tables. A resident build (its memo) takes the IR of an entry whose document, and
    whose table's fields, are the ones it was made from last time from memory, and checks a table
    document by document (`_by_document`) when it can; a table with formula fields, whose entries
    are checked in the scope the other rule files make (`structure`: those files), is kept whole
    while its files and those stay the same."""
    # A resident build gathers the entries of a table by id only where a reference or the check
    # entry by entry needs them; a table checked document by document has no duplicate to report.
    memo = current()
    targets = {decl.table or "" for fs in decls.fields.values() for decl in fs if decl.type == "ref"}
    collected = targets if memo.resident else set(decls.fields)
    raw, failed = _collect(docs, decls, rep, collected)
    functions: dict[tuple[str, str, str], str] = {}
    tables = []
    for tid, fields in decls.fields.items():
        fields = memo.intern(("fields", ruleset_id, tid), fields)
        refs = [(decl.id, decl.table or "") for decl in fields if decl.type == "ref"]
        plain = not any(decl.type == "formula" for decl in fields)  # formula functions are named in order
        # each field as (id, default, the declaration when its value is more than read: a ref, dice,
        # a formula or an enum list), so that an entry's plain values are read without a test each
        read_as = tuple((decl.id, decl.default, decl if decl.type in _CONVERTED else None) for decl in fields)

        def make(eid: str, e: dict[str, Any], doc: Document, path: tuple[Any, ...], origin: str, span: Span,
                 rep: Reporter, tid: str = tid, fields: tuple[FieldDecl, ...] = fields, plain: bool = plain,
                 refs: list[tuple[str, str]] = refs, read_as: tuple[Any, ...] = read_as,
                 context: object = None) -> Entry:
            """The IR of one entry (its references checked). `context`: what its references read
            (the ids and names of the tables they point at, `check_tables`), when the caller knows it."""
            # An entry's IR is its data, its table's fields, its origin and its place: a document
            # spliced after an edit (load/splice.py) holds the same data objects for the others.
            if plain and context is not None:  # made from these very objects, its references read the same
                kept = memo.get("entry-in", e, fields, context)
                if kept is not None and kept.origin == origin and kept.span == span:
                    return kept  # type: ignore[no-any-return]
            kept = memo.get("entry", e, fields) if plain else None
            if kept is not None and kept.origin == origin and kept.span == span and all(
                    _check_ref(e.get(fid, kept.values[fid]), target, raw, failed, doc, path + (fid,), Reporter())
                    == kept.values[fid] for fid, target in refs):  # a name still names the same entry
                for fid, target in refs:
                    _check_ref(kept.values[fid], target, raw, failed, doc, path + (fid,), rep)
                if context is not None:
                    memo.put("entry-in", (e, fields, context), kept)
                return kept  # type: ignore[no-any-return]
            problems = len(rep.diags)
            values: dict[str, FieldValue] = {}
            get = e.get
            for fid, default, decl in read_as:
                value: Any = get(fid, default)
                if decl is None:
                    values[fid] = value
                    continue
                kind = decl.type
                if kind == "ref":
                    value = _check_ref(value, decl.table or "", raw, failed, doc, path + (decl.id,), rep)
                elif kind == "dice" and value is not None:
                    try:
                        terms, flat = parse_dice(value)
                        value = DiceExpr(value.replace(" ", ""), terms, flat)
                    except ValueError as exc:
                        rep.error(doc.span(path + (decl.id,)), "bad-dice", f"{value!r}: {exc}")
                        value = None
                elif kind == "formula" and value is not None:
                    value = str(value)
                    key = (tid, decl.id, value.strip())
                    scope = entry_formula_scope(stats, base, tid, decl, decls)
                    fdoc, fp = (doc, path + (decl.id,)) if decl.id in e else (doc, path)
                    formula = compile_formula(value, scope, (BOOL,) if decl.result == "bool" else (INT,),
                                              fdoc, fp, rep)
                    if formula is None:
                        value = None
                    else:
                        if key not in functions:
                            functions[key] = f"{tid}_{eid}_{decl.id}"
                        value = FormulaField(formula, functions[key])
                elif kind == "enum_list":
                    value = tuple(value)
                values[fid] = value
            entry = Entry(tid, eid, e["name"], e.get("description", ""), tuple(e.get("rules", [])),
                          values, e.get("not_specified"), origin, span)
            if plain and len(rep.diags) == problems:
                # An entry of an edited file that came out as it was is the same object as before,
                # so that its rows are found again too.
                entry = memo.intern(("entry", ruleset_id, tid, eid), entry)
                memo.put("entry", (e, fields), entry)
                if context is not None:
                    memo.put("entry-in", (e, fields, context), entry)
            return entry

        found = None
        whole: tuple[Any, ...] = ()
        before = len(rep.diags)
        if memo.resident and not failed[tid]:
            context = memo.intern(("table-context", ruleset_id, tid), (
                frozenset(rule_ids), tuple((target, frozenset((i, r[0]["name"]) for i, r in raw.get(target, {}).items()))
                                         for _, target in refs)))
            mine = [(d, o) for d, o in docs if d.data["table"] == tid]
            if plain:
                found = _by_document(mine, fields, context, rule_ids, make)
            else:
                whole = (*structure, *(d for d, _ in mine), fields, context)
                kept_table = memo.get("formula-table", *whole)
                if kept_table is not None and kept_table[0] == [o for _, o in mine]:
                    found = kept_table[1]
        if found is None and tid not in collected:
            more_raw, more_failed = _collect(docs, decls, rep, {tid})
            raw[tid], failed[tid] = more_raw[tid], more_failed[tid]
            collected = collected | {tid}
        entries = list(found) if found is not None else []
        names: dict[str, Any] = {}
        for eid, (e, doc, path, origin) in raw[tid].items() if found is None else ():
            span = doc.span(path)
            same = identity(e["name"])
            if same in names:
                rep.error(doc.span(path + ("name",)), "duplicate-name",
                          say("duplicate-name.name-used-twice-first", name=e['name'], tid=tid, value=names[same]))
            names[same] = span
            _check_rules(e, doc, path, rule_ids, rep)
            entries.append(make(eid, e, doc, path, origin, span, rep))
        if whole and found is None and len(rep.diags) == before:
            memo.put("formula-table", whole, ([o for _, o in mine], entries))
        meta = table_meta[tid]
        tables.append(Table(tid, meta["name"], meta.get("description", ""), meta.get("group_by"),
                            fields, tuple(entries), meta["span"], meta.get("index")))
    return tuple(tables)


class _Checked(NamedTuple):
    """One table document's entries as checked, with what its checks depended on."""

    ids: list[str]
    entries: list[Entry]
    names: list[str]  # `identity` of each name


def _by_document(docs: list[tuple[Document, str]], fields: tuple[FieldDecl, ...], context: object,
                 rule_ids: set[str], make: Callable[..., Entry]) -> list[Entry] | None:
    """A table's entries from its documents one by one, each kept by a resident build while the
    document, the table's fields and the ids its checks read (`context`: the rule ids and the ids
    of the tables its ref fields point at) stay the same. None — check the table entry by entry,
    which reports every problem — when a document has a problem, an entry overrides another, or
    two entries share an id or a name."""
    memo = current()
    parts = []
    for doc, origin in docs:
        found = memo.get("table-doc", doc, fields, context)
        if found is None or found[0] != origin:
            quiet = Reporter()
            checked = _Checked([], [], [])
            for i, e in enumerate(doc.data["entries"]):
                if isinstance(e, FailedEntry) or e.get("override"):
                    return None
                path = ("entries", i)
                _check_rules(e, doc, path, rule_ids, quiet)
                checked.ids.append(e["id"])
                checked.entries.append(make(e["id"], e, doc, path, origin, doc.span(path), quiet, context=context))
                checked.names.append(identity(e["name"]))
            if quiet.diags:
                return None
            found = memo.put("table-doc", (doc, fields, context), (origin, checked))
        parts.append(found[1])
    by_id: dict[str, Entry] = {}
    names: set[str] = set()
    count = 0
    for part in parts:
        by_id.update(zip(part.ids, part.entries))
        names.update(part.names)
        count += len(part.ids)
    if len(by_id) != count or len(names) != count:
        return None
    return list(by_id.values())


def _check_rules(e: dict[str, Any], doc: Document, path: tuple[Any, ...], rule_ids: set[str], rep: Reporter) -> None:
    for rid in e.get("rules", ()):
        if rid not in rule_ids:
            rep.error(doc.span(path + ("rules",)), "unknown-rule",
                      say("unknown-rule.rule-id-not-rule-3", rid=rid), did_you_mean(rid, rule_ids))


# A table this short is listed whole (ids with their names) in the hint of an unknown reference.
SHORT_TABLE = 12


def _check_ref(value: Any, target: str, raw: dict[str, dict[str, _Raw]], failed: dict[str, set[str]],
               doc: Document, fpath: tuple[Any, ...], rep: Reporter) -> Any:
    """The id a reference names: the id itself, or the id of the entry with that (Chinese) name,
    which is what the IR holds; an unknown one is reported with a suggestion (and, for a short
    table, every choice), and comes back as it was."""
    entries = raw.get(target, {})
    if value is None or value in entries or value in failed.get(target, ()):
        return value
    by_name = {identity(e[0]["name"]): eid for eid, e in entries.items()}
    found = by_name.get(identity(value)) if isinstance(value, str) else None
    if found is not None:
        return found
    names = {eid: e[0]["name"] for eid, e in entries.items()}
    hint = did_you_mean(str(value), [*names, *names.values()])
    if hint is not None:  # named by its id and its name, whichever of them was close
        guess = hint.values["name"]
        shown = guess if guess in names else next(i for i, n in names.items() if n == guess)
        hint = say("unknown-ref.did-you-mean", id=shown, name=names[shown])
    if len(names) <= SHORT_TABLE and names:
        choices = say("unknown-ref.choices", choices=tuple(say("unknown-ref.choice", id=i, name=n)
                                                           for i, n in names.items()))
        hint = choices if hint is None else say("diagnostic.hint-and", first=hint, second=choices)
    rep.error(doc.span(fpath), "unknown-ref", say("unknown-ref.no-entry-table", value=value, target=target), hint)
    return value
