"""Pass 5, write: {relative path: bytes} -> an output folder, atomically and only when needed.

* deterministic: the caller gives sorted, timestamp-free content; files are
  written with "\\n" line ends and UTF-8;
* a no-op when nothing changed: if every file already holds the same bytes and
  no file is extra, nothing is touched;
* atomic: otherwise the whole new tree is staged in a sibling folder (unchanged
  files are hard-linked, so they keep their inode and time stamp) and swapped in
  with two renames. A build that fails or is killed before the swap leaves the
  previous folder exactly as it was; a leftover backup from a kill between the
  two renames is restored by the next run.

The output folder belongs to the build: files in it that the build did not
produce are removed by the swap.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class TreeDiff:
    changed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.removed)

    def lines(self) -> list[str]:
        return ([f"changed: {p}" for p in self.changed] + [f"missing: {p}" for p in self.added]
                + [f"extra:   {p}" for p in self.removed])


def _existing(out: Path) -> dict[str, Path]:
    """The files of the output tree; Python's bytecode caches are not the build's and are ignored."""
    if not out.is_dir():
        return {}
    return {p.relative_to(out).as_posix(): p for p in out.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def _backup_of(out: Path) -> Path:
    return out.with_name(f".{out.name}.previous")


def recover(out: Path) -> None:
    """Restore the output folder if a previous run was killed between its two renames."""
    backup = _backup_of(out)
    if backup.is_dir():
        if out.exists():
            shutil.rmtree(backup, ignore_errors=True)
        else:
            os.replace(backup, out)


def diff_tree(out: Path, files: dict[str, bytes]) -> TreeDiff:
    existing = _existing(out)
    diff = TreeDiff()
    for rel in sorted(files):
        path = existing.get(rel)
        if path is None:
            diff.added.append(rel)
        elif path.read_bytes() != files[rel]:
            diff.changed.append(rel)
    diff.removed = sorted(set(existing) - set(files))
    return diff


def write_tree(out: Path, files: dict[str, bytes]) -> TreeDiff:
    """Make `out` hold exactly `files`; returns what changed (empty: nothing was touched)."""
    recover(out)
    diff = diff_tree(out, files)
    if not diff:
        return diff
    out.parent.mkdir(parents=True, exist_ok=True)
    existing = _existing(out)
    unchanged = set(files) - set(diff.changed) - set(diff.added)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
    try:
        for rel in sorted(files):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if rel in unchanged:
                try:
                    os.link(existing[rel], target)
                    continue
                except OSError:
                    pass
            target.write_bytes(files[rel])
        backup = _backup_of(out)
        if out.exists():
            os.replace(out, backup)
        os.replace(staging, out)
        shutil.rmtree(backup, ignore_errors=True)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return diff
