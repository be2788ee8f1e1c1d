"""A pytest plugin: the test run never writes into the user's cache folder (~/.cache/rulec). Every
build of the run, in-process or in a `rulec` subprocess (which inherits the environment), uses one
temporary cache folder, removed at the end; the compiler's bytecode is compiled once first. Loaded by `-p tests.plugin_cache` (pyproject addopts).
A test that sets RULEC_CACHE_DIR itself (tests/test_cache.py) still does."""

from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

_OURS = "RULEC_TEST_CACHE_DIR_OWNER"


def pytest_configure(config: pytest.Config) -> None:
    # Bytecode is written and read as a user's Python does (this machine sets PYTHONDONTWRITEBYTECODE):
    # a generated package a test builds is compiled once, not again by every `rulec resolve` of it
    # (0.2 s for dp), and pytest keeps its rewritten test modules. __pycache__/ is git-ignored, and
    # neither `rulec build` nor `--check` counts it in an output folder.
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if not hasattr(config, "workerinput"):  # once, in the controller, before the workers start: every
        # worker and `rulec` subprocess of the run reads the compiler's bytecode, none compiles it
        compileall.compile_dir(str(Path(__file__).resolve().parent.parent / "compiler"), quiet=1)
    if os.environ.get("RULEC_CACHE_DIR"):
        return  # set by the user (or by the controller for this xdist worker)
    os.environ["RULEC_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulec-test-cache-")
    os.environ[_OURS] = str(os.getpid())


def pytest_unconfigure(config: pytest.Config) -> None:
    if os.environ.get(_OURS) == str(os.getpid()):
        shutil.rmtree(os.environ.pop("RULEC_CACHE_DIR"), ignore_errors=True)
        os.environ.pop(_OURS, None)
