"""The repository stands on its own: a copy of its tracked files, alone in an empty folder, builds,
checks and passes a short test subset. Nothing it runs, tests or documents reads a folder beside it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"\.\./shared|parent\s*/\s*[\"']shared[\"']")


def _tracked() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [p for p in out.decode().split("\0") if p and (ROOT / p).is_file()]


def test_nothing_reads_or_documents_a_folder_beside_the_repository():
    offenders = []
    for rel in _tracked():
        if rel.startswith("generated/") or rel.endswith((".json", ".svg", ".png")):
            continue
        text = (ROOT / rel).read_text(encoding="utf-8", errors="replace")
        offenders += [f"{rel}:{n}" for n, line in enumerate(text.splitlines(), 1) if OUTSIDE.search(line)]
    assert not offenders, offenders


@pytest.mark.slow  # a whole copy built and tested again (about 10 s): CI's clean clone checks the same
def test_a_lone_copy_builds_checks_and_tests(tmp_path: Path):
    """The tracked files, copied into an empty folder, with this project's compiler importable as
    `rulec` only from that copy (a shim folder first on PYTHONPATH)."""
    repo = tmp_path / "alone" / "repo"
    for rel in _tracked():
        target = repo / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "rulec").symlink_to(repo / "compiler", target_is_directory=True)
    env = {**os.environ, "PYTHONPATH": str(shim), "RULEC_CACHE_DIR": "off", "PYTHONDONTWRITEBYTECODE": "1"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *args], cwd=repo, env=env, capture_output=True, text=True,
                              timeout=300)

    where = run("-c", "import os, rulec; print(os.path.realpath(rulec.__file__))")
    assert where.returncode == 0 and where.stdout.strip().startswith(str(repo)), where
    check = run("-m", "rulec", "build", "--check")
    assert check.returncode == 0, check.stderr
    examples = run("-m", "rulec", "test", "examples")  # every worked example, in one process
    assert examples.returncode == 0 and " passed, 0 failed" in examples.stderr, examples.stderr[-3000:]
    tests = run("-m", "pytest", "-q", "-x", "-n", "0", "-m", "not slow", "-p", "no:cacheprovider",
                "tests/test_cases.py")
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
