"""jsonschema-rs is imported without `email.utils` (compiler/validate/rs_import.py): the stand-in's
`parsedate_to_datetime` gives what the real one gives, hands every other form to it, and is gone
once jsonschema-rs is loaded."""

from __future__ import annotations

import email.utils
import random
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from compiler.validate import rs_import

_FORMS = [
    "Thu, 12 Nov 2026 07:50:16 +0000", "Mon, 1 Jan 2024 00:00:00 +0000", "Sun, 29 Feb 2032 23:59:59 -0130",
    "Tue, 05 Mar 1999 12:30:00 +0575", "Fri, 31 Dec 9999 23:59:59 +2359",
    # handed to the real parser: no zone, a two-digit or small year, lower case, a named zone, junk
    "Thu, 12 Nov 2026 07:50:16 -0000", "Thu, 12 Nov 26 07:50:16 +0000", "Thu, 12 Nov 0099 07:50:16 +0000",
    "thu, 12 nov 2026 07:50:16 +0000", "Thu, 12 Nov 2026 07:50:16 GMT", "12 Nov 2026 07:50:16 +0000",
    "Thu, 12 Nov 2026 07:50 +0000", "Thu, 12 Nov 2026 07:50:16 +0000 extra", "Thu, 12 Nov 2026 7:50:16 +0000",
]
_BAD = ["Thu, 31 Feb 2026 07:50:16 +0000", "Thu, 12 Nov 2026 24:00:00 +0000", "Thu, 12 Nov 2026 07:50:16 +9999",
        "nonsense", ""]


def _same(text: str) -> None:
    try:
        want: object = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            rs_import.parsedate_to_datetime(text)
        return
    got = rs_import.parsedate_to_datetime(text)
    assert (got, repr(got), getattr(got, "tzinfo", None)) == (want, repr(want), getattr(want, "tzinfo", None)), text


@pytest.mark.parametrize("text", _FORMS + _BAD)
def test_the_stand_in_reads_what_the_real_parser_reads(text: str) -> None:
    _same(text)


def test_the_stand_in_agrees_on_formatted_dates() -> None:
    rng = random.Random(7)
    for _ in range(500):
        zone = timezone(timedelta(minutes=rng.randrange(-23 * 60 - 59, 23 * 60 + 60)))
        when = datetime(rng.randrange(100, 10_000), rng.randrange(1, 13), rng.randrange(1, 29),
                        rng.randrange(24), rng.randrange(60), rng.randrange(60), tzinfo=zone)
        _same(email.utils.format_datetime(when))


def test_other_names_are_the_real_modules() -> None:
    stand_in = rs_import._StandIn("email.utils")
    assert stand_in.formataddr is email.utils.formataddr


def test_jsonschema_rs_loads_without_email_utils() -> None:
    code = ("import sys; import compiler.validate.fast_schema as f; "
            "assert 'email.utils' not in sys.modules and 'socket' not in sys.modules, 'email.utils imported'; "
            "import jsonschema_rs.jsonschema_rs as m; when = m.__build__.get('info-time'); "
            "import email.utils as real; assert real.__file__.endswith('utils.py'), real; "
            "assert type(real).__name__ == 'module'; "
            "assert f.fast_check({'type': 'string', 'format': 'email'})('a@b.cn'); "
            "print(repr(when))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    import jsonschema_rs.jsonschema_rs as m  # here email.utils was imported first: the real parser read it

    assert out == repr(m.__build__.get("info-time"))
