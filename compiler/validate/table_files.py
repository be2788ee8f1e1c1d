"""Table files checked against their table's generated schema, entry by entry, remembering in the
build's memo which entries passed (a one-shot build on disk, by digest; a session by identity)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
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
    """Validates table files against their table's generated schema, entry by entry, remembering
    (compiler/build/cache.py) which entries already passed: editing one weapon of a 1,000-weapon file
    re-validates that weapon only. Diagnostics are never cached; an entry is remembered only clean.
    """

    def __init__(self, ruleset_id: str) -> None:
        self.memo = memo = current()
        self.name = memo.key("valid-entries", ruleset_id)
        saved = memo.load(self.name)
        self.seen: set[str] = {d for d in saved if isinstance(d, str)} if isinstance(saved, (list, frozenset)) \
            else set()
        self.clean: set[str] = set()
        self._validators: dict[str, tuple[Any, Any, bytes]] = {}

    def check(self, doc: Document, schema: dict[str, Any]) -> tuple[list[Diagnostic], Document | None]:
        """The file's problems, and the document with every entry that failed replaced by a
        `FailedEntry` (so the clean entries are still checked further, and references to the
        failed one are not reported a second time), or None when the file itself is bad. A resident
        build finds a clean document it checked before against the same schema in its memo."""
        kept = self.memo.get("table-file", doc, schema)
        if kept is not None:
            self.clean.update(kept)
            return [], doc
        digests: list[str] = []
        out, checked = self._check(doc, schema, digests)
        if not out and checked is doc:
            self.memo.put("table-file", (doc, schema), digests)
        return out, checked

    def _check(self, doc: Document, schema: dict[str, Any],
               digests: list[str]) -> tuple[list[Diagnostic], Document | None]:
        tid = schema["properties"]["table"]["const"]
        if tid not in self._validators:
            self._validators[tid] = (_Lazy(schema), _Lazy(schema["properties"]["entries"]["items"]),
                                     json.dumps(schema, sort_keys=True).encode())
        whole, entry, schema_key = self._validators[tid]
        entries = doc.data.get("entries")
        if not isinstance(entries, list):
            return diagnostics_for(doc, whole.validator()), None
        rest = {**doc.data, "entries": []}  # everything but the entries
        out = [] if whole.valid(rest) else diagnostics_for(doc, whole.validator(), rest)
        if out:
            return out, None
        kept: list[Any] = []
        memo = self.memo
        remembering = memo.remembers_names  # with the cache off, no digest is worth computing
        for i, item in enumerate(entries):
            found = memo.get("valid-entry", item, schema)  # an entry a spliced document kept
            if found is not None:
                if remembering:
                    self.clean.add(found)
                    digests.append(found)
                kept.append(item)
                continue
            digest = hashlib.sha256(schema_key + json.dumps(item, sort_keys=True).encode()).hexdigest() \
                if remembering else ""
            if digest in self.seen:
                self.clean.add(digest)
                digests.append(digest)
                kept.append(item)
                memo.put("valid-entry", (item, schema), digest)
                continue
            # jsonschema-rs vouches for a valid entry; jsonschema explains any other.
            problems = [] if entry.valid(item) else \
                diagnostics_for(doc, entry.validator(), item, ("entries", i))
            out.extend(problems)
            if not problems and remembering:
                self.clean.add(digest)
                digests.append(digest)
            if not problems:
                memo.put("valid-entry", (item, schema), digest)
            kept.append(FailedEntry.of(item) if problems else item)
        if not out:
            return out, doc
        return out, dataclasses.replace(doc, data={**doc.data, "entries": kept})

    def save(self) -> None:
        if self.clean != self.seen:  # sorted for the cache; a resident build's memory takes the set
            self.memo.save(self.name, sorted(self.clean) if self.memo.persists else frozenset(self.clean))

