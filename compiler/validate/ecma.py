"""JSON Schema's `pattern` dialect (ECMA-262) in Python's `re`: shared by jsonschema's explanations
(schema.py), jsonschema-rs's verdicts (fast_schema.py, which reads ECMA-262 itself) and the
scenario check that imports neither (plain_check.py). A module of its own, importing only `re`."""

from __future__ import annotations

import re


def ecma_regex(pattern: str) -> re.Pattern[str]:
    """A JSON Schema `pattern` with the meaning it has in ECMA-262: `$` is the end of the text.
    Python's `$` also matches before a final newline, which let `id: "blade\\n"` pass."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        out.append("\\Z" if ch == "$" and not in_class else ch)
        i += 1
    return re.compile("".join(out))  # `re` keeps the compiled pattern (its own cache)


def ecma_search(pattern: str, text: str) -> bool:
    """Whether `pattern` (ECMA-262) matches somewhere in `text`, as the `pattern` keyword asks."""
    return ecma_regex(pattern).search(text) is not None
