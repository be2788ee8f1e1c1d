"""Shared fixtures: one fresh build of the bundled rules per test session, imported as packages."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from rulec.build.stamp import STAMP, stamp_bytes
from rulec.build.write import write_tree

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled rules compiled into a temporary folder that is on sys.path."""
    out = tmp_path_factory.mktemp("generated")
    result = compile_rules([RULES])
    assert result.ok, "\n".join(d.format() for d in result.diagnostics)
    write_tree(out, {**result.files, STAMP: stamp_bytes("", result.files)})
    folders = [str(out / rs.id) for rs in result.rulesets]  # each holds its package rulec_<id>
    sys.path[:0] = folders
    yield out
    for folder in folders:
        sys.path.remove(folder)


def _ruleset(built: Path, name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"rulec_{name}")


@pytest.fixture(scope="session")
def dp(built: Path):  # type: ignore[no-untyped-def]
    return _ruleset(built, "dp")


@pytest.fixture(scope="session")
def d20(built: Path):  # type: ignore[no-untyped-def]
    return _ruleset(built, "d20")


@pytest.fixture(scope="session")
def tracks(built: Path):  # type: ignore[no-untyped-def]
    return _ruleset(built, "tracks")
