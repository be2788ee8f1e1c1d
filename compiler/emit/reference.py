"""Emit the reference pages: IR -> Markdown and standalone HTML rulebooks, plus an index.

`reference/<ruleset>.md` reads well on a code-hosting site (tables, explicit
anchors derived from ids); `reference/<ruleset>.html` is one self-contained
file (inline CSS and SVG, no scripts, no external requests) that prints cleanly
and fits a phone. Both come from one view model (`reference_view.py`).
"""

from __future__ import annotations

import re
from operator import attrgetter
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from ..ir import Entry, Ruleset, Table, entry_id
from ..memo import Place, Stored, current
from ..record import MutableRecord, encoded
from .env import Markdown, md_escape, render_bytes
from .reference_rows import html_row, md_note, md_row, odds_html_rows, odds_md_rows
from .quick_sheet import add_to_view
from .reference_view import Cells, entry_view, ruleset_view
from .skeleton import pages

__all__ = ["Pages", "emit_reference", "md_escape"]


_PART = 256  # entries whose rows a build with nothing to remember them by writes at a time
_LEAN = 20_000  # entries of a table past which such a build writes its rows as each page is rendered


class _PageEntry(dict):  # type: ignore[type-arg]
    """A table entry of a page's view whose rows are written when the template reads them:
    `md_row` and `html_row` each once, on their page, and let go as the page is encoded, so that
    a build with nothing to remember rows by never holds every row of a table past `_LEAN`
    entries (issue 20: 100,000 weapons). The entry's view is made for each page (`md_note`, read
    twice by the Markdown page, is kept)."""

    __slots__ = ()

    def _view(self) -> dict[str, Any]:
        return entry_view(self["entry"], self["table"], self["names"], self["cells"])

    def __missing__(self, key: str) -> Any:
        if key == "md_row":
            v = self._view()
            self["md_note"] = md_note(v)
            return md_row(v)
        if key == "md_note":
            value = self["md_note"] = md_note(self._view())
            return value
        if key == "html_row":
            return Markup(html_row(self._view()))
        raise KeyError(key)


def _lazy_rows(view: dict[str, Any]) -> None:
    """Give each group of a ruleset view one entry that holds all of its rows (`GroupRows`), made by
    runs of entries through the build's memo; with nothing to remember them by (the cache off,
    `rulec build --check`), by parts of `_PART` entries. Either way each entry's view is made once,
    for the rows of both pages, which are filled into the pages' skeleton (skeleton.py). A table
    past `_LEAN` entries in such a build makes each of its entries a `_PageEntry` instead (its
    rows are never all held; the view is rendered whole: `view["lean"]`)."""
    memo = current()
    for table in view["tables"]:
        names, t, cells = table["names"], table["table"], table["cells"]
        if not memo.resident and memo.store is None and len(t.entries) > _LEAN:
            view["lean"] = True
            for group in table["groups"]:
                group["entries"] = [_PageEntry(entry=e, table=t, names=names, cells=cells) for e in group["entries"]]
            continue
        if not memo.resident and memo.store is None:
            for group in table["groups"]:
                entries = group["entries"]
                group["entries"] = [GroupRows([_rows_of(entries[i:i + _PART], t, names, cells)
                                               for i in range(0, len(entries), _PART)])]
            continue
        shown = {f.table or "" for f in t.fields if f.type == "ref"}
        context = memo.intern(("rows", view["id"], t.id),
                              (t.id, t.fields, tuple((tid, names.get(tid)) for tid in sorted(shown))))
        md, html = page_files(view["id"])
        # an entry by all its fields; an unchanged run's rows from the pages the build replaces
        stored = Stored(repr(context), encoded, _rows_json, _rows_read, Place(f"page-rows {view['id']}", (md, md, html)))

        def make(run: Sequence[Entry], t: Table = t, names: dict[str, dict[str, str]] = names,
                 cells: Cells = cells) -> tuple[bytes, bytes, bytes]:
            return _rows_of(run, t, names, cells)

        for group in table["groups"]:
            group["entries"] = [GroupRows(memo.each_run("page-rows", group["entries"], make, entry_id, (context,),
                                                        stored=stored))]


