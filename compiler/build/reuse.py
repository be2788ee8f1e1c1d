"""A one-shot build reuses, from the output folder it will write, the outputs of a ruleset whose
inputs did not change since a build this account ran.

After a build, the facade records in the sealed cache (`cache.py`), under a name made from the
ruleset's id, the digest of everything it was compiled from (its folder and packs, by path and
bytes: `stamp.FolderDigest`; the cache's names are salted with rulec's own sources), the targets
and the Python and libraries that read, check and render it (`_engines`), the size and SHA-256 of every file that ruleset's outputs are, and its line of the
pages' index. A later build with the same inputs reads those files back from the output folder
and uses them instead of validating and emitting the ruleset again — only when every one is a
regular file whose bytes hash to what was recorded. So a reused file is, byte for byte, one
rulec wrote for exactly these inputs: the cache holds digests and a few names (no text that
becomes code), and the output folder is trusted as nothing (an edited, swapped or missing file
makes the whole ruleset be built again). The memo is given the folder (`PreviousOutputs`) only
when it has the cache and is one-shot: `rulec build --check` reads neither, and a session
(`--watch`) keeps its own memo.

The rulesets a build edits are compiled as before; the others are not even validated, which is
safe because a ruleset's diagnostics, like its outputs, are a function of its inputs, and only a
build without any diagnostic records anything.

Within a ruleset that is built again, the texts made from its shape alone (`emit/shape.py`: the
Python procedures and results modules, the JavaScript procedures; the fight modules, from the
shape with the entries of the tables they read) are taken the same way, one
text at a time: the facade records where each text landed (file, offset, length, SHA-256) under
the name of the shape's digest (and of the Python that wrote it), and
`PreviousOutputs.read` gives it back from the output folder when the bytes there still hash to it.

The rows of a big table are taken a run of entries at a time (`memo.Place`): the memo notes each
run of the pages' rows and of the JavaScript module's data rows by its name (the digest of its
entries and of what they are written with), and the facade records, for each ruleset and kind,
where each run's parts landed (`place`) and the size and SHA-256 of each file they landed in. The
next one-shot build reads those files once, and takes an unchanged run's parts from its place
only while every file hashes to the record (`PreviousOutputs.regions`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from ..load import ReadRefused, read_bounded
from ..load.reading import read_region
from ..memo import Mark, Memo
from .result import Build
from ..record import Record

SPACE = "ruleset-outputs"
MAX_FILES = 100_000  # a 100,000-weapon ruleset writes about 300 files
MAX_TEXT = 64 << 20  # a text made from a ruleset's shape
MAX_PAGE = 1 << 30  # a file a `place` record names (a 100,000-weapon ruleset's HTML page is about 65 MB)
_INDEX_FIELDS = {"id": str, "name": str, "version": str, "source_file": str, "procedures": int, "rules": int}


class Reused(Record, frozen=True):
    """A ruleset's outputs read back from the output folder (with the SHA-256 each was checked
    against), and its line of the pages' index."""

    files: dict[str, bytes]
    index: dict[str, Any]
    digests: dict[str, str]


def _name(memo: Memo, rid: str, digest: str, targets: tuple[str, ...]) -> str:
    return memo.key(SPACE, rid, digest, ",".join(targets), _engines())


@lru_cache(maxsize=1)
def _engines() -> str:
    """What besides rulec's own sources (which salt every name) writes a build's bytes or decides
    its diagnostics: the Python that runs it and the libraries that read and check the rules and
    render and escape the pages, each by its version where it says it, and by its file (path,
    size, time: an upgrade writes it again) where it does not (asking the installed distributions
    would cost more than a small rebuild)."""
    import os
    import platform

    import jinja2
    import markupsafe
    import yaml

    from ..validate.rs_import import load

    jsonschema_rs = load()

    said = [f"python {platform.python_version()}", f"libyaml {getattr(yaml, '__with_libyaml__', '?')}"]
    for module in (jinja2, yaml, markupsafe, jsonschema_rs):
        where = getattr(module, "__file__", None) or ""
        try:
            info = os.stat(where)
            said.append(f"{module.__name__} {where} {info.st_size} {info.st_mtime_ns}")
        except OSError:
            said.append(f"{module.__name__} {where}")
    return "; ".join(said)


def reused(memo: Memo, rid: str, digest: str, targets: tuple[str, ...]) -> Reused | None:
    """The outputs of ruleset `rid` built from inputs of this `digest`, when the output folder the
    memo was given (`PreviousOutputs`) still holds every one of them as recorded; else None (then
    it is built)."""
    previous = memo.previous
    if not isinstance(previous, PreviousOutputs) or memo.store is None:
        return None
    entry = memo.load(_name(memo, rid, digest, targets))
    recorded = _files(entry)
    index = _index(entry)
    if recorded is None or index is None or index["id"] != rid:
        return None
    files: dict[str, bytes] = {}
    for rel, (size, sha) in recorded.items():
        data = previous.file(rel, size, sha)
        if data is None:
            return None
        files[rel] = data
    return Reused(files, index, {rel: sha for rel, (_, sha) in recorded.items()})


