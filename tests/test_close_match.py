"""An unknown key's "did you mean" (是否想找) is difflib.get_close_matches(key, names, n=1)'s name in
both runtimes, found with fewer ratios: by decreasing quick_ratio, stopping once the best ratio is
above every bound left (Python `core._close_match`, JavaScript `_rt_close_match`). Held to difflib
on random names full of ties, repeats, empty and astral names."""

from __future__ import annotations

import difflib
import json
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from rulec.runtime.core import _close_match

ROOT = Path(__file__).resolve().parent.parent
ALPHABET = "ab武器剑一🗡\U00020000"
_WORDS = st.text(alphabet=ALPHABET, max_size=7)


def _difflib(key: str, names: list[str]) -> str | None:
    return next(iter(difflib.get_close_matches(key, names, n=1)), None)


@settings(max_examples=150, deadline=None)
@given(key=_WORDS, names=st.lists(_WORDS, max_size=40))
def test_the_python_close_match_is_difflibs(key: str, names: list[str]) -> None:
    assert _close_match(key, names) == _difflib(key, names)


def _random_cases(rng: random.Random, count: int) -> list[tuple[str, list[str]]]:
    def word() -> str:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 7)))

    return [(word(), [word() for _ in range(rng.randint(1, 50))]) for _ in range(count)]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (CI installs it)")
def test_the_javascript_close_match_is_difflibs(built: Path) -> None:
    from test_js_api import run_js

    cases = _random_cases(random.Random("close-match"), 250)
    got = run_js(built / "js" / "d20" / "index.js",
                 [f"m.close_match({json.dumps(k, ensure_ascii=False)}, {json.dumps(n, ensure_ascii=False)})"
                  for k, n in cases])
    expect = [{"value": _difflib(k, n)} for k, n in cases]
    assert [(case, g, e) for case, g, e in zip(cases, got, expect) if g != e] == []
    assert sum(e["value"] is not None for e in expect) > 60
