"""rulec: compile tabletop combat rules written as YAML into Python resolvers and reference pages.

The passes are packages, run in this order:

    load/        files -> YAML documents with source spans
    validate/    documents -> diagnostics (JSON Schema, then semantic checks)
    lower.py     validated documents -> frozen IR (ir/)
    optimise/    IR -> IR (folding, hoisting, specialisation, plans)
    emit/        IR -> text (Python packages, JavaScript, Markdown and HTML reference pages)

`build/` runs them (`build/facade.py:compile_rules`), memoises them (memo, keep, cache), stamps and
writes the output (stamp, freshness, write); `cli/` is the click shell over it (`cli/main.py`
builds, `cli/play.py` resolves scenarios); `runtime/` is copied into every generated package.
"""

from __future__ import annotations

__version__ = "0.1.0"
