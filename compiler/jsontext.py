"""Indented JSON text: exactly what `json.dumps(value, ensure_ascii=False, indent=2)` writes, made
in C (msgspec's encoder and formatter) when the value is plain — dicts with text keys, lists,
text, whole numbers, booleans and null — and by `json.dumps` otherwise.

The standard library's encoder takes its pure-Python path whenever `indent` is given; a build
writes about thirty indented files (the JSON Schemas of each ruleset's scenarios, fight and
tables, the npm package.json, the stamp), and that path was 14 ms of every cold build where this
one is 2 ms. The two writers differ only on what `plain` refuses: a float's exponent (`1e+300`
against `1e300`), non-finite floats, keys that are not text, subclasses of the plain types and
whole numbers past 64 bits; tests/test_jsontext.py checks the rest byte for byte.

msgspec is imported on first use, so a command that writes no build (`rulec resolve`) does not
load it.
"""

from __future__ import annotations

import json
from typing import Any


def indented(value: Any) -> str:
    """`value` as indented JSON text (two spaces, non-ASCII text as is), without a final newline."""
    if _plain(value):
        import msgspec.json

        try:
            return msgspec.json.format(msgspec.json.encode(value), indent=2).decode("utf-8")
        except (UnicodeEncodeError, OverflowError):  # a lone surrogate, a number past 64 bits
            pass
    return json.dumps(value, ensure_ascii=False, indent=2)


def _plain(value: Any) -> bool:
    """True when both writers write `value` the same: nothing but dicts with text keys, lists,
    text, whole numbers, booleans and null, each of exactly that type."""
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    if kind is list:
        return all(_plain(v) for v in value)
    return kind is str or kind is int or kind is bool or value is None
