"""The JSON Schemas: valid draft 2020-12, documented, closed; every rule file names its schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulec.validate.schema import validator_for

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = sorted((ROOT / "schema").glob("*.schema.json"))
GENERATED = sorted((ROOT / "generated" / "schema").rglob("*.schema.json"))


@pytest.mark.parametrize("path", SCHEMAS + GENERATED, ids=lambda p: p.name)
def test_schema_is_valid_and_documented(path: Path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    # A static schema has no `$id`, so that every validator resolves its `$ref`s against the file's own
    # place (tests/test_schema_validators.py); a generated one is self-contained and has an absolute one.
    for key in ("title", "description", "examples") + (("$id",) if path in GENERATED else ()):
        assert key in schema, f"{path.name} has no {key}"
    assert path in GENERATED or "$id" not in schema, f"{path.name}: a relative $id breaks check-jsonschema"
    validator = validator_for(schema)
    for example in schema["examples"]:
        if "$defs" in schema and "properties" not in schema:
            continue  # common.schema.json only holds definitions
        assert not list(validator.iter_errors(example)), f"{path.name}: its example does not validate"


def _objects(node, trail=()):
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            yield trail, node
        for k, v in node.items():
            yield from _objects(v, trail + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _objects(v, trail + (i,))


@pytest.mark.parametrize("path", SCHEMAS + GENERATED, ids=lambda p: p.name)
def test_objects_are_closed_and_numbers_bounded(path: Path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    for trail, obj in _objects(schema):
        if trail and trail[0] == "examples":
            continue

        assert obj.get("additionalProperties") is False, f"{path.name}: open object at {trail}"
    for trail, node in _numbers(schema):
        assert "minimum" in node and "maximum" in node, f"{path.name}: unbounded integer at {trail}"


def _numbers(node, trail=()):
    if isinstance(node, dict):
        if node.get("type") == "integer" and not (trail and trail[-1] in ("default",)):
            yield trail, node
        for k, v in node.items():
            if k not in ("examples", "default"):
                yield from _numbers(v, trail + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _numbers(v, trail + (i,))


def test_every_rule_file_names_its_schema():
    line = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
    for path in sorted((ROOT / "rules").rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        m = line.match(first)
        assert m, f"{path} has no yaml-language-server line"
        assert (path.parent / m.group(1)).resolve().is_file(), f"{path}: {m.group(1)} does not exist"
