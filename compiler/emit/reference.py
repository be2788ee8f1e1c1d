"""Emit the reference pages: IR -> Markdown and standalone HTML rulebooks, plus an index.

`reference/<ruleset>.md` reads well on a code-hosting site (tables, explicit
anchors derived from ids); `reference/<ruleset>.html` is one self-contained
file (inline CSS and SVG, no scripts, no external requests) that prints cleanly
and fits a phone. Both come from one view model (`reference_view.py`).
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..ir import Ruleset
from .env import md_escape, render_html, render_markdown
from .reference_rows import html_row, md_note, md_row
from .reference_view import entry_view, ruleset_view

__all__ = ["emit_reference", "md_escape"]


def _render_rows(view: dict[str, Any]) -> None:
    """Fill md_row, md_note and html_row of every table entry of a ruleset view."""
    for table in view["tables"]:
        names = table["names"]
        for group in table["groups"]:
            for entry in group["entries"]:
                v = entry_view(entry["entry"], entry["table"], names)
                entry["md_row"], entry["md_note"], entry["html_row"] = md_row(v), md_note(v), Markup(html_row(v))


def emit_reference(rulesets: list[Ruleset], digests: dict[str, str],
                   odds: dict[str, list[dict[str, Any]]]) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    views = [ruleset_view(rs, digests[rs.id], odds.get(rs.id, [])) for rs in rulesets]
    for view in views:
        _render_rows(view)
    for view in views:
        for section in view["odds"]:
            for group in section["groups"]:
                files[f"reference/{group['chart_file']}"] = group["svg"].encode()
                if "until_svg" in group:
                    files[f"reference/{group['until_chart_file']}"] = group["until_svg"].encode()
    for view in views:
        files[f"reference/{view['id']}.md"] = render_markdown("reference.md.j2", rs=view).encode()
        files[f"reference/{view['id']}.html"] = render_html("reference.html.j2", rs=view).encode()
    index = [{"id": v["id"], "name": v["name"], "version": v["version"], "source_file": v["source_file"],
              "procedures": len(v["procedures"]), "tables": [(t["name"], t["count"]) for t in v["tables"]],
              "rules": len(v["rules"])} for v in views]
    files["reference/index.md"] = render_markdown("reference_index.md.j2", rulesets=index).encode()
    files["reference/index.html"] = render_html("reference_index.html.j2", rulesets=index).encode()
    return files
