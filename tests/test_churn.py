"""Churn proportional to the change: a one-field edit of one weapon rewrites only the files that
show that weapon, plus the stamp and the two files that carry the content hash (the Python
package's `__init__.py`, the JS package.json); `rulec build --check` still sees the edit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "cases" / "valid_tiny" / "rules"


def _rulec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RULEC_CACHE_DIR": "off"}  # every build computes: nothing is taken on trust
    return subprocess.run([sys.executable, "-m", "rulec", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


def _tree(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and p.name != ".rulec-stat"}  # the stat record is a cache of the check, not an output


def _changed_by_edit(tmp_path: Path, rules: Path, table: Path, old: str, new: str) -> set[str]:
    shutil.copytree(rules, tmp_path / "rules")
    first = _rulec("build", "--rules", "rules", "--out", "out", cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    before = _tree(tmp_path / "out")
    path = tmp_path / "rules" / table
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    check = _rulec("build", "--rules", "rules", "--out", "out", "--check", cwd=tmp_path)
    assert check.returncode == 1, check.stdout + check.stderr  # the stamp vouches for the old inputs only
    second = _rulec("build", "--rules", "rules", "--out", "out", cwd=tmp_path)
    assert second.returncode == 0, second.stdout + second.stderr
    after = _tree(tmp_path / "out")
    again = _rulec("build", "--rules", "rules", "--out", "out", "--check", cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    for rel in after:
        if rel.endswith((".py", ".js")) and not rel.endswith("__init__.py"):
            assert b"Content hash" not in after[rel], rel
    return changed


@pytest.mark.slow  # an integration run of several seconds: CI's slow job
def test_one_weapon_field_changes_only_the_files_that_show_it(tmp_path: Path):
    """The sling's range, in the tiny golden case: its model, its JS module, its page."""
    changed = _changed_by_edit(tmp_path, TINY, Path("tiny/weapons.yaml"), "range: 20,", "range: 25,")
    assert changed == {
        ".rulec-stamp.json",
        "tiny/rulec_tiny/__init__.py",  # the content hash
        "tiny/rulec_tiny/model.py",
        "js/tiny/package.json",  # the content hash
        "js/tiny/index.js",
        "js/tiny/rulec_tiny.user.js",
        "reference/tiny.md",
        "reference/tiny.html",
        "reference/tiny-calc.html",  # the calculator inlines the JS module
    }


@pytest.mark.slow
def test_one_bundled_weapon_field_changes_only_the_files_that_show_it(tmp_path: Path):
    """DP-11: the long sword's damage, in the bundled dp rules: its model, its JS module, its page
    and the odds charts of the melee weapons; no other ruleset's file, no procedures module."""
    old = "{id: long_sword, name: 长剑, attack_type: melee, damage: 3,"
    changed = _changed_by_edit(tmp_path, ROOT / "rules", Path("dp/tables/weapons.yaml"), old,
                               old.replace("damage: 3", "damage: 4"))
    assert changed == {
        ".rulec-stamp.json",
        "dp/rulec_dp/__init__.py",
        "dp/rulec_dp/model.py",
        "js/dp/package.json",
        "js/dp/index.js",
        "js/dp/rulec_dp.user.js",
        "reference/dp.md",
        "reference/dp.html",
        "reference/dp-calc.html",  # the calculator inlines the JS module
        "reference/charts/dp-1-melee.svg",
        "reference/charts/dp-1-melee-until.svg",
    }
