"""The prepared-closure hoister: roll-independent parts of a formula become prepare-time locals."""

from __future__ import annotations

import pytest

from rulec.diagnostics import Span
from rulec.formula.check import BOOL, INT, Binding, Scope, check
from rulec.formula.hoist import Hoister
from rulec.formula.render import to_python
from rulec.ir import Formula

# `v_roll` is a local set by a roll; `opt`, `switch` and the attribute chain are fixed per prepare().
SCOPE = Scope({
    ("roll",): Binding(INT, "v_roll", "骰值"), ("hit",): Binding(BOOL, "v_hit", "命中"),
    ("opt",): Binding(INT, "opt", "选项"), ("switch",): Binding(BOOL, "switch", "开关"),
    ("ac",): Binding(INT, "target.armor_class", "护甲等级"),
})


def _hoist(text: str) -> tuple[str, list[dict[str, str]]]:
    typed = check(text, SCOPE)
    formula = Formula(text, to_python(typed), "", typed.type, Span("x", 1, 1), typed=typed)
    hoister = Hoister({"roll", "hit"})
    return hoister.python(formula) or "", hoister.definitions


@pytest.mark.parametrize("text, python, defined", [
    ("roll >= 21 - ac", "v_roll >= _k0", ["21 - target.armor_class"]),
    ("roll + ac", "v_roll + _k0", ["target.armor_class"]),
    ("roll + opt", "v_roll + opt", []),  # a plain local costs nothing to read
    ("hit and switch", "_k0 and v_hit", ["switch"]),  # the switch moves first
    ("hit and opt > 0 and roll > 2", "_k0 and v_hit and v_roll > 2", ["opt > 0"]),
    ("roll + floor(opt / 2)", "v_roll + (opt // 2)", []),  # division is never computed eagerly
    ("roll * 2", "v_roll * 2", []),
])
def test_roll_independent_parts_are_hoisted(text: str, python: str, defined: list[str]):
    got, definitions = _hoist(text)
    assert got == python
    assert [d["python"] for d in definitions] == defined


def test_a_fully_invariant_formula_becomes_one_local():
    got, definitions = _hoist("max(opt, ac) + 1")
    assert got == "_k0" and definitions == [{"name": "_k0", "python": "(target.armor_class if target.armor_class > "
                                                                      "opt else opt) + 1"}]
