"""Every step kind in the registry has its four parts: schema fragment, lowering, template, rendering."""

from __future__ import annotations

import json
from pathlib import Path

from rulec.emit.env import environment
from rulec.steps import REGISTRY

ROOT = Path(__file__).resolve().parent.parent


def test_every_step_kind_is_complete():
    schema = json.loads((ROOT / "schema" / "procedures.schema.json").read_text(encoding="utf-8"))
    step_keys = [branch["required"][0] for branch in schema["$defs"]["step"]["oneOf"]]
    assert sorted(step_keys) == sorted(REGISTRY)
    template = environment().get_template("steps.py.j2").module
    for key, kind in REGISTRY.items():
        assert f"{key}_step" in schema["$defs"], key
        for flavour in ("traced", "fast", "odds"):
            assert hasattr(template, f"{key}_{flavour}"), f"no {key}_{flavour} macro"
        assert callable(kind.describe) and kind.name
        schema_props = set(schema["$defs"][f"{key}_step"]["properties"])
        assert {arg for arg, _, _ in kind.args} <= schema_props, key
