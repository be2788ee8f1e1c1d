"""Where the static schemas live (a module of its own: the build stamp and freshness read it without
the validator)."""

from __future__ import annotations

import os
from pathlib import Path


def schema_dir() -> Path:
    """RULEC_SCHEMA_DIR, else the repository's schema/ (a checkout or an editable install), else the
    copy installed inside the package (rulec/_schema)."""
    env = os.environ.get("RULEC_SCHEMA_DIR")
    if env:
        return Path(env)
    package = Path(__file__).resolve().parent.parent
    checkout = package.parent / "schema"
    return checkout if (checkout / "common.schema.json").is_file() else package / "_schema"
