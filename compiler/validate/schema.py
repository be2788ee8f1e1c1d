"""Pass 2, validate (documents): documents -> diagnostics, by JSON Schema.

Every document is checked against the schema of its `kind` (the static files in
`schema/`); table documents are checked again against the schema generated from
their table's declaration in the ruleset manifest (`table_schema`). Every error
of every document is reported (`iter_errors`), mapped back to the file, line and
column of the offending key or value, with a "did you mean" hint for misspelt
keys and enum values. Semantic checks that need name resolution (references,
formulas) run in the lowering pass.
"""

from __future__ import annotations

import dataclasses

import hashlib
import json
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from .fast_schema import ecma_regex, fast_check, static_check, static_schemas
from ..build.keep import NO_KEEP, Keep
from ..build.memo import NO_MEMO, Memo
from ..diagnostics import QUOTE_CHARS, Diagnostic, cut, did_you_mean, json_prefix, quote
from ..load import Document
from ..messages import say

if TYPE_CHECKING:
    import jsonschema
    from referencing import Registry

SCHEMA_BASE = "https://rulec.dev/schema/"
STATIC_KINDS = ("ruleset", "stats", "rulings", "rule_index", "procedures", "table", "pack")


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    import jsonschema

    if validator.is_type(instance, "string") and not ecma_regex(pattern).search(instance):
        yield jsonschema.ValidationError(say("schema.does-not-match", instance=quote(instance), pattern=pattern))


