"""The formula language: parsed and checked at compile time into typed IR, emitted as Python, rendered
as Chinese."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulec.emit.python.code import name
from rulec.emit.python.expr import Names, PyExpr
from rulec.formula import syntax as S
from rulec.formula.check import Binding, FormulaErrors, Scope, check
from rulec.formula.chinese import to_chinese
from rulec.formula.syntax import FormulaError
from rulec.ir import expr as ir
from rulec.runtime import core


def _p(type_: str, pid: str, text: str) -> Binding:
    return Binding(ir.Param(type_, pid, text))


SCOPE = Scope({
    ("a",): _p(ir.INT, "a", "甲"), ("甲",): _p(ir.INT, "a", "甲"),
    ("b",): _p(ir.INT, "b", "乙"), ("c",): _p(ir.INT, "c", "丙"),
    ("flag",): _p(ir.BOOL, "flag", "标记"),
    ("weapon", "damage"): Binding(ir.Attr(ir.INT, ir.Param("entry:weapons", "w", "武器"), "damage", "武器·伤害")),
    ("武技",): _p(ir.INT, "m", "武技"), ("专业",): _p(ir.INT, "s", "专业"),
})
PY = PyExpr(Names(local=name))


def errors(text: str, **kwargs: object) -> list[FormulaError]:
    with pytest.raises(FormulaErrors) as info:
        check(text, SCOPE, **kwargs)  # type: ignore[arg-type]
    return info.value.errors


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
    ("a[0]", 0, "not a table with an index"),
    ("a + " * 200 + "a", 400, "longer than 400"),
    ("min(a)", 0, "min() takes at least 2"),
    ("a + flag", 4, "'+' needs"),
    ("flag and a", 9, "'and' needs true/false"),
    ("1 if a else 2", 5, "condition after 'if' needs true/false"),
    ("weapon.dmg", 0, "unknown name 'weapon.dmg'"),
    ("a +", None, "cannot read the formula"),
    ("min(x=a, y=b)", 0, "keyword arguments"),
    ("a / 2", 0, "floor(a / b) or ceil(a / b)"),
])
def test_bad_formulas_are_diagnostics_with_columns(text, col, fragment):
    found = errors(text)
    shown = [e.message + (e.hint and "; " + e.hint or "") for e in found]
    assert any(fragment in s for s in shown), shown
    if col is not None:
        assert found[0].col == col


def test_every_unknown_name_of_a_formula_is_reported_at_once():
    found = errors("意志 + a + 灵能")
    assert [(e.col, e.message) for e in found] == [(0, "unknown name '意志'"), (9, "unknown name '灵能'")]


def test_columns_count_characters_not_bytes():
    assert errors("甲 + 武技 + 不存在")[0].col == 9


def test_a_text_read_again_is_the_same_tree_and_a_refused_one_is_refused_again():
    for text in ("a + 1", "  甲 + 武技 * 2", "min(a, b) if flag else 0", " weapon.damage"):
        first = S.parse(text)
        assert S.parse(text) is first  # kept: trees are frozen
        assert first == S._parse(text)  # and the same as a fresh reading, columns included
    assert S.parse("  甲 + 武技").right.col == 6 and S.parse("  a + bb").right.col == 6
    for _ in range(2):  # an error is never kept: each reading says it again
        with pytest.raises(FormulaError):
            S.parse("a +")
    assert "a +" not in S._PARSED


def test_the_kept_trees_are_bounded():
    for i in range(S._MAX_PARSED + 10):
        S.parse(f"a + {i}")
    assert len(S._PARSED) <= S._MAX_PARSED


def test_a_division_is_floor_or_ceil_of_whole_numbers():
    assert check("floor(a / 2)", SCOPE, want=(ir.INT,)).type == ir.INT
    assert isinstance(check("ceil(a / b)", SCOPE), ir.Div)


def test_python_and_chinese_forms():
    e = check("floor((武技 + 专业) / 2)", SCOPE)
    assert PY(e) == "((m + s) // 2)"
    assert to_chinese(e) == "(武技 + 专业) ÷ 2，向下取整"
    e = check("2 * max(0, ceil(a / b) - 1)", SCOPE)
    assert PY(e) == "2 * max(0, _rt_ceildiv(a, b) - 1)"
    assert to_chinese(e) == "2 × (0、(甲 ÷ 乙，向上取整) − 1取高)"
    assert to_chinese(check("min(甲, weapon.damage)", SCOPE)) == "甲、武器·伤害取低"
    assert to_chinese(check("dice(a, 6)", SCOPE)) == "（甲）d6"


# --- property: any valid formula compiles and its Python equals a reference evaluation ---

def _exprs():  # type: ignore[no-untyped-def]
    leaf = st.one_of(st.integers(-20, 20).map(str), st.sampled_from(["a", "b", "c", "甲"]))

    def extend(inner):  # type: ignore[no-untyped-def]
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"min({t[0]}, {t[1]})"),
            st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
            st.tuples(inner, st.integers(1, 9)).map(lambda t: f"floor({t[0]} / {t[1]})"),
            st.tuples(inner, st.integers(1, 9)).map(lambda t: f"ceil({t[0]} / {t[1]})"),
            st.tuples(inner, inner).map(lambda t: f"floor({t[0]} / max(1, abs({t[1]})))"),
            inner.map(lambda x: f"abs({x})"),
            st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} > {t[2]} else {t[2]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"clamp({t[0]}, min({t[1]}, {t[2]}), max({t[1]}, {t[2]}))"),
        )

    return st.recursive(leaf, extend, max_leaves=12)


def reference(expr: S.Expr, env: dict[str, int]) -> Fraction | bool:
    """An independent tree-walking evaluator over exact fractions, on the parsed syntax."""
    if isinstance(expr, S.Num):
        return Fraction(expr.value)
    if isinstance(expr, S.Bool):
        return expr.value
    if isinstance(expr, S.Name):
        node = SCOPE.lookup(expr.parts)
        assert node is not None and isinstance(node.expr, ir.Param)
        return Fraction(env[node.expr.name])
    if isinstance(expr, S.Unary):
        v = reference(expr.operand, env)
        return not v if expr.op == "not" else (-v if expr.op == "-" else v)
    if isinstance(expr, S.Binary):
        x, y = reference(expr.left, env), reference(expr.right, env)
        return {"+": x + y, "-": x - y, "*": x * y}.get(expr.op) if expr.op != "/" else x / y  # type: ignore[return-value, operator]
    if isinstance(expr, S.Compare):
        vals = [reference(o, env) for o in expr.operands]
        ops = {"<": lambda p, q: p < q, "<=": lambda p, q: p <= q, ">": lambda p, q: p > q,
               ">=": lambda p, q: p >= q, "==": lambda p, q: p == q, "!=": lambda p, q: p != q}
        return all(ops[o](p, q) for o, p, q in zip(expr.ops, vals, vals[1:]))
    if isinstance(expr, S.Cond):
        return reference(expr.then, env) if reference(expr.test, env) else reference(expr.orelse, env)
    if isinstance(expr, S.Call):
        args = [reference(x, env) for x in expr.args]
        return {"min": lambda: min(args), "max": lambda: max(args), "abs": lambda: abs(args[0]),  # type: ignore[arg-type]
                "floor": lambda: Fraction(math.floor(args[0])), "ceil": lambda: Fraction(math.ceil(args[0])),
                "clamp": lambda: min(max(args[0], args[1]), args[2])}[expr.func]()  # type: ignore[type-var]
    raise AssertionError(expr)


@settings(max_examples=150, deadline=None)
@given(_exprs(), st.integers(-50, 50), st.integers(-50, 50), st.integers(-50, 50))
def test_emitted_python_equals_reference_evaluation(text, a, b, c):
    assume(len(text) <= 400)  # longer formulas are refused by design (tested above)
    e = check(text, SCOPE)
    code = compile(PY(e), "<formula>", "eval")
    helpers = {f"_rt_{n}": getattr(core, n) for n in ("floordiv", "ceildiv", "clamp")}
    got = eval(code, {"__builtins__": {"min": min, "max": max, "abs": abs}, **helpers}, {"a": a, "b": b, "c": c})
    assert got == reference(S.parse(text), {"a": a, "b": b, "c": c})


@settings(max_examples=250, deadline=None)
@given(st.text(max_size=60))
def test_any_string_compiles_or_gets_a_diagnostic(text):
    try:
        check(text, SCOPE)
    except FormulaErrors as exc:
        assert all(isinstance(e.col, int) and e.message for e in exc.errors)


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")


def _children_of(e: ir.Expr) -> tuple[ir.Expr, ...]:
    """What `ir.children` gives, told by a chain of `isinstance` (what it was before its table)."""
    if isinstance(e, ir.Attr):
        return (e.base,)
    if isinstance(e, ir.EntryFormula):
        return (e.base, *e.args)
    if isinstance(e, ir.Unary):
        return (e.operand,)
    if isinstance(e, (ir.Binary, ir.Div)):
        return (e.left, e.right)
    if isinstance(e, ir.Compare):
        return e.operands
    if isinstance(e, ir.BoolOp):
        return e.values
    if isinstance(e, ir.Cond):
        return (e.test, e.then, e.orelse)
    if isinstance(e, (ir.Call, ir.Helper)):
        return e.args
    if isinstance(e, ir.Lookup):
        return (e.key,)
    return ()


def test_children_by_class_agree_with_the_isinstance_chain() -> None:
    """`children` looks a node's class up in a table; every class of the IR's expressions is in
    it, and for each node of the bundled rulesets' optimised procedures the table says what the
    chain of `isinstance` says."""
    from rulec.build.facade import compile_rules
    from rulec.memo import Memo

    classes = {c for c in vars(ir).values() if isinstance(c, type) and issubclass(c, ir.Expr) and c is not ir.Expr}
    assert classes == set(ir._CHILDREN)
    build = compile_rules([Path(__file__).resolve().parents[1] / "rules"], stop_after="optimise", memo=Memo())
    nodes = 0
    for rs in build.rulesets:
        for proc in rs.procedures:
            for step in proc.steps:
                for e in step.exprs():
                    for node in ir.walk(e):
                        assert ir.children(node) == _children_of(node)
                        nodes += 1
    assert nodes > 4_000
