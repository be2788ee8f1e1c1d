"""Shared fixtures: one fresh build per test session of every ruleset the tests run on (the bundled
rules and tests/cases/rulesets/, see tests/every_ruleset.py), imported as packages."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

from rulec.build.facade import compile_rules
from rulec.build.stamp import STAMP, stamp_bytes
from rulec.build.write import write_tree
from every_ruleset import RULESETS, SOURCES

ROOT = Path(__file__).resolve().parent.parent
os.environ.pop("RULEC_SERVER", None)  # the tests' `rulec build` runs in its process (test_server.py starts its own)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every ruleset of `every_ruleset.SOURCES` compiled in one build into a temporary folder whose
    packages are on sys.path."""
    out = tmp_path_factory.mktemp("generated")
    result = compile_rules(SOURCES)
    assert result.ok, "\n".join(d.format() for d in result.diagnostics)
    assert tuple(sorted(rs.id for rs in result.rulesets)) == RULESETS
    write_tree(out, {**result.files, STAMP: stamp_bytes("", result.files)})
    folders = [str(out / rs.id) for rs in result.rulesets]  # each holds its package rulec_<id>
    sys.path[:0] = folders
    yield out
    for folder in folders:
        sys.path.remove(folder)


def _ruleset(built: Path, name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"rulec_{name}")


@pytest.fixture(scope="session")
def package(built: Path):  # type: ignore[no-untyped-def]
    """The built package of a ruleset, by id: `package("mini")` (for tests parametrised over
    `every_ruleset.RULESETS`)."""
    return lambda ruleset: _ruleset(built, ruleset)


@pytest.fixture(scope="session")
def dp(built: Path):  # type: ignore[no-untyped-def]
    return _ruleset(built, "dp")


@pytest.fixture(scope="session")
def d20(built: Path):  # type: ignore[no-untyped-def]
    return _ruleset(built, "d20")


@pytest.fixture(scope="session")
def tracks(built: Path):  # type: ignore[no-untyped-def]
    return _ruleset(built, "tracks")
