"""The parts of schema/*.json that come from the compiler's registries, kept in sync with them.

`schema/procedures.schema.json` holds one fragment per step kind (`<kind>_step`, from
`compiler/steps/<kind>.py`) and the `step` dispatch over them; `schema/ruleset.schema.json`
holds one branch of `dice` per dice engine (`compiler/engines/<engine>.py`). Editors read these
files (hover text included), so they are generated from the registries: `python
scripts/sync_schemas.py` rewrites them, and a test fails while they differ.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from ..engines import ENGINES
from ..jsontext import indented
from ..steps import KINDS


def with_steps(schema: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(schema)
    keys = list(KINDS)
    out["description"] = (
        "Resolution procedures: typed parameters, an ordered list of steps from a closed vocabulary ("
        + ", ".join(keys) + "), the outcome fields, and which of them an odds summary reads as the hit and "
        "the damage. Each compiles to four forms in every target language (traced, fast, prepared, exact odds).")
    defs = {k: v for k, v in out["$defs"].items() if not k.endswith("_step")}
    defs["step"] = {
        "description": "One step; exactly one of the keys " + ", ".join(keys) + " says its kind.",
        "type": "object",
        "oneOf": [{"required": [k]} for k in keys],
        "allOf": [{"if": {"required": [k]}, "then": {"$ref": f"#/$defs/{k}_step"}} for k in keys],
    }
    for key, kind in KINDS.items():
        defs[f"{key}_step"] = kind.schema()
    out["$defs"] = defs
    return out


def with_engines(schema: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(schema)
    out["properties"]["dice"] = {
        "description": "The dice engine: " + ", ".join(f"{k} ({(m.__doc__ or '').strip().splitlines()[0]})"
                                                      for k, m in ENGINES.items()),
        "oneOf": [m.SCHEMA for m in ENGINES.values()],
    }
    return out


GENERATED = {"procedures.schema.json": with_steps, "ruleset.schema.json": with_engines}


def text(value: dict[str, Any]) -> str:
    return indented(value) + "\n"


def stale(folder: Path) -> dict[str, str]:
    """{file name: the text it should hold} for every generated schema file that differs."""
    out = {}
    for name, update in GENERATED.items():
        path = folder / name
        current = path.read_text(encoding="utf-8")
        wanted = text(update(json.loads(current)))
        if wanted != current:
            out[name] = wanted
    return out
