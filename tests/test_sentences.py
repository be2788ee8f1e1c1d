"""Trace and error sentences compile to Python that rebuilds exactly the text a homebrewer wrote."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.lowering_context import _sentence_python

NAMES = {"v_total": 17, "who": "王马", "_rt_fmt": lambda v: f"<{v}>", "flag": True}


def _run(python: str) -> str:
    ast.parse(python, mode="eval", feature_version=(3, 8))  # shipped code must parse on Python 3.8
    return eval(compile(python, "<sentence>", "eval"), {"__builtins__": {"str": str}}, dict(NAMES))  # noqa: S307


@pytest.mark.parametrize("literals, holes, text", [
    (["检定", "对AC15"], [("v_total", "str(v_total)")], "检定17对AC15"),
    (["it's {x} \\ \"q\"\n", ""], [("who", "who")], "it's {x} \\ \"q\"\n王马"),
    (["", "", ""], [("who", "who"), ("_rt_fmt(flag)", "_rt_fmt(flag)")], "王马<True>"),
    (["没有洞"], [], "没有洞"),
])
def test_sentences_rebuild_their_text(literals, holes, text):
    assert _run(_sentence_python(literals, holes)) == text


def test_a_field_that_cannot_sit_in_an_fstring_falls_back_to_concatenation():
    python = _sentence_python(["a", "b"], [("NAMES['x']", "str(v_total)")])
    assert not python.startswith("f") and _run(python) == "a17b"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=1, max_size=4))
def test_any_literal_text_survives(literals):
    holes = [("v_total", "str(v_total)")] * (len(literals) - 1)
    assert _run(_sentence_python(literals, holes)) == "17".join(literals)