class GroupRows:
    """A group's rows, as one entry of a resident build's page view: `md_row`, `md_note` and
    `html_row` are the group's rows joined by line breaks, as the templates' loops over the
    entries print them (the notes without the empty ones). They are kept per part of a run of
    entries (`table_view`), as text and as UTF-8: skeleton.py fills a page from the bytes, without
    joining the text."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[tuple[bytes, bytes, bytes]]) -> None:
        self.parts = parts  # per part: Markdown rows, notes, HTML rows

    def lines(self, which: int) -> list[bytes]:
        """The rows of one kind (0 Markdown rows, 1 notes, 2 HTML rows), with the line breaks."""
        out: list[bytes] = []
        for part in self.parts:
            if part[which]:
                if out:
                    out.append(b"\n")
                out.append(part[which])
        return out

    @property
    def md_row(self) -> Markdown:
        return Markdown(b"".join(self.lines(0)).decode("utf-8"))

    @property
    def md_note(self) -> Markdown:
        return Markdown(b"".join(self.lines(1)).decode("utf-8"))

    @property
    def html_row(self) -> Markup:
        return Markup(b"".join(self.lines(2)).decode("utf-8"))


def _rows_of(run: Sequence[Entry], t: Table, names: dict[str, dict[str, str]], cells: Cells
             ) -> tuple[bytes, bytes, bytes]:
    """The Markdown rows, notes and HTML rows of a run of entries, as UTF-8."""
    md, notes, html = [], [], []
    for e in run:
        v = entry_view(e, t, names, cells)
        md.append(md_row(v))
        note = md_note(v)
        if note:
            notes.append(note)
        html.append(html_row(v))
    return "\n".join(md).encode(), "\n".join(notes).encode(), "\n".join(html).encode()


def _rows_json(part: tuple[bytes, bytes, bytes]) -> list[str]:
    """A run's rows as the disk keeps them (page text, no code: the packages' modules are never
    read back)."""
    return [x.decode() for x in part]


def _rows_read(found: Any) -> tuple[bytes, bytes, bytes] | None:
    """A run's rows read back from disk, used only when they hold no markup but the rows' own."""
    if isinstance(found, list) and len(found) == 3 and all(isinstance(x, str) and _markup_safe(x) for x in found):
        return found[0].encode(), found[1].encode(), found[2].encode()
    return None


_span = attrgetter("span")


# The only markup the rows are written with (reference_rows.py: every value escaped, an anchor or
# a link made of an id): rows are text without `<` or `>` and these tags (one pass, possessive).
_ROW_TAG = r'<(?:/?(?:tr|td|strong|span|a)|br)(?: (?:id|class)="[^"<>&]*"| href="#[^"<>&]*")?>'
_ROWS = re.compile(rf"(?:[^<>]++|</?td>|{_ROW_TAG})*+")  # a cell's tags first: most of them (20% faster)


def _markup_safe(rows: str) -> bool:
    """Whether rows read back from the memo hold no markup but the rows' own: then, whoever
    wrote them, they can only show wrong text, never run a script or load anything."""
    return _ROWS.fullmatch(rows) is not None


def _odds_rows(view: dict[str, Any]) -> None:
    """Give each group of the balancing tables its rows, written in Python (reference_rows.py):
    hundreds of rows of eight cells, kept by a resident build while the odds stay the same."""
    sections = []
    for o in view["odds"]:
        groups = []
        for i, g in enumerate(o["groups"]):
            rows = current().intern(("odds-rows", view["id"], o["anchor"], i), g["rows"])
            found = current().get("odds-rows", rows)
            if found is None:
                found = current().put("odds-rows", (rows,), {
                    "md_rows": odds_md_rows(rows), "md_until_rows": odds_md_rows(rows, until=True),
                    "html_rows": Markup(odds_html_rows(rows)), "html_until_rows": Markup(odds_html_rows(rows, until=True))})
            groups.append({**g, **found})
        sections.append({**o, "groups": groups})
    view["odds"] = sections


def _where_ranges(view: dict[str, Any]) -> None:
    """Give each group of entries the lines of the rule files it is written in ("where"): the
    pages keep the source locations out of the tables' columns. Each run of entries' first and last
    line in each file is kept by a resident build (`_where_run`), so that an edit reads the spans of
    the run it changed, not of every entry."""
    memo = current()
    for table in view["tables"]:
        for group in table["groups"]:
            lines: dict[str, tuple[int, int]] = {}
            for run in memo.each_run("where", group["entries"], _where_run, entry_id):
                for file, (low, high) in run.items():
                    at = lines.get(file)
                    lines[file] = (low, high) if at is None else (min(at[0], low), max(at[1], high))
            group["where"] = "；".join(f"{file} 第 {low}–{high} 行" if low != high else f"{file} 第 {low} 行"
                                      for file, (low, high) in sorted(lines.items()))


def _where_run(run: Sequence[Entry]) -> dict[str, tuple[int, int]]:
    """The first and last line of a run of entries in each file they are written in."""
    out: dict[str, tuple[int, int]] = {}
    for span in map(_span, run):
        at = out.get(span.file)
        line = span.line
        out[span.file] = (line, line) if at is None else (at[0] if at[0] < line else line, at[1] if at[1] > line else line)
    return out


class Pages(MutableRecord):
    """The reference pages of a build: every file, which of them are each ruleset's own (its
    pages and charts), and each ruleset's line of the index (`index_line`)."""

    files: dict[str, bytes]
    by_ruleset: dict[str, list[str]]
    index: dict[str, dict[str, Any]]


