"""The Node test suite of the JavaScript modules (tests/js/*.test.mjs, `node --test`), run on this
session's fresh build, so that the README's test command runs it too."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (CI installs it)")
def test_node_test_suite(built: Path) -> None:
    assert NODE is not None
    done = subprocess.run([NODE, "--test", str(ROOT / "tests" / "js")], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "RULEC_GENERATED": str(built)}, check=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
