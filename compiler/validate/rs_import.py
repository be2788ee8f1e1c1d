"""jsonschema-rs, imported without `email.utils` (`load`).

While jsonschema-rs's extension loads, it reads its own build time (a text such as
`Thu, 12 Nov 2026 07:50:16 +0000`) with `email.utils.parsedate_to_datetime`. Importing
`email.utils` costs 13-17 ms (socket, calendar, locale, the email package), about an eighth of a
whole `rulec resolve` process, which otherwise never needs it. For the length of that one import,
`email.utils` is a stand-in module whose `parsedate_to_datetime` reads exactly that form with
`datetime` (the same value the real one gives: `tests/test_rs_import.py`), and hands anything
else, and any other name asked of it, to the real module. The stand-in is gone from
`sys.modules` once the import is done, so a later `import email.utils` is the real one.
"""

from __future__ import annotations

import importlib
import sys
import types
from datetime import datetime, timedelta, timezone
from typing import Any

_NAME = "email.utils"
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _digits(text: str, *sizes: int) -> bool:
    return len(text) in sizes and text.isascii() and text.isdigit()


def _fields(text: Any) -> tuple[int, ...] | None:
    """Year, month, day, hours, minutes, seconds and the zone's sign, hours and minutes of an
    RFC 2822 date as `email.utils.formatdate` writes it (`Thu, 12 Nov 2026 07:50:16 +0000`), with
    a numeric zone other than -0000 (which the real parser reads as "no zone": a naive datetime);
    else None. Read without `re`, whose compiling would cost what this module saves."""
    parts = text.split(" ") if isinstance(text, str) else ()
    if len(parts) != 6:
        return None
    weekday, day, month, year, clock, zone = parts
    hms = clock.split(":")
    if (weekday[:-1] not in _DAYS or weekday[-1:] != "," or month not in _MONTHS or not _digits(day, 1, 2)
            or not _digits(year, 4) or len(hms) != 3 or not all(_digits(x, 2) for x in hms)
            or zone[:1] not in ("+", "-") or not _digits(zone[1:], 4) or zone == "-0000" or year < "0100"):
        return None  # (a year below 100 the real parser reads as 19yy or 20yy)
    return (int(year), _MONTHS.index(month) + 1, int(day), *map(int, hms),
            -1 if zone[0] == "-" else 1, int(zone[1:3]), int(zone[3:]))


def _real() -> Any:
    """The real `email.utils` (the stand-in taken out of `sys.modules` first, if it is there)."""
    if isinstance(sys.modules.get(_NAME), _StandIn):
        del sys.modules[_NAME]
    return importlib.import_module(_NAME)


def parsedate_to_datetime(text: Any) -> Any:
    """`email.utils.parsedate_to_datetime(text)` for the form `_fields` reads, without importing it."""
    found = _fields(text)
    if found is None:
        return _real().parsedate_to_datetime(text)
    year, month, day, hour, minute, second, sign, zh, zm = found
    try:
        return datetime(year, month, day, hour, minute, second,
                        tzinfo=timezone(sign * timedelta(hours=zh, minutes=zm)))
    except ValueError:  # a day, an hour or a zone out of range: the real parser says what it says
        return _real().parsedate_to_datetime(text)


class _StandIn(types.ModuleType):
    """`email.utils` while jsonschema-rs loads: `parsedate_to_datetime` above, the rest real."""

    parsedate_to_datetime = staticmethod(parsedate_to_datetime)

    def __getattr__(self, name: str) -> Any:
        return getattr(_real(), name)


def load() -> Any:
    """The `jsonschema_rs` module (imported once a process, like any module)."""
    if "jsonschema_rs" in sys.modules or _NAME in sys.modules:
        import jsonschema_rs
        return jsonschema_rs
    stand_in = _StandIn(_NAME)
    sys.modules[_NAME] = stand_in
    try:
        import jsonschema_rs
    finally:
        if sys.modules.get(_NAME) is stand_in:
            del sys.modules[_NAME]
    return jsonschema_rs
