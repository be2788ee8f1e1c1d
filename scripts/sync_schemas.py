"""Rewrite the parts of schema/*.json that come from the step kinds and dice engines (see
compiler/validate/schema_sync.py). Run it after adding or changing a step kind or an engine."""

from __future__ import annotations

import sys
from pathlib import Path

from rulec.validate.schema_sync import stale

SCHEMA = Path(__file__).resolve().parent.parent / "schema"

if __name__ == "__main__":
    changed = stale(SCHEMA)
    for name, text in changed.items():
        (SCHEMA / name).write_text(text, encoding="utf-8")
        print(f"rewrote schema/{name}")
    if not changed:
        print("schema/ is in sync with the step kinds and dice engines")
    sys.exit(0)
