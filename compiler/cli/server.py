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

It refuses, and exits, when rulec's own sources, or a library it loaded, changed since it started
(the client then builds in the process). It exits after `RULEC_SERVER_IDLE` seconds (15 minutes)
without a request, on `rulec server stop`, and when another server holds its lock. A client's
Ctrl-C, or its death, ends its own request's connection, which interrupts that build (the command
reports it, as in the process) or drops the request before it begins; never another's build, and
never the server. The socket and its lock are made through a descriptor of the server's folder,
checked to be the user's own and closed to others, and never through a link.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from . import server_link
from ..build import resident
from ..build.stamp import compiler_digest


def serve(path: str) -> None:
    name = Path(path).name
    os.environ.pop("RULEC_SERVER", None)  # the commands run here build here
    key = server_link._key()
    folder = _own_folder(Path(path).parent)
    if folder is None:
        return
    try:
        lock = os.open(f"{name}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600, dir_fd=folder)
    except OSError:
        os.close(folder)
        return
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # another server of this context is starting or running
        os.close(lock)
        os.close(folder)
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _unlink(name, folder)  # a server that was killed left it
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        here = os.open(".", os.O_RDONLY)
        try:  # bound by its name in the folder checked above, whatever its path now leads to
            os.fchdir(folder)
            listener.bind(name)
        finally:
            os.fchdir(here)
            os.close(here)
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
                except KeyboardInterrupt:  # a SIGINT that came after its build ended
                    continue
                with conn:
                    try:
                        if not _handle(conn, key, digest):
                            break
                    except (Exception, KeyboardInterrupt):  # noqa: BLE001  (one request's trouble: the next is served)
                        continue
        finally:
            _unlink(name, folder)
            listener.close()
    finally:
        os.close(lock)
        os.close(folder)


def _own_folder(folder: Path) -> int | None:
    """A descriptor of `folder` when it is a real folder (not a link) of this user that nobody else
    may enter, checked on the descriptor itself (what a path names may change after a check)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None
    st = os.fstat(fd)
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        os.close(fd)
        return None
    return fd


def _unlink(name: str, folder: int) -> None:
    try:
        os.unlink(name, dir_fd=folder)
    except FileNotFoundError:
        pass


def _handle(conn: socket.socket, key: dict[str, Any], digest: str) -> bool:
    """Answer one request; False when the server is to exit."""
    ids = server_link.peer_ids(conn)
    if ids is not None and ids[1] != os.getuid():
        return True
    deadline = time.monotonic() + server_link.REQUEST_WAIT  # a slow caller holds up the next this long at most
    conn.settimeout(server_link.REQUEST_WAIT)
    data, fds, _flags, _addr = socket.recv_fds(conn, 65536, 3)
    try:
        message = server_link.receive(conn, data, deadline)
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
        conn.settimeout(None)
        if _ended(conn):  # Ctrl-C (or gone) while it waited for the build before it: dropped
            _say_interrupted(fds[2])
            code = 130
        else:
            owned, fds = fds, []
            code = _run(argv, owned, conn)
    finally:
        for fd in fds:
            os.close(fd)
    server_link.send(conn, {"exit": code})
    return True


def _ended(conn: socket.socket, wait: float = 0.0) -> bool:
    """Whether the client ended its request (it sends nothing after it: anything readable, the end
    of its stream included, is its Ctrl-C, or its death)."""
    ready, _, _ = select.select([conn], [], [], wait)
    return bool(ready)


def _say_interrupted(fd: int) -> None:
    from ..messages import say

    try:
        os.write(fd, (say("output.interrupted-nothing-was-written") + "\n").encode())
    except OSError:
        pass


class _Watch:
    """While a request's build runs: when its client ends the request (`_ended`), the build is
    interrupted as Ctrl-C interrupts one in the process (SIGINT to this main thread)."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="rulec-server-watch", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            if _ended(self.conn, 0.1) and not self.done.is_set():
                signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
                return

    def stop(self) -> None:
        """Stop watching (SIGINT blocked by the caller: one the watch sent just now is dropped)."""
        self.done.set()
        self.thread.join()
        if signal.SIGINT in signal.sigpending():
            signal.sigwait({signal.SIGINT})


class _Libraries:
    """Whether a module this process loaded from the interpreter's libraries (the standard library,
    the installed ones — click, Jinja2, PyYAML, jsonschema-rs... — the user's, PYTHONPATH's) has a
    file written since the server started: an upgrade under a running server makes it stale, as a
    change of rulec's own sources does. (A module loaded after the change is new, but the server
    cannot tell which it has: stale too, and the next build starts a new one.)"""

    def __init__(self, places: tuple[str, ...] | None = None) -> None:
        self.start = time.time_ns()
        self.places = places

    def _places(self) -> tuple[str, ...]:
        if self.places is None:
            import site

            found = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, site.getusersitepackages()}
            found.update(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if os.path.isabs(p))
            self.places = tuple(os.path.join(os.path.abspath(p), "") for p in found if p)
        return self.places

    def changed(self) -> bool:
        places = self._places()
        for name, module in list(sys.modules.items()):
            where = getattr(module, "__file__", None)
            if isinstance(where, str) and where.startswith(places) and not name.startswith("_rulec_pkg_"):
                try:
                    st = os.stat(where)
                except OSError:
                    return True
                if max(st.st_mtime_ns, st.st_ctime_ns) > self.start:
                    return True
        return False


_LIBRARIES = _Libraries()


def _run(argv: list[str], fds: list[int], conn: socket.socket | None = None) -> int:
    """`rulec ARGV` with the client's standard streams as this process's (they are closed after),
    interrupted when the client ends its request (`conn`, watched while it runs)."""
    from .entry import main

    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # a Ctrl-C waits while streams are swapped
    saved = [os.dup(i) for i in (0, 1, 2)]
    watch = None
    try:
        try:
            for i, fd in enumerate(fds):
                os.dup2(fd, i)
        finally:
            for fd in fds:
                os.close(fd)
            watch = _Watch(conn) if conn is not None else None
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
        if watch is not None:
            watch.stop()
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
