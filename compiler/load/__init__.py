"""Pass 1, load: paths -> source folders (`sources.py`) -> YAML documents with spans (`documents.py`).
A file is read through `reading.read_bounded` (a regular file, its size limit held on the bytes read).

The names are imported on first use, so that `rulec resolve` on an up-to-date build, which reads
its scenario with `plain_yaml.py`, never imports PyYAML for a scenario in the plain subset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .documents import MAX_FILE_BYTES, Document, JsonPath, load_bytes, load_file, load_text
    from .reading import ReadRefused, read_bounded
    from .sources import SourceFolder, discover, display_path

__all__ = ["Document", "JsonPath", "MAX_FILE_BYTES", "ReadRefused", "SourceFolder", "discover", "display_path",
           "load_bytes", "load_file", "load_text", "read_bounded"]

_WHERE = {"MAX_FILE_BYTES": "documents", "Document": "documents", "JsonPath": "documents",
          "load_bytes": "documents", "load_file": "documents", "load_text": "documents",
          "SourceFolder": "sources", "discover": "sources", "display_path": "sources",
          "ReadRefused": "reading", "read_bounded": "reading"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value
