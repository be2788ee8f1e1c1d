"""The build server (`RULEC_SERVER=on`: cli/server_link.py, cli/server.py): a `rulec build` it
runs writes what the process's own build writes and reports the same, it serves only the context
it was started in, a user's folder that others may enter is never used, and it stops when asked."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulec.cli import server
from rulec.build.stamp import compiler_digest
from rulec.cli import server_link

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "cases" / "rulesets" / "mini"
RULEC = [sys.executable, "-c", "import sys; from rulec.cli.entry import main; sys.argv[0] = 'rulec'; main()"]

pytestmark = pytest.mark.skipif(not hasattr(socket, "send_fds"), reason="no Unix sockets that carry descriptors")


class Context:
    """A working folder with the mini ruleset and an environment with the server on."""

    def __init__(self, tmp: Path) -> None:
        self.cwd = tmp / "work"
        shutil.copytree(MINI, self.cwd / "mini")
        self.env = {**os.environ, "RULEC_SERVER": "on", "RULEC_CACHE_DIR": str(tmp / "cache"),
                    "RULEC_SERVER_IDLE": "120", "NO_COLOR": "1"}

    def rulec(self, *args: str, server: bool = True) -> subprocess.CompletedProcess[str]:
        env = dict(self.env) if server else {k: v for k, v in self.env.items() if k != "RULEC_SERVER"}
        return subprocess.run([*RULEC, *args], cwd=self.cwd, env=env, capture_output=True, text=True, timeout=120)

    def sockets(self) -> list[Path]:
        folder = Path(self.env["RULEC_CACHE_DIR"]) / "server"
        return sorted(folder.glob("*.sock")) if folder.is_dir() else []

    def stop(self) -> None:
        self.rulec("server", "stop")
        deadline = time.monotonic() + 10
        while self.sockets() and time.monotonic() < deadline:
            time.sleep(0.05)


@pytest.fixture
def context(tmp_path: Path):  # type: ignore[no-untyped-def]
    ctx = Context(tmp_path)
    yield ctx
    ctx.stop()


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_served_build_writes_and_says_what_the_process_would(context: Context) -> None:
    first = context.rulec("build", "--rules", "mini", "--out", "served")
    assert first.returncode == 0, first.stderr
    assert context.rulec("build", "--rules", "mini", "--out", "alone", server=False).returncode == 0
    assert len(context.sockets()) == 1  # started by that build, which it ran
    weapons = context.cwd / "mini" / "weapons.yaml"
    weapons.write_text(weapons.read_text(encoding="utf-8").replace("damage: 1", "damage: 3"), encoding="utf-8")
    again = context.rulec("build", "--rules", "mini", "--out", "served")
    alone = context.rulec("build", "--rules", "mini", "--out", "alone", server=False)
    assert again.returncode == alone.returncode == 0
    assert _tree(context.cwd / "served") == _tree(context.cwd / "alone")  # the stamp included
    assert again.stderr.replace("served", "OUT") == alone.stderr.replace("alone", "OUT")


def test_a_failed_build_fails_the_same_way(context: Context) -> None:
    assert context.rulec("build", "--rules", "mini", "--out", "out").returncode == 0
    weapons = context.cwd / "mini" / "weapons.yaml"
    weapons.write_text(weapons.read_text(encoding="utf-8").replace("damage: 1", "damage: 1, dammage: 2"),
                       encoding="utf-8")
    served = context.rulec("build", "--rules", "mini", "--out", "out")
    alone = context.rulec("build", "--rules", "mini", "--out", "out", server=False)
    assert served.returncode == alone.returncode == 1
    assert served.stderr == alone.stderr and "weapons.yaml:5:" in served.stderr
    served = context.rulec("build", "--rules", "mini", "--out", "out", "--format", "json")
    alone = context.rulec("build", "--rules", "mini", "--out", "out", "--format", "json", server=False)
    assert (served.returncode, served.stdout, served.stderr) == (alone.returncode, alone.stdout, alone.stderr)
    assert json.loads(served.stdout)
    assert len(context.sockets()) == 1  # the same server answered both of its builds


def test_ctrl_c_that_reaches_the_server_between_builds_leaves_it_serving(context: Context) -> None:
    assert context.rulec("build", "--rules", "mini", "--out", "out").returncode == 0
    (path,) = context.sockets()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(str(path))
        ids = server_link.peer_ids(sock)
    assert ids is not None
    os.kill(ids[0], signal.SIGINT)
    time.sleep(0.2)
    assert context.rulec("build", "--rules", "mini", "--out", "out2").returncode == 0
    assert context.sockets() == [path]


@pytest.mark.slow  # a build of the bundled rules, seconds long, to interrupt
def test_ctrl_c_stops_the_served_build_and_nothing_is_written(context: Context) -> None:
    shutil.copytree(ROOT / "rules", context.cwd / "rules")  # a build of a few seconds
    client = subprocess.Popen([*RULEC, "build", "--out", "out"], cwd=context.cwd, env=context.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not context.sockets() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.5)  # the server has the request, and builds
    client.send_signal(signal.SIGINT)
    _, err = client.communicate(timeout=60)
    assert client.returncode == 130, err
    assert "中断" in err and "Traceback" not in err
    assert not (context.cwd / "out").exists()
    assert context.rulec("build", "--rules", "mini", "--out", "after").returncode == 0  # and serves on


def test_stop(context: Context) -> None:
    assert "没有正在运行" in context.rulec("server", "stop").stderr
    assert context.rulec("build", "--rules", "mini", "--out", "out").returncode == 0
    assert context.sockets()
    assert "已停止" in context.rulec("server", "stop").stderr
    context.stop()
    assert not context.sockets()


def test_a_folder_others_may_enter_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEC_CACHE_DIR", str(tmp_path))
    folder = tmp_path / "server"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    assert not server_link.private(folder)
    assert server_link.forward(["build"]) is None  # refused at once: the caller builds in its process
    assert list(folder.iterdir()) == []
    folder.chmod(0o700)
    assert server_link.private(folder)
    link = tmp_path / "link"
    link.symlink_to(folder)
    assert not server_link.private(link)


def test_served_only_builds() -> None:
    assert server_link.served(["build", "--out", "x"])
    for argv in (["build", "--watch"], ["build", "--check"], ["build", "--help"], ["validate"], ["resolve", "x"], []):
        assert not server_link.served(argv)


def _ask(message: dict[str, object], key: dict[str, object], digest: str) -> tuple[bool, dict[str, object] | None]:
    """`server._handle` answering `message` (with /dev/null for the three streams) on a socket pair."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    null = os.open(os.devnull, os.O_RDWR)
    try:
        server_link.send(ours, message, [null, null, null])
        keep = server._handle(theirs, key, digest)
        return keep, server_link.receive(ours)
    finally:
        os.close(null)
        ours.close()
        theirs.close()


