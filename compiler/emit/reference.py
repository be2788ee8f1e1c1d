"""Emit the reference pages: IR -> Markdown and standalone HTML rulebooks, plus an index.

`reference/<ruleset>.md` reads well on a code-hosting site (tables, explicit
anchors derived from ids); `reference/<ruleset>.html` is one self-contained
file (inline CSS and SVG, no scripts, no external requests) that prints cleanly
and fits a phone. Both come from one view model (`reference_view.py`).
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..memo import NO_MEMO, Memo
from ..ir import Ruleset
from .env import Markdown, html_environment, markdown_environment, md_escape, render_html, render_markdown
from .reference_view import entry_view, ruleset_view

__all__ = ["emit_reference", "md_escape"]

class _RowCache:
    """Rendered table rows by the content of their view: a big table re-renders only changed rows.

    One cache entry per ruleset in the rulec cache folder (see compiler/cache.py); it keeps only the
    rows used by the latest build, so it never grows past the table.
    """

    def __init__(self, name: str, memo: Memo) -> None:
        self.memo = memo
        self.name = memo.key("rows", name)
        saved = memo.get(self.name)
        self.data: dict[str, tuple[str, str, str]] = {
            k: (v[0], v[1], v[2]) for k, v in saved.items()
            if isinstance(v, list) and len(v) == 3 and all(isinstance(x, str) for x in v)
        } if isinstance(saved, dict) else {}
        self.used: dict[str, tuple[str, str, str]] = {}

    def rows(self, entry: dict[str, Any], names: dict[str, dict[str, str]]) -> tuple[str, str, str]:
        found = self.data.get(entry["key"])
        if found is None:
            md, html = _row_macros()
            view = entry_view(entry["entry"], entry["table"], names)
            found = (str(md.row(view)), str(md.note(view)), str(html.row(view)))
        self.used[entry["key"]] = found
        return found

    def save(self) -> None:
        if self.used.keys() != self.data.keys():
            self.memo.put(self.name, self.used)


def _row_macros() -> tuple[Any, Any]:
    return (markdown_environment().get_template("reference_rows.md.j2").module,
            html_environment().get_template("reference_rows.html.j2").module)


def _render_rows(view: dict[str, Any], memo: Memo) -> None:
    """Fill md_row, md_note and html_row of every table entry of a ruleset view."""
    rows = _RowCache(view["id"], memo)
    for table in view["tables"]:
        for group in table["groups"]:
            for entry in group["entries"]:
                md_row, md_note, html_row = rows.rows(entry, table["names"])
                entry["md_row"], entry["md_note"], entry["html_row"] = Markdown(md_row), Markdown(md_note), Markup(html_row)
    rows.save()


def emit_reference(rulesets: list[Ruleset], digests: dict[str, str],
                   odds: dict[str, list[dict[str, Any]]], memo: Memo = NO_MEMO) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    views = [ruleset_view(rs, digests[rs.id], odds.get(rs.id, [])) for rs in rulesets]
    for view in views:
        _render_rows(view, memo)
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
