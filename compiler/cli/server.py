"""The build server behind `RULEC_SERVER=on` (the client's side and the rules of who may talk to
whom: server_link.py).

A server is started in one context (a working folder, an interpreter and copy of rulec, the
environment a build reads) and serves that context only: each request carries the client's key
and is refused unless it is the server's own. A request is a `rulec build` command line and the
client's standard input, output and error; the server runs the command as the process would
(entry.py), writing to the client's terminal, and answers with the exit code. Its builds are
resident (`build/resident.py`: one `Session` per rule paths and targets), so a build after an edit
redoes only what depends on the edit, and every build's output is byte for byte a one-shot
build's (a session's guarantee, tests/test_session.py; tests/test_server.py for the server).

It refuses, and exits, when rulec's own sources, or an installed library it loaded, changed since
it started (the client then builds in the process). It exits after `RULEC_SERVER_IDLE` seconds
(15 minutes) without a request, on `rulec server stop`, and when another server holds its lock.
SIGINT, which a client sends on Ctrl-C, interrupts the build being run (the command reports it,
as in the process) and never the server.
"""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from . import server_link
from ..build import resident
from ..build.stamp import compiler_digest


def serve(path: str) -> None:
    sock_path = Path(path)
    os.environ.pop("RULEC_SERVER", None)  # the commands run here build here
    key = server_link._key()
    lock = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # another server of this context is starting or running
        os.close(lock)
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        sock_path.unlink(missing_ok=True)  # a server that was killed left it
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(16)
        listener.settimeout(server_link.idle())
        digest = compiler_digest()
        resident.enable()
        try:
            while True:
                try:
                    conn, _ = listener.accept()
                except socket.timeout:
                    break
                except KeyboardInterrupt:  # a Ctrl-C that came after its build ended
                    continue
                with conn:
                    try:
                        if not _handle(conn, key, digest):
                            break
                    except (OSError, KeyboardInterrupt):
                        continue  # the client went away
        finally:
            sock_path.unlink(missing_ok=True)
            listener.close()
    finally:
        os.close(lock)


def _handle(conn: socket.socket, key: dict[str, Any], digest: str) -> bool:
    """Answer one request; False when the server is to exit."""
    ids = server_link.peer_ids(conn)
    if ids is not None and ids[1] != os.getuid():
        return True
    conn.settimeout(10.0)  # a caller that sends nothing holds up the next for this long at most
    data, fds, _flags, _addr = socket.recv_fds(conn, 65536, 3)
    try:
        message = server_link.receive(conn, data)
        if message is None or message.get("key") != key:
            server_link.send(conn, {"refused": "context"})
            return True
        if message.get("stop"):
            server_link.send(conn, {"stopped": True})
            return False
        compiler_digest.cache_clear()
        if compiler_digest() != digest or _LIBRARIES.changed():  # this process runs an old rulec or library
            server_link.send(conn, {"refused": "stale"})
            return False
        argv = message.get("argv")
        if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv) and server_link.served(argv)
                and len(fds) == 3):
            server_link.send(conn, {"refused": "request"})
            return True
        owned, fds = fds, []
        code = _run(argv, owned)
    finally:
        for fd in fds:
            os.close(fd)
    server_link.send(conn, {"exit": code})
    return True


class _Libraries:
    """The files of the modules this process loaded from the installed libraries (click, Jinja2,
    PyYAML, jsonschema-rs...), each with its size and time as first seen: a library upgraded under
    a running server makes it stale, as a change of rulec's own sources does."""

    def __init__(self) -> None:
        self.seen: dict[str, tuple[int, int]] = {}

    def changed(self) -> bool:
        import sysconfig

        places = tuple({sysconfig.get_paths()[k] for k in ("purelib", "platlib")})  # the installed libraries
        for module in list(sys.modules.values()):
            where = getattr(module, "__file__", None)
            if isinstance(where, str) and where not in self.seen and where.startswith(places):
                self.seen[where] = self._state(where)
        return any(self._state(where) != state for where, state in self.seen.items())

    @staticmethod
    def _state(where: str) -> tuple[int, int]:
        try:
            st = os.stat(where)
        except OSError:
            return (-1, -1)
        return (st.st_size, st.st_mtime_ns)


_LIBRARIES = _Libraries()


def _run(argv: list[str], fds: list[int]) -> int:
    """`rulec ARGV` with the client's standard streams as this process's (they are closed after)."""
    from .entry import main

    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # a Ctrl-C waits while streams are swapped
    saved = [os.dup(i) for i in (0, 1, 2)]
    try:
        try:
            for i, fd in enumerate(fds):
                os.dup2(fd, i)
        finally:
            for fd in fds:
                os.close(fd)
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        sys.argv = ["rulec", *argv]
        streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = _text(1, streams[0], os.isatty(1)), _text(2, streams[1], True)
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except KeyboardInterrupt:
            code = 130
        except Exception as exc:  # noqa: BLE001  (the command's own guard let it through: said, and served on)
            from ..messages import say

            print(say("output.rulec-internal-error-rulec", name__=type(exc).__name__, exc=exc), file=sys.stderr)
            code = 3
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            sys.stdout, sys.stderr = streams  # what one request could not write is not the next one's
    finally:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        for i, fd in enumerate(saved):
            os.dup2(fd, i)
            os.close(fd)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a Ctrl-C that came meanwhile: the serve loop's
    return code


def _text(fd: int, like: Any, line_buffering: bool) -> Any:
    """A text stream over `fd` as the client's own would be (the encoding of this context, line
    buffered on a terminal, stderr always), made for one request."""
    import io

    return io.TextIOWrapper(open(fd, "wb", closefd=False), encoding=like.encoding, errors=like.errors,
                            line_buffering=line_buffering)
