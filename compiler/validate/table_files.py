"""Table files checked against their table's generated schema, entry by entry (a session remembers
which documents and entries passed, by identity)."""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

from ..diagnostics import Diagnostic
from ..load import Document
from ..memo import current
from .fast_schema import fast_check
from .schema import validator_for
from .schema_errors import diagnostics_for


class FailedEntry(NamedTuple):
    """An entry that failed its table's schema (reported already), with its id when readable."""

    id: str | None

    @staticmethod
    def of(item: Any) -> FailedEntry:
        eid = item.get("id") if isinstance(item, dict) else None
        return FailedEntry(eid if isinstance(eid, str) else None)


class _Lazy:
    """A schema, its fast check, and its jsonschema validator, built the first time one is needed
    (most tables have no bad entry: jsonschema is then never compiled)."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self._validator: Any = None
        self._check: Any = None

    def valid(self, instance: Any) -> bool:
        if self._check is None:
            self._check = fast_check(self.schema)
        return self._check(instance)  # type: ignore[no-any-return]

    def validator(self) -> Any:
        if self._validator is None:
            self._validator = validator_for(self.schema)
        return self._validator


class TableFiles:
    """Validates table files against their table's generated schema, entry by entry: jsonschema-rs
    says whether each entry is valid (under a microsecond a weapon), and jsonschema explains one
    that is not. A resident build (`--watch`) skips a document, or an entry of a spliced document,
    it checked before against the same schema (its memo, by identity). Nothing is remembered on
    disk: the digest that named a checked entry there (its JSON and the schema's, hashed) cost
    twelve times the check itself. Diagnostics are never remembered.
    """

    def __init__(self) -> None:
        self.memo = current()
        self._validators: dict[str, tuple[Any, Any]] = {}

    def check(self, doc: Document, schema: dict[str, Any]) -> tuple[list[Diagnostic], Document | None]:
        """The file's problems, and the document with every entry that failed replaced by a
        `FailedEntry` (so the clean entries are still checked further, and references to the
        failed one are not reported a second time), or None when the file itself is bad."""
        if self.memo.get("table-file", doc, schema) is not None:
            return [], doc
        out, checked = self._check(doc, schema)
        if not out and checked is doc:
            self.memo.put("table-file", (doc, schema), True)
        return out, checked

    def _check(self, doc: Document, schema: dict[str, Any]) -> tuple[list[Diagnostic], Document | None]:
        tid = schema["properties"]["table"]["const"]
        if tid not in self._validators:
            self._validators[tid] = (_Lazy(schema), _Lazy(schema["properties"]["entries"]["items"]))
        whole, entry = self._validators[tid]
        entries = doc.data.get("entries")
        if not isinstance(entries, list):
            return diagnostics_for(doc, whole.validator()), None
        rest = {**doc.data, "entries": []}  # everything but the entries
        out = [] if whole.valid(rest) else diagnostics_for(doc, whole.validator(), rest)
        if out:
            return out, None
        kept: list[Any] = []
        memo = self.memo
        for i, item in enumerate(entries):
            if memo.get("valid-entry", item, schema) is not None:  # an entry a spliced document kept
                kept.append(item)
                continue
            # jsonschema-rs vouches for a valid entry; jsonschema explains any other.
            problems = [] if entry.valid(item) else \
                diagnostics_for(doc, entry.validator(), item, ("entries", i))
            out.extend(problems)
            if not problems:
                memo.put("valid-entry", (item, schema), True)
            kept.append(FailedEntry.of(item) if problems else item)
        if not out:
            return out, doc
        return out, dataclasses.replace(doc, data={**doc.data, "entries": kept})
