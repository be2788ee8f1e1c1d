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
from collections.abc import Callable, Iterable, Sized
from typing import Any, cast

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


def _every(verdicts: Iterable[bool | None]) -> bool | None:
    """`_all` of verdicts made one at a time, stopping at the first False."""
    sure = True
    for found in verdicts:
        if found is False:
            return False
        if found is None:
            sure = False
    return True if sure else None


def _any(verdicts: list[bool | None]) -> bool | None:
    if True in verdicts:
        return True
    return None if None in verdicts else False


Check = Callable[[Any], "bool | None"]
_COMPILED: dict[int, tuple[Any, Check]] = {}


def verdict(instance: Any, schema: Any) -> bool | None:
    """True: valid; False: invalid; None: not sure (ask jsonschema). The schema is compiled into
    closures once (by identity: a build checks 10,000 entries against one table schema)."""
    found = _COMPILED.get(id(schema))
    if found is None or found[0] is not schema:
        if len(_COMPILED) > 256:
            _COMPILED.clear()
        found = (schema, compiled(schema))
        _COMPILED[id(schema)] = found
    return found[1](instance)


def _yes(v: Any) -> bool | None:
    return True


def _no(v: Any) -> bool | None:
    return False


def _unsure(v: Any) -> bool | None:
    return None


def compiled(schema: Any, root: Any = None) -> Check:
    """The schema as one function of the instance (each keyword a closure over its argument)."""
    root = schema if root is None else root
    if schema is True or schema == {}:
        return _yes
    if schema is False:
        return _no
    if not isinstance(schema, dict):
        return _unsure
    checks: list[Check] = []
    for key, want in schema.items():
        if key in _ANNOTATIONS:
            continue
        make = _MAKERS.get(key)
        if make is None:
            return _unsure
        checks.append(make(want, schema, root))
    if not checks:
        return _yes
    if len(checks) == 1:
        return checks[0]
    return _conjunction(tuple(checks))


def _lazy(schema: Any, root: Any) -> Check:
    """`compiled(schema, root)` made on the first call: a scenario schema has a branch for each
    procedure and a property for each argument, and one scenario uses few of them."""
    if schema is True or schema == {}:
        return _yes
    made: list[Check] = []

    def run(v: Any) -> bool | None:
        if not made:
            made.append(compiled(schema, root))
        return made[0](v)
    return run


def _conjunction(checks: tuple[Check, ...]) -> Check:
    return lambda v: _every(check(v) for check in checks)


def _type(want: Any, s: Any, root: Any) -> Check:
    names = tuple(want) if isinstance(want, list) else (want,)

    def run(v: Any) -> bool | None:
        return _any([_is_type(v, n) for n in names])
    return run


def _properties(want: Any, s: Any, root: Any) -> Check:
    subs = {k: _lazy(sub, root) for k, sub in want.items()}

    def run(v: Any) -> bool | None:
        if not isinstance(v, dict):
            return True
        return _every(subs[k](item) for k, item in v.items() if k in subs)
    return run


def _required(want: Any, s: Any, root: Any) -> Check:
    keys = tuple(want)
    return lambda v: all(k in v for k in keys) if isinstance(v, dict) else True


def _additional(want: Any, s: Any, root: Any) -> Check:
    if "patternProperties" in s:
        return _unsure
    known = frozenset(s.get("properties", {}))
    if want is False:
        return lambda v: all(k in known for k in v) if isinstance(v, dict) else True
    check = compiled(want, root)

    def run(v: Any) -> bool | None:
        return _all([check(v[k]) for k in v if k not in known]) if isinstance(v, dict) else True
    return run


def _enum(want: Any, s: Any, root: Any) -> Check:
    options = tuple(want)
    strings = frozenset(x for x in options if type(x) is str)

    def run(v: Any) -> bool | None:
        if type(v) is str and v in strings:
            return True
        return _any([_equal(v, x) for x in options])
    return run


def _const(want: Any, s: Any, root: Any) -> Check:
    return lambda v: _equal(v, want)


def _number(test: Callable[[Any, Any], bool]) -> Callable[[Any, Any, Any], Check]:
    def make(want: Any, s: Any, root: Any) -> Check:
        if isinstance(want, float):
            return _unsure

        def run(v: Any) -> bool | None:
            if isinstance(v, float):
                return None
            if isinstance(v, bool) or not isinstance(v, int):
                return True
            return test(v, want)
        return run
    return make


