"""Golden cases: tests/cases/<name>/rules/ in; expected output (valid) or expected diagnostics (broken) out.

To accept new output after an intended change, run:
    RULEC_UPDATE_GOLDEN=1 python -m pytest tests/test_cases.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules

CASES = Path(__file__).resolve().parent / "cases"
UPDATE = bool(os.environ.get("RULEC_UPDATE_GOLDEN"))
FIX = "run `RULEC_UPDATE_GOLDEN=1 python -m pytest tests/test_cases.py` to accept the new output"


def _build(case: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(case)  # diagnostics name files relative to the case folder
    return compile_rules([Path("rules")])


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.name.startswith("bad_")))
def test_broken_rules_give_the_expected_diagnostics(case: str, monkeypatch: pytest.MonkeyPatch):
    folder = CASES / case
    build = _build(folder, monkeypatch)
    assert not build.ok and not build.files
    got = "\n".join(d.format() for d in build.diagnostics) + "\n"
    expected = folder / "expected.txt"
    if UPDATE or not expected.exists():
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8"), FIX


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.name.startswith("valid_")))
def test_valid_rules_give_the_expected_output(case: str, monkeypatch: pytest.MonkeyPatch):
    folder = CASES / case
    build = _build(folder, monkeypatch)
    assert build.ok, [d.format() for d in build.diagnostics]
    files = {k: v for k, v in build.files.items() if "/_runtime/" not in k}
    expected = folder / "expected"
    if UPDATE or not expected.exists():
        for k, v in files.items():
            (expected / k).parent.mkdir(parents=True, exist_ok=True)
            (expected / k).write_bytes(v)
    on_disk = {p.relative_to(expected).as_posix(): p.read_bytes() for p in expected.rglob("*")
               if p.is_file() and not any(part.startswith((".", "__pycache__")) for part in p.relative_to(expected).parts)}
    assert sorted(on_disk) == sorted(files), FIX
    for name, data in files.items():
        assert data == on_disk[name], f"{name} differs; {FIX}"
