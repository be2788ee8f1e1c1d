"""Pass 6, write: {relative path: bytes} -> an output folder rulec owns, atomically and only when needed.

* owned: rulec writes only into a folder that does not exist, is empty, or carries its own build
  stamp (`.rulec-stamp.json`). It refuses, touching nothing, an output that is a file, the current
  folder or one of its parents, the home or root folder, a version-control root, or a folder
  that holds or lies inside one of the rule folders being built (`check_target`);
* deterministic: the caller gives sorted, timestamp-free content, written as UTF-8 bytes;
* a no-op when nothing changed: if every file already holds the same bytes and no file is
  extra, nothing is touched;
* atomic: otherwise the new tree is staged in a sibling folder (unchanged files hard-linked) and
  exchanged with the old one in a single `renameat2(RENAME_EXCHANGE)` where the system has it
  (two renames elsewhere, and the next run restores a folder a kill left between them, saying so).
  A build that fails, hits a full disk or is killed leaves the previous output as it was;
* serialised: builds into folders of one parent take a lock on that parent, and each removes
  the staging folders that killed builds left behind;
* the folder and files get the permissions of the user's umask.

Every file-system error is a `WriteError` naming the path; the CLI reports it with exit 1.
"""

from __future__ import annotations

import errno
import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from typing import TYPE_CHECKING

from .freshness import untracked
from .stamp import STAMP, stamp_bytes
from ..messages import say

if TYPE_CHECKING:
    from .result import Build

VCS_MARKERS = (".git", ".hg", ".svn", ".bzr", "_darcs", ".fslckout")
LOCK_TIMEOUT = 300.0


class WriteError(Exception):
    """The output folder cannot or must not be written; the message names the path."""


