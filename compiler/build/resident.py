"""The resident builds of a build server (cli/server.py): one `Session` per rule paths and targets,
the two used last. Off in every other process, where `rulec build` compiles with a one-shot memo."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import Session

KEPT = 2  # sessions: each holds the last build of its rules in memory
_sessions: dict[tuple[tuple[str, ...], tuple[str, ...]], Session] | None = None


def enable() -> None:
    global _sessions
    _sessions = {}


def session(paths: list[Path], targets: tuple[str, ...]) -> Session | None:
    """The session that builds `paths` (as given: the server stays in its working folder) for
    `targets`, made when first asked; None outside a server."""
    if _sessions is None:
        return None
    from .session import Session

    key = (tuple(str(p) for p in paths), targets)
    found = _sessions.pop(key, None)
    if found is None:
        while len(_sessions) >= KEPT:
            del _sessions[next(iter(_sessions))]
        found = Session(paths, targets)
    _sessions[key] = found  # the last used goes last
    return found
