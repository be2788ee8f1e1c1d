"""Emit the reference pages: IR -> Markdown and standalone HTML rulebooks, plus an index.

`reference/<ruleset>.md` reads well on a code-hosting site (tables, explicit
anchors derived from ids); `reference/<ruleset>.html` is one self-contained
file (inline CSS and SVG, no scripts, no external requests) that prints cleanly
and fits a phone. Both come from one view model (`reference_view.py`).
"""

from __future__ import annotations

import re
from typing import Any

from compiler.emit.env import render, render_html
from compiler.emit.reference_view import ruleset_view
from compiler.ir import Ruleset

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~{}])")


def md_escape(text: object) -> str:
    """Text from YAML as literal Markdown: specials escaped, line breaks kept inside table cells."""
    s = str(text).replace("&", "&amp;")
    s = _MD_SPECIAL.sub(lambda m: "&lt;" if m.group(1) == "<" else "&gt;" if m.group(1) == ">"
                        else "\\" + m.group(1), s)
    return s.replace("\r\n", "\n").replace("\n", "<br>")


def emit_reference(rulesets: list[Ruleset], digests: dict[str, str],
                   odds: dict[str, list[dict[str, Any]]]) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    views = [ruleset_view(rs, digests[rs.id], odds.get(rs.id, [])) for rs in rulesets]
    for view in views:
        for section in view["odds"]:
            for group in section["groups"]:
                files[f"reference/{group['chart_file']}"] = group["svg"].encode()
    for view in views:
        files[f"reference/{view['id']}.md"] = render("reference.md.j2", rs=view, esc=md_escape).encode()
        files[f"reference/{view['id']}.html"] = render_html("reference.html.j2", rs=view).encode()
    index = [{"id": v["id"], "name": v["name"], "version": v["version"], "source_file": v["source_file"],
              "procedures": len(v["procedures"]), "tables": [(t["name"], t["count"]) for t in v["tables"]],
              "rules": len(v["rules"])} for v in views]
    files["reference/index.md"] = render("reference_index.md.j2", rulesets=index, esc=md_escape).encode()
    files["reference/index.html"] = render_html("reference_index.html.j2", rulesets=index).encode()
    return files
