"""The build stamp: lets an unchanged rebuild skip all work, safely.

`generated/.rulec-stamp.json` records a digest of every input (the rule files,
by path relative to their folder, and rulec's own sources and templates) and a
digest of every output file. A later `rulec build` with the same inputs first
re-hashes the output folder; only if it still matches the stamp (nobody edited
or deleted a generated file) does it skip compiling. `rulec build --check`
never trusts the stamp: it always compiles afresh and compares.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .freshness import untracked
from ..messages import say
from ..jsontext import indented

if TYPE_CHECKING:  # imported where used: `rulec resolve` reads a stamp's packs without the loader
    import hashlib

    from ..load.sources import SourceFolder

STAMP = ".rulec-stamp.json"  # the stamp's file name in an output folder (write.py imports it)
_COMPILER = Path(__file__).resolve().parent.parent


def _sha256(data: bytes = b"") -> "hashlib._Hash":
    """A SHA-256 hash; hashlib (OpenSSL, 10 ms) is imported on the first one: `rulec resolve` on
    an up-to-date build hashes nothing."""
    import hashlib

    return hashlib.sha256(data)


@lru_cache(maxsize=1)
def compiler_digest() -> str:
    """rulec's own sources, templates and scripts (by path under `compiler/`, in the order of their
    path's parts) and its schemas: the part of every input digest that says which rulec built it.
    Walked with `os.walk` past the bytecode folders (a `Path.rglob` and a `stat` a file took 20 ms
    of every build process; this 5)."""
    import os

    found: list[tuple[list[str], str]] = []
    for folder, subfolders, files in os.walk(_COMPILER):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        under = Path(folder).relative_to(_COMPILER).parts
        found.extend(([*under, name], os.path.join(folder, name)) for name in files
                     if name.endswith((".py", ".j2", ".js")) and os.path.isfile(os.path.join(folder, name)))
    h = _sha256()
    for parts, where in sorted(found):
        h.update("/".join(parts).encode() + b"\n")
        with open(where, "rb") as source:
            h.update(source.read())
    from ..validate.schema_dir import schema_dir

    schema = schema_dir()
    for path in sorted(schema.glob("*.json")):
        h.update(path.name.encode() + b"\n" + path.read_bytes())
    return h.hexdigest()


def input_digest(paths: list[Path], targets: tuple[str, ...] = ("python", "js")) -> str | None:
    """A digest of everything a build reads (and the targets it writes), or None when the sources
    cannot be listed cleanly."""
    from ..load.reading import ReadRefused
    from ..load.sources import discover

    folders, diags = discover(paths)
    if diags:
        return None
    try:
        return combined_digest([(folder.name, _folder_digest(folder)) for folder in folders], targets)
    except ReadRefused:  # a file the build would refuse too (not regular, too large, unreadable)
        return None


def combined_digest(folders: list[tuple[str, str]], targets: tuple[str, ...] = ("python", "js")) -> str:
    """The input digest of a build from its source folders' (name, FolderDigest) pairs: what
    `input_digest` computes by reading the files, and the facade from the very bytes it loaded
    (`Build.inputs`, which is what a stamp records). The names, not the places on disk, order it."""
    h = _sha256(compiler_digest().encode())
    if tuple(targets) != ("python", "js"):
        h.update(("targets:" + ",".join(targets)).encode())
    for _name, digest in sorted(folders):
        h.update(digest.encode())
    return h.hexdigest()


class FolderDigest:
    """The digest of a source folder's files (path relative to the folder, size, bytes, in order);
    the build's content hash (in each package's `__init__.py` and package.json) and the stamp both use it."""

    def __init__(self, folder: SourceFolder) -> None:
        self.root = folder.root
        self._h = _sha256((folder.name or folder.root.name).encode())  # outputs name files by it

    def add(self, path: Path, data: bytes) -> None:
        self._h.update(f"{path.relative_to(self.root).as_posix()}\n{len(data)}\n".encode())
        self._h.update(data)

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def _folder_digest(folder: SourceFolder) -> str:
    from ..load.reading import MAX_RULE_FILE_BYTES, read_bounded

    digest = FolderDigest(folder)
    for path in folder.files:
        digest.add(path, read_bounded(path, MAX_RULE_FILE_BYTES))  # ReadRefused: see input_digest
    return digest.hexdigest()


def output_digest(files: dict[str, bytes], known: Mapping[str, str] | None = None) -> str:
    """The digest of an output tree: of each file's path, size and SHA-256, in path order. `known`:
    the SHA-256 of some of those files, made already from the very same bytes (what a build
    recorded of its outputs, `Build.file_digests`)."""
    h = _sha256()
    known = known or {}
    for rel in sorted(files):
        if rel == STAMP or untracked(rel):
            continue
        data = files[rel]
        digest = known.get(rel) or _sha256(data).hexdigest()
        h.update(f"{rel}\n{len(data)}\n{digest}\n".encode())
    return h.hexdigest()


def stamp_bytes(inputs: str, files: dict[str, bytes], packs: list[str] | tuple[str, ...] = (),
                known: Mapping[str, str] | None = None) -> bytes:
    """The stamp of a build: its input digest (the facade's `Build.inputs`, taken from the bytes it
    compiled), the digest of its outputs (`known`: see `output_digest`) and, for a build with
    homebrew packs, their ids (so that `rulec resolve` never takes it for, or rebuilds it as, a
    build of the bundled rules)."""
    record: dict[str, object] = {"inputs": inputs, "outputs": output_digest(files, known)}
    if packs:
        record["packs"] = sorted(packs)
    return (indented(record) + "\n").encode()


def stamp_packs(out: Path) -> list[str] | None:
    """The ids of the packs the build in `out` was made with ([] for none); None when `out` holds
    no readable stamp."""
    try:
        stamp = json.loads((out / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stamp, dict):
        return None
    packs = stamp.get("packs", [])
    return [str(p) for p in packs] if isinstance(packs, list) else None


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


def pack_build(out: Path) -> str | None:
    """When `out` holds a build made with homebrew packs, the line `rulec resolve` and `rulec odds`
    say about it (they never rebuild it without the packs, nor take it for the bundled rules'
    build); None for a build of the bundled rules, or no build."""
    packs = stamp_packs(out)
    if not packs:
        return None
    return say("stamp.holds-build-with-packs", out=out, packs=', '.join(packs))