def _length(test: Callable[[int, Any], bool], kind: type) -> Callable[[Any, Any, Any], Check]:
    def make(want: Any, s: Any, root: Any) -> Check:
        def run(v: Any) -> bool | None:
            return test(len(cast(Sized, v)), want) if isinstance(v, kind) else True
        return run
    return make


def _pattern(want: Any, s: Any, root: Any) -> Check:
    search = _compiled(want).search
    return lambda v: bool(search(v)) if isinstance(v, str) else True


def _items(want: Any, s: Any, root: Any) -> Check:
    if "prefixItems" in s:
        return _unsure
    check = compiled(want, root)
    return lambda v: _all([check(x) for x in v]) if isinstance(v, list) else True


def _unique(want: Any, s: Any, root: Any) -> Check:
    if want is False:
        return _yes
    if want is not True:
        return _unsure

    def run(v: Any) -> bool | None:
        if not isinstance(v, list):
            return True
        if len(v) > 200:
            return None
        found = [_equal(a, b) for i, a in enumerate(v) for b in v[i + 1:]]
        return False if True in found else None if None in found else True
    return run


_DOCUMENTS: dict[str, Any] = {}  # other schema documents a `$ref` may name, by their `$id`


def register(uri: str, contents: Any) -> None:
    """Let `$ref`s of the form `<uri>#/...` be followed into `contents` (rulec's own schemas)."""
    _DOCUMENTS[uri] = contents


def _ref(want: Any, s: Any, root: Any) -> Check:
    if isinstance(want, str) and "#/" in want and not want.startswith("#/"):
        uri, _, local = want.partition("#")
        if uri not in _DOCUMENTS:
            return _unsure
        root, want = _DOCUMENTS[uri], "#" + local
    if not isinstance(want, str) or not want.startswith("#/"):
        return _unsure
    target: Any = root
    for part in want[2:].split("/"):
        if not isinstance(target, dict) or part not in target:
            return _unsure
        target = target[part]
    return _lazy(target, root)  # compiled on first use: a schema may refer to itself


def _all_of(want: Any, s: Any, root: Any) -> Check:
    checks = tuple(compiled(sub, root) for sub in want)
    return lambda v: _all([c(v) for c in checks])


def _any_of(want: Any, s: Any, root: Any) -> Check:
    checks = tuple(compiled(sub, root) for sub in want)
    return lambda v: _any([c(v) for c in checks])


def _one_of(want: Any, s: Any, root: Any) -> Check:
    checks = tuple(compiled(sub, root) for sub in want)

    def run(v: Any) -> bool | None:
        found = [c(v) for c in checks]
        return None if None in found else found.count(True) == 1
    return run


def _not(want: Any, s: Any, root: Any) -> Check:
    check = compiled(want, root)

    def run(v: Any) -> bool | None:
        found = check(v)
        return None if found is None else not found
    return run


def _if(want: Any, s: Any, root: Any) -> Check:
    condition, then, otherwise = compiled(want, root), _lazy(s.get("then", True), root), \
        _lazy(s.get("else", True), root)

    def run(v: Any) -> bool | None:
        found = condition(v)
        return None if found is None else then(v) if found else otherwise(v)
    return run


def _branch(want: Any, s: Any, root: Any) -> Check:
    return _yes  # then/else are read by `if`; alone they do nothing


_MAKERS: dict[str, Callable[[Any, Any, Any], Check]] = {
    "type": _type, "properties": _properties, "required": _required, "additionalProperties": _additional,
    "enum": _enum, "const": _const, "$ref": _ref, "allOf": _all_of, "anyOf": _any_of, "oneOf": _one_of, "not": _not,
    "if": _if, "then": _branch, "else": _branch, "pattern": _pattern, "items": _items, "uniqueItems": _unique,
    "minimum": _number(lambda a, b: a >= b), "maximum": _number(lambda a, b: a <= b),
    "exclusiveMinimum": _number(lambda a, b: a > b), "exclusiveMaximum": _number(lambda a, b: a < b),
    "minLength": _length(lambda n, b: n >= b, str), "maxLength": _length(lambda n, b: n <= b, str),
    "minItems": _length(lambda n, b: n >= b, list), "maxItems": _length(lambda n, b: n <= b, list),
    "minProperties": _length(lambda n, b: n >= b, dict), "maxProperties": _length(lambda n, b: n <= b, dict),
}
