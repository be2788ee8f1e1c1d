"""How a plain YAML scalar resolves under the YAML 1.2 core schema, as rule files read it: once, for
documents.py (which registers the patterns with PyYAML) and plain_yaml.py (which applies them
itself)."""

from __future__ import annotations

import math
from ..messages import say

# The implicit types, each a pattern of the whole scalar and the characters it can start with.
BOOL = (r"true|True|TRUE|false|False|FALSE", "tTfF")
NULL = (r"~|null|Null|NULL|", "~nN")  # and the empty scalar
INT = (r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789")
FLOAT = (r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
         "-+0123456789.")

# YAML 1.1 booleans that PyYAML would silently turn into True/False: a diagnostic unquoted.
YAML11_BOOLS = frozenset(v for w in ("yes", "no", "on", "off") for v in (w, w.capitalize(), w.upper()))


# Digits a whole number may have (sign and base prefix aside). No field of any rule file or scenario
# comes near (a schema's widest range is far below 10**30), and Python refuses to convert a decimal
# text of more than 4,300 digits (its guard against quadratic conversion) with a bare ValueError:
# a longer number is a diagnostic at its place, before any conversion.
MAX_INT_DIGITS = 100


def int_too_long(text: str) -> bool:
    """True for a scalar that matched INT but has more digits than MAX_INT_DIGITS."""
    return len(text) > MAX_INT_DIGITS and len(text.lstrip("+-").removeprefix("0o").removeprefix("0x")) > MAX_INT_DIGITS


def int_value(text: str) -> int:
    """The value of a scalar that matched INT (and not `int_too_long`)."""
    if int_too_long(text):
        raise ValueError(say("core_schema.whole-number-more-than", max_int_digits=MAX_INT_DIGITS))
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


def unusable_float(text: str) -> bool:
    """True for a FLOAT scalar that is no usable number: infinities and NaN, and a finite-looking
    one too large for a float (`1e400`, which Python would turn into infinity)."""
    low = text.lower()
    if low.endswith(".inf") or low == ".nan":
        return True
    return not math.isfinite(float(text))
