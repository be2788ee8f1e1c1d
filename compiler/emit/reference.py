"""Emit the reference pages: IR -> Markdown and standalone HTML rulebooks, plus an index.

`reference/<ruleset>.md` reads well on a code-hosting site (tables, explicit
anchors derived from ids); `reference/<ruleset>.html` is one self-contained
file (inline CSS and SVG, no scripts, no external requests) that prints cleanly
and fits a phone. Both come from one view model (`reference_view.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from ..ir import Ruleset
from ..keep import NO_KEEP, Keep
from .env import md_escape, render_bytes
from .reference_rows import html_row, md_note, md_row
from .reference_view import entry_view, ruleset_view

__all__ = ["emit_reference", "md_escape"]


class _PageEntry(dict):  # type: ignore[type-arg]
    """A table entry of a page's view whose rows are written when the template reads them:
    `md_row` and `html_row` each once, on their page, and let go as the page is encoded, so a
    100,000-weapon build never holds every row of both pages at once (issue 20). The entry's
    view is made for each page (`md_note`, read twice by the Markdown page, is kept). A resident
    build keeps the rows of an entry between builds, by the entry and its table's context
    (`ctx`: the table's id and fields and the names its ref columns show)."""

    __slots__ = ()

    def _view(self) -> dict[str, Any]:
        return entry_view(self["entry"], self["table"], self["names"])

    def _kept(self, kind: str, make: Callable[[], Any]) -> Any:
        keep: Keep = self["keep"]
        if not keep.remembers:
            return make()
        found = keep.get(kind, self["entry"], self["ctx"])
        return found if found is not None else keep.put(kind, (self["entry"], self["ctx"]), make())

    def __missing__(self, key: str) -> Any:
        if key == "md_row":
            return self._kept("md_row", lambda: md_row(self._view()))
        if key == "md_note":
            value = self["md_note"] = self._kept("md_note", lambda: md_note(self._view()))
            return value
        if key == "html_row":
            return self._kept("html_row", lambda: Markup(html_row(self._view())))
        raise KeyError(key)


def _lazy_rows(view: dict[str, Any], keep: Keep) -> None:
    """Make every table entry of a ruleset view a `_PageEntry`."""
    for table in view["tables"]:
        names = table["names"]
        t = table["groups"][0]["entries"][0]["table"] if table["groups"] and table["groups"][0]["entries"] else None
        ctx = None
        if t is not None and keep.remembers:
            shown = {f.table or "" for f in t.fields if f.type == "ref"}
            ctx = keep.intern(("rows", view["id"], t.id),
                              (t.id, t.fields, tuple((tid, names.get(tid)) for tid in sorted(shown))))
        for group in table["groups"]:
            group["entries"] = [_PageEntry(entry, names=names, keep=keep, ctx=ctx) for entry in group["entries"]]


def emit_reference(rulesets: list[Ruleset], digests: dict[str, str],
                   odds: dict[str, list[dict[str, Any]]], keep: Keep = NO_KEEP) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    views = [ruleset_view(rs, digests[rs.id], odds.get(rs.id, [])) for rs in rulesets]
    for view in views:
        _lazy_rows(view, keep)
    for view in views:
        for section in view["odds"]:
            for group in section["groups"]:
                files[f"reference/{group['chart_file']}"] = group["svg"].encode()
                if "until_svg" in group:
                    files[f"reference/{group['until_chart_file']}"] = group["until_svg"].encode()
    for view in views:
        files[f"reference/{view['id']}.md"] = render_bytes("markdown", "reference.md.j2", rs=view)
        files[f"reference/{view['id']}.html"] = render_bytes("html", "reference.html.j2", rs=view)
    index = [{"id": v["id"], "name": v["name"], "version": v["version"], "source_file": v["source_file"],
              "procedures": len(v["procedures"]), "tables": [(t["name"], t["count"]) for t in v["tables"]],
              "rules": len(v["rules"])} for v in views]
    files["reference/index.md"] = render_bytes("markdown", "reference_index.md.j2", rulesets=index)
    files["reference/index.html"] = render_bytes("html", "reference_index.html.j2", rulesets=index)
    return files
