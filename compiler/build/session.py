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

    def build(self, progress: Progress | None = None) -> Build:
        """Compile the paths as they are now."""
        complete = False
        try:
            result = compile_rules(self.paths, progress=progress, targets=self.targets, memo=self.memo)
            complete = result.ok
            return result
        finally:
            self.memo.end(complete)


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
