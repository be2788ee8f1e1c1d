"""A content-addressed cache of parsed and validated rule files, so an edit re-reads only what changed.

A rule file that loaded and passed its static schema is stored (pickled) under
the digest of its bytes and of rulec's own sources; the same bytes later load
from the cache without YAML parsing or schema validation. Only clean results
are cached, so every diagnostic is always recomputed. The cache lives in
`$RULEC_CACHE_DIR`, else `$XDG_CACHE_HOME/rulec`, else `~/.cache/rulec`;
`RULEC_CACHE_DIR=off` disables it. Any unreadable or foreign entry is ignored.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any


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


def get(name: str) -> Any | None:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        with open(folder / name[:2] / name, "rb") as fh:
            return pickle.load(fh)  # noqa: S301 - our own files, keyed by content digest
    except Exception:  # noqa: BLE001 - a missing or damaged entry is just a miss
        return None


def put(name: str, value: Any) -> None:
    folder = cache_dir()
    if folder is None:
        return
    try:
        target = folder / name[:2]
        target.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target)
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, target / name)
    except OSError:
        pass  # a read-only home or a full disk only costs speed
