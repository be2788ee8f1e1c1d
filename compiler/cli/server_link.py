"""`rulec build` through a build server (opt-in: `RULEC_SERVER=on`), the client's side.

A one-shot `rulec build` pays Python's start-up and imports (0.2 s) and then builds from nothing
in memory; `rulec build --watch` keeps a resident build (build/session.py) but asks the user to
keep a terminal open. With `RULEC_SERVER=on`, `rulec build` hands its command line to a build
server, a process that keeps resident builds, and waits for it: the output, the diagnostics and
the exit code are the same as the process's own would be (the server writes to this process's
own terminal, whose descriptors it is sent), and a build after an edit costs what a `--watch`
rebuild costs. This module is imported before click and the compiler: it needs only the
standard library's socket, json and zlib.

One server serves one working folder, one interpreter with one copy of rulec, and one setting
of every environment variable a build reads (`_key`): a server never builds for a context it was
not started in, so nothing it keeps between builds depends on what a request says. It is started
by the first `rulec build` that finds none, exits after `IDLE` seconds without a request, and on
`rulec server stop`. It listens on a Unix socket in a folder only this user may open; the client
checks that folder (its owner and mode) before connecting, and the server checks each caller's
user id. Where any of this is missing (Windows, a path too long for a socket), the build runs in
the process as before. `--watch` and `--check` always run in the process.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
import time
import zlib
from pathlib import Path
from typing import Any

IDLE = 900.0  # seconds a server waits for a request before it exits
START_WAIT = 10.0  # seconds a client waits for a server it started to listen
MAX_REQUEST = 1 << 20  # bytes: a request is a command line and a key
REQUEST_WAIT = 10.0  # seconds a server waits for the whole of a request
ENV_READ = ("RULEC_CACHE_DIR", "RULEC_SCHEMA_DIR", "RULEC_LANG", "RULEC_DEBUG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
            "LANG", "LANGUAGE", "NO_COLOR", "HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "TERM", "COLUMNS")
_ROOT = Path(__file__).resolve().parent.parent.parent  # the folder holding this copy of rulec's package
_PACKAGE = __name__.split(".")[0]  # its name: `rulec` installed, `compiler` run from a clone (`python -m compiler`)
# The interpreter options a build may depend on, and the command-line flag that sets each: a
# server is started with the client's (and with -P, so that the working folder, which holds
# files a pack brought, is never where it imports from).
_FLAGS = (("ignore_environment", "-E"), ("no_user_site", "-s"), ("optimize", "-O"), ("dont_write_bytecode", "-B"),
          ("utf8_mode", "-Xutf8"), ("dev_mode", "-Xdev"), ("hash_randomization", ""), ("int_max_str_digits", ""))


def idle() -> float:
    """Seconds a server waits for a request before it exits: `RULEC_SERVER_IDLE`, else `IDLE`."""
    try:
        value = float(os.environ.get("RULEC_SERVER_IDLE", IDLE))
    except ValueError:
        return IDLE
    return min(max(value, 1.0), 86400.0) if value == value else IDLE


def enabled() -> bool:
    return os.environ.get("RULEC_SERVER", "").lower() in ("on", "1", "yes", "true") and hasattr(socket, "AF_UNIX") \
        and hasattr(socket, "send_fds")


def served(argv: list[str]) -> bool:
    """Whether this command line goes to a server: `build`, without `--watch`, `--check` or help."""
    if argv[:1] != ["build"]:
        return False
    return not any(a in ("--watch", "--check", "-h", "--help") for a in argv[1:])


def _key() -> dict[str, object]:
    """What a server must share with its client: the interpreter and the options it runs with,
    this copy of rulec, the working folder (by its path and by the folder itself: one made again
    at the same path is another), the file mode mask, the user and groups, and every environment
    variable a build reads (Python's own included)."""
    mask = os.umask(0o022)
    os.umask(mask)
    env = {k: v for k, v in os.environ.items() if k in ENV_READ or k.startswith("PYTHON")}
    here = os.stat(".")
    return {"python": sys.executable, "flags": [getattr(sys.flags, f) for f, _ in _FLAGS], "rulec": str(_ROOT),
            "cwd": os.getcwd(), "folder": [here.st_dev, here.st_ino], "umask": mask,
            "env": dict(sorted(env.items())), "uid": os.getuid(), "gid": os.getgid(), "groups": sorted(os.getgroups())}


def _folder() -> Path | None:
    """The folder of this user's server sockets (in the cache folder's place), or None: the
    cache is off, or no home folder can be found."""
    from ..build.cache_place import cache_place

    base = cache_place()
    return None if base is None else base / "server"


def private(folder: Path) -> bool:
    """`folder` is a real folder (not a link) of this user that nobody else may enter."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def place(key: dict[str, object]) -> Path | None:
    """The socket of the server for `key`, or None when there can be none here (no folder, or the
    path too long for a Unix socket). The name is a checksum of the key: the server checks the
    whole key on every request, so two keys sharing a name only cost a build in the process."""
    folder = _folder()
    if folder is None:
        return None
    name = f"{zlib.crc32(json.dumps(key, sort_keys=True).encode()):08x}.sock"
    path = folder / name
    return path if len(os.fsencode(path)) < 100 else None


def _connect(path: Path) -> socket.socket | None:
    if not private(path.parent):
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
    except OSError:
        sock.close()
        return None
    peer = peer_ids(sock)
    if peer is not None and peer[1] != os.getuid():
        sock.close()
        return None
    return sock


def peer_ids(sock: socket.socket) -> tuple[int, int] | None:
    """The process id and user id at the other end (Linux), or None where they cannot be asked."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    import struct

    try:
        pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i")))
    except OSError:
        return None
    return int(pid), int(uid)


def _start(path: Path) -> Any:
    """Start a server for this context (detached: it outlives this process): its `Popen`, or None
    when it cannot be (its folder cannot be made, or is not this user's alone)."""
    import subprocess

    folder = path.parent
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    if not private(folder):
        return None
    # -P: the working folder is not put first on the module path (a pack's `yaml.py` would run);
    # this copy of rulec is found where the client found it, after the standard library and the
    # installed libraries
    flags = [flag for name, flag in _FLAGS if flag for _ in range(int(getattr(sys.flags, name)))]  # -O twice: -OO
    code = (f"import sys; sys.path.append({str(_ROOT)!r}); from {_PACKAGE}.cli.server import serve; "
            f"serve({str(path)!r})")
    return subprocess.Popen([sys.executable, "-P", *flags, "-c", code], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            close_fds=True)


def _descriptors() -> list[int]:
    """This process's standard input, output and error (/dev/null for any that is closed)."""
    fds = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
            fds.append(fd)
        except OSError:
            fds.append(os.open(os.devnull, os.O_RDWR))
    return fds


def send(sock: socket.socket, message: dict[str, object], fds: list[int] | None = None) -> None:
    data = json.dumps(message).encode()
    framed = len(data).to_bytes(4, "big") + data
    if fds:
        sent = socket.send_fds(sock, [framed], fds)
        sock.sendall(framed[sent:])
    else:
        sock.sendall(framed)


def receive(sock: socket.socket, first: bytes = b"", deadline: float | None = None) -> dict[str, object] | None:
    """One framed JSON message (None when the other end closed or sent something else); with a
    `deadline` (time.monotonic()), `socket.timeout` once it passes however the bytes trickle in."""
    data = first
    while len(data) < 4 + (int.from_bytes(data[:4], "big") if len(data) >= 4 else 0):
        if len(data) >= 4 and int.from_bytes(data[:4], "big") > MAX_REQUEST:
            return None
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("request too slow")
            sock.settimeout(left)
        want = 4 - len(data) if len(data) < 4 else 4 + int.from_bytes(data[:4], "big") - len(data)
        chunk = sock.recv(min(65536, max(want, 1)))
        if not chunk:
            return None
        data += chunk
    size = int.from_bytes(data[:4], "big")
    if size > MAX_REQUEST:
        return None
    try:
        value = json.loads(data[4:4 + size])
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return None
    return value if isinstance(value, dict) else None


def forward(argv: list[str]) -> int | None:
    """Run `rulec ARGV` in this context's server (started when there is none) and return its exit
    code; None when it cannot be (the caller builds in the process)."""
    try:
        key = _key()
    except OSError:  # the working folder is gone: the build in the process says so
        return None
    path = place(key)
    if path is None:
        return None
    sock = _connect(path)
    if sock is None:
        started = _start(path)
        if started is None:
            return None
        deadline = time.monotonic() + START_WAIT
        try:
            while sock is None and time.monotonic() < deadline:
                time.sleep(0.02)
                sock = _connect(path)
                if sock is None and started.poll() not in (None, 0):
                    return None  # it failed (exit 0: another server of this context took the lock; wait for that one)
        except KeyboardInterrupt:  # Ctrl-C before anything was asked of it: as an interrupted build
            if sock is not None:
                sock.close()
            from ..messages import say

            print(say("output.interrupted-nothing-was-written"), file=sys.stderr)
            return 130
        if sock is None:
            return None
    with sock:
        try:
            send(sock, {"argv": argv, "key": key}, _descriptors())
            reply = receive(sock)
        except KeyboardInterrupt:  # Ctrl-C reached this process only: the server is told, and says so
            return _interrupt(sock)
        except OSError:
            return None
    if reply is None or not isinstance(reply.get("exit"), int):
        return None  # refused (another context, a changed rulec) or gone: built in the process
    return int(reply["exit"])  # type: ignore[call-overload]


def _interrupt(sock: socket.socket) -> int:
    """Ctrl-C: tell the server through this request's own connection (the end of what this client
    sends), which interrupts this request's build as the key would a build in this process — or
    drops the request, not yet begun — and the server reports that nothing was written; wait for
    it to say so, and exit as an interrupted build. (A client that dies closes its connection,
    which the server takes the same way.)"""
    try:
        sock.shutdown(socket.SHUT_WR)
        sock.settimeout(5.0)
        receive(sock)
    except (OSError, KeyboardInterrupt):
        pass
    return 130


def stop() -> bool:
    """Ask this context's server to exit; True when one was running."""
    try:
        key = _key()
    except OSError:  # the working folder is gone: no server serves it
        return False
    path = place(key)
    sock = _connect(path) if path is not None else None
    if sock is None:
        return False
    with sock:
        try:
            send(sock, {"stop": True, "key": key})
            receive(sock)
        except OSError:
            pass
    return True
