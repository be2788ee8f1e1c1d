"""Pass 2, validate: documents -> diagnostics, and a checked ruleset for lowering.

`schema.py` checks each document against the JSON Schema of its kind (and table files against
the schema generated from their table's declaration, `table_schema.py`); `declarations.py`
checks a ruleset as a whole (declarations, `entries.py`, `procedures.py` through the step kinds,
`scopes.py` for name resolution, the analyses of `bounds.py` and `usage.py`).

The names below are imported on first use, so that a command that only checks a scenario file
(`rulec resolve` with an up-to-date build) does not load the whole validator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .declarations import Checked, LoadedSource, check_ruleset
    from .schema import validate_static

__all__ = ["Checked", "LoadedSource", "check_ruleset", "validate_static"]


def __getattr__(name: str) -> Any:
    if name in ("Checked", "LoadedSource", "check_ruleset"):
        from . import declarations

        return getattr(declarations, name)
    if name == "validate_static":
        from .schema import validate_static

        return validate_static
    raise AttributeError(name)
