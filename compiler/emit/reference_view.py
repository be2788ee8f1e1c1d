"""The view model of the reference pages: IR -> plain values for the Markdown and HTML templates.

Text from YAML is passed through unescaped here; each format escapes it once:
Markdown with `md_escape` (a filter of the Markdown environment), HTML by
Jinja's autoescaping. Anchors are derived from ids only, so they stay stable
when entries are added.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ..diagnostics import Span
from ..engines import ENGINES
from ..formula.chinese import Chinese
from ..ir import GAP_LACKS, DiceExpr, Entry, FieldDecl, FormulaField, Procedure, Ruleset, Table, entry_id
from .fight_view import fight_view
from ..memo import current
from ..steps import kind_for

ZH = Chinese()


def where(span: Span) -> str:
    return f"{span.file}:{span.line}"


def anchor(*parts: str) -> str:
    return "-".join(p.replace("_", "-") for p in parts)


def _value_text(entry: Entry, f: FieldDecl, names: dict[str, dict[str, str]]) -> str:
    """A cell's text. `names` maps each table id to {entry id: entry name}, for ref fields."""
    v = entry.get(f.id)
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "是" if v else "否"
    if isinstance(v, DiceExpr):
        return v.text
    if isinstance(v, FormulaField):
        return ZH(v.formula.expr)
    if f.type == "enum":
        return next((x.name for x in f.values if x.id == v), str(v))
    if f.type == "enum_list":
        labels = {x.id: x.name for x in f.values}
        return "、".join(labels.get(x, x) for x in v) or "—"  # type: ignore[union-attr]
    if f.type == "ref":
        return names.get(f.table or "", {}).get(str(v), str(v))
    return next((name for value, name in f.labels if value == v), str(v))


Cell = tuple[FieldDecl, Any, Any]  # the field, its text function, its link function (None: no link)
Cells = list[Cell]


def table_cells(t: Table, names: dict[str, dict[str, str]]) -> Cells:
    """For each shown field of `t`, functions from an entry to its cell's text (`_value_text`,
    with the field's lookups made once per table — by `table_view`, for all its rows — instead of
    once per cell) and, for a ref field, to its link's anchor."""
    out: Cells = []
    for f in t.fields:
        if f.type == "text":
            continue
        lookup: dict[Any, str] = {}
        if f.type in ("enum", "enum_list"):
            for x in f.values:
                lookup.setdefault(x.id, x.name)
        elif f.type == "ref":
            lookup = names.get(f.table or "", {})
        else:
            for value, label in f.labels:
                lookup.setdefault(value, label)

        def text(e: Entry, f: FieldDecl = f, fid: str = f.id, kind: str = f.type, lookup: dict[Any, str] = lookup) -> str:
            v = e.values[fid]
            if v is None:
                return "—"
            if kind == "enum_list" or isinstance(v, (bool, DiceExpr, FormulaField)):
                return _value_text(e, f, names)
            if kind == "ref":
                shown = str(v)
                found = lookup.get(shown)
                return shown if found is None else found
            if isinstance(v, (list, dict)):
                return _value_text(e, f, names)
            found = lookup.get(v)
            return str(v) if found is None else found

        link = None
        if f.type == "ref":
            def link(e: Entry, fid: str = f.id, target: str = f.table or "") -> str | None:
                v = e.values[fid]
                return anchor(target, v) if isinstance(v, str) else None

        out.append((f, text, link))
    return out


def entry_view(e: Entry, t: Table, names: dict[str, dict[str, str]], cells: Cells | None = None) -> dict[str, Any]:
    """Everything a table row of the pages shows about one entry (rendered once, then cached);
    `cells`: the table's `table_cells`, made once for all its rows (its table view's)."""
    if cells is None:
        cells = table_cells(t, names)
    return {
        "id": e.id,
        "name": e.name,
        "anchor": anchor(t.id, e.id),
        "description": e.description,
        "rules": list(e.rules),
        "where": where(e.span),
        "origin": e.origin,
        "not_specified": e.not_specified,
        "cells": [{"text": text(e), "link": link(e) if link is not None else None} for _, text, link in cells],
        "notes": [{"name": f.name, "text": str(e.get(f.id))} for f in t.fields if f.type == "text" and e.get(f.id)],
    }


def table_view(t: Table, names: dict[str, dict[str, str]], rs: Ruleset) -> dict[str, Any]:
    """A table section: its entries in groups (`group_by`), whose rows reference.py writes (with
    reference_rows.py, from each entry's `entry_view`). A resident build keeps the grouping of
    runs of entries: the names a group is keyed by change rarely."""
    shown = [f for f in t.fields if f.type != "text"]
    groups: dict[str, list[Entry]] = {}
    group_field = next((f for f in t.fields if f.id == t.group_by), None)
    if group_field is None:
        if t.entries:
            groups[""] = list(t.entries)
    else:
        def group(run: Sequence[Entry]) -> dict[str, list[Entry]]:
            out: dict[str, list[Entry]] = {}
            for e in run:
                out.setdefault(_value_text(e, group_field, names), []).append(e)
            return out

        context = (current().intern(("group-by", rs.id, t.id), (group_field, names.get(group_field.table or ""))),)
        for part in current().each_run("groups", t.entries, group, entry_id, context):
            for key, entries in part.items():
                groups.setdefault(key, []).extend(entries)
    return {
        "id": t.id,
        "name": t.name,
        "anchor": anchor(t.id),
        "description": t.description,
        "where": where(t.span),
        "columns": [{"name": f.name, "id": f.id, "description": f.description} for f in shown],
        "groups": [{"name": k, "entries": v} for k, v in groups.items()],
        "count": len(t.entries),
        "names": names,
        "table": t,
        "cells": table_cells(t, names),
    }


