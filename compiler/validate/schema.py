"""Pass 2, validate (documents): documents -> diagnostics, by JSON Schema.

Every document is checked against the schema of its `kind` (the static files in
`schema/`, `validate_static`); table documents are checked again, entry by entry,
against the schema generated from their table's declaration in the ruleset manifest
(`table_files.py`). jsonschema-rs says yes or no (`fast_schema.py`); jsonschema runs
only to explain a problem, and every error it finds is mapped back to the file, line
and column of the offending key or value (`schema_errors.py`). Semantic checks that
need name resolution (references, formulas) come after.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .fast_schema import ecma_regex, static_check, static_schemas
from ..diagnostics import Diagnostic, did_you_mean, quote
from ..load import Document
from ..messages import say
from .schema_errors import MAX_PER_CHECK, diagnostics_for, short, type_word

if TYPE_CHECKING:
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


def check_kind(doc: Document) -> tuple[str | None, list[Diagnostic]]:
    """The document's kind, after checking it has a known one."""
    data = doc.data
    if not isinstance(data, dict):
        return None, [Diagnostic(doc.span(()), "wrong-shape",
                                 say("wrong-shape.rule-file-mapping-with", type_word=type_word(data)))]
    kind = data.get("kind")
    if kind not in STATIC_KINDS:
        if kind is None:
            return None, [Diagnostic(doc.span(()), "missing-key", say("missing-key.missing-required-key-kind"),
                                     say("missing-key.one", static_kinds=', '.join(STATIC_KINDS)))]
        return None, [Diagnostic(doc.span(("kind",)), "bad-value", say("bad-value.unknown-kind", short=short(kind)),
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


__all__ = ["MAX_PER_CHECK", "diagnostics_for", "static_schema", "validate_static", "validator_for"]
