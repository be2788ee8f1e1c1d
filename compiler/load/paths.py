"""How a file is named in diagnostics (a module of its own: `rulec resolve` names its scenario
file without importing the loader)."""

from __future__ import annotations

import os
from pathlib import Path


def display_path(path: Path) -> str:
    """Relative to the working folder when inside it, else absolute (never a chain of ../ an
    editor cannot follow from another folder)."""
    if not path.is_absolute():
        return str(path)
    try:
        rel = os.path.relpath(path, Path.cwd())
    except ValueError:  # pragma: no cover - other drive on Windows
        return str(path)
    return str(path) if rel == ".." or rel.startswith(".." + os.sep) else rel
