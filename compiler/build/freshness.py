"""A quick answer to "is this output folder still up to date?" for `rulec resolve` and `rulec odds`,
without reading a byte of the rules (issue 20).

The build stamp (stamp.py) answers by content: it hashes every input and every output, which costs
tens of milliseconds on the bundled rules and grows with a pack. Like git's index, this module keeps
the stat data (size, mtime, ctime, inode) of every file that answer depended on — rulec's own
sources and schemas, every file under the rule folders, every file of the output — in
`<out>/.rulec-stat`, as a snapshot taken just before a content check that said "fresh". While every one of
those files still has the same stat data and no file was added or removed, the answer still holds;
anything else (an edit, a new file, a missing or malformed record) falls back to the content check.

A file changed within `RACY_NS` of the moment its stat data would be recorded is not recorded (git's
"racily clean" files: a second write inside the file system's timestamp granularity leaves the
stat data as it was), so the next call checks content again and records then.

The record is trusted exactly as far as the output folder itself: whoever can write it can write
the package code that `rulec resolve` imports. It is not part of the build's output: the writer,
the stamp and `rulec build --check` pass over it (`untracked`), and .gitignore leaves it out.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

RECORD = ".rulec-stat"  # the record's file name inside an output folder
RACY_NS = 2_000_000_000  # FAT keeps times to 2 s; ext4 and APFS to the kernel's tick
_HEADER = "rulec-stat 1"
_COMPILER = Path(__file__).resolve().parent.parent


def untracked(rel: str) -> bool:
    """True for the files of an output folder that are not build output: the record, and the
    temporary file it is written through (one per process)."""
    return rel == RECORD or (rel.startswith(RECORD + ".") and rel.endswith(".tmp") and "/" not in rel)


def _lines(tag: str, root: Path, skip_top: Callable[[str], bool] = lambda name: False) -> list[str]:
    """`tag<TAB>path<TAB>size mtime ctime inode` for every file below `root` (symlinked folders not
    followed, `__pycache__` folders and the names `skip_top` picks at the top left out), sorted."""
    out = []
    top = str(root)
    cut = len(top) + 1
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            out.append(f"{tag}\t{folder[cut:]}\tunreadable")
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    stack.append(entry.path)
                continue
            if folder == top and skip_top(entry.name):
                continue
            try:
                st = entry.stat()
                sig = f"{st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}"
            except OSError:
                sig = "missing"
            out.append(f"{tag}\t{entry.path[cut:]}\t{sig}")
    out.sort()
    return out


def _youngest(lines: Iterable[str]) -> int:
    """The latest mtime or ctime among the recorded files (0 when none)."""
    latest = 0
    for line in lines:
        parts = line.rsplit("\t", 1)[-1].split(" ")
        if len(parts) == 4:
            latest = max(latest, int(parts[1]), int(parts[2]))
    return latest


def inputs_state(roots: list[Path]) -> str:
    """The stat data of every file below the rule paths `roots` (what `rulec build --watch` polls:
    any change of size, time or inode, or a file added or removed, changes it)."""
    from ..load.sources import discover

    folders, diags = discover(roots)
    lines = [d.format() for d in diags]  # a path that appears counts as a change too
    for n, root in enumerate(sorted({f.root for f in folders})):
        lines += _lines(f"{n}\t{root}", root)
    return "\n".join(lines)


class Snapshot(NamedTuple):
    """The stat data of everything an output folder's freshness depends on, and when it was taken."""

    taken_ns: int
    text: str


def snapshot(out: Path, roots: list[Path], targets: tuple[str, ...] = ("python", "js")) -> Snapshot | None:
    """The stat data of `out`'s inputs and outputs now (for a build of `roots` with `targets`); None
    when a rule path is not a folder (a single file's source folder lies above it: only the content
    check knows what to read). Take it *before* the content check whose verdict `remember` records:
    a file changed after it no longer has the stat data the record holds."""
    from ..validate.schema_dir import schema_dir

    taken = time.time_ns()
    folders = []
    for raw in roots:
        path = Path(raw).resolve()
        if not path.is_dir():
            return None
        folders.append(path)
    folders = sorted(set(folders))
    schema = schema_dir().resolve()
    out = out.resolve()
    header = "\t".join([_HEADER, ",".join(targets), str(_COMPILER), str(schema), str(out), *map(str, folders)])
    lines = [header] + _lines("compiler", _COMPILER) + _lines("schema", schema)
    for n, folder in enumerate(folders):
        lines += _lines(f"rules{n}", folder)
    lines += _lines("out", out, untracked)
    return Snapshot(taken, "\n".join(lines) + "\n")


def recorded(out: Path, now: Snapshot | None) -> bool:
    """True when `out/.rulec-stat` holds exactly this snapshot's stat data."""
    if now is None:
        return False
    try:
        return (out / RECORD).read_text(encoding="utf-8") == now.text
    except (OSError, ValueError):
        return False


def still_fresh(out: Path, roots: list[Path], targets: tuple[str, ...] = ("python", "js")) -> bool:
    """True when the record says `out` is an up-to-date build of `roots` (with these targets)."""
    return recorded(out, snapshot(out, roots, targets))


def remember(out: Path, taken: Snapshot | None) -> bool:
    """Record a snapshot taken before a content check that found `out` up to date. Returns False
    (recording nothing) when a file was too young to vouch for when it was taken, the record cannot
    be written, or there is no snapshot (a rule path is a single file)."""
    if taken is None or _youngest(taken.text.splitlines()[1:]) >= taken.taken_ns - RACY_NS:
        return False
    target = out / RECORD
    temp = out / f"{RECORD}.{os.getpid()}.tmp"
    try:
        temp.write_text(taken.text, encoding="utf-8")
        os.replace(temp, target)
    except OSError:
        try:
            temp.unlink()
        except OSError:
            pass
        return False
    return True
