"""A content-addressed cache of costly, pure results, so an edit re-does only what changed.

What is stored is plain JSON data (no pickle, no bytecode: reading an entry can run no code),
under a name that is the digest of its inputs and of rulec's own sources (`key`). Each entry
file starts with a line holding the SHA-256 of its name and its payload, checked on every read:
a truncated, garbled, swapped or foreign entry, or anything that is not a regular file, is a
miss, and the value is recomputed. Only clean results are stored, so every diagnostic is always
recomputed, and nothing read from the cache reaches generated code except through the same
quoting as a fresh result (the cache only saves time).

The cache lives in `$RULEC_CACHE_DIR`, else `$XDG_CACHE_HOME/rulec`, else `~/.cache/rulec`;
`RULEC_CACHE_DIR=off` disables it. A read-only or full cache folder only costs speed.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from .memo import NO_MEMO, Memo

FORMAT = b"rulec-cache-1"
MAX_ENTRY_BYTES = 256 * 1024 * 1024


@lru_cache(maxsize=1)
def cache_dir() -> Path | None:
    setting = os.environ.get("RULEC_CACHE_DIR")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    try:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    except RuntimeError:  # no home folder to be found: run without a cache
        return None
    return Path(base) / "rulec"


@lru_cache(maxsize=1)
def _salt() -> bytes:
    from .stamp import compiler_digest

    return compiler_digest().encode()


def key(*parts: bytes | str) -> str:
    h = hashlib.sha256(_salt())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _seal(name: str, payload: bytes) -> bytes:
    return hashlib.sha256(FORMAT + b"\n" + name.encode() + b"\n" + payload).hexdigest().encode()


def _path(folder: Path, name: str) -> Path:
    return folder / name[:2] / name


def get(name: str) -> Any | None:
    """The JSON value stored under `name`, or None when it is missing or fails its check."""
    folder = cache_dir()
    if folder is None or len(name) != 64:
        return None
    path = _path(folder, name)
    try:
        info = os.stat(path, follow_symlinks=False)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        with open(path, "rb") as fh:
            raw = fh.read()
        seal, sep, payload = raw.partition(b"\n")
        if not sep or seal != _seal(name, payload):
            return None
        return json.loads(payload)
    except (OSError, ValueError, RecursionError):  # missing, unreadable or not JSON: a miss
        return None


def put(name: str, value: Any) -> None:
    """Store a JSON-serialisable value (tuples become lists)."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        payload = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
    except (TypeError, ValueError) as exc:  # a rulec bug: only plain data is cached
        raise TypeError(f"cache entries are plain JSON data: {exc}") from exc
    try:
        target = folder / name[:2]
        target.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(_seal(name, payload) + b"\n" + payload)
            os.replace(tmp, _path(folder, name))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only home, a full disk, or an entry that is a folder: it only costs speed


class CacheMemo(Memo):
    """The memo of a build with the cache on: names salted with rulec's own sources."""

    persists = True

    def key(self, *parts: bytes | str) -> str:
        return key(*parts)

    def get(self, name: str) -> Any:
        return get(name)

    def put(self, name: str, value: Any) -> None:
        put(name, value)


def memo() -> Memo:
    """The cache as a memo for the passes, or one that remembers nothing when it is off."""
    return CacheMemo() if cache_dir() is not None else NO_MEMO
