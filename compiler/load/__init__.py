"""Pass 1, load: paths -> source folders (`sources.py`) -> YAML documents with spans (`documents.py`)."""

from __future__ import annotations

from .documents import MAX_FILE_BYTES, Document, JsonPath, load_bytes, load_file, load_text
from .sources import SourceFolder, discover, display_path

__all__ = ["Document", "JsonPath", "MAX_FILE_BYTES", "SourceFolder", "discover", "display_path", "load_bytes",
           "load_file", "load_text"]
