"""Pass 2, validate: documents -> diagnostics, and a checked ruleset for lowering.

`schema.py` checks each document against the JSON Schema of its kind (and table files against
the schema generated from their table's declaration, `table_schema.py`); `declarations.py`
checks a ruleset as a whole (declarations, `entries.py`, `procedures.py` through the step kinds,
`scopes.py` for name resolution, the analyses of `bounds.py` and `usage.py`).
"""

from __future__ import annotations

from .declarations import Checked, LoadedSource, check_ruleset
from .schema import validate_static

__all__ = ["Checked", "LoadedSource", "check_ruleset", "validate_static"]
