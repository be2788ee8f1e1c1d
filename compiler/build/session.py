"""A resident build: the compiler kept running between builds (`rulec build --watch`).

A `Session` compiles the same paths again and again with one resident memo (`compiler.memo.Memo`)
holding what the last build made, so that a build after an edit redoes the work that depends on
the edited file: the documents of unchanged files, the IR of their entries and their page and
package rows come from memory, found by the identity of their inputs. What the passes remember by
name (checked entries, odds rows, compile checks) it holds in memory too, read from the disk cache
by the first build only. Every build still runs every pass over the whole ruleset — what is kept is found
again by the identity of the inputs it was made from, never assumed — so a session's output is
byte for byte a one-shot build's (tests/test_session.py holds it to that after edits of every
kind).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

from . import cache
from .facade import TARGETS, compile_rules
from .freshness import inputs_state
from ..memo import Memo
from .result import Build, Progress


class Session:
    def __init__(self, paths: list[Path], targets: tuple[str, ...] = TARGETS) -> None:
        self.paths = list(paths)
        self.targets = targets
        self.memo = Memo(resident=True, store=cache.store())
        keep_freed_memory()

    def build(self, progress: Progress | None = None) -> Build:
        """Compile the paths as they are now."""
        complete = False
        try:
            result = compile_rules(self.paths, progress=progress, targets=self.targets, memo=self.memo)
            complete = result.ok
            return result
        finally:
            self.memo.end(complete)


_KEPT: list[bool] = []  # whether keep_freed_memory asked already (once a process)


def keep_freed_memory() -> bool:
    """Ask the C allocator of this process to keep the memory a build frees for the next build
    (glibc's `mallopt`: blocks under 32 MiB from the heap, and no trimming of its top below
    512 MiB). A build makes and drops text of many megabytes (a 10,000-weapon pack's page and
    module); by default glibc maps each such block afresh, and touching new pages cost a
    resident rebuild about a sixth of its time here, for 6 MB more of peak memory. Only a
    resident build asks (a one-shot build frees its memory once, at exit; there it changed
    nothing); elsewhere than glibc, nothing is asked. True when both settings took."""
    if _KEPT:
        return _KEPT[0]
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
        m_trim_threshold, m_mmap_threshold = -1, -3  # <malloc.h>
        done = bool(mallopt(m_mmap_threshold, 32 << 20)) and bool(mallopt(m_trim_threshold, 512 << 20))
    except (OSError, AttributeError, TypeError):  # not glibc (macOS, Windows, musl without mallopt)
        done = False
    _KEPT.append(done)
    return done


def edits(paths: list[Path], interval: float, stop: Callable[[], bool] = lambda: False) -> Iterator[list[str]]:
    """Yield now (no files), then each time a file below `paths` has changed (polled every
    `interval` seconds) the files that changed, were added or were removed, until `stop()`. The
    stat data is taken before each yield, so an edit made while the caller builds is seen at the
    next poll."""
    last = None
    while not stop():
        now = inputs_state(paths)
        if now != last:
            yield [] if last is None else changed_files(last, now)
            last = now
            continue
        time.sleep(interval)


def changed_files(before: str, after: str) -> list[str]:
    """The files whose stat lines differ between two `inputs_state` texts (folder/relative path)."""
    def table(text: str) -> dict[str, str]:
        rows = {}
        for line in text.splitlines():
            parts = line.split("\t")
            if len(parts) == 4:
                rows[f"{Path(parts[1]).name}/{parts[2]}"] = parts[3]
        return rows

    old, new = table(before), table(after)
    return sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
