"""compiler/jsontext.py writes what `json.dumps(value, ensure_ascii=False, indent=2)` writes, for
every JSON value: the plain ones through msgspec, the rest (floats, odd keys, subclasses, huge
numbers, lone surrogates) by `json.dumps` itself."""

from __future__ import annotations

import enum
import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from compiler.jsontext import indented

ROOT = Path(__file__).resolve().parents[1]

_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
_scalar = st.one_of(st.none(), st.booleans(), st.integers(-(1 << 70), 1 << 70), _text,
                    st.floats(allow_nan=True, allow_infinity=True))
_value = st.recursive(_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(_text, st.integers(-5, 5)), inner, max_size=4)),
    max_leaves=20)


def _same(value: object) -> None:
    try:
        expected = json.dumps(value, ensure_ascii=False, indent=2)
    except Exception as exc:  # noqa: BLE001 - the helper fails the same way
        try:
            indented(value)
        except type(exc):
            return
        raise AssertionError(f"json.dumps raised {exc!r}, indented did not") from exc
    assert indented(value) == expected


@settings(max_examples=300, deadline=None)
@given(_value)
def test_any_value_as_json_dumps_writes_it(value: object) -> None:
    _same(value)


class Colour(enum.IntEnum):
    RED = 1


def test_the_edges_msgspec_writes_otherwise() -> None:
    for value in ({"n": 1e300}, [float("inf")], {1: "key"}, {"k": Colour.RED}, [1 << 80], "\ud800",
                  "\x00\x1f\x7f\u2028\u2029\"\\/", {"": [[], {}]}, ("a", "tuple"), {"nested": {"x": [None, True]}}):
        _same(value)


def test_every_committed_json_file_is_written_again_byte_for_byte() -> None:
    files = sorted((ROOT / "generated").rglob("*.json")) + sorted((ROOT / "schema").glob("*.json"))
    checked = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        value = json.loads(text)
        if json.dumps(value, ensure_ascii=False, indent=2) + "\n" == text:
            assert indented(value) + "\n" == text, path
            checked += 1
    assert checked >= 30
