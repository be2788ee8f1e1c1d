"""Ids of the rules that would clash with a name of the generated code, in either language.

An id becomes a Python attribute or parameter and a JavaScript property or parameter: a stat a
`Combatant` field, a parameter a function's parameter, a table's field an entry's attribute, an
outcome a result's attribute. So none may be a keyword of either language, and none may be a name
the generated classes already give a meaning (a result's `text()` or `to_dict()`, an entry's
`to_dict()`, `constructor` in JavaScript, a tuple's `count` and `index`). Each place checks its
ids against `reserved(kind)` and says which with a `reserved-name` diagnostic at the id; the
emitters' `name()` (emit/python/code.py, emit/js/code.py) refuse the same words, as the last line.
"""

from __future__ import annotations

import keyword

# Reserved words of ES2015 and later (strict mode and modules included), and the globals a name of
# the rules must not shadow (emit/js/code.py refuses them as identifiers).
JS_RESERVED = frozenset("""
    break case catch class const continue debugger default delete do else export extends finally for function
    if import in instanceof new return super switch this throw try typeof var void while with yield let static
    enum await implements package protected interface private public null true false undefined NaN Infinity
    eval arguments Object Array Math Number String Boolean Map Set JSON Error Symbol Date RegExp Promise
    globalThis window module exports require
""".split())

LANGUAGE = frozenset(keyword.kwlist) | JS_RESERVED

# What the generated classes already call a name, by the kind of id that becomes an attribute of them.
_API = {
    "stat": frozenset({"to_dict", "replace", "given", "from_dict", "constructor"}),
    "param": frozenset({"dice", "trace", "options"}),
    "field": frozenset({"to_dict", "count", "index", "constructor", "to_json"}),
    "outcome": frozenset({"text", "to_dict", "outcome", "procedure", "rolls", "trace", "count", "index",
                          "constructor"}),
}


def reserved(kind: str) -> frozenset[str]:
    """The ids an id of `kind` ("stat", "param", "field", "outcome") may not be."""
    return LANGUAGE | _API[kind]
