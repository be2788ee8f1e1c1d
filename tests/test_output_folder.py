"""The output folder is safe (compiler/build/write.py): rulec writes only a folder it owns, refuses
everything else with exit 1 and touches nothing, keeps the umask's permissions, survives kills and
concurrent builds, and reports file-system errors as exit 1 with the previous output intact."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rulec.build import write as write_module
from rulec.build.write import STAMP, WriteError, check_target, write_tree

ROOT = Path(__file__).resolve().parent.parent
STAMPED = {STAMP: b'{"inputs": "x", "outputs": "y"}\n'}


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def rulec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulec", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "NO_COLOR": "1"})


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder holding a copy of the tiny ruleset and the user's own notes."""
    import shutil

    shutil.copytree(ROOT / "tests" / "cases" / "valid_tiny" / "rules", tmp_path / "rules")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("mine\n")
    return tmp_path


@pytest.mark.parametrize("out, why", [
    ("notes", "not empty and was not written by rulec"),
    ("notes/todo.txt", "is a file"),
    (".", "current folder"),
    ("..", "current folder or one of its parents"),
    ("rules", "is the rules folder"),
    ("rules/tiny", "lies inside the rules folder"),
    ("rules/tiny/out", "lies inside the rules folder"),
    ("repo", "version-control root"),
])
def test_refused_outputs_touch_nothing(project: Path, out: str, why: str):
    (project / "repo" / ".git").mkdir(parents=True)
    before = tree(project)
    result = rulec("build", "--rules", "rules", "--out", out, cwd=project)
    assert result.returncode == 1 and why in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert tree(project) == before


def test_an_output_holding_the_rules_is_refused(project: Path):
    with pytest.raises(WriteError, match="holds the rules folder"):
        check_target(project / "rules" / "..", [project / "rules" / "tiny"])
    pack = project / "pack"
    pack.mkdir()
    with pytest.raises(WriteError, match="is the rules folder"):
        check_target(pack, [project / "rules", pack])


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_new_empty_and_owned_folders_are_written(project: Path):
    (project / "empty").mkdir()
    for out in ("fresh/out", "empty"):
        result = rulec("build", "--rules", "rules", "--out", out, cwd=project)
        assert result.returncode == 0, result.stderr
        assert (project / out / STAMP).is_file() and write_module.is_owned(project / out)
    again = rulec("build", "--rules", "rules", "--out", "empty", cwd=project)
    assert again.returncode == 0 and "unchanged" in again.stderr


