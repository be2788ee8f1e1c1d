"""The two sides of `rulec diff`: a rule folder or pack on disk, or a git revision (`HEAD~1`,
`main:rules`, `v1.0:packs/my-pack`) exported into a temporary folder that rulec owns.

A revision is read with `git archive` as a tar stream, member by member: only regular files and
folders, no absolute path or `..`, each file at most `MAX_RULE_FILE_BYTES`, at most `MAX_FILES`
files and `MAX_TOTAL_BYTES` in all (checked before each member is written). A revision without a
path means its `rules/` folder.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ...load.reading import MAX_RULE_FILE_BYTES

MAX_FILES = 20_000
MAX_TOTAL_BYTES = 256 * 1024 * 1024
MAX_SPEC = 500  # characters of a revision argument
GIT_TIMEOUT = 120  # seconds


class SideError(ValueError):
    """An argument that names neither a folder nor a revision that can be exported."""


@dataclass
class Side:
    """What one argument named: the paths to compile, and how to show it."""

    label: str
    paths: list[Path]
    _tmp: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


def _git(repo: Path, *args: str, stdout: int | None = subprocess.PIPE) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["git", "-C", str(repo), *args], stdout=stdout, stderr=subprocess.PIPE)


def _toplevel(cwd: Path) -> Path:
    proc = subprocess.run(["git", "-C", str(cwd), "rev-parse", "--show-toplevel"], capture_output=True,
                          timeout=GIT_TIMEOUT, check=False)
    if proc.returncode != 0:
        raise SideError("not a folder, and not inside a git repository to read a revision from")
    return Path(proc.stdout.decode("utf-8", "replace").strip())


def _split(spec: str) -> tuple[str, str]:
    rev, sep, path = spec.partition(":")
    return rev, (path if sep else "rules")


def export_revision(spec: str, cwd: Path) -> Side:
    """`spec` (REV or REV:PATH) exported from the repository around `cwd` into a temporary folder."""
    if len(spec) > MAX_SPEC or not spec or spec.startswith("-") or "\x00" in spec:
        raise SideError(f"not a revision: {spec[:80]!r}")
    rev, path = _split(spec)
    if not rev or rev.startswith("-"):
        raise SideError(f"not a revision: {spec[:80]!r}")
    repo = _toplevel(cwd)
    inner = PurePosixPath(path.strip("/") or ".")  # as git reads REV:PATH: from the repository's top
    if ".." in inner.parts:
        raise SideError(f"not a path inside the repository: {path[:80]!r}")
    check = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{rev}^{{tree}}"],
                           capture_output=True, timeout=GIT_TIMEOUT, check=False)
    if check.returncode != 0:
        raise SideError(f"no such revision: {rev[:80]}")
    tmp = tempfile.TemporaryDirectory(prefix="rulec-diff-")
    root = Path(tmp.name) / "tree"
    root.mkdir()
    try:
        _extract(repo, rev, str(inner) if str(inner) != "." else "", root)
    except BaseException:
        tmp.cleanup()
        raise
    target = root / inner
    if not target.exists():
        tmp.cleanup()
        raise SideError(f"{rev} has no {inner}")
    return Side(spec, [target], tmp)


def _extract(repo: Path, rev: str, path: str, root: Path) -> None:
    args = ["archive", "--format=tar", rev] + (["--", path] if path else [])
    proc = _git(repo, *args)
    assert proc.stdout is not None
    files = 0
    total = 0
    try:
        with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
            for member in tar:
                name = PurePosixPath(member.name)
                if name.is_absolute() or ".." in name.parts:
                    raise SideError(f"{rev}: refused path {member.name[:80]!r}")
                if member.isdir():
                    continue
                if not member.isfile():
                    continue  # links and the like are never followed (the loader refuses them too)
                files += 1
                total += member.size
                if files > MAX_FILES:
                    raise SideError(f"{rev}: more than {MAX_FILES} files")
                if member.size > MAX_RULE_FILE_BYTES or total > MAX_TOTAL_BYTES:
                    raise SideError(f"{rev}: {member.name[:80]} is too large ({member.size} bytes)")
                source = tar.extractfile(member)
                if source is None:
                    continue
                target = root.joinpath(*name.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "wb") as out:
                    shutil.copyfileobj(source, out)
    except tarfile.TarError as exc:
        raise SideError(f"{rev}: git archive failed: {exc}") from None
    finally:
        proc.stdout.close()
        try:
            _, err = proc.communicate(timeout=GIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            err = b""
    if proc.returncode not in (0, None) and files == 0:
        raise SideError(f"{rev}: {err.decode('utf-8', 'replace').strip()[:200] or 'git archive failed'}")


def side(arg: str, cwd: Path | None = None) -> Side:
    """A folder or pack when `arg` is a path on disk, else a git revision."""
    here = cwd or Path.cwd()
    path = Path(arg)
    try:
        on_disk = len(arg) <= 4096 and (here / path).exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL
        on_disk = False
    if on_disk:
        return Side(arg, [here / path if not path.is_absolute() else path])
    return export_revision(arg, here)
