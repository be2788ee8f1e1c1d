"""The build's indented JSON writer (facade.indented_json) writes exactly what
`json.dumps(value, ensure_ascii=False, indent=2)` writes, only faster (the generated schemas)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.facade import indented_json

LEAVES = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
KEYS = st.text(max_size=6) | st.integers() | st.booleans() | st.none()
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                      max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_indented_json_is_json_dumps(value: object) -> None:
    assert indented_json(value) == json.dumps(value, ensure_ascii=False, indent=2)
