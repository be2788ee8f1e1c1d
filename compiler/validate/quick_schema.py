"""A small JSON Schema evaluator that is sure or says so: `verdict(instance, schema)` is True when
the instance is valid, False when it is not, and None when it cannot tell.

It knows the keywords rulec's own generated scenario and fight schemas use (draft 2020-12: type,
properties, required, additionalProperties, enum, const, minimum, maximum, minLength, maxLength,
items, minItems, maxItems, uniqueItems, minProperties, maxProperties, pattern with ECMA-262's
`$`, local `$ref`, allOf, anyOf, oneOf, not, if/then/else, and the annotations). Any other keyword, a float
and anything it does not model make the verdict None, so a caller that acts only on True never
accepts what jsonschema would refuse: `rulec resolve` and `rulec odds` use it to skip importing
jsonschema (about 45 ms) for a valid scenario, and a build to check the entries of table files
(a 10,000-weapon pack: 10,000 jsonschema validations); jsonschema gives the diagnostics otherwise.
`tests/test_quick_schema.py` holds it to jsonschema on mutated scenarios.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_ANNOTATIONS = frozenset({"title", "description", "examples", "$schema", "$id", "$comment", "default",
                          "markdownDescription", "deprecated", "readOnly", "writeOnly", "$defs"})


def ecma_regex(pattern: str) -> re.Pattern[str]:
    """A JSON Schema `pattern` with the meaning it has in editors (ECMA-262): `$` is the end of
    the text. Python's `$` also matches before a final newline, which let `id: "blade\\n"` pass."""
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
    return re.compile("".join(out))


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return ecma_regex(pattern)


def _is_type(value: Any, name: str) -> bool | None:
    if isinstance(value, float):
        return None  # 1.0 is an integer to JSON Schema: not modelled
    if name == "integer" or name == "number":
        return isinstance(value, int) and not isinstance(value, bool)
    return {"string": isinstance(value, str), "boolean": isinstance(value, bool), "array": isinstance(value, list),
            "object": isinstance(value, dict), "null": value is None}.get(name)


def _equal(a: Any, b: Any) -> bool | None:
    """jsonschema's equality (a boolean is not a number), or None for what it does not model."""
    if isinstance(a, float) or isinstance(b, float):
        return None
    for kind in (bool, str, int):
        if isinstance(a, kind) or isinstance(b, kind):
            return isinstance(a, kind) and isinstance(b, kind) and a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, list) and isinstance(b, list):
        return _all([_equal(x, y) for x, y in zip(a, b)]) if len(a) == len(b) else False
    if isinstance(a, dict) and isinstance(b, dict):
        return _all([_equal(a[k], b[k]) for k in a]) if set(a) == set(b) else False
    if isinstance(a, (list, dict)) and isinstance(b, (list, dict)):
        return False
    return None


def _all(verdicts: list[bool | None]) -> bool | None:
    if False in verdicts:
        return False
    return None if None in verdicts else True


def _any(verdicts: list[bool | None]) -> bool | None:
    if True in verdicts:
        return True
    return None if None in verdicts else False


def verdict(instance: Any, schema: Any, root: Any = None, depth: int = 0) -> bool | None:
    """True: valid; False: invalid; None: not sure (ask jsonschema)."""
    root = schema if root is None else root
    if depth > 64:
        return None
    if schema is True or schema == {}:
        return True
    if schema is False:
        return False
    if not isinstance(schema, dict):
        return None
    out: list[bool | None] = []
    for key, want in schema.items():
        if key in _ANNOTATIONS:
            continue
        check = _KEYWORDS.get(key)
        if check is None:
            return None
        out.append(check(instance, want, schema, root, depth))
        if out[-1] is False:
            return False
    return _all(out)


def _type(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    names = want if isinstance(want, list) else [want]
    return _any([_is_type(v, n) for n in names])


def _properties(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    if not isinstance(v, dict):
        return True
    return _all([verdict(v[k], sub, root, d + 1) for k, sub in want.items() if k in v])


def _required(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    return all(k in v for k in want) if isinstance(v, dict) else True


def _additional(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    if not isinstance(v, dict):
        return True
    if "patternProperties" in s:
        return None
    known = s.get("properties", {})
    return _all([verdict(v[k], want, root, d + 1) for k in v if k not in known])


def _enum(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    return _any([_equal(v, x) for x in want])


def _const(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    return _equal(v, want)


def _number(test: Any) -> Any:
    def check(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
        if isinstance(v, float) or isinstance(want, float):
            return None
        if isinstance(v, bool) or not isinstance(v, int):
            return True
        return bool(test(v, want))
    return check


def _length(test: Any, kind: type[str] | type[list[Any]] | type[dict[Any, Any]]) -> Any:
    def check(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
        return bool(test(len(v), want)) if type(v) is kind or isinstance(v, kind) else True
    return check


def _pattern(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    return bool(_compiled(want).search(v)) if isinstance(v, str) else True


def _items(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    if "prefixItems" in s:
        return None
    return _all([verdict(x, want, root, d + 1) for x in v]) if isinstance(v, list) else True


def _unique(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    if want is not True or not isinstance(v, list):
        return True if want is False or not isinstance(v, list) else None
    if len(v) > 200:
        return None
    found = [_equal(a, b) for i, a in enumerate(v) for b in v[i + 1:]]
    return False if True in found else None if None in found else True


def _ref(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    if not isinstance(want, str) or not want.startswith("#/"):
        return None
    target: Any = root
    for part in want[2:].split("/"):
        if not isinstance(target, dict) or part not in target:
            return None
        target = target[part]
    return verdict(v, target, root, d + 1)


def _all_of(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    return _all([verdict(v, sub, root, d + 1) for sub in want])


def _any_of(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    return _any([verdict(v, sub, root, d + 1) for sub in want])


def _one_of(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    found = [verdict(v, sub, root, d + 1) for sub in want]
    if None in found:
        return None
    return found.count(True) == 1


def _not(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    found = verdict(v, want, root, d + 1)
    return None if found is None else not found


def _if(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    condition = verdict(v, want, root, d + 1)
    if condition is None:
        return None
    branch = s.get("then" if condition else "else", True)
    return verdict(v, branch, root, d + 1)


def _branch(v: Any, want: Any, s: Any, root: Any, d: int) -> bool | None:
    return True  # then/else are read by `if`; alone they do nothing


_KEYWORDS = {
    "type": _type, "properties": _properties, "required": _required, "additionalProperties": _additional,
    "enum": _enum, "const": _const, "$ref": _ref, "allOf": _all_of, "anyOf": _any_of, "oneOf": _one_of, "not": _not,
    "if": _if, "then": _branch, "else": _branch, "pattern": _pattern, "items": _items, "uniqueItems": _unique,
    "minimum": _number(lambda a, b: a >= b), "maximum": _number(lambda a, b: a <= b),
    "exclusiveMinimum": _number(lambda a, b: a > b), "exclusiveMaximum": _number(lambda a, b: a < b),
    "minLength": _length(lambda n, b: n >= b, str), "maxLength": _length(lambda n, b: n <= b, str),
    "minItems": _length(lambda n, b: n >= b, list), "maxItems": _length(lambda n, b: n <= b, list),
    "minProperties": _length(lambda n, b: n >= b, dict), "maxProperties": _length(lambda n, b: n <= b, dict),
}
