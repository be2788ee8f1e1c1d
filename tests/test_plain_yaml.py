"""load/plain_yaml.py against documents.load_text: the plain reader either declines or gives the
very data the full loader gives (same types: `1`, `1.0` and `true` are told apart)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.load.documents import load_text
from rulec.load.plain_yaml import read, read_bytes

ROOT = Path(__file__).resolve().parent.parent


def typed(value: Any) -> Any:
    """A value with its types spelt out, so that True != 1 and 1.0 != 1."""
    if isinstance(value, dict):
        return ("map", [(type(k).__name__, k, typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", [typed(v) for v in value])
    return (type(value).__name__, value)


def agrees(text: str) -> bool:
    """The plain reader's answer is the full loader's; True when the plain reader accepted it."""
    ok, data = read(text)
    if not ok:
        return False
    doc, diags = load_text(text, "t.yaml")
    assert doc is not None, f"plain_yaml accepted what documents.py refuses: {text!r} -> {diags}"
    assert typed(data) == typed(doc.data), f"{text!r}: plain {data!r} != full {doc.data!r}"
    return True


def _shipped_yaml() -> list[Path]:
    return sorted(p for folder in ("examples", "tests/cases", "rules") for p in (ROOT / folder).rglob("*.y*ml"))


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_every_shipped_yaml_file_agrees_and_every_scenario_is_in_the_subset() -> None:
    accepted = declined = 0
    for path in _shipped_yaml():
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig")
        if agrees(text):
            accepted += 1
            assert read_bytes(raw) == read(text)
        else:
            declined += 1
            is_scenario = yaml.safe_load(text).get("kind") in ("scenario", "fight") \
                if isinstance(yaml.safe_load(text), dict) else False
            assert not (is_scenario and "examples" in path.parts), f"{path}: a bundled scenario is not in the subset"
    assert accepted > declined


@pytest.mark.parametrize("text, expected", [
    ("a: 1\nb: 1.5\nc: true\nd: ~\ne: 0x1F\nf: 0o17\ng: +3\nh: -0\n",
     {"a": 1, "b": 1.5, "c": True, "d": None, "e": 31, "f": 15, "g": 3, "h": 0}),
    ("k: [1, 'a''b', \"c d\", {x: [], y: {}}]  # note\n", {"k": [1, "a'b", "c d", {"x": [], "y": {}}]}),
    ("- a: 1\n  b:\n  - 2\n  - - 3\n-\n  c: 4\n- \n", [{"a": 1, "b": [2, [3]]}, {"c": 4}, None]),
    ("力量: 5\n名字: 王马 # 注释\n1: one\nyes: 2\n", {"力量": 5, "名字": "王马", "1": "one", "yes": 2}),
    ("url: http://x.y/z\nw: a#b\nq: it's\n", {"url": "http://x.y/z", "w": "a#b", "q": "it's"}),
])
def test_the_subset(text: str, expected: Any) -> None:
    assert agrees(text)
    assert typed(read(text)[1]) == typed(expected)


@pytest.mark.parametrize("text", [
    "a: yes\n", "a: .inf\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  text\n", "a: b\na: c\n",
    "a: plain\n  continued\n", "a:\tb\n", "a: b\r\n", "---\na: 1\n", "a: \"esc\\n\"\n", "a: 'open\n",
    "a: [1,\n  2]\n", "a: b: c\n", "  a: 1\n", "just text\n", "", "<<: {a: 1}\n", "a: \u200b\n",
    "a: {b}\n", "a: [1, 2,]\n", "a: {b:1}\n", "null: 1\n", "1.5: x\n", "a: e\u0301\nb: 1\n",
])
def test_outside_the_subset_or_refused(text: str) -> None:
    ok, _ = read(text)
    if ok:  # only the NFC case is in the subset: the loader normalises it too
        assert agrees(text)
    else:
        assert not agrees(text)


_SCALARS = st.one_of(
    st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False, width=32), st.booleans(),
    st.none(), st.text(alphabet="abc 力量王01.-", max_size=6), st.text(alphabet=st.sampled_from(list("ab 01.-+:#'\"[]{},&*!|>%@`?~\\yesnoY力量王马：，\u0301é")),
                       max_size=8))
_KEYS = st.one_of(st.text(alphabet="ab01_力量", min_size=1, max_size=4),
                  st.text(alphabet=st.sampled_from(list("ab 01.-:#'\"[]{},&*?~yesnoN力量：")), max_size=6))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(_KEYS, inner, max_size=4)), max_leaves=12)


def _dump(data: Any, style: bool | None) -> str:
    return yaml.safe_dump(data, allow_unicode=True, default_flow_style=style, sort_keys=False, width=10_000)


def _mutate(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(chars))
        op = rng.random()
        if op < 0.4 and chars:
            del chars[min(at, len(chars) - 1)]
        else:
            chars.insert(at, rng.choice(list(" -:#'\"[]{},\n?&*!|>~a1")))
    return "".join(chars)


def _check_examples(data: Any, seed: int) -> None:
    rng = random.Random(seed)
    for style in (False, None, True):
        text = _dump(data, style)
        agrees(text)
        agrees(_mutate(text, rng))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=5), st.integers(0, 2**32))
@pytest.mark.slow  # several seconds of building: CI's slow job
def test_generated_documents_agree(data: dict[str, Any], seed: int) -> None:
    _check_examples(data, seed)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(st.one_of(st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=8), st.lists(_VALUES, min_size=1)),
       st.integers(0, 2**32))
def test_generated_documents_agree_long(data: Any, seed: int) -> None:
    _check_examples(data, seed)


def test_mutated_scenarios_agree() -> None:
    rng = random.Random(20)
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.yaml"))]
    for _ in range(400):
        agrees(_mutate(rng.choice(texts), rng))


def test_work_is_bounded_on_hostile_text() -> None:
    """A flow collection spread over many long lines is declined quickly (each line joined parses
    the collection again), as are deep nesting and huge texts."""
    import time

    start = time.perf_counter()
    long_flow = "a: [" + ",\n  ".join("1, " * 5000 + "2" for _ in range(64)) + "]\n"
    deep = "a: " + "[" * 5000 + "]" * 5000 + "\n"
    huge = "a: " + "x" * (2 << 20) + "\n"
    nested = "".join(" " * i + f"k{i}:\n" for i in range(200)) + " " * 200 + "v: 1\n"
    for text in (long_flow, deep, huge, nested):
        assert read(text) == (False, None)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("text", [
    "a: " + "9" * 101 + "\n", "a: [" + "9" * 5000 + "]\n", "a: -" + "9" * 200 + "\n", "a: 0x" + "f" * 200 + "\n",
    "a: 1e400\n", "a: [-1e400]\n", "a: " + "9" * 400 + ".5\n",
])
def test_numbers_no_field_can_hold_are_declined_and_reported(text: str) -> None:
    """A whole number past MAX_INT_DIGITS digits (Python refuses 4,300 with a bare ValueError) and
    a float that would be infinite: the plain reader declines, the full loader reports it."""
    assert read(text) == (False, None)
    doc, diags = load_text(text, "t.yaml")
    assert doc is None and [d.code for d in diags] == ["bad-number"]
    assert (diags[0].span.line, diags[0].span.col) == (1, 4 + (text[3] == "["))


def test_a_number_of_a_hundred_digits_is_read_by_both() -> None:
    assert agrees("a: " + "9" * 100 + "\n") and agrees("a: [-" + "1" * 100 + "]\n")


@pytest.mark.parametrize("text,where", [
    ("a: [1, 2, 3, 4]\n", (1, 4)), ("a:\n  - 1\n  - 2\n  - 3\n  - 4\n", (2, 3)), ("a: {b: 1, c: 2, d: 3, e: 4}\n", (1, 4)),
    ("a: 1\nb: 2\nc: 3\nd: 4\n", (1, 1)), ("- [[1, 2, 3, 4, 5]]\n", (1, 4)),
])
def test_collections_past_max_items_are_declined_and_reported_where_they_start(text: str, where: tuple[int, int]) -> None:
    assert read(text, max_items=3) == (False, None)
    assert read(text, max_items=5)[0] is True
    doc, diags = load_text(text, "t.yaml", max_items=3)
    assert doc is None and [d.code for d in diags] == ["bad-size"]
    assert (diags[0].span.line, diags[0].span.col) == where
    doc, diags = load_text(text, "t.yaml", max_items=5)
    assert doc is not None and not diags


@pytest.fixture(autouse=True)
def _english_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read rulec's messages in English (Chinese is the default: issue 32)."""
    monkeypatch.setenv("RULEC_LANG", "en")
