"""The quick sheet a ruleset's reference page opens with (manifest `reference.quick`): the attack
in a few plain sentences and the compact tables a table needs in play, checked against the tables
and fields they name. Its result rides on the IR's `Ruleset.quick` for the pages only
(compiler/emit/quick_sheet.py); no generated code reads it.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import did_you_mean
from ..ir import Table
from ..load import Document
from ..messages import say
from .context import Reporter

MAX_QUICK_ROWS = 80  # the default rows a quick table shows (the full table follows on the page)


def check_quick(m: Document, tables: tuple[Table, ...], rep: Reporter) -> dict[str, Any]:
    """The manifest's quick sheet as plain values: the source's title, the attack paragraphs and,
    per compact table, (table id, title, shown field ids, most rows)."""
    reference = m.data.get("reference", {})
    quick = reference.get("quick", {})
    by_id = {t.id: t for t in tables}
    out_tables = []
    for i, q in enumerate(quick.get("tables", [])):
        path = ("reference", "quick", "tables", i)
        table = by_id.get(q["table"])
        if table is None:
            rep.error(m.span(path + ("table",)), "unknown-table", say("unknown-table.no-table", table=q["table"]),
                      did_you_mean(q["table"], by_id))
            continue
        fields = {f.id for f in table.fields}
        columns = []
        for j, c in enumerate(q.get("columns", [])):
            if c not in fields:
                rep.error(m.span(path + ("columns", j)), "unknown-field",
                          say("unknown-field.table-has-no-field", table=table.id, field=c),
                          did_you_mean(c, fields))
            else:
                columns.append(c)
        out_tables.append((table.id, q.get("title", table.name), tuple(columns), q.get("max_rows", MAX_QUICK_ROWS)))
    text = quick.get("attack", "")
    return {"source_title": m.data.get("source", {}).get("title", ""),
            "attack": tuple(line.strip() for line in text.splitlines() if line.strip()),
            "tables": tuple(out_tables)}
