"""Every step kind is one module with all its parts, and the schemas generated from the registries
are in sync with them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from rulec.emit import handlers
from rulec.engines import ENGINES
from rulec.validate.schema_sync import stale
from rulec.steps import KINDS, NODES, kind_for

ROOT = Path(__file__).resolve().parent.parent


def test_every_step_kind_has_a_handler_for_every_target_and_form():
    assert handlers.missing(list(NODES)) == []


def test_every_step_kind_has_its_schema_lowering_and_page_description():
    schema = json.loads((ROOT / "schema" / "procedures.schema.json").read_text(encoding="utf-8"))
    assert [b["required"][0] for b in schema["$defs"]["step"]["oneOf"]] == list(KINDS)
    for key, kind in KINDS.items():
        assert schema["$defs"][f"{key}_step"] == kind.schema(), key
        assert kind.name and kind.summary and key in schema["description"]
        assert kind_for.__call__ and KINDS[key].node in NODES
        for arg in kind.args:
            assert arg.key in kind.schema()["properties"], (key, arg.key)


def test_every_dice_engine_is_a_branch_of_the_manifest_schema():
    schema = json.loads((ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))
    assert schema["properties"]["dice"]["oneOf"] == [m.SCHEMA for m in ENGINES.values()]
    for module in ENGINES.values():
        assert callable(module.lower) and callable(module.describe) and module.LIMITS


def test_the_schemas_are_in_sync_with_the_registries():
    assert stale(ROOT / "schema") == {}, "run `python scripts/sync_schemas.py`"


def test_the_installed_package_lists_every_subpackage():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {"rulec" + "".join("." + part for part in p.parent.relative_to(ROOT / "compiler").parts)
             for p in (ROOT / "compiler").rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)
