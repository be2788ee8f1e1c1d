"""The build cache (compiler/cache.py) only saves time: a warm build writes exactly what a build
without the cache writes, and every diagnostic is found again after an edit."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulec import cache
from rulec.build import compile_rules
from rulec.emit import env

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "cases" / "valid_tiny" / "rules" / "tiny"


def _use_cache(monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    monkeypatch.setenv("RULEC_CACHE_DIR", setting)
    cache.cache_dir.cache_clear()
    env._environment.cache_clear()


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    _use_cache(monkeypatch, str(tmp_path / "cache"))
    yield tmp_path / "cache"
    monkeypatch.delenv("RULEC_CACHE_DIR")
    cache.cache_dir.cache_clear()
    env._environment.cache_clear()


def test_a_warm_build_after_an_edit_equals_a_build_without_cache(tmp_path: Path, fresh_cache: Path,
                                                                   monkeypatch: pytest.MonkeyPatch):
    rules = tmp_path / "dp"
    shutil.copytree(ROOT / "rules" / "dp", rules)
    assert compile_rules([rules]).ok  # fills the cache
    table = next((rules / "tables").glob("*weapon*.yaml"))
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace("name: 长剑", "name: 长剑（改）", 1), encoding="utf-8")
    warm = compile_rules([rules])
    assert any(fresh_cache.iterdir()) and warm.ok
    _use_cache(monkeypatch, "off")
    cold = compile_rules([rules])
    assert warm.files == cold.files
    assert "长剑（改）" in warm.files["reference/dp.md"].decode()


def test_diagnostics_are_found_again_whatever_the_cache_holds(tmp_path: Path, fresh_cache: Path):
    rules = tmp_path / "tiny"
    shutil.copytree(TINY, rules)
    weapons = rules / "weapons.yaml"
    good = weapons.read_text(encoding="utf-8")
    assert compile_rules([rules]).ok
    weapons.write_text(good.replace("damage: 1, rules", "damage: many, rules", 1), encoding="utf-8")
    for _ in range(2):  # the second time, every other entry of the file is a remembered clean one
        build = compile_rules([rules])
        [diag] = build.diagnostics
        assert not build.ok and diag.span.file.endswith("weapons.yaml") and diag.span.line == 5
    weapons.write_text(good, encoding="utf-8")
    assert compile_rules([rules]).ok
