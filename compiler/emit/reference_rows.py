"""The table rows of the reference pages, one Markdown row, one Markdown note and one HTML row per
entry, written by string building: a 10,000-weapon pack has 30,000 of them, and a Jinja macro
spends most of its time on attribute lookups (issue 20). Every value goes through its language's
quoting, as in the templates: `md_escape` (or `md_code`) for Markdown, markupsafe's `escape` for
HTML. tests/test_reference.py checks the rows against the Jinja macros they replace
(bench/templates/reference_rows.*.j2, which the build-time floor of bench/ still renders).
"""

from __future__ import annotations

from typing import Any

from markupsafe import escape

from .env import Markdown, md_escape


def md_row(e: dict[str, Any]) -> Markdown:
    parts = [f'| <a id="{md_escape(e["anchor"])}"></a>**{md_escape(e["name"])}**']
    if e["not_specified"]:
        parts.append(f"（原文未给出：{md_escape(e['not_specified'])}）")
    if e["origin"] != "ruleset":
        parts.append(f"（{md_escape(e['origin'])}）")
    parts.append(" |")
    for c in e["cells"]:
        text = md_escape(c["text"])
        parts.append(f" [{text}](#{md_escape(c['link'])}) |" if c["link"] else f" {text} |")
    parts.append(f" {md_escape('、'.join(e['rules']))} |")
    return Markdown("".join(parts))


def md_note(e: dict[str, Any]) -> Markdown:
    if not (e["description"] or e["notes"]):
        return Markdown("")
    notes = "".join(f" {md_escape(n['name'])}：{md_escape(n['text'])}" for n in e["notes"])
    return Markdown(f"- **{md_escape(e['name'])}**：{md_escape(e['description'])}{notes}")


def html_row(e: dict[str, Any]) -> str:
    parts = [f'<tr id="{escape(e["anchor"])}"><td class="name"><strong>{escape(e["name"])}</strong>']
    if e["not_specified"]:
        parts.append(f'<br><span class="note">原文未给出：{escape(e["not_specified"])}</span>')
    if e["origin"] != "ruleset":
        parts.append(f'<br><span class="note">{escape(e["origin"])}</span>')
    if e["description"]:
        parts.append(f'<br><span class="note">{escape(e["description"])}</span>')
    for n in e["notes"]:
        parts.append(f'<br><span class="note">{escape(n["name"])}：{escape(n["text"])}</span>')
    parts.append(f'<span class="where"><br>{escape(e["where"])}</span></td>')
    for c in e["cells"]:
        text = escape(c["text"])
        parts.append(f'<td><a href="#{escape(c["link"])}">{text}</a></td>' if c["link"] else f"<td>{text}</td>")
    parts.append(f'<td>{"、".join(str(escape(r)) for r in e["rules"])}</td></tr>')
    return "".join(parts)


def odds_md_rows(rows: list[dict[str, Any]], until: bool = False) -> Markdown:
    """The rows of a balancing table (`until`: the expected attacks to reach the fight's limit,
    else "hit chance / expected damage"), one a line, as the Markdown page prints them."""
    out = []
    for row in rows:
        cells = "".join(f" {md_escape(c['until'])} |" if until else f" {md_escape(c['hit'])} / {md_escape(c['damage'])} |"
                        for c in row["cells"])
        out.append(f"| [{md_escape(row['name'])}](#{md_escape(row['anchor'])}) |{cells}")
    return Markdown("\n".join(out))


def odds_html_rows(rows: list[dict[str, Any]], until: bool = False) -> str:
    out = []
    for row in rows:
        cells = "".join(f"<td>{escape(c['until'])}</td>" if until else f"<td>{escape(c['hit'])} / {escape(c['damage'])}</td>"
                        for c in row["cells"])
        out.append(f'<tr><td><a href="#{escape(row["anchor"])}">{escape(row["name"])}</a></td>{cells}</tr>')
    return "\n".join(out)
