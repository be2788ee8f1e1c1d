"""The common-case variant of prepared closures: constant folding under assumed values.

`compiler.emit.specialise` rewrites generated statements for assumed values of some
locals; NAME_prepare(...) returns the folded closure when the assumptions hold. The
folded code must compute exactly what the original computes for those values (same
values, same types, same dice consumed), and the guard must name every assumption
the folded code relies on and no other.
"""

from __future__ import annotations

import ast
import textwrap
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.emit.specialise import fold_value, specialise


def _fold(code: str, known: dict[str, object], truthy: tuple[str, ...] = ()) -> tuple[str, str]:
    out = specialise(textwrap.dedent(code), known, truthy)
    return out.code, out.guard


@pytest.mark.parametrize("code, known, truthy, folded, guard", [
    ("x = k and v\nreturn x", {"k": True}, (), "x = v\nreturn x", "k"),
    ("x = v and k\nreturn x", {"k": True}, (), "x = v and True\nreturn x", "k"),  # the value of `v and k`
    ("x = k or v\nreturn x", {"k": False}, (), "x = v\nreturn x", "not k"),
    ("x = (v + 1 if c else 0) if k and v else 0\nreturn x", {"k": False}, (), "return 0", "not k"),
    ("x = 1 if n else 2\nreturn x", {}, ("n",), "return 1", "n"),
    ("x = v + e\ne2 = e\nreturn (x, e2)", {"e": 0}, (), "x = v\nreturn (x, 0)", "e == 0"),
    ("if l == 0:\n    return v\nreturn w", {"l": 0}, (), "return v", "l == 0"),
    ("if l == 0:\n    return v\nreturn w", {"l": 2}, (), "return w", "l == 2"),
    ("x = 1 if n else 2\nreturn x", {"k": True}, ("m",), "x = 1 if n else 2\nreturn x", ""),  # nothing used
    ("x = v if s else 0\nreturn x", {"s": False}, ("s",), "return 0", "not s"),  # known beats truthy
    ("return n if n is None else 1", {"n": None}, (), "return None", "n is None"),
    ("return (~k, 'a' in k2, 7 // k3)", {"k": 1, "k2": "abc", "k3": 0}, (), "return (~1, 'a' in 'abc', 7 // 0)",
     "k == 1 and k2 == 'abc' and k3 == 0"),  # what it does not fold stays, with the constants in
])
def test_folds(code: str, known: dict[str, object], truthy: tuple[str, ...], folded: str, guard: str) -> None:
    assert _fold(code, known, truthy) == (folded, guard)


def test_keeps_the_indent_and_locals_bound_twice() -> None:
    code = """\
        x = 0
        if v:
            x = 1
        return x
    """
    out = specialise(code, {}).code
    assert out == "        x = 0\n        if v:\n            x = 1\n        return x"


def test_a_block_without_return_keeps_its_bindings() -> None:
    assert _fold("x = 0\ny = x + v", {}) == ("x = 0\ny = v", "")


def test_fold_value_of_options_at_their_defaults() -> None:
    assert fold_value("not guessed_wrong", {"guessed_wrong": False}) is True
    assert fold_value("sneak_dice > 0", {"sneak_dice": 0}) is False
    assert fold_value("sneak_dice > 0 and flanking", {"sneak_dice": 3}) is None
    assert fold_value("weapon.reach", {"weapon": 1}) is None


# Random typed blocks: int and bool expressions over a, b (ints), p, q (bools) and t (an int
# whose truth is assumed). The folded block must return the same values of the same types.
_INT_LEAF = st.sampled_from(["a", "b", "t", "0", "1", "3", "-2"])
_BOOL_LEAF = st.sampled_from(["p", "q", "True", "False"])


def _exprs() -> tuple[st.SearchStrategy[str], st.SearchStrategy[str]]:
    ints = st.deferred(lambda: st.one_of(
        _INT_LEAF,
        st.tuples(ints, st.sampled_from(["+", "-", "*"]), ints).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(ints, st.one_of(bools, st.just("t")), ints).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
    ))
    bools = st.deferred(lambda: st.one_of(
        _BOOL_LEAF,
        bools.map(lambda b: f"(not {b})"),
        st.tuples(bools, st.sampled_from(["and", "or"]), bools).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(ints, st.sampled_from(["<", "<=", "==", "!=", ">", ">="]), ints).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(bools, bools, bools).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
    ))
    return ints, bools


_INTS, _BOOLS = _exprs()


def _run(block: str, env: dict[str, Any]) -> Any:
    namespace: dict[str, Any] = {}
    exec(compile("def f(a, b, p, q, t):\n" + textwrap.indent(block, "    "), "<block>", "exec"), namespace)
    return namespace["f"](**env)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(x=_INTS, y=_BOOLS, z=_INTS, cond=_BOOLS,
       a=st.integers(-3, 3), b=st.integers(-3, 3), p=st.booleans(), q=st.booleans(), t=st.sampled_from([1, 2, -1]),
       assume=st.sets(st.sampled_from(["a", "p", "q", "t"])))
def test_folded_blocks_compute_the_same(x: str, y: str, z: str, cond: str, a: int, b: int, p: bool, q: bool,
                                        t: int, assume: set[str]) -> None:
    block = f"x = {x}\ny = {y}\nif {cond}:\n    z = {z}\nelse:\n    z = x\nw = 0\nreturn (x, y, z, w + x)\n"
    env = {"a": a, "b": b, "p": p, "q": q, "t": t}
    known = {name: env[name] for name in assume if name != "t"}
    out = specialise(block, known, ("t",) if "t" in assume else ())
    want, got = _run(block, env), _run(out.code + "\n", env)
    assert [(type(v), v) for v in got] == [(type(v), v) for v in want], out.code
    if out.guard:  # the guard reads only assumed names, and holds for the values assumed
        assert {n.id for n in ast.walk(ast.parse(out.guard)) if isinstance(n, ast.Name)} <= assume
        assert _run(f"return bool({out.guard})\n", env) is True


def test_the_d20_attack_at_its_defaults_takes_the_folded_closure(d20) -> None:  # type: ignore[no-untyped-def]
    fighter, target = d20.Combatant(strength=16, proficiency=2), d20.Combatant(armor_class=15)
    common = d20.attack_prepare(fighter, target, "longsword")
    assert common.__name__ == "_roll_common"
    for kwargs in ({"willing": True}, {"sneak_dice": 2}, {"guessed_wrong": True}):
        assert d20.attack_prepare(fighter, target, "longsword", **kwargs).__name__ == "_roll"
    assert d20.attack_prepare(fighter, target, "greatsword").__name__ == "_roll"  # 2d6: not one die
    a, b = d20.SeededDice(11), d20.SeededDice(11)
    for _ in range(2000):
        assert common(a) == d20.attack_fast(fighter, target, d20.get_weapon("longsword"), dice=b)
