"""The table rows of the reference pages, one Markdown row, one Markdown note and one HTML row per
entry, written by string building: a 10,000-weapon pack has 30,000 of them, and a Jinja macro
spends most of its time on attribute lookups (issue 20). Every value goes through its language's
quoting, as in the templates: `md_escape` (or `md_code`) for Markdown, markupsafe's `escape` for
HTML. tests/test_reference.py checks the rows against the Jinja macros they replace
(bench/templates/reference_rows.*.j2, which the build-time floor of bench/ still renders).
"""

from __future__ import annotations

from typing import Any, Callable

from markupsafe import escape

from .env import Markdown, md_escape


# Each row's values are quoted in one call: joined by a character no rule text can hold
# (load/characters.py refuses control characters), quoted, and split again. Both quotings change
# each character on its own (`md_escape` also a CR LF pair, which a separator cannot split), so
# this is each value quoted alone; a value holding the separator after all (text that did not come
# from a rule file) is quoted alone.
_SEP = "\x00"


def _quoted(values: list[str], quote: Callable[[str], str]) -> list[str]:
    joined = _SEP.join(values)
    if joined.count(_SEP) != len(values) - 1:
        return [quote(v) for v in values]
    return quote(joined).split(_SEP)


def _html(text: str) -> str:
    return str(escape(text))


def md_row(e: dict[str, Any]) -> Markdown:
    cells = e["cells"]
    raw = [e["anchor"], e["name"], e["not_specified"] or "", e["origin"], "、".join(e["rules"])]
    for c in cells:
        raw.append(c["text"])
        raw.append(c["link"] or "")
    q = _quoted(raw, md_escape)
    parts = [f'| <a id="{q[0]}"></a>**{q[1]}**']
    if e["not_specified"]:
        parts.append(f"（原文未给出：{q[2]}）")
    if e["origin"] != "ruleset":
        parts.append(f"（{q[3]}）")
    parts.append(" |")
    i = 5
    for c in cells:
        parts.append(f" [{q[i]}](#{q[i + 1]}) |" if c["link"] else f" {q[i]} |")
        i += 2
    parts.append(f" {q[4]} |")
    return Markdown("".join(parts))


def md_note(e: dict[str, Any]) -> Markdown:
    if not (e["description"] or e["notes"]):
        return Markdown("")
    notes = "".join(f" {md_escape(n['name'])}：{md_escape(n['text'])}" for n in e["notes"])
    return Markdown(f"- **{md_escape(e['name'])}**：{md_escape(e['description'])}{notes}")


def html_row(e: dict[str, Any]) -> str:
    cells, notes = e["cells"], e["notes"]
    raw = [e["anchor"], e["name"], e["not_specified"] or "", e["origin"], e["description"] or "", e["where"],
           "、".join(e["rules"])]
    for n in notes:
        raw.append(n["name"])
        raw.append(n["text"])
    for c in cells:
        raw.append(c["text"])
        raw.append(c["link"] or "")
    q = _quoted(raw, _html)
    parts = [f'<tr id="{q[0]}"><td class="name"><strong>{q[1]}</strong>']
    if e["not_specified"]:
        parts.append(f'<br><span class="note">原文未给出：{q[2]}</span>')
    if e["origin"] != "ruleset":
        parts.append(f'<br><span class="note">{q[3]}</span>')
    if e["description"]:
        parts.append(f'<br><span class="note">{q[4]}</span>')
    i = 7
    for _ in notes:
        parts.append(f'<br><span class="note">{q[i]}：{q[i + 1]}</span>')
        i += 2
    parts.append(f'<span class="where"><br>{q[5]}</span></td>')
    for c in cells:
        parts.append(f'<td><a href="#{q[i + 1]}">{q[i]}</a></td>' if c["link"] else f"<td>{q[i]}</td>")
        i += 2
    parts.append(f"<td>{q[6]}</td></tr>")
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