def test_requests_from_another_context_or_a_changed_rulec_are_refused() -> None:
    key = server_link._key()
    other = {**key, "cwd": "/elsewhere"}
    assert _ask({"argv": ["build"], "key": other}, key, compiler_digest()) == (True, {"refused": "context"})
    assert _ask({"argv": ["validate"], "key": key}, key, compiler_digest()) == (True, {"refused": "request"})
    assert _ask({"argv": "build", "key": key}, key, compiler_digest()) == (True, {"refused": "request"})
    assert _ask({"argv": ["build"], "key": key}, key, "0" * 64) == (False, {"refused": "stale"})
    assert _ask({"stop": True, "key": key}, key, compiler_digest()) == (False, {"stopped": True})


def test_a_key_names_everything_a_build_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two contexts that differ in any environment variable a build reads get two servers."""
    base = server_link._key()
    for var in server_link.ENV_READ + ("PYTHONHASHSEED",):
        monkeypatch.setenv(var, "x-" + var)
        assert server_link._key() != base, var
        monkeypatch.undo()
    assert json.dumps(server_link._key(), sort_keys=True) == json.dumps(base, sort_keys=True)


def test_a_library_upgraded_under_a_server_makes_it_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    library = tmp_path / "somelib.py"
    library.write_text("X = 1\n")
    module = types.ModuleType("somelib")
    module.__file__ = str(library)
    monkeypatch.setitem(sys.modules, "somelib", module)
    time.sleep(0.01)
    seen = server._Libraries((str(tmp_path) + os.sep,))
    assert not seen.changed()
    library.write_text("X = 22\n")  # pip install -U, after the server started
    assert seen.changed()
    assert not server._Libraries((str(tmp_path / "elsewhere") + os.sep,)).changed()


def test_the_working_folder_is_not_where_the_server_imports_from(context: Context) -> None:
    """A pack's `yaml.py` (or a `compiler` package) in the folder being built never runs: the
    server starts with -P and imports rulec by its own name."""
    marker = context.cwd / "ran"
    planted = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran')\n"
    (context.cwd / "yaml.py").write_text(planted)
    (context.cwd / "compiler" / "cli").mkdir(parents=True)
    for rel in ("compiler/__init__.py", "compiler/cli/__init__.py", "compiler/cli/server.py"):
        (context.cwd / rel).write_text(planted)
    done = context.rulec("build", "--rules", "mini", "--out", "out")
    assert done.returncode == 0, done.stderr
    assert len(context.sockets()) == 1 and (context.cwd / "out").is_dir()
    assert not marker.exists()


def test_a_folder_made_again_at_the_same_path_is_another_context(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    before = server_link._key()
    (tmp_path / "work").rename(tmp_path / "old")
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    after = server_link._key()
    assert before["cwd"] == after["cwd"] and before != after


def test_a_key_names_the_user_groups_and_interpreter_options() -> None:
    key = server_link._key()
    assert key["gid"] == os.getgid() and key["groups"] == sorted(os.getgroups())
    assert key["flags"] == [getattr(sys.flags, name) for name, _ in server_link._FLAGS]


def test_a_slow_or_deeply_nested_request_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    key = server_link._key()
    monkeypatch.setattr(server_link, "REQUEST_WAIT", 0.5)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)

    def trickle() -> None:  # a header asking for 100 bytes, then a byte every 0.1 s
        try:
            ours.sendall((100).to_bytes(4, "big"))
            for _ in range(40):
                time.sleep(0.1)
                ours.sendall(b" ")
        except OSError:
            pass

    thread = threading.Thread(target=trickle)
    thread.start()
    start = time.monotonic()
    with pytest.raises(OSError):
        server._handle(theirs, key, compiler_digest())
    assert time.monotonic() - start < 2
    theirs.close()
    ours.close()
    thread.join()
    nested = b"[" * 100_000
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with ours, theirs:
        ours.sendall(len(nested).to_bytes(4, "big") + nested)
        assert server_link.receive(theirs) is None  # not a RecursionError


def test_the_lock_and_socket_are_never_made_through_a_link(tmp_path: Path) -> None:
    folder = tmp_path / "server"
    folder.mkdir(mode=0o700)
    target = tmp_path / "target"
    (folder / "x.sock.lock").symlink_to(target)
    server.serve(str(folder / "x.sock"))  # refused at once: the lock is a link
    assert not target.exists() and not (folder / "x.sock").exists()
    (folder / "x.sock.lock").unlink()
    linked = tmp_path / "linked"
    linked.symlink_to(folder)
    server.serve(str(linked / "x.sock"))  # refused at once: the folder is a link
    assert list(folder.iterdir()) == []
    folder.chmod(0o750)
    server.serve(str(folder / "x.sock"))  # refused at once: others may enter
    assert list(folder.iterdir()) == []


def _bundled(context: Context) -> None:
    if not (context.cwd / "rules").exists():
        shutil.copytree(ROOT / "rules", context.cwd / "rules")  # a build of a few seconds


def _started(context: Context, *args: str) -> subprocess.Popen[str]:
    client = subprocess.Popen([*RULEC, *args], cwd=context.cwd, env=context.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not context.sockets() and time.monotonic() < deadline:
        time.sleep(0.02)
    return client


@pytest.mark.slow  # a build of the bundled rules, seconds long, to interrupt
def test_ctrl_c_of_a_waiting_client_leaves_the_running_build_alone(context: Context) -> None:
    _bundled(context)
    assert context.rulec("build", "--rules", "mini", "--out", "warm").returncode == 0  # the server is up
    first = _started(context, "build", "--out", "a")
    time.sleep(0.3)
    second = _started(context, "build", "--rules", "mini", "--out", "b")  # waits for the first
    time.sleep(0.3)
    second.send_signal(signal.SIGINT)
    _, err = second.communicate(timeout=60)
    assert second.returncode == 130, err
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert (context.cwd / "a").is_dir()
    assert context.rulec("build", "--rules", "mini", "--out", "after").returncode == 0  # it ran after the first
    assert not (context.cwd / "b").exists()  # the dropped request wrote nothing


@pytest.mark.slow  # a build of the bundled rules, seconds long, to interrupt
def test_a_client_killed_mid_build_stops_its_build(context: Context) -> None:
    _bundled(context)
    assert context.rulec("build", "--rules", "mini", "--out", "warm").returncode == 0
    client = _started(context, "build", "--out", "killed")
    time.sleep(0.5)
    client.kill()
    client.communicate(timeout=30)
    assert context.rulec("build", "--rules", "mini", "--out", "after").returncode == 0  # served once that ended
    assert not (context.cwd / "killed").exists()
