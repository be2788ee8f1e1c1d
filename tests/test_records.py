"""The compiler's records (compiler/record.py): frozen, compared and hashed by their fields, shown
by `repr` as dataclasses were, and encoded for digests (the kept texts of a one-shot build are
found by the digest of a ruleset's shape) so that no two classes ever encode alike."""

from __future__ import annotations

import ast
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulec
from rulec.build.facade import compile_rules
from rulec.emit.shape import digest, shape
from rulec.ir import expr as ir
from rulec.record import MutableRecord, Record, encoded, field_names, replace
from rulec.validate.context import Reporter

from every_ruleset import folder


def _every_record_class() -> list[type[Record]]:
    for info in pkgutil.walk_packages(rulec.__path__, "rulec."):
        if not info.name.startswith(("rulec.runtime", "rulec.__main__")):
            importlib.import_module(info.name)
    out: list[type[Record]] = []
    todo: list[type[Record]] = [Record]
    while todo:
        cls = todo.pop()
        out.append(cls)
        todo.extend(cls.__subclasses__())
    return out[1:]


def test_no_two_record_classes_encode_alike() -> None:
    """Every record class, with the same value in every field: each encodes differently from
    every other (the class's name goes with its fields), so a node swapped for another class with
    the same fields (a parameter for a local) changes a shape's digest."""
    seen: dict[bytes, str] = {}
    classes = _every_record_class()
    assert len(classes) >= 80
    for cls in classes:
        value = cls(*["x"] * len(field_names(cls)))
        data = encoded(value)
        assert data not in seen, (cls, seen.get(data))
        seen[data] = f"{cls.__module__}.{cls.__qualname__}"


def test_a_record_is_a_frozen_value() -> None:
    a = ir.Param(ir.INT, "x", "甲")
    assert a == ir.Param(ir.INT, "x", "甲") and hash(a) == hash(ir.Param(ir.INT, "x", "甲"))
    assert a != ir.Local(ir.INT, "x", "甲")
    assert repr(a) == "Param(type='int', name='x', text='甲')"
    assert replace(a, text="乙") == ir.Param(ir.INT, "x", "乙") and a.text == "甲"
    with pytest.raises(AttributeError):
        a.text = "乙"  # type: ignore[misc]


def test_a_shape_digest_tells_a_parameter_from_a_local() -> None:
    rs = compile_rules([Path(folder("mini"))], stop_after="optimise").rulesets[0]
    swapped = [0]

    def swap(value: object) -> object:
        if isinstance(value, ir.Param) and not swapped[0]:
            swapped[0] = 1
            return ir.Local(value.type, value.name, value.text)
        if isinstance(value, Record):
            changes = {n: swap(getattr(value, n)) for n in field_names(value)}
            return replace(value, **{n: v for n, v in changes.items() if v is not getattr(value, n)})
        if isinstance(value, tuple):
            return tuple(swap(v) for v in value)
        return value

    other = swap(rs)
    assert swapped[0] and other != rs
    assert digest(shape(rs)) != digest(shape(other))  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", ["dp", "d20", "tracks", "mini"])
def test_a_shape_holds_tuples_never_lists_or_sets(ruleset: str) -> None:
    """A shape's digest is its encoding (`record.encoded`): a list encodes as a tuple does, and a
    set's order changes from one process to the next, so the IR a digest is taken of holds
    neither, anywhere under the optimised ruleset (what `shape` is made from)."""
    rs = compile_rules([Path(folder(ruleset))], stop_after="optimise").rulesets[0]
    stack: list[tuple[str, object]] = [("rs", shape(rs))]
    seen: set[int] = set()
    while stack:
        where, value = stack.pop()
        if id(value) in seen or isinstance(value, (str, int, float, bool)) or value is None:
            continue
        seen.add(id(value))
        assert not isinstance(value, (list, set, frozenset, bytearray)), f"{where}: {type(value).__name__}"
        if isinstance(value, Record):
            stack.extend((f"{where}.{n}", getattr(value, n)) for n in field_names(value))
        elif isinstance(value, tuple):
            stack.extend((f"{where}[{i}]", v) for i, v in enumerate(value))
        elif hasattr(value, "items"):
            stack.extend((f"{where}[{k!r}]", v) for k, v in value.items())  # type: ignore[union-attr]


def test_a_mutable_record_is_changed_in_place_and_compared_by_its_fields() -> None:
    a, b = Reporter(), Reporter()
    assert isinstance(a, MutableRecord) and not isinstance(a, Record)
    assert a == b and a.diags is not b.diags  # `field(default_factory=...)`: a fresh list each
    a.diags = [None]  # type: ignore[list-item]
    assert a != b and repr(a) == "Reporter(diags=[None])" and field_names(a) == ("diags",)
    copy = replace(a)
    assert copy == a and copy is not a and copy.diags is a.diags  # a shallow copy, as dataclasses.replace
    with pytest.raises(TypeError):
        hash(a)  # as a dataclass compared by its fields
    with pytest.raises(AttributeError):
        a.other = 1  # type: ignore[attr-defined]  # slots: only its fields


def test_a_build_makes_dataclasses_only_where_msgspec_is_not_imported(tmp_path: Path) -> None:
    """Python 3.11 makes a dataclass by `exec`ing its methods, about 0.5 ms a class of every process
    that imports it, a record in a tenth of that: `rulec build` makes a dataclass only in a module
    that must not import msgspec, one of those `rulec resolve`, `odds` and `test` import on an
    up-to-date build (record.py's docstring)."""
    rules = Path(__file__).parent / "cases" / "valid_tiny" / "rules"
    probe = ("import dataclasses, sys\n"
             "sys.argv = ['rulec', 'build', '--rules', sys.argv[1], '--out', sys.argv[2]]\n"
             "from rulec.cli.entry import main\n"
             "try:\n    main()\n"
             "finally:\n"
             "    print(sorted({c.__module__ for m in list(sys.modules.values()) for c in vars(m).values()\n"
             "                  if isinstance(c, type) and dataclasses.is_dataclass(c)\n"
             "                  and c.__module__ == m.__name__ and m.__name__.startswith('rulec.')}), file=sys.stderr)\n")
    built = subprocess.run([sys.executable, "-c", probe, str(rules), str(tmp_path / "out")], capture_output=True,
                           text=True, env={**os.environ, "RULEC_CACHE_DIR": "off"})
    assert built.returncode == 0, built.stderr
    modules = ast.literal_eval(built.stderr.strip().splitlines()[-1])
    assert "rulec.diagnostics" in modules  # Span and Diagnostic: what the probe looks for is there
    imported = subprocess.run([sys.executable, "-c", f"import sys, {', '.join(modules)}; print('msgspec' in sys.modules)"],
                              capture_output=True, text=True)
    assert imported.stdout.strip() == "False", (modules, imported.stderr)