def found(memo: Memo, digests: dict[str, str], targets: tuple[str, ...]) -> dict[str, Reused]:
    """The rulesets (by id, with the digests of their inputs) whose outputs the memo's output
    folder still holds."""
    out = {}
    for rid, digest in digests.items():
        kept = reused(memo, rid, digest, targets)
        if kept is not None:
            out[rid] = kept
    return out


def record(memo: Memo, build: Build, targets: tuple[str, ...], own: dict[str, list[str]],
           index: dict[str, dict[str, Any]], located: dict[str, dict[str, Any]],
           placed: dict[str, tuple[tuple[str, ...], list[tuple[str, tuple[Mark, ...]]]]]) -> None:
    """Remember what a build without diagnostics made (see the module): for each ruleset it built,
    its files (`own`: their paths) and its index line, under the digest of its inputs; where
    each text `Memo.text` gave landed (`locate`); and where the runs of each `Place` did
    (`place`)."""
    if memo.resident or memo.store is None:
        return
    digests = {rel: hashlib.sha256(build.files[rel]).hexdigest() for rels in own.values() for rel in rels}
    build.file_digests.update(digests)  # for the stamp
    for rid, rels in own.items():
        memo.save(_name(memo, rid, build.digests[rid], targets), {
            "files": {rel: [len(build.files[rel]), digests[rel]] for rel in rels},
            "index": index[rid],
        })
    for name, where in located.items():
        memo.save(name, where)
    for label, (files, runs) in placed.items():
        made = place(files, runs, build.files, digests)
        if made is not None:
            memo.save(memo.placed_name(label), made)


