"""The report of `rulec diff` (compare.report) as a terminal table and as an HTML page with charts.

The terminal table gives, for each changed entry, the mean over the defender spread of the hit
chance, the expected damage and the expected attacks until the damage total and until each state
one attack can lead to (old → new, and the change; "—" where the attack cannot reach it); the JSON
and the page give every value of the spread. Every text of the rules goes through `printable` on the
terminal and through markupsafe's escaping on the page; the charts are svg.py's.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from ...emit.js.wrap import width
from ...emit.svg import line_chart
from ..terminal import printable

CHANGE = {"added": "新增", "removed": "删除", "changed": "修改", "same": "未变"}
METRICS = (("hit", "命中率"), ("damage", "期望伤害"), ("until", "期望攻击次数"))
MAX_CELL = 60  # characters of a value shown in a cell


def _mean(values: list[float | None] | None) -> float | None:
    if not values:
        return None
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def _fmt(value: float | None, metric: str, signed: bool = False) -> str:
    if value is None:
        return "—"
    if metric == "hit":
        return f"{value * 100:+.1f}%" if signed else f"{value * 100:.1f}%"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def _short(value: Any) -> str:
    text = "—" if value is None else "是" if value is True else "否" if value is False else \
        "、".join(map(str, value)) if isinstance(value, list) else str(value)
    text = printable(text.replace("\n", " "))
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def metric_cell(odds: dict[str, Any], metric: str) -> str:
    """old→new (change), each the mean over the defender values both sides give a number for."""
    return _cell(odds[metric], metric)


def states_cell(odds: dict[str, Any], besides: str | None = None) -> str:
    """Each state's expected attacks, `label old→new（change）`, joined by "；": the states either side
    reaches, but `besides` (the damage total, in a column of its own); "—" when none is left."""
    return "；".join(f"{printable(label)} {_cell(m, 'until')}" for label, m in odds.get("states", {}).items()
                    if label != besides and any(v is not None for v in (m["old"] or []) + (m["new"] or []))) or "—"


def _cell(m: dict[str, Any], metric: str) -> str:
    both = [i for i, d in enumerate(m["delta"] or []) if d is not None]
    if not both:  # no defender value with a number on both sides: each side's own mean
        old, new = _mean(m["old"]), _mean(m["new"])
        return "—" if old is None and new is None else f"{_fmt(old, metric)}→{_fmt(new, metric)}"
    old = sum(m["old"][i] for i in both) / len(both)
    new = sum(m["new"][i] for i in both) / len(both)
    return f"{_fmt(old, metric)}→{_fmt(new, metric)}（{_fmt(new - old, metric, True)}）"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(width(r[i]) for r in [head] + rows) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "  ".join(c + " " * (w - width(c)) for c, w in zip(cells, widths)).rstrip()

    return [line(head), "  ".join("─" * w for w in widths)] + [line(r) for r in rows]


def text(report: dict[str, Any]) -> str:
    out = [f"比较 {printable(report['old'])} → {printable(report['new'])}"]
    for rs in report["rulesets"]:
        out.append("")
        out.append(f"规则集 {printable(rs['name'])}（{printable(rs['id'])}）：{CHANGE[rs['status']]}")
        if rs["status"] in ("added", "removed", "same"):
            continue
        for i, p in enumerate(rs["presets"]):
            stats = "；".join(printable(who) + " " + "、".join(f"{printable(str(k))}{v}" for k, v in c.items())
                              for who, c in p["combatants"].items())
            args = "、".join(f"{printable(str(k))}={printable(str(v))}" for k, v in p["args"].items())
            out.append(f"  平衡预设{i + 1}：{printable(p['title'])}；{printable(p['vary'])} "
                       f"{p['values']}；属性 {stats or '默认'}；选项 {args or '无'}"
                       + (f"；期望攻击次数：{printable(p['until'])}" if p["until"] else "")
                       + (f"；其他表的参照条目：{printable(str(p['reference']))}" if p["reference"] else "")
                       + ("（预设本身已修改）" if p["changed"] else ""))
        rows = []
        for e in rs["entries"]:
            fields = "；".join(f"{printable(f['name'])} {_short(f['old'])}→{_short(f['new'])}" for f in e["fields"][:6])
            if len(e["fields"]) > 6:
                fields += f"；另有{len(e['fields']) - 6}项"
            first = [printable(e["table_name"]), printable(e["name"]), CHANGE[e["change"]]]
            if not e["odds"]:
                rows.append(first + ["", "", "", "", "", fields or "—"])
            for k, o in enumerate(e["odds"]):
                via = f"（经由{len(o['via'])}件：{_short(o['via'])}）" if o.get("via") else ""
                rows.append((first if k == 0 else ["", "", ""]) + [str(o["preset"] + 1)]
                            + [metric_cell(o, m) for m, _ in METRICS]
                            + [states_cell(o, rs["presets"][o["preset"]]["until"])] + [(fields if k == 0 else "") + via])
        if rows:
            out += ["  " + line for line in _table(["表", "条目", "变化", "预设", "命中率（平均）", "期望伤害（平均）",
                                                    "期望攻击次数（平均）", "各状态所需攻击次数（平均）", "字段"], rows)]
        if rs["truncated"]:
            out.append(f"  （只列出前{len(rs['entries'])}项）")
        if rs["rulings"]:
            out.append("")
            out += ["  " + line for line in _table(["裁定", "名称", "变化", "旧值", "新值"], [
                [printable(r["ruling"] or r["key"]), printable(r["name"]), CHANGE[r["change"]], _short(r["old"]),
                 _short(r["new"])] for r in rs["rulings"]])]
        c = rs["counts"]
        out.append(f"  合计：新增{c['added']}，删除{c['removed']}，修改{c['changed']}，裁定变化{len(rs['rulings'])}")
    out.append("")
    out.append("有变化" if report["changed"] else "没有变化")
    return "\n".join(out) + "\n"


_STYLE = """body{margin:0 auto;max-width:72rem;padding:1rem;font:15px/1.5 "Noto Sans CJK SC",system-ui,sans-serif}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #d9dce1;padding:.2rem .5rem;text-align:left;vertical-align:top}
th{background:#f5f6f8}.scroll{overflow-x:auto}svg{max-width:100%;height:auto}.meta{color:#5f6368;font-size:.9em}
.up{color:#1a7f37}.down{color:#8b1e1e}"""


def html(report: dict[str, Any]) -> str:
    """A standalone page (inline CSS and SVG, no script, no request)."""
    parts = [Markup("<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\">"
                    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"),
             Markup("<title>规则比较：{} → {}</title><style>{}</style></head><body>").format(
                 report["old"], report["new"], Markup(_STYLE)),
             Markup("<h1>规则比较：{} → {}</h1><p>{}</p>").format(report["old"], report["new"],
                                                             "有变化" if report["changed"] else "没有变化")]
    for rs in report["rulesets"]:
        parts.append(Markup("<h2>{}（{}）：{}</h2>").format(rs["name"], rs["id"], CHANGE[rs["status"]]))
        if rs["status"] != "changed":
            continue
        for i, p in enumerate(rs["presets"]):
            stats = "；".join(who + " " + "、".join(f"{k}{v}" for k, v in c.items()) for who, c in p["combatants"].items())
            parts.append(Markup("<p class=\"meta\">平衡预设{}：{}；{} {}；属性 {}；选项 {}{}</p>").format(
                i + 1, p["title"], p["vary"], "、".join(map(str, p["values"])), stats or "默认",
                "、".join(f"{k}={v}" for k, v in p["args"].items()) or "无",
                f"；期望攻击次数：{p['until']}" if p["until"] else ""))
        rows = []
        for e in rs["entries"]:
            fields = "；".join(f"{f['name']} {_short(f['old'])}→{_short(f['new'])}" for f in e["fields"])
            cells = [c for o in e["odds"][:1] for c in [metric_cell(o, m) for m, _ in METRICS] + [states_cell(o, rs["presets"][o["preset"]]["until"])]]
            cells = cells or ["—"] * 4
            rows.append(Markup("<tr><td>{}</td><td>{}</td><td>{}</td>{}<td>{}</td></tr>").format(
                e["table_name"], e["name"], CHANGE[e["change"]],
                Markup("").join(Markup("<td>{}</td>").format(c) for c in cells), fields))
        if rows:
            parts.append(Markup("<div class=\"scroll\"><table><thead><tr><th>表</th><th>条目</th><th>变化</th>"
                                "<th>命中率（平均）</th><th>期望伤害（平均）</th><th>期望攻击次数（平均）</th>"
                                "<th>各状态所需攻击次数（平均）</th><th>字段</th>"
                                "</tr></thead><tbody>{}</tbody></table></div>").format(Markup("").join(rows)))
        for e in rs["entries"]:
            for o in e["odds"]:
                p = rs["presets"][o["preset"]]
                for metric, name in METRICS[1:]:
                    m = o[metric]
                    if m["old"] is None and m["new"] is None:
                        continue
                    series = [(f"{e['name']}（旧）", m["old"] or [None] * len(p["values"])),
                              (f"{e['name']}（新）", m["new"] or [None] * len(p["values"]))]
                    parts.append(Markup("<figure>{}</figure>").format(Markup(line_chart(
                        f"{e['name']}：{name}", p["vary"], name, list(p["values"]), series))))
                for label, m in o.get("states", {}).items():
                    if m["old"] is None and m["new"] is None or m["delta"] is not None and all(
                            d is None or abs(d) < 1e-12 for d in m["delta"]):
                        continue  # a state neither side reaches, or one the change leaves alone
                    series = [(f"{e['name']}（旧）", m["old"] or [None] * len(p["values"])),
                              (f"{e['name']}（新）", m["new"] or [None] * len(p["values"]))]
                    parts.append(Markup("<figure>{}</figure>").format(Markup(line_chart(
                        f"{e['name']}：{label}所需的期望攻击次数", p["vary"], "期望攻击次数", list(p["values"]), series))))
        if rs["rulings"]:
            parts.append(Markup("<table><thead><tr><th>裁定</th><th>名称</th><th>变化</th><th>旧值</th><th>新值</th>"
                                "</tr></thead><tbody>{}</tbody></table>").format(Markup("").join(
                                    Markup("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>").format(
                                        r["ruling"] or r["key"], r["name"], CHANGE[r["change"]], _short(r["old"]),
                                        _short(r["new"])) for r in rs["rulings"])))
    parts.append(Markup("</body></html>\n"))
    return str(Markup("").join(parts))


__all__ = ["html", "metric_cell", "states_cell", "text", "escape"]
