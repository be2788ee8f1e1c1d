"""The build's check that an emitted module reads no undefined global name reads the bytecode
first (`global_reads`) and the symbol tables only to report (`unresolved`): the two must agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.emit.python.resolved import BUILTINS, global_reads, reads_undefined, unresolved

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"

SCOPES = """from __future__ import annotations
import os
from os import path as _p
X: int = 1
try:
    Y = 2
except ImportError:
    Z = 3


def deco(f):
    return f


@deco
def f(a, b=X, *, c=Y):
    global G
    G = a
    y = [z for z in a if z and q1]
    g = (lambda v: v + q2)
    def inner():
        return y, q3, os
    return _p, y, g, inner, len(a), {k: q4 for k in a}, {q5 for _ in a}, (q6 for _ in a)


class C(Base):
    own = X
    again = own + q7
    field: Later = 0

    def method(self) -> Undefined:
        return own_is_not_seen_here

    class Inner:
        deep = q8


def reads_g():
    return G, Z, __name__, __file__
"""


def _missing_by_bytecode(text: str) -> set[str]:
    found = global_reads(compile(text, "m.py", "exec", dont_inherit=True))
    assert found is not None
    read, defined = found
    return read - defined - BUILTINS


def test_the_bytecode_and_the_symbol_tables_find_the_same_undefined_names():
    expected = {"Base", "own_is_not_seen_here", *(f"q{n}" for n in range(1, 9))}
    assert {n for n, _ in unresolved(SCOPES, "m.py")} == expected
    assert _missing_by_bytecode(SCOPES) == expected
    assert reads_undefined(compile(SCOPES, "m.py", "exec"))
    assert not reads_undefined(compile("import os\n\ndef f():\n    return os, len\n", "m.py", "exec"))
    newer = "def f():\n    return aiter(x)\n"  # not a builtin of Python 3.8
    assert _missing_by_bytecode(newer) == {n for n, _ in unresolved(newer, "m.py")} == {"aiter", "x"}


def test_names_past_the_first_256_are_read_through_extended_arguments():
    names = [f"n{i}" for i in range(300)]
    text = "\n".join(f"{n} = {i}" for i, n in enumerate(names)) + "\n\ndef f():\n    return (" + \
        ", ".join(names + ["late_missing"]) + ")\n"
    assert _missing_by_bytecode(text) == {"late_missing"}
    assert _missing_by_bytecode(text.replace("n299 = 299\n", "")) == {"late_missing", "n299"}


def _built_modules() -> list[Path]:
    return sorted(p for p in GENERATED.glob("*/rulec_*/*.py"))


def test_every_built_module_reads_only_what_it_defines():
    modules = _built_modules()
    if not modules:
        pytest.skip("run `rulec build` first")
    for path in modules:
        text = path.read_text(encoding="utf-8")
        code = compile(text, str(path), "exec", dont_inherit=True)
        assert not reads_undefined(code), path
        assert unresolved(text, str(path)) == [], path


@pytest.mark.slow
def test_a_dropped_import_is_found_in_every_built_module():
    """Each name a built module imports, left out: both checks name it (unless nothing reads it
    but code the compiler drops, which cannot raise either)."""
    modules = _built_modules()
    if not modules:
        pytest.skip("run `rulec build` first")
    for path in modules:
        text = path.read_text(encoding="utf-8")
        code = compile(text, str(path), "exec", dont_inherit=True)
        found = global_reads(code)
        assert found is not None
        read, _ = found
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if not line.startswith("from ") or " import " not in line or "(" in line or "__future__" in line:
                continue
            head, _, names = line.partition(" import ")
            first = names.split(", ")[0]
            alias = first.split(" as ")[-1]
            rest = names.split(", ")[1:]
            mutated = "\n".join(lines[:i] + ([f"{head} import {', '.join(rest)}"] if rest else []) + lines[i + 1:])
            by_bytecode = _missing_by_bytecode(mutated)
            by_tables = {n for n, _ in unresolved(mutated, str(path))}
            assert by_bytecode == ({alias} if alias in read else set()), (path, alias)
            assert by_bytecode <= by_tables, (path, alias)
