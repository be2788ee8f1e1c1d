"""Errors, arithmetic helpers and trace records shared by every generated resolver."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Dict, NamedTuple, Tuple, Union

Number = Union[int, Fraction]


class RuleError(Exception):
    """A request the rules cannot resolve. `code` is stable; `message` is in the rules' language."""

    code = "rule-error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> Dict[str, Any]:
        return {"error": self.code, "message": self.message, "details": dict(self.details)}


class DiceExhausted(RuleError):
    """A fixed dice source ran out of faces."""

    code = "dice-exhausted"


class BadFace(RuleError):
    """A fixed dice source holds a face that the die cannot show."""

    code = "bad-face"


class NotSpecifiedBySource(RuleError):
    """The source text names this rule but gives no numbers for it."""

    code = "not-specified-by-source"


class OutOfBounds(RuleError):
    """An input is outside the range the rules allow."""

    code = "out-of-bounds"


def floordiv(a: int, b: int) -> int:
    if b == 0:
        raise RuleError("除数为0，无法计算")
    return a // b


def ceildiv(a: int, b: int) -> int:
    if b == 0:
        raise RuleError("除数为0，无法计算")
    return -(-a // b)


def div(a: Number, b: Number) -> Fraction:
    if b == 0:
        raise RuleError("除数为0，无法计算")
    return Fraction(a) / b


def floor(x: Number) -> int:
    return math.floor(x)


def ceil(x: Number) -> int:
    return math.ceil(x)


def clamp(x: Number, lo: Number, hi: Number) -> Number:
    return lo if x < lo else hi if x > hi else x


def round_cbrt(volume: int, step: int) -> int:
    """The multiple of `step` nearest to the cube root of `volume` (halves round up), exactly."""
    if volume < 0 or step <= 0:
        raise RuleError("体积必须非负，步长必须为正")
    k = 0
    # Largest k with ((k + 1/2) * step)^3 <= volume, i.e. (2k+1)^3 * step^3 <= 8 * volume.
    hi = 1
    while (2 * hi + 1) ** 3 * step**3 <= 8 * volume:
        hi *= 2
    lo = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if (2 * mid + 1) ** 3 * step**3 <= 8 * volume:
            lo = mid + 1
        else:
            hi = mid
    k = lo
    return k * step


def check_int(name: str, value: Any, lo: int, hi: int) -> int:
    """Validate a resolver input: a whole number inside the range the rules declare."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OutOfBounds(f"{name}必须是整数，得到{value!r}", name=name)
    if value < lo or value > hi:
        raise OutOfBounds(f"{name}必须在{lo}到{hi}之间，得到{value}", name=name, value=value)
    return value


class TraceStep(NamedTuple):
    """One line of a resolution trace: a step kind, its numbers and a sentence (immutable)."""

    kind: str
    text: str
    values: Tuple[Tuple[str, Any], ...] = ()

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "values": {k: plain(v) for k, v in self.values}}

    def __repr__(self) -> str:
        return f"TraceStep({self.kind!r}, {self.text!r})"


# `record(Cls, (field, ...))` builds a NamedTuple record from all its fields without the
# Python-level frame of its own constructor: as fast as a plain class, and immutable.
record = tuple.__new__


def plain(value: Any) -> Any:
    """A JSON-ready copy of a result value."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, Fraction):
        return float(value) if value.denominator != 1 else int(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def fmt(value: Any) -> str:
    """A value as it reads in a trace sentence."""
    if value is True:
        return "是"
    if value is False:
        return "否"
    if value is None:
        return "无"
    name = getattr(value, "name", None)
    if isinstance(name, str):
        return name
    return str(value)


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise OutOfBounds(f"{name}必须是真或假，得到{value!r}", name=name)
    return value


def check_type(name: str, value: Any, cls: type) -> Any:
    if not isinstance(value, cls):
        raise OutOfBounds(f"{name}必须是{cls.__name__}，得到{type(value).__name__}", name=name)
    return value


def not_given(*_args: Any) -> Any:
    raise NotSpecifiedBySource("未指定的条目没有公式")


class UnknownEntry(RuleError):
    """No entry of a table has this id or name."""

    code = "unknown-entry"


def lookup(table: Dict[str, Any], key: Any, what: str, cls: type) -> Any:
    """Find an entry by object, id or Chinese name; a clear error with a suggestion otherwise."""
    if isinstance(key, cls):
        return key
    if isinstance(key, str):
        entry = table.get(key)
        if entry is not None:
            return entry
        for candidate in table.values():
            if candidate.name == key:
                return candidate
        import difflib

        names = list(table) + [e.name for e in table.values()]
        close = difflib.get_close_matches(key, names, n=1)
        hint = f"，是否想找“{close[0]}”？" if close else ""
        raise UnknownEntry(f"没有名为“{key}”的{what}{hint}", key=key)
    raise UnknownEntry(f"{what}必须是编号、名称或条目对象，得到{type(key).__name__}")


def require_specified(entry: Any, what: str) -> Any:
    if entry.not_specified is not None:
        raise NotSpecifiedBySource(f"{what}“{entry.name}”在原文中没有给出具体规则：{entry.not_specified}",
                                   entry=entry.id)
    return entry
