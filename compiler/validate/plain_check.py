"""The yes/no check of a scenario against its generated schema, without importing jsonschema-rs.

`rulec resolve` and `rulec odds` on an up-to-date build have to start about as fast as a Python
process importing the built package (issue 20, held by `python -m bench --only cli`). Importing
jsonschema-rs costs about 15 ms there, most of it in the standard modules its extension imports
(email.utils, socket, decimal, datetime): an eighth of the whole command, to check one small
document. The generated scenario and fight schemas (validate/scenario_schema.py) use a small,
fixed part of JSON Schema 2020-12, and this module reads exactly that part:

    type, const, enum, minimum, maximum, exclusiveMinimum, exclusiveMaximum, maxLength,
    minLength, pattern, items, minItems, maxItems, properties, additionalProperties, required,
    minProperties, maxProperties, allOf, anyOf, oneOf, not, if/then/else, and `$ref` to `#/...`

(and ignores the annotations: title, description, examples, $id, $schema, $defs, $comment).

It never guesses. `verdict(schema, data)` falls back to jsonschema-rs (validate/fast_schema.py)
when a subschema the data reaches uses any other keyword, a keyword's value of another type, a
`pattern` whose escapes Python reads otherwise, or a `$ref` that leaves the document; and when
the data holds anything but plain JSON: a key that is not text, a float that is not finite, a
number past 2**53, a value of another type. `reads(schema)` says whether it decides every plain
instance of a schema (true of every generated one). `tests/test_schema_agree.py` holds its
verdicts to both validators' on every example scenario and on mutations of them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from .ecma import ecma_regex, ecma_search

_BIGGEST = 2 ** 53  # past it, a number's value depends on the validator reading it
_DEEPEST = 100  # subschemas one check passes through in a row, and levels of data (a scenario: at most 64)
# A `pattern` is read only when its escapes mean the same in ECMA-262 and in Python (no \d, \w, \b...).
_PLAIN_ESCAPE = re.compile(r"\\[^.\-^$*+?()\[\]{}|/\\]")


class _Unsure(Exception):
    """The data holds something this check does not decide: jsonschema-rs does."""


def verdict(schema: dict[str, Any], data: Any) -> bool:
    """Whether `data` is valid against `schema`, with jsonschema-rs only when this module cannot
    decide (see the module's docstring)."""
    decided = plain_verdict(schema, data)
    if decided is not None:
        return decided
    from .fast_schema import fast_check

    return fast_check(schema)(data)


def plain_verdict(schema: dict[str, Any], data: Any) -> bool | None:
    """This module's verdict, or None when it does not decide. Only the subschemas the data reaches
    are read (each checked as it is reached, `_readable`): a dp scenario reaches a tenth of its
    36 KB schema, and reading all of it first cost ten times the check."""
    if not _plain(data):
        return None
    try:
        return _valid(data, schema, _Check(schema), 0)
    except _Unsure:
        return None


def reads(schema: Any) -> bool:
    """Whether this module reads every subschema of `schema` (every keyword one it knows, with a
    value of its type, every `$ref` into the document): then it decides every plain instance."""
    stack = [schema]
    try:
        while stack:
            node = stack.pop()
            _readable(node, schema)
            if isinstance(node, bool):
                continue
            for key, value in node.items():
                shape = _SHAPES.get(key)
                if shape == "schema":
                    stack.append(value)
                elif shape == "schemas":
                    stack.extend(value)
                elif shape == "named":
                    stack.extend(value.values())
    except _Unsure:
        return False
    return True


def _readable(node: Any, root: dict[str, Any]) -> None:
    """Raise `_Unsure` unless `node` is a schema this module reads (its own keywords only)."""
    if type(node) is bool:
        return
    if type(node) is not dict:
        raise _Unsure
    for key, value in node.items():
        shape = _SHAPES.get(key, "unknown")
        if shape == "annotation" or _VALUE_OK[shape](value):
            continue
        if shape == "ref" and isinstance(value, str) and value.startswith("#/") and \
                type(_target(root, value)) in (dict, bool):
            continue
        raise _Unsure


def _pattern_ok(pattern: Any) -> bool:
    if not isinstance(pattern, str) or _PLAIN_ESCAPE.search(pattern):
        return False
    try:
        ecma_regex(pattern)
    except re.error:
        return False
    return True


def _texts_only(values: list[Any]) -> bool:
    return set(map(type, values)) <= {str}  # looped in C: an enumeration of 20,000 names


def _types_ok(kinds: Any) -> bool:
    return kinds in _TYPES if isinstance(kinds, str) else \
        isinstance(kinds, list) and all(isinstance(k, str) and k in _TYPES for k in kinds)


def _target(root: dict[str, Any], ref: str) -> Any:
    """The subschema a `#/a/b` reference names, or None (a JSON Pointer, `~0` and `~1` unescaped)."""
    node: Any = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _is_number(value: Any) -> bool:
    return type(value) is int or (type(value) is float and math.isfinite(value))


def _is_integer(value: Any) -> bool:
    return type(value) is int or (type(value) is float and value.is_integer())


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: type(v) is dict, "array": lambda v: type(v) is list, "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool, "null": lambda v: v is None, "number": _is_number,
    "integer": _is_integer,
}