def test_output_keeps_the_umask_permissions(tmp_path: Path):
    old = os.umask(0o022)
    try:
        write_tree(tmp_path / "out", {**STAMPED, "pkg/a.py": b"x"})
    finally:
        os.umask(old)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "out" / "pkg").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "out" / "pkg" / "a.py").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_file_system_errors_name_the_path_and_keep_the_old_output(tmp_path: Path, monkeypatch, code: int):
    out = tmp_path / "out"
    write_tree(out, {**STAMPED, "a.txt": b"old"})
    real_open = open

    def failing_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if "w" in mode and ".staging-" in str(file):
            raise OSError(code, os.strerror(code), str(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", failing_open)
    with pytest.raises(WriteError, match=f"cannot write {out}: {os.strerror(code)}"):
        write_tree(out, {**STAMPED, "a.txt": b"new"})
    monkeypatch.undo()
    assert tree(out)["a.txt"] == b"old"
    assert not list(tmp_path.glob(".out.staging-*"))


def test_a_parent_that_is_a_file_is_exit_1(project: Path):
    result = rulec("build", "--rules", "rules", "--out", "notes/todo.txt/out", cwd=project)
    assert result.returncode == 1 and "notes/todo.txt/out" in result.stderr and "bug" not in result.stderr


def test_an_interrupted_swap_is_restored_and_said(tmp_path: Path):
    out = tmp_path / "out"
    write_tree(out, {**STAMPED, "a.txt": b"1"})
    os.replace(out, tmp_path / ".out.previous")  # as if killed between two renames
    (tmp_path / ".out.staging-123").mkdir()  # and a staging folder of a killed build
    diff = write_tree(out, {**STAMPED, "a.txt": b"1"})
    assert tree(out)["a.txt"] == b"1" and not diff
    assert any("restored" in n for n in diff.notes) and any("staging-123" in n for n in diff.notes)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


_WRITER = """
import sys
from pathlib import Path
from rulec.build.write import write_tree
out, n = Path(sys.argv[1]), int(sys.argv[2])
files = {".rulec-stamp.json": b'{"inputs": "x", "outputs": "y"}'}
files.update({f"f{i // 100}/{i}.txt": (b"%d" % n) * 2000 for i in range(3000)})
print("ready", flush=True)
write_tree(out, files)
"""


def _kill_rounds(tmp_path: Path, rounds: int) -> None:
    out = tmp_path / "out"
    write_tree(out, {**STAMPED, "f0/0.txt": b"start"})
    for n in range(rounds):
        proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(out), str(n)], stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        time.sleep(0.02 * (n % 10))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert out.is_dir(), f"round {n}: the output folder is missing after a kill"
        contents = {p.read_bytes()[:8] for p in out.rglob("*.txt")}
        assert len(contents) == 1, f"round {n}: a mixed tree"
    write_tree(out, {**STAMPED, "done.txt": b"ok"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert tree(out) == {**STAMPED, "done.txt": b"ok"}


@pytest.mark.slow  # several seconds: CI's slow job
def test_builds_killed_at_any_moment_leave_a_whole_output(tmp_path: Path):
    _kill_rounds(tmp_path, 6)


@pytest.mark.slow
def test_builds_killed_at_any_moment_leave_a_whole_output_many_times(tmp_path: Path):
    _kill_rounds(tmp_path, 60)


def test_concurrent_builds_into_one_folder_are_serialised(tmp_path: Path):
    out = tmp_path / "out"
    errors: list[BaseException] = []
    trees = [{**STAMPED, **{f"d/{i}.txt": bytes([65 + k]) * 500 for i in range(200)}} for k in range(4)]

    def build(k: int) -> None:
        try:
            for _ in range(5):
                write_tree(out, trees[k])
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert tree(out) in trees
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_linked_output_is_written_through_the_link_and_leaves_nothing_behind(tmp_path: Path):
    real = tmp_path / "real-out"
    link = tmp_path / "out"
    write_tree(real, {**STAMPED, "a.txt": b"1"})
    link.symlink_to(real, target_is_directory=True)
    for n in range(2, 5):
        diff = write_tree(link, {**STAMPED, "a.txt": str(n).encode()})
        assert diff.changed == ["a.txt"] and diff.notes == [], diff.notes  # no leftover reported, ever
        assert link.is_symlink() and (real / "a.txt").read_bytes() == str(n).encode()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "real-out"]


def test_a_stale_staging_link_is_removed_once_and_said_once(tmp_path: Path):
    out = tmp_path / "out"
    write_tree(out, {**STAMPED, "a.txt": b"1"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    (tmp_path / ".out.staging-1-2").symlink_to(elsewhere, target_is_directory=True)  # what the old writer left
    first = write_tree(out, {**STAMPED, "a.txt": b"2"})
    second = write_tree(out, {**STAMPED, "a.txt": b"3"})
    assert [n for n in first.notes if "staging" in n] and not second.notes
    assert (elsewhere / "keep.txt").read_text() == "mine"  # the link was removed, not what it points at


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


def test_a_file_holds_its_bytes_across_the_chunks_it_is_read_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`_holds` (what `diff_tree` keeps unchanged) tells a file's bytes from any other bytes of the
    same size, wherever they differ: the first, a middle and the last chunk, and a chunk's edge."""
    monkeypatch.setattr(write_module, "_CHUNK", 7)
    data = bytes(range(40))
    path = tmp_path / "f"
    path.write_bytes(data)
    assert write_module._holds(path, data)
    for at in (0, 6, 7, 20, 39):
        other = bytearray(data)
        other[at] ^= 1
        assert not write_module._holds(path, bytes(other))
    assert not write_module._holds(path, data[:-1]) and not write_module._holds(tmp_path / "missing", data)
