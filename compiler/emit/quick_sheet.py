"""What the reference pages add to a ruleset's view for the table (issue 33): the quick sheet the
page opens with (manifest `reference.quick`, checked by validate/quick.py), the assumptions each
balancing table is computed under, Chinese parameter types and steps that read as sentences.

Plain values only, like reference_view.py: each template escapes them (the one exception,
`css_string`, quotes a name for the print stylesheet's margin boxes and is marked safe).
"""

from __future__ import annotations

from typing import Any, Mapping

from markupsafe import Markup

from ..ir import OddsPreset, Procedure, Ruleset
from .reference_view import _value_text, anchor

# Parameter types as the page names them; a table id reads "<table name>中的一项".
TYPE_NAMES = {"combatant": "角色", "int": "整数", "bool": "是/否", "str": "文字", "text": "文字", "dice": "骰子"}

# The verb a step's sentence opens with where its description does not start with one.
STEP_VERBS = {"计算": ("算出", ""), "前提": ("检查：", "要求："), "记录": ("记下：", "记录：")}


def type_name(kind: str, tables: dict[str, str]) -> str:
    if kind in tables:
        return f"{tables[kind]}中的一项"
    return TYPE_NAMES.get(kind, kind)


def step_sentence(kind: str, text: str) -> str:
    """One step as a sentence: "算出实际用手数 = …。", "检查：…；否则拒绝（…）。"; the dice steps'
    descriptions open with their verb already ("掷骰池：…")."""
    verb, prefix = STEP_VERBS.get(kind, ("", ""))
    body = text.removeprefix(prefix) if prefix else text
    return f"{verb}{body.rstrip('。；;')}。"


def _value(v: object) -> str:
    return ("是" if v else "否") if isinstance(v, bool) else str(v)


def odds_assumptions(rs: Ruleset, preset: OddsPreset) -> list[dict[str, str]]:
    """What a balancing table assumes, one line per role: the combatants' given stats, the options
    given, the varied value per column and the options left at their defaults."""
    stats = {s.id: s.name for s in rs.stats} | {s.name: s.name for s in rs.stats}
    proc: Procedure = next(p for p in rs.procedures if p.id == preset.procedure)
    params = {p.id: p for p in proc.params}
    head, _, stat = preset.vary_target.partition(".")
    given = dict(preset.combatants)
    lines = []
    for p in proc.params:
        if p.type == "combatant":
            shown = "、".join(f"{stats.get(k, k)} {_value(v)}" for k, v in given.get(p.id, ()))
            vary = f"；{stats.get(stat, stat)}逐列变化" if p.id == head and stat else ""
            lines.append({"role": p.name, "text": (shown + "，其余属性取默认值" if shown else "全部属性取默认值") + vary})
    args = dict(preset.args)
    options = "、".join(f"{params[k].name} {_value(v)}" for k, v in args.items() if k in params)
    lines.append({"role": "选项", "text": options or "无"})
    lines.append({"role": "逐列", "text": f"{preset.vary_name}取 " + "、".join(str(v) for v in preset.vary_values)})
    rest = [p for p in proc.params if p.type != "combatant" and p.id not in args and p.id not in (preset.param, head)]
    defaults = "、".join(f"{p.name} {_value(p.default)}" if p.default is not None else f"{p.name}（不用）" for p in rest)
    if defaults:
        lines.append({"role": "其余参数取默认值", "text": defaults})
    return lines


def quick_view(rs: Ruleset, names: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The quick sheet: the attack paragraphs and the compact tables (each at most `max_rows`
    rows; the full table follows on the page, linked from each row's name)."""
    quick: Mapping[str, Any] = rs.quick
    tables = []
    for table_id, title, columns, max_rows in quick.get("tables", ()):
        t = rs.table(table_id)
        fields = {f.id: f for f in t.fields}
        shown = [fields[c] for c in columns]
        rows = [{"name": e.name, "anchor": anchor(t.id, e.id), "description": e.description, "not_specified": e.not_specified or "",
                 "cells": [_value_text(e, f, names) for f in shown]} for e in t.entries[:max_rows]]
        tables.append({"title": title, "anchor": anchor("quick", t.id), "full": anchor(t.id),
                       "columns": [f.name for f in shown], "rows": rows, "count": len(t.entries)})
    return {"attack": list(quick.get("attack", ())), "tables": tables}


def css_string(text: str) -> Markup:
    """`text` as a quoted CSS string for the stylesheet: every character outside letters, digits
    and CJK is written as a CSS escape, so no text can end the string or the <style> element."""
    out = []
    for ch in text:
        if ch.isalnum() and (ch.isascii() or ord(ch) >= 0x2E80):
            out.append(ch)
        else:
            out.append(f"\\{ord(ch):x} ")
    return Markup('"' + "".join(out) + '"')


def add_to_view(view: dict[str, Any], rs: Ruleset) -> None:
    """Give a ruleset's page view its quick sheet, balancing assumptions, Chinese parameter types,
    step sentences, the print header and a place for links to sibling pages (`links`)."""
    names = view["tables"][0]["names"] if view["tables"] else {}
    tables = {t.id: t.name for t in rs.tables}
    view["quick"] = quick_view(rs, names)
    quick: Mapping[str, Any] = rs.quick
    view["source_title"] = quick.get("source_title", "")
    view["css_title"] = css_string(f"{rs.name}（{rs.id}）")
    view.setdefault("links", [])
    # new dicts, not the procedure views changed in place: a build keeps those (reference_view.py)
    view["procedures"] = [{**p, "params": [{**x, "type": type_name(x["type"], tables)} for x in p["params"]],
                           "steps": [{**s, "sentence": step_sentence(s["kind"], s["text"])} for s in p["steps"]]}
                          for p in view["procedures"]]
    for section, preset in zip(view["odds"], rs.odds_presets):
        section["assumes"] = odds_assumptions(rs, preset)
