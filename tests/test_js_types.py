"""The JavaScript module's types (`index.d.ts`) compile with TypeScript in strict mode and are not
`any` (tests/js/types/use.ts). TypeScript is not a dependency of rulec: CI installs it with npm
(.ci/install_node.sh); elsewhere the test runs when `tsc` is on the PATH or named by RULEC_TSC."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from every_ruleset import BUNDLED

ROOT = Path(__file__).resolve().parent.parent


def _tsc() -> str | None:
    for candidate in (os.environ.get("RULEC_TSC"), shutil.which("tsc"),
                      str(ROOT / ".ci" / "node" / "node_modules" / ".bin" / "tsc")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


@pytest.mark.skipif(_tsc() is None, reason="TypeScript (tsc) is not installed; CI installs it")
def test_the_types_compile_strictly_and_mean_something(built: Path, tmp_path: Path) -> None:
    """use.ts (the API's types), required.ts (every required option of every bundled ruleset
    is required by the types: a call without it is a type error, issue 31) and fight.ts (the
    fight's roles, options and results by procedure)."""
    for ruleset in BUNDLED:  # the programs import each bundled ruleset's module
        shutil.copytree(built / "js" / ruleset, tmp_path / ruleset)
    for program in ("use.ts", "required.ts", "fight.ts"):
        shutil.copy(ROOT / "tests" / "js" / "types" / program, tmp_path / program)
    done = subprocess.run([str(_tsc()), "--noEmit", "--strict", "--target", "es2020", "--module", "nodenext",
                           "--moduleResolution", "nodenext", "use.ts", "required.ts", "fight.ts"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