@lru_cache(maxsize=1)
def _validator_class() -> Any:
    """jsonschema's draft 2020-12 validator with ECMA patterns. jsonschema (and `referencing`) are
    imported only here, when a document must be explained: a valid one is vouched for by the fast
    check (fast_schema.py), so a build of valid rules never loads them (0.15 s of start-up)."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    return extend(Draft202012Validator, {"pattern": _pattern})


@lru_cache(maxsize=1)
def _registry_and_schemas() -> tuple[Registry, dict[str, dict[str, Any]]]:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    schemas = static_schemas()
    # No `$id`: each validator resolves `common.schema.json#/...` against the file's own place
    # (check-jsonschema, the YAML language server, jsonschema with a file URI); here, by name.
    resources = [(f"{kind}.schema.json", Resource.from_contents(contents, default_specification=DRAFT202012))
                 for kind, contents in schemas.items()]
    return Registry().with_resources(resources), schemas


def static_schema(kind: str) -> dict[str, Any]:
    return _registry_and_schemas()[1][kind]


@lru_cache(maxsize=32)
def _static_validator(kind: str) -> Any:
    registry, schemas = _registry_and_schemas()
    return _validator_class()(schemas[kind], registry=registry)


def validator_for(schema: dict[str, Any]) -> Any:
    registry, _ = _registry_and_schemas()
    return _validator_class()(schema, registry=registry)


def _type_word(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return say("schema.whole-number")
    if isinstance(value, float):
        return say("schema.decimal-number")
    if isinstance(value, str):
        return say("schema.text")
    if isinstance(value, list):
        return say("schema.list")
    if isinstance(value, dict):
        return say("schema.mapping")
    return say("schema.nothing")


_WANT_WORDS = ("integer", "boolean", "string", "array", "object", "null", "number")  # catalogue: schema.want.<type>


def _short(value: Any) -> str:
    """A value of the instance in a message: JSON, at most 40 characters (never written whole: a
    diagnostic quotes no more than a line of the input)."""
    text = json_prefix(value, 41)
    return text if len(text) <= 40 else text[:37] + "..."


def _size_message(kind: str, bound: Any, value: Any) -> str:
    """What a size keyword says, in rulec's words (jsonschema's own message quotes the whole
    instance: 11.7 MB for a large scenario)."""
    if kind == "uniqueItems":
        return say("schema.has-repeated-items")
    count = len(value) if isinstance(value, (str, list, dict)) else 0
    unit = say("schema.unit.characters") if kind in ("maxLength", "minLength") else say("schema.unit.items")
    if kind == "minProperties":
        unit = say("schema.unit.keys")
    side = say("schema.at-most") if kind.startswith("max") else say("schema.at-least")
    return say("schema.has-allowed", count=count, unit=unit, side=side, bound=bound)


def _schema_properties(schema: dict[str, Any]) -> list[str]:
    props = list(schema.get("properties", {}))
    for sub in schema.get("allOf", []):
        then = sub.get("then", {})
        props += list(then.get("properties", {}))
    return props


# Diagnostics one schema check reports (a document, or one table entry): 9,000 bad dice faces in a
# scenario are 50 lines, not 745 KB, and the check stops there.
MAX_PER_CHECK = 50
MAX_MORE_COUNTED = 1000


def diagnostics_for(doc: Document, validator: Any,
                    instance: Any = None, base: tuple[str | int, ...] = ()) -> list[Diagnostic]:
    """Validate `instance` (default: the whole document) and map each error to a diagnostic."""
    data = doc.data if instance is None else instance
    out: list[Diagnostic] = []
    errors = validator.iter_errors(data)
    for error in errors:
        out.extend(_translate(doc, error, base))
        if len(out) >= MAX_PER_CHECK:  # iter_errors is lazy: the rest is neither checked nor printed
            more = sum(1 for _ in zip(errors, range(MAX_MORE_COUNTED)))
            if more:
                counted = f"{more}{'+' if more == MAX_MORE_COUNTED else ''}"
                out.append(Diagnostic(doc.span(base), "too-many-errors",
                                      say("too-many-errors.more-problems-here-fix", counted=counted)))
            break
    return out


def _translate(doc: Document, error: jsonschema.ValidationError,
               base: tuple[str | int, ...]) -> Iterator[Diagnostic]:
    path = base + tuple(error.absolute_path)
    kind = error.validator
    value = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = list(schema.get("properties", {}))
        for key in value:
            if key not in allowed:
                yield Diagnostic(doc.span(path + (key,), key=True), "unknown-key",
                                 say("unknown-key.not-allowed-here", key_=quote(key)),
                                 _full_width_hint(key) or did_you_mean(key, allowed) or
                                 say("unknown-key.allowed-keys", allowed=', '.join(allowed)))
        return
    if kind == "unevaluatedProperties" and isinstance(value, dict):
        allowed = _schema_properties(schema)
        for key in value:
            if key not in allowed:
                yield Diagnostic(doc.span(path + (key,), key=True), "unknown-key",
                                 say("unknown-key.not-allowed-here-2", key_=quote(key)), did_you_mean(key, allowed))
        return
    span = doc.span(path)
    if kind == "required":
        missing = error.validator_value
        known = set(schema.get("properties", {}))  # a key the schema allows is no misspelling
        present = [k for k in value if k not in known] if isinstance(value, dict) else []
        for key in missing:
            if isinstance(value, dict) and key not in value:
                typo = did_you_mean(key, present)
                yield Diagnostic(span, "missing-key", say("missing-key.missing-required-key", key_=key),
                                 typo and say("missing-key.misspelling", value=typo.split(chr(39))[1]))
        return
    if kind == "type":
        want = error.validator_value
        wants = want if isinstance(want, list) else [want]
        words = say("list.or").join(say(f"schema.want.{w}") if w in _WANT_WORDS else str(w) for w in wants)
        yield Diagnostic(span, "wrong-type", say("wrong-type.expected-got", words=words, type_word=_type_word(value), short=_short(value)),
                         _full_width_hint(value) if isinstance(value, str) else None)
        return
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = error.validator_value
        side = say("schema.below-minimum") if "inimum" in kind else say("schema.above-maximum")
        yield Diagnostic(span, "out-of-range", say("out-of-range.text", short=_short(value), side=side, bound=bound))
        return
    if kind in ("enum", "const"):
        options = error.validator_value if kind == "enum" else [error.validator_value]
        shown = (", ".join(_short(o) for o in options) if len(options) <= 12
                 else ", ".join(_short(o) for o in options[:8]) + f", ... ({len(options)} in all)")
        hint = did_you_mean(str(value), [str(o) for o in options]) if isinstance(value, str) else None
        yield Diagnostic(span, "bad-value", say("bad-value.not-one", short=_short(value), shown=shown), hint)
        return
    if kind == "pattern":
        message = schema.get("description") or say("schema.does-not-match-pattern", validator_value=error.validator_value)
        yield Diagnostic(span, "bad-format", f"{_short(value)}: {message}")
        return
    if kind in ("maxLength", "minLength", "maxItems", "minItems", "uniqueItems", "minProperties", "maxProperties"):
        yield Diagnostic(span, "bad-size", f"{_short(value)}: {_size_message(kind, error.validator_value, value)}")
        return
    if kind == "anyOf" and all(isinstance(b, dict) and set(b) == {"required"} for b in error.validator_value):
        keys = [b["required"][0] for b in error.validator_value]
        others = tuple(f"'{k}'" for k in keys[1:])
        yield Diagnostic(span, "missing-key", say("missing-key.one-of", key_=keys[0], others=others) if others
                         else say("missing-key.missing-required-key", key_=keys[0]))
        return
    if kind == "oneOf":
        branches = error.validator_value
        if all(set(b) == {"required"} for b in branches):
            keys = [b["required"][0] for b in branches]
            present = [k for k in keys if isinstance(value, dict) and k in value]
            what = say("schema.none") if not present else ", ".join(present)
            yield Diagnostic(span, "bad-step",
                             say("bad-step.needs-exactly-one-found", keys=', '.join(keys), what=what),
                             did_you_mean(next(iter(value), ""), keys) if isinstance(value, dict) and value else None)
            return
        chosen = _discriminated(error)
        if chosen:
            for sub in chosen:
                yield from _translate(doc, sub, base)
            return
        from jsonschema.exceptions import best_match  # loaded already: `error` is jsonschema's

        best = best_match(error.context or [])
        if best is not None:
            yield from _translate(doc, best, base)
            return
    yield Diagnostic(span, "schema", _bounded_message(error))


def _bounded_message(error: jsonschema.ValidationError) -> str:
    """jsonschema's message for a keyword rulec has no words of its own for, with the instance it
    quotes (its repr, the whole of it) cut to a line."""
    message = error.message
    if len(message) <= QUOTE_CHARS * 2:
        return message
    shown = repr(error.instance) if not isinstance(error.instance, (list, dict)) else ""
    if shown and message.startswith(shown[:QUOTE_CHARS]):
        return f"{_short(error.instance)}{cut(message[len(shown):], QUOTE_CHARS * 2)}"
    return cut(message, QUOTE_CHARS * 2)


def _full_width_hint(text: str) -> str | None:
    """`name：戟` read as one word: the full-width colon (or comma) an input method typed."""
    from ..load.yaml_problems import FULL_WIDTH, full_width_mark

    found = full_width_mark(text)
    if found is None:
        return None
    mark = found[1]
    return say("schema.holds-full-width-u", mark=mark, ord=ord(mark), value=FULL_WIDTH[mark])


def _discriminated(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """The errors of the one branch of a `oneOf` whose discriminator matches (a property with a
    `const`, such as a dice section's `engine`): its other errors are the real problems."""
    by_branch: dict[object, list[jsonschema.ValidationError]] = {}
    for sub in error.context or []:
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
    alive = [errs for errs in by_branch.values()
             if not any(e.validator == "const" and len(e.relative_path) == 1 for e in errs)]
    if len(alive) == 1 and len(by_branch) == len(error.validator_value):
        return [e for e in alive[0] if not e.context] or alive[0]
    return []


def check_kind(doc: Document) -> tuple[str | None, list[Diagnostic]]:
    """The document's kind, after checking it has a known one."""
    data = doc.data
    if not isinstance(data, dict):
        return None, [Diagnostic(doc.span(()), "wrong-shape",
                                 say("wrong-shape.rule-file-mapping-with", type_word=_type_word(data)))]
    kind = data.get("kind")
    if kind not in STATIC_KINDS:
        if kind is None:
            return None, [Diagnostic(doc.span(()), "missing-key", say("missing-key.missing-required-key-kind"),
                                     say("missing-key.one", static_kinds=', '.join(STATIC_KINDS)))]
        return None, [Diagnostic(doc.span(("kind",)), "bad-value", say("bad-value.unknown-kind", short=_short(kind)),
                                 did_you_mean(str(kind), STATIC_KINDS) or
                                 (say("bad-value.scenario-not-rule-file") if kind in ("scenario", "fight") else None) or
                                 say("bad-value.one", static_kinds=', '.join(STATIC_KINDS)))]
    return kind, []


def validate_static(doc: Document) -> tuple[str | None, list[Diagnostic]]:
    """Check a document against the static schema of its kind."""
    kind, diags = check_kind(doc)
    if kind is None:
        return None, diags
    if static_check(kind)(doc.data):  # jsonschema-rs vouches for it: jsonschema only explains
        return kind, []
    return kind, diagnostics_for(doc, _static_validator(kind))


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

    def __init__(self, ruleset_id: str, memo: Memo = NO_MEMO, keep: Keep = NO_KEEP) -> None:
        self.memo = memo
        self.keep = keep
        self.name = memo.key("valid-entries", ruleset_id)
        saved = memo.get(self.name)
        self.seen: set[str] = {d for d in saved if isinstance(d, str)} if isinstance(saved, (list, frozenset)) \
            else set()
        self.clean: set[str] = set()
        self._validators: dict[str, tuple[Any, Any, bytes]] = {}

    def check(self, doc: Document, schema: dict[str, Any]) -> tuple[list[Diagnostic], Document | None]:
        """The file's problems, and the document with every entry that failed replaced by a
        `FailedEntry` (so the clean entries are still checked further, and references to the
        failed one are not reported a second time), or None when the file itself is bad. A resident
        build finds a clean document it checked before against the same schema in `keep`."""
        kept = self.keep.get("table-file", doc, schema)
        if kept is not None:
            self.clean.update(kept)
            return [], doc
        digests: list[str] = []
        out, checked = self._check(doc, schema, digests)
        if not out and checked is doc:
            self.keep.put("table-file", (doc, schema), digests)
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
        remembering = self.memo is not NO_MEMO  # with the cache off, no digest is worth computing
        for i, item in enumerate(entries):
            found = self.keep.get("valid-entry", item, schema)  # an entry a spliced document kept
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
                self.keep.put("valid-entry", (item, schema), digest)
                continue
            # jsonschema-rs vouches for a valid entry; jsonschema explains any other.
            problems = [] if entry.valid(item) else \
                diagnostics_for(doc, entry.validator(), item, ("entries", i))
            out.extend(problems)
            if not problems and remembering:
                self.clean.add(digest)
                digests.append(digest)
            if not problems:
                self.keep.put("valid-entry", (item, schema), digest)
            kept.append(FailedEntry.of(item) if problems else item)
        if not out:
            return out, doc
        return out, dataclasses.replace(doc, data={**doc.data, "entries": kept})

    def save(self) -> None:
        if self.clean != self.seen:  # sorted for the cache; a resident build's memory takes the set
            self.memo.put(self.name, sorted(self.clean) if self.memo.persists else frozenset(self.clean))

