"""jsonschema's errors as diagnostics: each at the file, line and column of the offending key or
value, in the catalogue's words, with a "did you mean" hint for misspelt keys and enum values, at
most MAX_PER_CHECK a check (the rest counted)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..diagnostics import QUOTE_CHARS, Diagnostic, cut, did_you_mean, json_prefix, quote
from ..load import Document
from ..messages import say

if TYPE_CHECKING:
    import jsonschema


def type_word(value: Any) -> str:
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


def short(value: Any) -> str:
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
        yield Diagnostic(span, "wrong-type", say("wrong-type.expected-got", words=words, type_word=type_word(value), short=short(value)),
                         _full_width_hint(value) if isinstance(value, str) else None)
        return
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = error.validator_value
        side = say("schema.below-minimum") if "inimum" in kind else say("schema.above-maximum")
        yield Diagnostic(span, "out-of-range", say("out-of-range.text", short=short(value), side=side, bound=bound))
        return
    if kind in ("enum", "const"):
        options = error.validator_value if kind == "enum" else [error.validator_value]
        shown = (", ".join(short(o) for o in options) if len(options) <= 12
                 else ", ".join(short(o) for o in options[:8]) + f", ... ({len(options)} in all)")
        hint = did_you_mean(str(value), [str(o) for o in options]) if isinstance(value, str) else None
        yield Diagnostic(span, "bad-value", say("bad-value.not-one", short=short(value), shown=shown), hint)
        return
    if kind == "pattern":
        message = schema.get("description") or say("schema.does-not-match-pattern", validator_value=error.validator_value)
        yield Diagnostic(span, "bad-format", f"{short(value)}: {message}")
        return
    if kind in ("maxLength", "minLength", "maxItems", "minItems", "uniqueItems", "minProperties", "maxProperties"):
        yield Diagnostic(span, "bad-size", f"{short(value)}: {_size_message(kind, error.validator_value, value)}")
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
        return f"{short(error.instance)}{cut(message[len(shown):], QUOTE_CHARS * 2)}"
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