# What each keyword this module reads holds: "schema" (one subschema), "schemas" (a list of them),
# "named" (a mapping of them), "annotation" (ignored), or the kind of value its check reads.
_SHAPES: dict[str, str] = {
    **dict.fromkeys(("title", "description", "examples", "$id", "$schema", "$comment"), "annotation"),
    **dict.fromkeys(("items", "additionalProperties", "not", "if", "then", "else"), "schema"),
    **dict.fromkeys(("allOf", "anyOf", "oneOf"), "schemas"),
    **dict.fromkeys(("properties", "$defs"), "named"),
    **dict.fromkeys(("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"), "number"),
    **dict.fromkeys(("maxLength", "minLength", "minItems", "maxItems", "minProperties", "maxProperties"), "count"),
    "type": "types", "const": "any", "enum": "list", "pattern": "pattern", "required": "names", "$ref": "ref",
}
_VALUE_OK: dict[str, Callable[[Any], bool]] = {
    "schema": lambda v: type(v) in (dict, bool),
    "schemas": lambda v: type(v) is list and all(type(x) in (dict, bool) for x in v),
    "named": lambda v: type(v) is dict and all(type(x) in (dict, bool) for x in v.values()),
    "number": lambda v: _is_number(v), "count": lambda v: type(v) is int and v >= 0,
    "types": _types_ok, "any": lambda v: _plain(v), "list": lambda v: type(v) is list and (_texts_only(v) or _plain(v)),
    "pattern": _pattern_ok, "names": lambda v: type(v) is list and all(type(x) is str for x in v),
    "ref": lambda v: False, "unknown": lambda v: False,  # a `$ref`: `_readable` looks where it points
}


def _plain(data: Any) -> bool:
    """Whether `data` holds only what JSON holds and every validator reads alike: no key but text,
    no float that is not finite, no number past 2**53, nothing nested past `_DEEPEST`."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        kind = type(value)
        if kind is int or kind is float:  # (an int is compared, never made a float: 10**400 would not fit)
            if not -_BIGGEST <= value <= _BIGGEST:  # false for a NaN too
                return False
        elif kind is dict:
            if depth >= _DEEPEST or any(type(k) is not str for k in value):
                return False
            stack.extend((v, depth + 1) for v in value.values())
        elif kind is list:
            if depth >= _DEEPEST:
                return False
            stack.extend((v, depth + 1) for v in value)
        elif kind is not str and kind is not bool and value is not None:
            return False
    return True


class _Check:
    """One verdict's state: the schema's root (for `$ref`s) and the subschemas already found
    readable (a 10,000-weapon pack's scenario schema enumerates 20,000 names: their types are
    looked at once a verdict)."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.read: dict[int, Any] = {}  # id -> the subschema (kept, so that no id is reused)


def _among(value: Any, options: list[Any]) -> bool:
    if type(value) is str:  # `in` compares in C, and a text equals only a text
        return value in options
    return any(_equal(value, option) for option in options)


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 and 1.0 are equal, true and 1 are not, and so down lists and objects."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if type(a) is dict and type(b) is dict:
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _valid(value: Any, schema: Any, ctx: _Check, depth: int) -> bool:
    if depth > _DEEPEST:  # a `$ref` cycle that never reaches into the data
        raise _Unsure
    depth += 1
    if id(schema) not in ctx.read:
        _readable(schema, ctx.root)
        ctx.read[id(schema)] = schema
    if schema is True:
        return True
    if schema is False:
        return False
    kinds = schema.get("type")
    if kinds is not None:
        if not any(_TYPES[t](value) for t in ([kinds] if isinstance(kinds, str) else kinds)):
            return False
    if "const" in schema and not _equal(value, schema["const"]):
        return False
    if "enum" in schema and not _among(value, schema["enum"]):
        return False
    kind = type(value)
    if _is_number(value):
        if ("minimum" in schema and value < schema["minimum"]) or ("maximum" in schema and value > schema["maximum"]) \
                or ("exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]) \
                or ("exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]):
            return False
    elif kind is str:
        if ("maxLength" in schema and len(value) > schema["maxLength"]) \
                or ("minLength" in schema and len(value) < schema["minLength"]) \
                or ("pattern" in schema and not ecma_search(schema["pattern"], value)):
            return False
    elif kind is list:
        if ("maxItems" in schema and len(value) > schema["maxItems"]) \
                or ("minItems" in schema and len(value) < schema["minItems"]):
            return False
        if "items" in schema and not all(_valid(item, schema["items"], ctx, depth) for item in value):
            return False
    elif kind is dict and not _object_valid(value, schema, ctx, depth):
        return False
    return _applicators_valid(value, schema, ctx, depth)


def _object_valid(value: dict[str, Any], schema: dict[str, Any], ctx: _Check, depth: int) -> bool:
    if ("maxProperties" in schema and len(value) > schema["maxProperties"]) \
            or ("minProperties" in schema and len(value) < schema["minProperties"]):
        return False
    if any(key not in value for key in schema.get("required", ())):
        return False
    properties = schema.get("properties", {})
    for key, item in value.items():
        if key in properties:
            if not _valid(item, properties[key], ctx, depth):
                return False
        elif "additionalProperties" in schema and not _valid(item, schema["additionalProperties"], ctx, depth):
            return False
    return True


def _applicators_valid(value: Any, schema: dict[str, Any], ctx: _Check, depth: int) -> bool:
    if "$ref" in schema and not _valid(value, _target(ctx.root, schema["$ref"]), ctx, depth):
        return False
    if "allOf" in schema and not all(_valid(value, s, ctx, depth) for s in schema["allOf"]):
        return False
    if "anyOf" in schema and not any(_valid(value, s, ctx, depth) for s in schema["anyOf"]):
        return False
    if "oneOf" in schema and sum(1 for s in schema["oneOf"] if _valid(value, s, ctx, depth)) != 1:
        return False
    if "not" in schema and _valid(value, schema["not"], ctx, depth):
        return False
    if "if" in schema:
        branch = "then" if _valid(value, schema["if"], ctx, depth) else "else"
        if branch in schema and not _valid(value, schema[branch], ctx, depth):
            return False
    return True
