"""The compiler's records (compiler/record.py): frozen, compared and hashed by their fields, shown
by `repr` as dataclasses were, and encoded for digests (the kept texts of a one-shot build are
found by the digest of a ruleset's shape) so that no two classes ever encode alike."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import rulec
from rulec.build.facade import compile_rules
from rulec.emit.shape import digest, shape
from rulec.ir import expr as ir
from rulec.record import Record, encoded, field_names, replace

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