def index_line(view: dict[str, Any]) -> dict[str, Any]:
    """A ruleset's line of the pages' index: plain data (a build that reuses the ruleset's pages
    from the output folder has it from the cache: build/reuse.py)."""
    return {"id": view["id"], "name": view["name"], "version": view["version"], "source_file": view["source_file"],
            "procedures": len(view["procedures"]), "tables": [(t["name"], t["count"]) for t in view["tables"]],
            "rules": len(view["rules"])}


def page_files(rid: str) -> tuple[str, str]:
    """The Markdown and HTML pages of a ruleset, in the output folder."""
    return f"reference/{rid}.md", f"reference/{rid}.html"


def emit_reference(rulesets: list[Ruleset], digests: dict[str, str], odds: dict[str, list[dict[str, Any]]],
                   reused: Mapping[str, dict[str, Any]] | None = None) -> Pages:
    """The pages of `rulesets` and the index of those and of the `reused` ones (whose own pages
    the build took from the output folder: their index lines, by id)."""
    files: dict[str, bytes] = {}
    by_ruleset: dict[str, list[str]] = {}
    views = [ruleset_view(rs, digests[rs.id], odds.get(rs.id, [])) for rs in rulesets]
    for rs, view in zip(rulesets, views):
        _where_ranges(view)
        _lazy_rows(view)
        _odds_rows(view)
        add_to_view(view, rs)
    for view in views:
        own = by_ruleset[view["id"]] = []
        for section in view["odds"]:
            for group in section["groups"]:
                own.append(f"reference/{group['chart_file']}")
                files[own[-1]] = group["svg"].encode()
                if "until_svg" in group:
                    own.append(f"reference/{group['until_chart_file']}")
                    files[own[-1]] = group["until_svg"].encode()
    for view in views:
        made = None if view.get("lean") else pages(view)  # the skeleton filled with the rows (kept by a resident build)
        if made is None:
            made = (render_bytes("markdown", "reference.md.j2", rs=view), render_bytes("html", "reference.html.j2", rs=view))
        md, html = page_files(view["id"])
        files[md], files[html] = made
        by_ruleset[view["id"]] += [md, html]
    lines = {view["id"]: index_line(view) for view in views}
    index = [line for _, line in sorted({**(reused or {}), **lines}.items())]
    files["reference/index.md"] = render_bytes("markdown", "reference_index.md.j2", rulesets=index)
    files["reference/index.html"] = render_bytes("html", "reference_index.html.j2", rulesets=index)
    return Pages(files, by_ruleset, lines)
