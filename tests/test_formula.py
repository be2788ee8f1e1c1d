"""The formula language: parsed and checked at compile time, emitted as Python, rendered as Chinese."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulec.formula import syntax as S
from rulec.formula.check import BOOL, INT, Binding, Scope, check
from rulec.formula.render import to_chinese, to_python
from rulec.formula.syntax import FormulaError
from rulec.runtime import core

SCOPE = Scope({
    ("a",): Binding(INT, "a", "甲"), ("甲",): Binding(INT, "a", "甲"),
    ("b",): Binding(INT, "b", "乙"), ("c",): Binding(INT, "c", "丙"),
    ("flag",): Binding(BOOL, "flag", "标记"),
    ("weapon", "damage"): Binding(INT, "w.damage", "武器伤害"),
    ("武技",): Binding(INT, "m", "武技"), ("专业",): Binding(INT, "s", "专业"),
})


@pytest.mark.parametrize("text, col, fragment", [
    ("a + bb", 4, "unknown name 'bb'; did you mean 'b'?"),
    ("frob(a)", 0, "unknown function 'frob'"),
    ("a.__class__", 0, "not allowed"),
    ("__import__('os')", 0, "not allowed"),
    ("(lambda: 1)()", 0, "only named functions"),
    ("[x for x in a]", 0, "comprehensions are not allowed"),
    ("min(a, b)(c)", 0, "only named functions"),
    ("9**9**9", 0, "'**' is not allowed"),
    ("a // 2", 0, "'//' is not allowed"),
    ("a[0]", 0, "indexing is not allowed"),
    ("a + " * 200 + "a", 400, "longer than 400"),
    ("min(a)", 0, "min() takes at least 2"),
    ("a + flag", 4, "'+' needs"),
    ("flag and a", 9, "'and' needs true/false"),
    ("1 if a else 2", 5, "condition after 'if' needs true/false"),
    ("weapon.dmg", 0, "unknown name 'weapon.dmg'"),
    ("a +", None, "cannot read the formula"),
    ("min(x=a, y=b)", 0, "keyword arguments"),
])
def test_bad_formulas_are_diagnostics_with_columns(text, col, fragment):
    with pytest.raises(FormulaError) as info:
        check(text, SCOPE)
    assert fragment in info.value.message + (info.value.hint and "; " + info.value.hint or "")
    if col is not None:
        assert info.value.col == col


def test_columns_count_characters_not_bytes():
    with pytest.raises(FormulaError) as info:
        check("甲 + 武技 + 不存在", SCOPE)
    assert info.value.col == 9


def test_fraction_where_a_whole_number_is_wanted():
    with pytest.raises(FormulaError) as info:
        check("a / 2", SCOPE, want=(INT,))
    assert info.value.hint == "wrap it in floor() or ceil()"
    assert check("floor(a / 2)", SCOPE, want=(INT,)).type == INT


def test_python_and_chinese_forms():
    typed = check("floor((武技 + 专业) / 2)", SCOPE)
    assert to_python(typed) == "((m + s) // 2)"
    assert to_chinese(typed) == "(武技 + 专业) ÷ 2，向下取整"
    typed = check("2 * max(0, ceil(a / b) - 1)", SCOPE)
    assert to_python(typed) == "2 * max(0, _rt_ceildiv(a, b) - 1)"
    assert to_chinese(typed) == "2 × (0、向上取整(甲 ÷ 乙) − 1取高)"
    assert to_chinese(check("min(甲, weapon.damage)", SCOPE)) == "甲、武器伤害取低"


# --- property: any valid formula compiles and its Python equals a reference evaluation ---

def _exprs():
    leaf = st.one_of(st.integers(-20, 20).map(str), st.sampled_from(["a", "b", "c", "甲"]))

    def extend(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"min({t[0]}, {t[1]})"),
            st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
            st.tuples(inner, st.integers(1, 9)).map(lambda t: f"floor({t[0]} / {t[1]})"),
            st.tuples(inner, st.integers(1, 9)).map(lambda t: f"ceil({t[0]} / {t[1]})"),
            inner.map(lambda x: f"abs({x})"),
            st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} > {t[2]} else {t[2]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"clamp({t[0]}, min({t[1]}, {t[2]}), max({t[1]}, {t[2]}))"),
        )

    return st.recursive(leaf, extend, max_leaves=12)


def reference(expr: S.Expr, env: dict[str, int]) -> Fraction | bool:
    """An independent tree-walking evaluator over exact fractions."""
    if isinstance(expr, S.Num):
        return Fraction(expr.value)
    if isinstance(expr, S.Bool):
        return expr.value
    if isinstance(expr, S.Name):
        return Fraction(env[SCOPE.lookup(expr.parts).python])
    if isinstance(expr, S.Unary):
        v = reference(expr.operand, env)
        return not v if expr.op == "not" else (-v if expr.op == "-" else v)
    if isinstance(expr, S.Binary):
        x, y = reference(expr.left, env), reference(expr.right, env)
        return {"+": x + y, "-": x - y, "*": x * y}.get(expr.op) if expr.op != "/" else x / y
    if isinstance(expr, S.Compare):
        vals = [reference(o, env) for o in expr.operands]
        ops = {"<": lambda p, q: p < q, "<=": lambda p, q: p <= q, ">": lambda p, q: p > q,
               ">=": lambda p, q: p >= q, "==": lambda p, q: p == q, "!=": lambda p, q: p != q}
        return all(ops[o](p, q) for o, p, q in zip(expr.ops, vals, vals[1:]))
    if isinstance(expr, S.Cond):
        return reference(expr.then, env) if reference(expr.test, env) else reference(expr.orelse, env)
    if isinstance(expr, S.Call):
        args = [reference(x, env) for x in expr.args]
        return {"min": lambda: min(args), "max": lambda: max(args), "abs": lambda: abs(args[0]),
                "floor": lambda: Fraction(math.floor(args[0])), "ceil": lambda: Fraction(math.ceil(args[0])),
                "clamp": lambda: min(max(args[0], args[1]), args[2])}[expr.func]()
    raise AssertionError(expr)


@settings(max_examples=300, deadline=None)
@given(_exprs(), st.integers(-50, 50), st.integers(-50, 50), st.integers(-50, 50))
def test_emitted_python_equals_reference_evaluation(text, a, b, c):
    assume(len(text) <= 400)  # longer formulas are refused by design (tested above)
    typed = check(text, SCOPE)
    code = compile(to_python(typed), "<formula>", "eval")
    helpers = {f"_rt_{n}": getattr(core, n) for n in ("floordiv", "ceildiv", "div", "floor", "ceil", "clamp")}
    got = eval(code, {"__builtins__": {"min": min, "max": max, "abs": abs}, **helpers}, {"a": a, "b": b, "c": c})
    assert got == reference(typed.expr, {"a": a, "b": b, "c": c})


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_any_string_compiles_or_gets_a_diagnostic(text):
    try:
        check(text, SCOPE)
    except FormulaError as exc:
        assert isinstance(exc.col, int) and exc.message