def procedure_view(p: Procedure) -> dict[str, Any]:
    """A procedure's part of its page: made from the procedure alone, so a build makes it once and a
    resident build keeps it while the procedure is the same object (nothing changes it afterwards:
    quick_sheet.py makes new dicts)."""
    steps = []
    for s in p.steps:
        kind = kind_for(s)
        steps.append({
            "kind": kind.name,
            "text": kind.describe(s, ZH),
            "say": getattr(getattr(s, "say", None), "text", ""),
            "rules": list(s.rules),
            "where": where(s.span),
        })
    return {
        "id": p.id,
        "name": p.name,
        "anchor": anchor("procedure", p.id),
        "description": p.description,
        "rules": list(p.rules),
        "where": where(p.span),
        "params": [{"id": x.id, "name": x.name, "type": x.type, "description": x.description,
                    "range": f"{x.min}～{x.max}" if x.type == "int" else "",
                    "default": "" if x.default is None else ("是" if x.default else "否")
                    if isinstance(x.default, bool) else str(x.default)} for x in p.params],
        "steps": steps,
        "outputs": [{"id": o.id, "name": o.name, "formula": ZH(o.formula.expr)} for o in p.result],
    }


def ruleset_view(rs: Ruleset, digest: str, odds: list[dict[str, Any]]) -> dict[str, Any]:
    names = {t.id: {e.id: e.name for e in t.entries} for t in rs.tables}
    cited: dict[str, list[dict[str, str]]] = {r.id: [] for r in rs.rules}

    def cite(ids: tuple[str, ...], label: str, link: str) -> None:
        for rid in ids:
            cited.setdefault(rid, []).append({"label": label, "anchor": link})

    for p in rs.procedures:
        cite(p.rules, p.name, anchor("procedure", p.id))
        for s in p.steps:
            cite(s.rules, f"{p.name}·{s.name}", anchor("procedure", p.id))
    for t in rs.tables:
        for e in t.entries:
            if e.rules:
                cite(e.rules, f"{t.name}·{e.name}", anchor(t.id, e.id))
    for r in rs.rulings:
        cite(r.rules, f"裁定{r.ruling}·{r.name}" if r.ruling else f"常数·{r.name}", anchor("ruling", r.key))
    for stat in rs.stats:
        cite(stat.rules, f"属性·{stat.name}", anchor("stats"))
    dice_text = ENGINES[rs.dice.engine].describe(rs.dice)
    readers = rs.ruling_readers
    groups = {g.id: g.name for g in rs.stat_groups}
    return {
        "id": rs.id,
        "name": rs.name,
        "version": rs.version,
        "description": rs.description,
        "source_file": rs.source_file,
        "digest": digest,
        "digest_short": digest[:16],
        "files": list(rs.files),
        "packs": list(rs.packs),
        "dice_text": dice_text,
        "stats": [{"id": s.id, "name": s.name, "group": groups.get(s.group, s.group),
                   "range": f"{s.min}～{s.max}" if s.type == "int" else "是/否",
                   "default": "是" if s.default is True else "否" if s.default is False else str(s.default),
                   "description": s.description, "where": where(s.span)} for s in rs.stats],
        "rulings": [{"key": r.key, "ruling": r.ruling, "name": r.name, "anchor": anchor("ruling", r.key),
                     "value": ("是" if r.value else "否") if isinstance(r.value, bool) else str(r.value),
                     "text": r.text, "where": where(r.span),
                     "read_by": "、".join(readers.get(r.key, ())) or f"不读取：{r.not_modelled}"} for r in rs.rulings],
        "errors": [{"id": e.id, "name": e.name, "message": e.message} for e in rs.errors],
        "fight": fight_view(rs),
        "not_modelled": [{"rules": "、".join(g.rules), "what": g.what, "reason": g.reason, "where": where(g.span),
                          "lacks": GAP_LACKS[g.lacks] + (f"（{g.needs}）" if g.needs else "")}
                         for g in rs.not_modelled],
        "procedures": [current().once("procedure-view", (p,), partial(procedure_view, p)) for p in rs.procedures],
        "odds": odds,
        "tables": [table_view(t, names, rs) for t in rs.tables],
        "rules": [{"id": r.id, "title": r.title, "summary": r.summary, "anchor": anchor("rule", r.id.lower()),
                   "referee_call": r.referee_call, "where": where(r.span),
                   "cited": cited.get(r.id, [])} for r in rs.rules],
    }
