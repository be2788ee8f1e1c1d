"""A content-addressed cache of costly, pure results, so an edit re-does only what changed.

What is stored is plain JSON data (no pickle, no bytecode: reading an entry can run no code),
under a name that is the digest of its inputs and of rulec's own sources (`key`). Each entry
file starts with a line holding an HMAC-SHA256 of its name and its payload under this user's
secret cache key (`secret`), checked on every read: a truncated, garbled, swapped or foreign
entry, one written under another key (another user, another machine, a cache folder restored
from elsewhere, an entry resealed by whoever can write the folder), or anything that is not a
regular file, is a miss, and the value is recomputed. Only clean results are stored, so every
diagnostic is always recomputed, and nothing read from the cache reaches generated code except
through the same quoting as a fresh result.

So the cache folder itself need not be trusted: an entry is only ever one this account's rulec
computed. The key file is trusted as the account is: it lives outside the cache folder, in
`$XDG_CONFIG_HOME/rulec/cache-key` (else `~/.config/rulec/cache-key`), is made on first use
with mode 0600, and is refused (the cache is then off) unless it is a regular file of this user
that nobody else may read or write. `rulec build --check` uses no cache at all (its memo has no store).

The cache lives in `$RULEC_CACHE_DIR`, else `$XDG_CACHE_HOME/rulec`, else `~/.cache/rulec`;
`RULEC_CACHE_DIR=off` disables it. A read-only or full cache folder only costs speed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import os
import stat
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from .cache_place import cache_place

FORMAT = b"rulec-cache-2"
MAX_ENTRY_BYTES = 256 * 1024 * 1024
KEY_BYTES = 32


@lru_cache(maxsize=1)
def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off (turned off, no home folder, or no usable
    secret key)."""
    folder = cache_place()
    return folder if folder is not None and secret() is not None else None


def key_file() -> Path | None:
    """Where this user's secret cache key lives: outside the cache folder, so that whoever can
    write the cache cannot also seal what they write."""
    try:
        base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    except RuntimeError:
        return None
    return Path(base) / "rulec" / "cache-key"


def _read_key(path: Path) -> bytes | None:
    """The key in `path` when it is a regular file of this user that no one else may read or
    write (not followed through a link), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        getuid = getattr(os, "getuid", None)
        if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077 or (getuid is not None and info.st_uid != getuid()):
            return None
        raw = os.read(fd, 4 * KEY_BYTES + 1).strip()
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        data = bytes.fromhex(raw.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    return data if len(data) == KEY_BYTES else None


@lru_cache(maxsize=1)
def secret() -> bytes | None:
    """This user's secret cache key, made on first use; None (no cache) when it can be neither
    read nor made safely."""
    path = key_file()
    if path is None:
        return None
    found = _read_key(path)
    if found is not None or path.exists() or path.is_symlink():
        return found
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".cache-key-")  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="ascii") as fh:
                fh.write(secrets.token_hex(KEY_BYTES) + "\n")
            os.link(tmp, path)  # never replaces a key another process made meanwhile
        except FileExistsError:
            pass
        finally:
            Path(tmp).unlink(missing_ok=True)
    except OSError:
        return None
    return _read_key(path)


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
    key_bytes = secret()
    if key_bytes is None:  # pragma: no cover - cache_dir() is None then, and nothing is read or written
        raise RuntimeError("the cache has no key")
    return hmac.new(key_bytes, FORMAT + b"\n" + name.encode() + b"\n" + payload, hashlib.sha256).hexdigest().encode()


def _path(folder: Path, name: str) -> Path:
    """Where the entry `name` is: in one of sixteen folders, by its first hex digit (a first build
    stores about 130 entries: under 256 folders it made a hundred of them, and a folder is made
    as slowly as a file on some file systems, 0.8 ms on the CI machine)."""
    return folder / name[:1] / name


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
        if not sep or not hmac.compare_digest(seal, _seal(name, payload)):
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
        target = _path(folder, name).parent
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


class DiskStore:
    """The cache as the store below the build's memo (`compiler.memo.Memo`): names salted with
    rulec's own sources, values sealed on disk."""

    def key(self, *parts: bytes | str) -> str:
        return key(*parts)

    def get(self, name: str) -> Any:
        return get(name)

    def put(self, name: str, value: Any) -> None:
        put(name, value)


def store() -> DiskStore | None:
    """The cache as the store of a build's memo, or None when it is off."""
    return DiskStore() if cache_dir() is not None else None
