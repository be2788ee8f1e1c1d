"""rulec: compile tabletop combat rules written as YAML into Python resolvers and reference pages.

The passes live in their own modules and run in this order:

    load.py      files -> YAML documents with source spans
    validate.py  documents -> diagnostics (JSON Schema, then semantic checks)
    lower.py     validated documents -> frozen IR (ir.py)
    emit/        IR -> text (Python packages, Markdown and HTML reference pages)
    write.py     text -> files (deterministic, atomic, no-op when unchanged)

`build.compile_rules` chains them; `cli.py` is the thin click shell over it.
"""

from __future__ import annotations

__version__ = "0.1.0"