@dataclass
class TreeDiff:
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the writer did besides (restored, cleaned up)

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.removed)

    def lines(self) -> list[str]:
        return ([f"changed: {p}" for p in self.changed] + [f"missing: {p}" for p in self.added]
                + [f"extra:   {p}" for p in self.removed])


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def is_owned(out: Path) -> bool:
    """True when `out` carries a build stamp written by rulec."""
    try:
        stamp = json.loads((out / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and {"inputs", "outputs"} <= set(stamp)


def check_target(out: Path, sources: Sequence[Path] = ()) -> None:
    """Raise WriteError when `out` is not a folder rulec may write (see the module docstring)."""
    shown = str(out)
    try:
        target = out.resolve()
        cwd = Path.cwd().resolve()
    except (OSError, RuntimeError) as exc:
        raise WriteError(say("write.cannot-resolve-output-folder", shown=shown, exc=exc)) from exc
    if target.exists() and not target.is_dir():
        raise WriteError(say("write.file-not-folder-choose", shown=shown))
    if _inside(cwd, target):
        raise WriteError(say("write.current-folder-one-parents", shown=shown))
    if target.parent == target:
        raise WriteError(say("write.root-folder", shown=shown))
    try:
        if _inside(Path.home().resolve(), target):
            raise WriteError(say("write.your-home-folder-one", shown=shown))
    except RuntimeError:
        pass
    for marker in VCS_MARKERS:
        if (target / marker).exists():
            raise WriteError(say("write.version-control-root-build", shown=shown, marker=marker))
    for source in sources:
        try:
            src = source.resolve()
        except (OSError, RuntimeError):
            continue
        if _inside(target, src) or _inside(src, target):
            relation = "is" if src == target else "lies inside" if _inside(target, src) else "holds"
            raise WriteError(say("write.rules-folder-output-needs", shown=shown, relation=relation, source=source))
    if target.is_dir() and not is_owned(target) and any(target.iterdir()):
        raise WriteError(say("write.not-empty-was-not", shown=shown, stamp=STAMP))


def _existing(out: Path) -> dict[str, Path]:
    """The files of the output tree (regular files, links to them included, as `Path.is_file`
    says); Python's bytecode caches and the stat record of freshness.py are not the build's and
    are ignored. A walk with `os.scandir`, whose entries carry their type: a 10,000-weapon build's
    tree took 2 ms a listing with `Path.rglob`."""
    found: dict[str, Path] = {}
    stack = [("", out)]
    while stack:
        prefix, folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # not a folder (or gone): nothing in it
            continue
        for entry in entries:
            rel = prefix + entry.name
            if entry.name == "__pycache__":
                continue
            try:
                if entry.is_dir():  # a link to a folder is neither listed nor followed
                    if not entry.is_symlink():
                        stack.append((rel + "/", Path(entry.path)))
                elif entry.is_file() and not untracked(rel):
                    found[rel] = Path(entry.path)
            except OSError:
                continue
    return found


def diff_tree(out: Path, files: dict[str, bytes], existing: dict[str, Path] | None = None) -> TreeDiff:
    """What writing `files` to `out` would change. `existing`: `out`'s files, when the caller listed
    them already (`_existing`)."""
    if existing is None:
        existing = _existing(out)
    diff = TreeDiff()
    for rel in sorted(files):
        path = existing.get(rel)
        if path is None:
            diff.added.append(rel)
        elif not _holds(path, files[rel]):
            diff.changed.append(rel)
    diff.removed = sorted(set(existing) - set(files))
    return diff


_CHUNK = 1 << 20


def _holds(path: Path, data: bytes) -> bool:
    """Whether the file holds exactly `data`: told by its size, else read a megabyte at a time (a
    100,000-weapon page is tens of megabytes, and the build holds its new text already), each
    compared with a slice of `data` as bytes (a memoryview's `!=` goes item by item: 4 ms a
    megabyte, against microseconds for bytes)."""
    try:
        if path.stat().st_size != len(data):
            return False
        with open(path, "rb") as fh:
            at = 0
            while True:
                chunk = fh.read(_CHUNK)
                if not chunk:
                    return at == len(data)
                if data[at:at + len(chunk)] != chunk:
                    return False
                at += len(chunk)
    except OSError:
        return False


def _backup_of(out: Path) -> Path:
    return out.with_name(f".{out.name}.previous")


def _staging_prefix(out: Path) -> str:
    return f".{out.name}.staging-"


def _tidy(out: Path, notes: list[str]) -> None:
    """Under the lock: restore an output a kill left between two renames, remove stale staging."""
    import shutil  # here and below: `rulec resolve` imports this module and writes nothing

    backup = _backup_of(out)
    if backup.is_dir():
        if out.exists():
            shutil.rmtree(backup, ignore_errors=True)
        else:
            os.replace(backup, out)
            notes.append(say("write.restored-from-left-by", out=out, name=backup.name))
    for stale in out.parent.glob(_staging_prefix(out) + "*"):
        try:
            if stale.is_symlink() or not stale.is_dir():
                stale.unlink()  # never followed: a link is removed, not what it points at
            else:
                shutil.rmtree(stale)
        except OSError:
            continue  # said only once it is gone, so a leftover is never reported build after build
        notes.append(say("write.removed-left-by-interrupted", name=stale.name))


@contextmanager
def _locked(parent: Path, shown: str) -> Iterator[None]:
    """An exclusive lock on the output's parent folder (flock; none where the system has no flock)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: builds are not serialised there
        yield
        return
    fd = os.open(parent, os.O_RDONLY)
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise WriteError(say("write.another-rulec-build-has", shown=shown, lock_timeout=LOCK_TIMEOUT)) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step (Linux renameat2); False where that is not available."""
    import ctypes  # here: `rulec resolve` imports this module and writes nothing

    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EPERM):
        return False  # the file system cannot exchange: two renames instead
    raise OSError(code, os.strerror(code), str(b))


def _stage(staging: Path, files: dict[str, bytes], unchanged: set[str], existing: dict[str, Path]) -> None:
    os.mkdir(staging)  # mkdir, unlike mkdtemp, gives the umask's permissions
    made: set[Path] = {staging}
    for rel in sorted(files):
        target = staging / rel
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        if rel in unchanged:
            try:
                os.link(existing[rel], target)
                continue
            except OSError:
                pass
        with open(target, "wb") as fh:
            fh.write(files[rel])


def write_tree(out: Path, files: dict[str, bytes], *, sources: Sequence[Path] = ()) -> TreeDiff:
    """Make `out` hold exactly `files`; returns what changed (empty: nothing was touched).

    `files` must hold the build stamp: a folder rulec writes is always one it owns afterwards."""
    if not isinstance(files.get(STAMP), bytes):
        raise ValueError(f"write_tree needs the build stamp {STAMP} among the files (see stamp.stamp_bytes)")
    import shutil

    check_target(out, sources)
    shown = str(out)
    # A link given as the output is written through: the folder it points at is staged beside and
    # swapped (swapping the link itself would leave it behind as a staging entry), the link stays.
    out = Path(os.path.realpath(out))
    staging: Path | None = None
    path_in_error = out
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with _locked(out.parent, shown):
            notes: list[str] = []
            _tidy(out, notes)
            existing = _existing(out)
            diff = diff_tree(out, files, existing)
            diff.notes = notes
            if not diff:
                return diff
            staging = out.with_name(f"{_staging_prefix(out)}{os.getpid()}-{time.monotonic_ns()}")
            path_in_error = staging
            _stage(staging, files, set(files) - set(diff.changed) - set(diff.added), existing)
            if out.exists():
                if _exchange(staging, out):
                    shutil.rmtree(staging, ignore_errors=True)  # it now holds the previous output
                else:
                    os.replace(out, _backup_of(out))
                    os.replace(staging, out)
                    shutil.rmtree(_backup_of(out), ignore_errors=True)
            else:
                os.replace(staging, out)
            staging = None
            return diff
    except OSError as exc:
        where = exc.filename or path_in_error
        detail = f" ({where})" if str(where) != shown else ""
        raise WriteError(say("write.cannot-write-previous-output", shown=shown, value=exc.strerror or exc, detail=detail)) from exc
    finally:
        if staging is not None and staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def write_build(out: Path, build: Build | dict[str, bytes], inputs: str | None = None, *,
                sources: Sequence[Path] = ()) -> TreeDiff:
    """Write a build's files with its stamp, as `rulec build` and a `rulec resolve` that finds
    generated/ stale both do. Given the facade's `Build`, the stamp records the digest of the bytes
    that build compiled (`Build.inputs`) and its packs, and `inputs` is ignored: a digest taken
    before or after compiling could vouch for a file as it was not compiled. (A bare dict of files
    with the caller's `inputs` is for benchmarks that time the writer alone.)"""
    if isinstance(build, dict):
        return write_tree(out, {**build, STAMP: stamp_bytes(inputs or "", build)}, sources=sources)
    return write_tree(out, {**build.files, STAMP: build_stamp(build)}, sources=sources)


def build_stamp(build: Build) -> bytes:
    """The stamp of a build, from what the build itself read (see `write_build`)."""
    return stamp_bytes(build.inputs, build.files, build.pack_ids, build.file_digests)
