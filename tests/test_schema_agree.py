"""The fast check (jsonschema-rs, validate/fast_schema.py) and jsonschema, which explains what it
refuses, give the same verdict: on every example scenario and on mutations of them (wrong types,
unknown keys, numbers past their range, floats, booleans for numbers, missing keys, long text)
against the generated scenario and fight schemas, on table entries against their table's schema,
and on rule files against the static schemas (which refer to common.schema.json)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulec.validate.fast_schema import fast_check
from rulec.validate.schema import validator_for

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))


def _schema(built: Path, data: dict[str, Any]) -> dict[str, Any]:
    kind = "fight" if data["kind"] == "fight" else "scenario"
    return json.loads((built / "schema" / data["ruleset"] / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, path + (i,))
    return out


_REPLACEMENTS = (0, -1, 1, 7, 10**6, -10**6, 2.5, 1.0, True, False, None, "", "x", "拳", "长剑", "weapon\n", [], [1],
                 {}, {"x": 1}, "a" * 5000, "attack", "scenario", "fight")


def _mutate(data: Any, rng: random.Random) -> Any:
    out = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(out))
        if not path:
            continue
        parent = out
        for key in path[:-1]:
            parent = parent[key]
        how = rng.random()
        if how < 0.6:
            parent[path[-1]] = copy.deepcopy(rng.choice(_REPLACEMENTS))
        elif how < 0.8 and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[rng.choice(("unknown", "extra_speed", "力量", "weapon", "dice", "seed"))] = \
                copy.deepcopy(rng.choice(_REPLACEMENTS))
    return out


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario_verdicts_agree(example: Path, built: Path) -> None:
    data = yaml.safe_load(example.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("kind") not in ("scenario", "fight"):
        pytest.skip("not a scenario")
    schema = _schema(built, data)
    validator = validator_for(schema)
    assert fast_check(schema)(data) and validator.is_valid(data)  # an example takes the fast path
    _agree_on_mutations(data, schema, validator, random.Random(example.name), 50)


def _agree_on_mutations(data: Any, schema: Any, validator: Any, rng: random.Random, count: int) -> None:
    """On every mutation of `data`, the fast check and jsonschema agree (and some are invalid)."""
    check = fast_check(schema)
    seen = {True: 0, False: 0}
    for _ in range(count):
        mutated = _mutate(data, rng)
        v = check(mutated)
        seen[v] += 1
        assert v == validator.is_valid(mutated), json.dumps(mutated, ensure_ascii=False)[:500]
    assert seen[False] > 0, seen


@pytest.mark.parametrize(("schema", "valid", "invalid"), [
    ({"type": "integer", "multipleOf": 2}, [4, 4.0], [3, 2.5, True]),  # 4.0 is an integer to JSON Schema
    ({"type": "object", "patternProperties": {"^a": {}}, "additionalProperties": False}, [{"ab": 1}], [{"b": 1}]),
    ({"type": "string", "pattern": "^x$"}, ["x"], ["x\n", "xx"]),  # ECMA's $: the end of the text
    ({"enum": [1]}, [1, 1.0], [True]), ({"enum": [True]}, [True], [1]),
    ({"type": "array", "uniqueItems": True}, [[1, True], [[1], [2]]], [[1, 1.0], [{"a": 1}, {"a": 1}]]),
    ({"const": {"a": [1, "x"]}}, [{"a": [1, "x"]}], [{"a": [1, "X"]}, {"a": [True, "x"]}]),
])
def test_the_two_agree_on_samples(schema: dict[str, Any], valid: list[Any], invalid: list[Any]) -> None:
    """Where JSON Schema's meaning is easy to get wrong (numbers, booleans, ECMA's `$`)."""
    check, validator = fast_check(schema), validator_for(schema)
    for value in valid:
        assert check(value) and validator.is_valid(value), value
    for value in invalid:
        assert not check(value) and not validator.is_valid(value), value


@pytest.mark.slow  # several seconds of building: CI's slow job
def test_table_entry_verdicts_agree(built: Path) -> None:
    """The entries of every bundled table file, and mutations of them, against their table's schema
    as the build checks them (validate/table_files.py TableFiles)."""
    from rulec.build.facade import compile_rules
    from rulec.validate import table_files as S

    seen: dict[str, dict[str, Any]] = {}
    original = S.TableFiles.check

    def spy(self: Any, doc: Any, schema: dict[str, Any]) -> Any:
        seen.setdefault(schema["properties"]["table"]["const"] + "@" + schema["$id"], schema)
        return original(self, doc, schema)

    S.TableFiles.check = spy  # type: ignore[method-assign]
    try:
        compile_rules([ROOT / "rules"])
    finally:
        S.TableFiles.check = original  # type: ignore[method-assign]
    rng = random.Random(19)
    checked = 0
    for key, schema in sorted(seen.items()):
        table, ruleset = key.split("@")[0], schema["$id"].split("/")[-2]
        files = [p for p in (ROOT / "rules" / ruleset).rglob("*.yaml") if f"table: {table}\n" in p.read_text("utf-8")]
        item = schema["properties"]["entries"]["items"]
        validator, check = validator_for(item), fast_check(item)
        for path in files:
            for entry in (yaml.safe_load(path.read_text(encoding="utf-8")).get("entries") or [])[:30]:
                assert check(entry) and validator.is_valid(entry), (key, entry)
                for _ in range(6):
                    mutated = _mutate(entry, rng)
                    assert check(mutated) == validator.is_valid(mutated), \
                        (key, json.dumps(mutated, ensure_ascii=False)[:300])
                    checked += 1
    assert checked > 500


RULE_FILES = sorted((ROOT / "rules").rglob("*.yaml"))


@pytest.mark.parametrize("rule_file", RULE_FILES[::3], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_static_schema_verdicts_agree(rule_file: Path) -> None:
    """The static schemas of rule files refer to common.schema.json: both follow the references."""
    _static_verdicts_agree(rule_file, 25)


@pytest.mark.slow
@pytest.mark.parametrize("rule_file", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_static_schema_verdicts_agree_on_every_file(rule_file: Path) -> None:
    _static_verdicts_agree(rule_file, 120)


def _static_verdicts_agree(rule_file: Path, count: int) -> None:
    from rulec.validate.schema import _static_validator, static_schema

    data = yaml.safe_load(rule_file.read_text(encoding="utf-8"))
    kind = data["kind"]
    if kind in ("pack",):
        pytest.skip("a manifest of its own")
    schema, validator = static_schema(kind), _static_validator(kind)
    assert fast_check(schema)(data) and validator.is_valid(data)
    _agree_on_mutations(data, schema, validator, random.Random(rule_file.name), count)