class PreviousOutputs:
    """The output folder a build will replace, as the memo's `Previous`: it reads back a text a
    record locates there (`locate` makes the records)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = str(folder.absolute())

    def file(self, rel: str, size: int, sha: str) -> bytes | None:
        """The bytes of a file of the folder a record names, when it is a regular file of exactly
        that size whose bytes hash to the record; else None (missing, not a regular file, grown
        past what was written, or changed)."""
        try:
            data = read_bounded(self.folder / rel, size)
        except ReadRefused:
            return None
        return data if len(data) == size and hashlib.sha256(data).hexdigest() == sha else None

    def read(self, where: Any) -> str | None:
        """The text at the recorded place, when the bytes there hash to the recorded digest."""
        if not isinstance(where, dict) or set(where) != {"file", "at", "length", "sha256"}:
            return None
        rel, at, length, sha = where["file"], where["at"], where["length"], where["sha256"]
        if (not _relative(rel) or type(at) is not int or type(length) is not int or not 0 <= at
                or not 0 < length <= MAX_TEXT or not isinstance(sha, str)):
            return None
        piece = read_region(self.folder / rel, at, length)
        if piece is None or hashlib.sha256(piece).hexdigest() != sha:
            return None
        try:
            return piece.decode("utf-8")
        except UnicodeDecodeError:  # pragma: no cover - the digest matched a text rulec wrote
            return None


    def regions(self, record: Any) -> Callable[[str], tuple[bytes, ...] | None] | None:
        """The runs a `place` record locates in this folder (see `Memo.placed`): a lookup of a run's
        parts by its name, when every file the record names is a regular file inside the folder
        whose bytes hash to the record; else None. A part is the bytes at its recorded offset and
        length in such a file: exactly what the build that recorded it wrote there."""
        files = _placed_files(record)
        if files is None:
            return None
        data: dict[str, bytes] = {}
        for rel, size, sha in files:
            if rel not in data:
                found = self.file(rel, size, sha)
                if found is None:
                    return None
                data[rel] = found
        texts = [data[rel] for rel, _, _ in files]
        runs = record["runs"]

        def lookup(name: str) -> tuple[bytes, ...] | None:
            where = runs.get(name)
            if not isinstance(where, list) or len(where) != len(texts):
                return None
            parts = []
            for text, at_length in zip(texts, where):
                if not isinstance(at_length, list) or len(at_length) != 2:
                    return None
                at, length = at_length
                if type(at) is not int or type(length) is not int or not 0 <= at <= at + length <= len(text):
                    return None
                parts.append(text[at:at + length])
            return tuple(parts)

        return lookup


def place(files: tuple[str, ...], runs: list[tuple[str, tuple[Mark, ...]]], out: dict[str, bytes],
          digests: dict[str, str] | None = None) -> dict[str, Any] | None:
    """The record of where each run's parts landed (part `i` in `out[files[i]]`), as
    `PreviousOutputs.regions` reads it: each part (known by its `Mark`) found where its bytes hash
    to the mark, looked for at or after where the part before it in that file was (the runs are
    written in order), else anywhere; a run with a part found nowhere is left out. None when a
    file is not among the outputs. `digests`: the SHA-256 of some files, made already."""
    if not runs or any(rel not in out or not _relative(rel) for rel in files):
        return None
    cursors = [0] * len(files)
    views = {rel: memoryview(out[rel]) for rel in set(files)}
    where: dict[str, list[list[int]]] = {}
    for name, marks in runs:
        found = []
        for i, part in enumerate(marks):
            at = _find(out[files[i]], views[files[i]], part, cursors[i])
            if at < 0:
                break
            found.append([at, part.length])
            cursors[i] = at + part.length
        else:
            where[name] = found
    known = digests or {}
    made = {rel: known.get(rel) or hashlib.sha256(out[rel]).hexdigest() for rel in set(files)}
    return {"files": [[rel, len(out[rel]), made[rel]] for rel in files], "runs": where}


def _find(text: bytes, view: memoryview, part: Mark, cursor: int, tries: int = 16) -> int:
    """Where in `text` the part of this mark is: right after the part before (`cursor`), or after
    the line break that follows it, most often; else at one of the first places its first bytes
    are, from the cursor, then from the start; -1 when not there."""

    def fits(at: int) -> bool:
        return (text.startswith(part.head, at) and at + part.length <= len(text)
                and hashlib.sha256(view[at:at + part.length]).digest() == part.digest)

    for at in (cursor, cursor + 1):
        if fits(at):
            return at
    for start in (cursor, 0):
        at = text.find(part.head, start)
        for _ in range(tries):
            if at < 0:
                break
            if fits(at):
                return at
            at = text.find(part.head, at + 1)
    return -1


def _placed_files(record: Any) -> list[tuple[str, int, str]] | None:
    """The files of a `place` record, each a relative path inside the output folder with its size
    and digest (the same file the same each time it is named); None for anything else."""
    if not isinstance(record, dict) or set(record) != {"files", "runs"} or not isinstance(record["runs"], dict):
        return None
    files = record["files"]
    if not isinstance(files, list) or not 0 < len(files) <= 16:
        return None
    out: list[tuple[str, int, str]] = []
    seen: dict[str, tuple[int, str]] = {}
    for item in files:
        if (not isinstance(item, list) or len(item) != 3 or not _relative(item[0]) or type(item[1]) is not int
                or not 0 <= item[1] <= MAX_PAGE or not isinstance(item[2], str) or len(item[2]) != 64):
            return None
        if seen.setdefault(item[0], (item[1], item[2])) != (item[1], item[2]):
            return None
        out.append((item[0], item[1], item[2]))
    return out


def locate(texts: dict[str, tuple[str, str | None]], files: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    """Where each text (by its memo name) lies in `files`, as `PreviousOutputs.read` takes it: in
    the file it was said to go to (the file whose path ends so), else the first source file (in
    order) holding it, with its offset; a text no such file holds is left out (the pages and data
    files, most of a big build's bytes, are searched only for a text said to go there)."""
    where: dict[str, dict[str, Any]] = {}
    sources = sorted(rel for rel in files if rel.endswith((".py", ".js")))
    for name, (text, file) in texts.items():
        data = text.encode("utf-8")
        for rel in [rel for rel in files if rel.endswith(f"/{file}")] if file else sources:
            at = files[rel].find(data)
            if at >= 0:
                where[name] = {"file": rel, "at": at, "length": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                break
    return where


def _relative(rel: Any) -> bool:
    """A path inside the output folder, as rulec writes them."""
    return (isinstance(rel, str) and bool(rel) and not PurePosixPath(rel).is_absolute() and "\\" not in rel
            and "\x00" not in rel and not any(part in ("", ".", "..") for part in rel.split("/")))


def _files(entry: Any) -> dict[str, tuple[int, str]] | None:
    """The recorded files, each a relative path inside the output folder; None for anything else."""
    if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict):
        return None
    files: dict[str, tuple[int, str]] = {}
    if not 0 < len(entry["files"]) <= MAX_FILES:
        return None
    for rel, value in entry["files"].items():
        if not _relative(rel):
            return None
        if (not isinstance(value, list) or len(value) != 2 or type(value[0]) is not int or value[0] < 0
                or not isinstance(value[1], str) or len(value[1]) != 64):
            return None
        files[rel] = (value[0], value[1])
    return files


def _index(entry: Any) -> dict[str, Any] | None:
    """The recorded index line, with the types the index pages show; None for anything else."""
    index = entry.get("index") if isinstance(entry, dict) else None
    if not isinstance(index, dict) or set(index) != {*_INDEX_FIELDS, "tables"}:
        return None
    if not all(type(index[k]) is t for k, t in _INDEX_FIELDS.items()):
        return None
    tables = index["tables"]
    if not isinstance(tables, list) or not all(
            isinstance(t, list) and len(t) == 2 and isinstance(t[0], str) and type(t[1]) is int for t in tables):
        return None
    return {**index, "tables": [(name, count) for name, count in tables]}
