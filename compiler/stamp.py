"""The build stamp: lets an unchanged rebuild skip all work, safely.

`generated/.rulec-stamp.json` records a digest of every input (the rule files,
by path relative to their folder, and rulec's own sources and templates) and a
digest of every output file. A later `rulec build` with the same inputs first
re-hashes the output folder; only if it still matches the stamp (nobody edited
or deleted a generated file) does it skip compiling. `rulec build --check`
never trusts the stamp: it always compiles afresh and compares.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from .freshness import untracked
from .load.sources import SourceFolder, discover

STAMP = ".rulec-stamp.json"  # the stamp's file name in an output folder (write.py imports it)
_COMPILER = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def compiler_digest() -> str:
    h = hashlib.sha256()
    for path in sorted(_COMPILER.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".j2", ".js") and "__pycache__" not in path.parts:
            h.update(path.relative_to(_COMPILER).as_posix().encode() + b"\n")
            h.update(path.read_bytes())
    from .schema_dir import schema_dir

    schema = schema_dir()
    for path in sorted(schema.glob("*.json")):
        h.update(path.name.encode() + b"\n" + path.read_bytes())
    return h.hexdigest()


def input_digest(paths: list[Path], targets: tuple[str, ...] = ("python", "js")) -> str | None:
    """A digest of everything a build reads (and the targets it writes), or None when the sources
    cannot be listed cleanly."""
    folders, diags = discover(paths)
    if diags:
        return None
    h = hashlib.sha256(compiler_digest().encode())
    if tuple(targets) != ("python", "js"):
        h.update(("targets:" + ",".join(targets)).encode())
    for folder in sorted(folders, key=lambda f: str(f.root)):
        h.update(_folder_digest(folder).encode())
    return h.hexdigest()


class FolderDigest:
    """The digest of a source folder's files (path relative to the folder, size, bytes, in order);
    the build's content hash (in every generated header) and the stamp both use it."""

    def __init__(self, folder: SourceFolder) -> None:
        self.root = folder.root
        self._h = hashlib.sha256(folder.root.name.encode())

    def add(self, path: Path, data: bytes) -> None:
        self._h.update(f"{path.relative_to(self.root).as_posix()}\n{len(data)}\n".encode())
        self._h.update(data)

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def _folder_digest(folder: SourceFolder) -> str:
    digest = FolderDigest(folder)
    for path in folder.files:
        digest.add(path, path.read_bytes())
    return digest.hexdigest()


def output_digest(files: dict[str, bytes]) -> str:
    h = hashlib.sha256()
    for rel in sorted(files):
        if rel == STAMP or untracked(rel):
            continue
        h.update(f"{rel}\n{len(files[rel])}\n".encode())
        h.update(files[rel])
    return h.hexdigest()


def stamp_bytes(inputs: str, files: dict[str, bytes]) -> bytes:
    return (json.dumps({"inputs": inputs, "outputs": output_digest(files)}, indent=2) + "\n").encode()


def is_fresh(out: Path, inputs: str | None) -> bool:
    """True when `out` was built from exactly these inputs and nobody has touched it since."""
    if inputs is None:
        return False
    try:
        stamp = json.loads((out / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if stamp.get("inputs") != inputs:
        return False
    on_disk = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.name != STAMP
               and not untracked(p.relative_to(out).as_posix())}
    return output_digest(on_disk) == stamp.get("outputs")
