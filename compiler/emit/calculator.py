"""The calculator page: `reference/<ruleset>-calc.html`, the ruleset's generated JavaScript run in
the browser, offline.

One self-contained file: the script build of the JavaScript module (`rulec_<ruleset>.user.js`,
made by emit/js/ from the same IR) inlined as it is, the page's own script (a static file next
to the templates, `calculator_until.js` then `calculator.js`: no value of the rules is written
into them), and the form's
description as a JSON data block (the procedures' declared parameters with their Chinese names
and ranges, the stats, the entries of the tables they choose from, the balancing presets of
`ruleset.yaml` as defaults). Every value of the rules reaches the page as JSON text with `<`, `>`
and the line-ending and control characters escaped (emit/js/code.py), inside a
`<script type="application/json">` block, or through the template's HTML autoescaping; the page
writes them into the document with `textContent`, never as markup. A Content-Security-Policy
meta allows only inline scripts and styles and `data:` images: the page can make no request.
"""

from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup

from ..ir import Procedure, Ruleset
from .env import TEMPLATES, render_bytes
from .js.code import Js, _escaped

MAX_CHOICES = 2000  # entries of one table offered in a select (a 100,000-weapon pack shows the first)
MAX_PROCEDURES = 40  # procedures the calculator offers
APP = (TEMPLATES / "calculator_until.js", TEMPLATES / "calculator.js")  # inlined in this order

CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
       "base-uri 'none'; form-action 'none'")

_SCRIPT_END = re.compile(r"</?script|<!--", re.IGNORECASE)


def calc_page_name(ruleset_id: str) -> str:
    return f"{ruleset_id}-calc.html"


class CalculatorError(ValueError):
    """A rulec bug: the script to inline could end its own `<script>` element."""


def _inline_script(text: str) -> Markup:
    """Script text to stand inside `<script>`. The JavaScript emitter writes `<` in strings as
    `\\u003c`, so `</script`, `<script` and `<!--` can only stand in a `//` comment (rule text in
    a comment, made by emit/js/code.py `comment`): there their `<` becomes a full-width `＜`. One
    anywhere else is a rulec bug and fails the build."""
    if _SCRIPT_END.search(text) is None:  # the common case: no line to look at
        return Markup(text)
    lines = []
    for line in text.split("\n"):
        if _SCRIPT_END.search(line):
            start = line.find("//")
            if start < 0 or any(m.start() < start for m in _SCRIPT_END.finditer(line)):
                raise CalculatorError("the script to inline holds '</script', '<script' or '<!--' outside a comment")
            line = line[:start] + _SCRIPT_END.sub(lambda m: "＜" + m.group(0)[1:], line[start:])
        lines.append(line)
    return Markup("\n".join(lines))


def _json_block(value: Any) -> Markup:
    """JSON for a `<script type="application/json">` block: `<`, `>`, U+2028/2029 and every control
    character escaped (as emit/js/code.py does for string literals), so no rule text ends the block."""
    return Markup(_escaped(json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))))


def _offered(rs: Ruleset) -> list[Procedure]:
    """The procedures the calculator offers: those of the balancing presets first, then every other
    one that takes a combatant and has a hit or damage summary or sets a condition or state on a
    combatant in a fight (dp's 绊摔 → 倒地: the page shows the attacks until it)."""
    first = [p.procedure for p in rs.odds_presets]
    chosen = [p for pid in dict.fromkeys(first) for p in rs.procedures if p.id == pid]
    chosen += [p for p in rs.procedures if p not in chosen and any(prm.type == "combatant" for prm in p.params)
               and (p.summary.hit or p.summary.damage or any(e.kind in ("condition", "state") and e.role != p.subject
                                                                    for e in p.effects))]
    return chosen[:MAX_PROCEDURES]


def _stat_ids(rs: Ruleset, given: tuple[tuple[str, int | bool], ...]) -> dict[str, int | bool]:
    by_name = {s.name: s.id for s in rs.stats} | {s.id: s.id for s in rs.stats}
    return {by_name[k]: v for k, v in given if k in by_name}


def calculator_data(rs: Ruleset) -> dict[str, Any]:
    """What the page's script builds its form from (plain JSON)."""
    tables = {t.id: t for t in rs.tables}
    groups = {g.id: g.name for g in rs.stat_groups}
    procedures = []
    used_tables: set[str] = set()
    for proc in _offered(rs):
        presets = [p for p in rs.odds_presets if p.procedure == proc.id]
        preset = presets[0] if presets else None
        params = []
        for prm in proc.params:
            if prm.type in tables:
                used_tables.add(prm.type)
            params.append({"id": prm.id, "name": prm.name, "type": prm.type, "min": prm.min, "max": prm.max,
                           "default": prm.default, "optional": prm.optional, "description": prm.description})
        entry: dict[str, Any] = {"id": proc.id, "name": proc.name, "description": proc.description,
                                 "hit": proc.summary.hit, "damage": proc.summary.damage, "params": params,
                                 "combatants": {}, "args": {}, "table_param": None, "vary": None, "until": None}
        if preset is not None:
            entry["combatants"] = {cid: _stat_ids(rs, stats) for cid, stats in preset.combatants}
            entry["args"] = {k: v for k, v in preset.args}
            entry["table_param"] = preset.param
            head, _, stat = preset.vary_target.partition(".")
            entry["vary"] = {"param": head, "stat": stat, "name": preset.vary_name, "values": list(preset.vary_values),
                             "title": preset.title}
            if preset.until_at:
                entry["until"] = {"at": preset.until_at, "name": preset.until_name}
        procedures.append(entry)
    choice_tables = {}
    for tid in sorted(used_tables):
        t = tables[tid]
        group_field = next((f for f in t.fields if f.id == t.group_by), None)
        names: dict[str, str] = {}
        if group_field is not None and group_field.type == "ref" and group_field.table in tables:
            names = {e.id: e.name for e in tables[group_field.table].entries[:MAX_CHOICES]}
        elif group_field is not None and group_field.type == "enum":
            names = {v.id: v.name for v in group_field.values}
        rows = []
        for e in t.entries[:MAX_CHOICES]:
            group = str(e.get(group_field.id)) if group_field is not None else ""
            rows.append([e.id, e.name, names.get(group, group)])
        choice_tables[tid] = {"name": t.name, "entries": rows, "total": len(t.entries)}
    stats = [{"id": s.id, "name": s.name, "type": s.type, "min": s.min, "max": s.max, "default": s.default,
              "group": groups.get(s.group, s.group)} for s in rs.stats]
    return {"id": rs.id, "name": rs.name, "global": f"rulec_{rs.id}", "procedures": procedures,
            "tables": choice_tables, "stats": stats}


def emit_calculator(rs: Ruleset, script: str, digest: str = "") -> dict[str, bytes]:
    """`reference/<ruleset>-calc.html`, running `script` (the JavaScript module's script build)."""
    if not isinstance(script, Js):
        raise CalculatorError("the module to inline was not made by the JavaScript emitter")
    page = render_bytes("html", "calculator.html.j2", rs=rs, digest=digest, csp=CSP,
                        data=_json_block(calculator_data(rs)), module=_inline_script(script),
                        app=_inline_script("\n".join(f.read_text(encoding="utf-8") for f in APP)),
                        page_name=calc_page_name(rs.id))
    return {f"reference/{calc_page_name(rs.id)}": page}


__all__ = ["CSP", "MAX_CHOICES", "calc_page_name", "calculator_data", "emit_calculator"]

