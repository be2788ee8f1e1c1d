"""The JavaScript module's types (`index.d.ts`) compile with TypeScript in strict mode and are not
`any` (tests/js/types/use.ts). TypeScript is not a dependency of rulec: CI installs it with npm
(.ci/install_node.sh); elsewhere the test runs when `tsc` is on the PATH or named by RULEC_TSC."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from every_ruleset import BUNDLED, RULESETS

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


# TypeScript's "cannot find name" diagnostics (with and without a suggestion, and the ones asking
# for Node's or a test runner's type definitions): a name the code reads that nothing declares.
_UNRESOLVED = re.compile(r"^(?P<file>[^(\n]+)\((?P<line>\d+),\d+\): error TS(?:2304|2552|2580|2582|2591|2592|2593):.*$",
                         re.MULTILINE)


@pytest.mark.skipif(_tsc() is None, reason="TypeScript (tsc) is not installed; CI installs it")
def test_no_generated_javascript_reads_a_name_nothing_declares(built: Path, tmp_path: Path) -> None:
    """The class the build's own check (emit/js/resolved.py) covers only for runtime `_rt_` names:
    TypeScript reads each SealDice bundle (the module and its wrapper: everything a bot loads),
    as a module of its own, and none reads a global name that no code or standard JavaScript
    declares (a ReferenceError waiting for the one call that reaches it)."""
    files = []
    for ruleset in RULESETS:
        bundle = built / "js" / ruleset / f"rulec_{ruleset}.user.js"
        copy = tmp_path / f"{ruleset}.js"
        copy.write_text(bundle.read_text(encoding="utf-8") + "\nexport {};\n", encoding="utf-8")  # its own scope
        files.append(copy.name)
    probe = tmp_path / "probe.js"  # the check finds what it is for
    probe.write_text("export function probe() { return no_such_name; }\n", encoding="utf-8")
    done = subprocess.run([str(_tsc()), "--allowJs", "--checkJs", "--noEmit", "--target", "es2020", "--lib", "es2020",
                           "--module", "es2020", *files, probe.name], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, check=False)
    found = [m.group(0) for m in _UNRESOLVED.finditer(done.stdout)]
    assert [x for x in found if x.startswith("probe.js")], done.stdout[-2000:] + done.stderr[-1000:]
    assert [x for x in found if not x.startswith("probe.js")] == []


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
