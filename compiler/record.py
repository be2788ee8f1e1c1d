"""Records: the compiler's immutable values (IR nodes, parsed formulas, step nodes) are frozen
msgspec Structs; the working state its passes fill in (a step or a procedure as checked, the
`Build`), mutable ones.

A record is what `@dataclass(frozen=True, slots=True)` made before: typed fields in order,
positional or keyword construction, equality and hashing by its fields, `repr` as
`Name(field=value, ...)` (some cache keys are made from it), structural pattern matching, no
attribute set after construction. msgspec makes the class and its methods in C: a dataclass
`exec`s the source of six methods for every class, which took 0.8 ms a class, 65 ms of every
`rulec build` for the compiler's eighty frozen classes (docs/benchmarks.md), and a record is
made about nine times faster.

A `MutableRecord` is what a plain `@dataclass` made: the same, but its fields are set after
construction and it is not hashable (as a dataclass that compares by its fields is not); like
every Struct it has slots, so it refuses an attribute that is not one of its fields. It carries
no tag: it is never encoded (no digest is taken of a pass's working state), and were one ever
inside a value handed to `encoded`, its fields would be encoded by name, as a dataclass's are.

The modules that `rulec resolve`, `odds` and `test` import on an up-to-date build keep their
dataclasses, frozen or not: those commands import no msgspec, whose import alone takes some
25 ms — cli/play_args.py, cli/play_build.py and build/config.py always, diagnostics.py and
load/sources.py when the build stamp is checked by content, load/documents.py for a scenario
with an error, build/write.py through the click commands (tests/test_freshness.py;
tests/test_records.py checks that a build makes dataclasses only in modules free of msgspec).

A subclass of a record is a record (`class Const(Expr)`). Change one with `replace`; list its
fields with `field_names`; a default that must be fresh for each record is
`field(default_factory=...)`. `encoded` gives the bytes a digest of records is taken from.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
import msgspec.msgpack
import msgspec.structs

__all__ = ["MutableRecord", "Record", "encoded", "field", "field_names", "replace"]


class Record(msgspec.Struct, frozen=True, tag_field="record", tag=True):
    """The base of every frozen record of the compiler. Encoded (`encoded`), each record carries
    its class's name under the key "record" (msgspec refuses a field of that name): two classes
    with the same fields and values never encode alike (tests/test_records.py)."""


class MutableRecord(msgspec.Struct):
    """The base of every mutable record of the compiler: a pass's working state, changed in place
    and never encoded, hence untagged (the module docstring)."""


R = TypeVar("R", bound="Record | MutableRecord")

field = msgspec.field


def replace(record: R, /, **changes: Any) -> R:
    """A copy of `record` with the given fields changed (as `dataclasses.replace`)."""
    return msgspec.structs.replace(record, **changes)


def field_names(record: Record | MutableRecord | type[Record] | type[MutableRecord]) -> tuple[str, ...]:
    """The names of a record's fields, in order (a subclass's after its bases')."""
    return record.__struct_fields__


_ENCODER = msgspec.msgpack.Encoder()


def encoded(value: Any) -> bytes:
    """`value` as msgpack bytes, for a digest: every field of every record, by name and in order,
    with its class's name; mappings in their order; a dataclass inside (the IR's `Span`) by its
    fields. What a digest needs of the IR, about ten times faster than its `repr`, which made the
    same distinctions: the IR holds tuples only (never a list, which encodes alike) and no set
    (whose order would change between processes)."""
    return _ENCODER.encode(value)
