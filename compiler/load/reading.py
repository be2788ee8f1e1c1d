"""The one way rulec reads a user's file: `read_bounded(path, limit)`.

A size check on `stat().st_size` bounds nothing: a device (`/dev/zero`) reports 0 bytes and never
ends, a FIFO blocks the open (or the read) forever, and a regular file may grow between the check
and the read. So this reader
- refuses anything but a regular file, checked twice: on the path (links resolved) before opening,
  and on the opened descriptor (`fstat`), which is the file actually read;
- opens with O_NONBLOCK, so that a FIFO swapped in between the two checks cannot block the open;
- reads at most `limit + 1` bytes, and refuses the file when it got more than `limit`: the limit
  holds on the bytes read, whatever the file says its size is.

A refusal is a `ReadRefused` carrying a `file:1:1` diagnostic (`unreadable`, `not-a-file` or
`file-too-large`); the caller reports it like any other. Nothing here imports more than the
standard library (the diagnostic is made when asked for), so `rulec resolve` reads its scenario with
it on its fast path.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from typing import TYPE_CHECKING
from ..messages import say

if TYPE_CHECKING:  # imported when a refusal is reported: `rulec resolve` reads without it
    from ..diagnostics import Diagnostic

__all__ = ["MAX_RULE_FILE_BYTES", "MAX_SCENARIO_BYTES", "MAX_SCENARIO_ITEMS", "MAX_SRD_BYTES", "ReadRefused",
           "read_bounded", "read_region"]

# The limits of the files rulec reads. A scenario is a few hundred bytes (the longest the schemas
# allow, 10,000 dice faces, is about 60 KB), and composing YAML costs about 4 s a MiB here: 256 KiB
# keeps a hostile one near a second. Its lists and mappings are bounded while it is parsed (the
# longest a scenario schema allows: validate/scenario_schema.py uses the same number).
MAX_RULE_FILE_BYTES = 16 * 1024 * 1024  # a rule file: a 100,000-weapon table fits
MAX_SCENARIO_BYTES = 256 * 1024
MAX_SCENARIO_ITEMS = 10_000
MAX_SRD_BYTES = 8 * 1024 * 1024  # the 2014 and 2024 SRD equipment files are about 200 KB

_CHUNK = 1 << 20
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0) \
    | getattr(os, "O_BINARY", 0)


class ReadRefused(Exception):
    """A file `read_bounded` would not read (or could not): its diagnostic says why."""

    def __init__(self, shown: str, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.shown, self.code, self.message, self.hint = shown, code, message, hint

    @property
    def diagnostic(self) -> Diagnostic:
        from ..diagnostics import Diagnostic, Span

        return Diagnostic(Span(self.shown), self.code, self.message, self.hint)


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return say("reading.not-regular-file")


def _refuse(shown: str, code: str, message: str, hint: str | None = None) -> ReadRefused:
    return ReadRefused(shown, code, message, hint)


def _not_regular(shown: str, mode: int) -> ReadRefused:
    return _refuse(shown, "not-a-file", say("not-a-file.not-regular-file-rulec-2", what=_what(mode)))


def _too_large(shown: str, size: str, limit: int, what: str) -> ReadRefused:
    return _refuse(shown, "file-too-large", say("file-too-large.file-bytes-limit-for", size=size, what=what, limit=limit),
                   say("file-too-large.split-into-several-files"))


def read_bounded(path: Path | str, limit: int, shown: str | None = None, *, what: str | None = None) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them; `ReadRefused` (with a
    diagnostic naming `shown`, default the path) for anything else. `what` names the kind of file
    in the size message."""
    shown = str(path) if shown is None else shown
    what = say("reading.rule-file") if what is None else what
    try:
        before = os.stat(path)  # links resolved: the file the open will reach
        if not stat.S_ISREG(before.st_mode):
            raise _not_regular(shown, before.st_mode)
        if before.st_size > limit:
            raise _too_large(shown, str(before.st_size), limit, what)
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        raise _refuse(shown, "unreadable", say("unreadable.cannot-read-file-2", value=exc.strerror or exc)) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # swapped for something else since the check
            raise _not_regular(shown, opened.st_mode)
        chunks: list[bytes] = []
        total = 0
        want = max(opened.st_size + 1, 4096)  # one read for a file that is what it says
        while total <= limit:
            chunk = os.read(fd, min(want, _CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            want = _CHUNK
        if total > limit:
            raise _too_large(shown, f"more than {limit}", limit, what)
        return b"".join(chunks)
    except OSError as exc:
        raise _refuse(shown, "unreadable", say("unreadable.cannot-read-file-3", value=exc.strerror or exc)) from None
    finally:
        os.close(fd)


def read_region(path: Path | str, at: int, length: int) -> bytes | None:
    """`length` bytes of the regular file at `path` from offset `at` (an output file a build reads
    a piece of back: build/reuse.py), or None when it is not a regular file or holds fewer."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # links resolved: a device is never opened
            return None
        fd = os.open(path, _FLAGS)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else since the check
            return None
        chunks: list[bytes] = []
        total = 0
        while total < length:
            chunk = os.pread(fd, min(length - total, _CHUNK), at + total)
            if not chunk:
                return None
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
