"""A resident build's reference pages: rendered once with holes where what changes goes, then filled.

After an edit of one weapon, a page's table rows and its content hash change, and the rest of
it — the procedures, rulings, stats, the rule index: most of what its template renders — does
not. `pages` swaps, in a ruleset's view, each group's rows, each table's number of entries, each
balancing table's rows and the content hash for tokens; the pages rendered from that skeleton are kept (the resident memo) while the
skeleton stays equal, cut at the tokens, and each build joins the pieces with this build's
texts. The rows are text the emitter has escaped already (they are printed as they are), and
the hash and the numbers are hex and digits, which neither format escapes. A token holds a nonce drawn for the session, and
a rendered skeleton is used only when each token is found in it once, so no text of the rules
can pass for one.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from ..memo import current
from .env import Markdown, render_html, render_markdown


class _Holes:
    def __init__(self, nonce: str) -> None:
        self.nonce = nonce
        self.fills: list[list[bytes]] = []  # what each hole is filled with, as UTF-8 pieces

    def __call__(self, fill: str | list[bytes]) -> Markdown:
        token = f"\ue000{self.nonce}.{len(self.fills)}\ue001"
        self.fills.append([fill.encode("utf-8")] if isinstance(fill, str) else fill)
        return Markdown(token)


def _skeleton(view: dict[str, Any], hole: _Holes) -> dict[str, Any]:
    tables = []
    for t in view["tables"]:
        groups = []
        for g in t["groups"]:
            (rows,) = g["entries"]  # a resident build's one entry of a group's rows (reference.GroupRows)
            notes = rows.lines(1)
            groups.append({"name": g["name"], "where": g.get("where", ""), "entries": [{
                "md_row": hole(rows.lines(0)), "md_note": hole(notes) if notes else "",
                "html_row": hole(rows.lines(2))}]})
        tables.append({k: v for k, v in t.items() if k not in ("names", "table", "groups", "cells")}
                      | {"groups": groups, "count": hole(str(t["count"]))})
    odds = []
    for o in view["odds"]:
        odds.append({**o, "groups": [
            {k: v for k, v in g.items() if k not in ("rows", "md_rows", "md_until_rows", "html_rows", "html_until_rows")}
            | {k: hole(g[k]) for k in ("md_rows", "md_until_rows", "html_rows", "html_until_rows")}
            for g in o["groups"]]})
    return {**view, "digest": hole(view["digest"]), "digest_short": hole(view["digest_short"]), "tables": tables,
            "odds": odds}


def _pieces(text: str, nonce: str, count: int) -> list[bytes | int] | None:
    """The rendered text cut at the tokens: literal text (as UTF-8), and the number of each hole."""
    out: list[bytes | int] = []
    seen: set[int] = set()
    start = 0
    for m in re.finditer(f"\ue000{re.escape(nonce)}\\.(\\d+)\ue001", text):
        n = int(m.group(1))
        if n in seen or n >= count:
            return None
        seen.add(n)
        out += [text[start:m.start()].encode("utf-8"), n]
        start = m.end()
    out.append(text[start:].encode("utf-8"))
    return out


def pages(view: dict[str, Any]) -> tuple[bytes, bytes] | None:
    """The Markdown and HTML pages of a ruleset's view (whose groups hold their rows as one entry),
    or None when they cannot be made this way (then the caller renders them whole)."""
    nonce = current().intern("page-nonce", current().latest("page-nonce") or secrets.token_hex(8))
    hole = _Holes(nonce)
    skeleton = current().intern(("page-skeleton", view["id"]), _skeleton(view, hole))
    found = current().get("page-pieces", skeleton)
    if found is None:
        md = _pieces(render_markdown("reference.md.j2", rs=skeleton), nonce, len(hole.fills))
        html = _pieces(render_html("reference.html.j2", rs=skeleton), nonce, len(hole.fills))
        if md is None or html is None:
            return None
        found = current().put("page-pieces", (skeleton,), (md, html))
    return _filled(found[0], hole.fills), _filled(found[1], hole.fills)


def _filled(pieces: list[bytes | int], fills: list[list[bytes]]) -> bytes:
    out: list[bytes] = []
    for p in pieces:
        if isinstance(p, bytes):
            out.append(p)
        else:
            out += fills[p]
    return b"".join(out)
