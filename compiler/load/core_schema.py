"""How a plain YAML scalar resolves under the YAML 1.2 core schema, as rule files read it: once, for
documents.py (which registers the patterns with PyYAML) and plain_yaml.py (which applies them
itself)."""

from __future__ import annotations

# The implicit types, each a pattern of the whole scalar and the characters it can start with.
BOOL = (r"true|True|TRUE|false|False|FALSE", "tTfF")
NULL = (r"~|null|Null|NULL|", "~nN")  # and the empty scalar
INT = (r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789")
FLOAT = (r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
         "-+0123456789.")

# YAML 1.1 booleans that PyYAML would silently turn into True/False: a diagnostic unquoted.
YAML11_BOOLS = frozenset(v for w in ("yes", "no", "on", "off") for v in (w, w.capitalize(), w.upper()))


def int_value(text: str) -> int:
    """The value of a scalar that matched INT."""
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


def unusable_float(text: str) -> bool:
    """True for a FLOAT scalar that is no usable number (infinities and NaN are refused)."""
    low = text.lower()
    return low.endswith(".inf") or low == ".nan"
