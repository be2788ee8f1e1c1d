"""The docs stay true: every ```sh block of README.md and docs/*.md is run, in order, from a copy
of the repository (one per page), with this environment's `rulec`, each in a bounded time. A block
tagged anything else (```text, ```bash, ```python) is not run. The README stays short, and its
quick-start commands stay exactly the two CI runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
COPIED = ("rules", "schema", "examples", "generated", "data", "docs", "README.md", "pyproject.toml")
BLOCK_SECONDS = 300
QUICK_START = [
    "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && rulec build",
    """python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && python -m pytest -m "not slow\"""",
]


def blocks(page: Path, tag: str = "sh") -> list[str]:
    return [body for lang, body in BLOCK.findall(page.read_text(encoding="utf-8")) if lang == tag]


def test_the_readme_is_short_and_its_quick_start_is_what_ci_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert blocks(ROOT / "README.md", "bash")[0].splitlines() == QUICK_START
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -q -e '.[test]'" in ci and 'python -m pytest -m "not slow"' in ci


def test_every_page_links_to_files_that_exist_or_are_owed():
    """Links between pages resolve; the pages other parts of the project write are named here."""
    owed = {"architecture.md", "benchmarks.md", "javascript.md", "bots.md", "pages.md", "diff.md"}
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#\s]+)\)", page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            path = (page.parent / target).resolve()
            assert path.exists() or path.name in owed, f"{page.name}: broken link {target}"


def test_every_sh_block_uses_only_known_commands():
    for page in PAGES:
        for body in blocks(page):
            for line in body.splitlines():
                words = [w for w in line.split("&&")[0].split() if "=" not in w]  # VAR=value prefixes set the env
                first = words[0] if words else "rulec"
                assert first in ("rulec", "cd", "python", "cat", "ls"), f"{page.name}: {line}"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository with generated/ up to date, copied again for each page."""
    top = tmp_path_factory.mktemp("repo") / "repo"
    top.mkdir()
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, top / name, ignore=shutil.ignore_patterns("__pycache__", ".rulec-stat*"))
        elif src.is_file():
            shutil.copy2(src, top / name)
    done = _run("rulec build", top)
    assert done.returncode == 0, done.stderr
    return top


def _run(body: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = str(Path(sys.executable).parent)  # this environment's rulec and python
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""), "NO_COLOR": "1"}
    return subprocess.run(["bash", "-euo", "pipefail", "-c", body], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=BLOCK_SECONDS)


@pytest.mark.slow  # each page's blocks run rulec several times; a pack block builds dp with the pack
@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p)], ids=lambda p: p.name)
def test_every_sh_block_runs(page: Path, base: Path, tmp_path: Path):
    copy = tmp_path / "repo"
    shutil.copytree(base, copy, symlinks=True)
    for body in blocks(page):
        done = _run(body, copy)
        assert done.returncode == 0, f"{page.name}:\n{body}\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr and "internal error" not in done.stderr
