"""The fast yes/no schema check (jsonschema-rs), and the regex dialect both validators share.

`fast_check(schema)` compiles a schema with jsonschema-rs into a function of the instance that
says only whether it is valid: a build checks each table entry with it (a 10,000-weapon pack:
10,000 checks in tens of milliseconds), and `rulec resolve` and `rulec odds` check a scenario
without importing jsonschema. jsonschema explains every instance it refuses (`schema.py`, with
`file:line:col`); `tests/test_schema_agree.py` holds the two to the same verdicts.

Both read `pattern` as ECMA-262 does (the dialect of editors and of jsonschema-rs): `$` is the
end of the text, where Python's `$` also matches before a final newline (`ecma_regex`).
This module imports neither jsonschema nor the rest of the compiler, and jsonschema-rs without
`email.utils` (`rs_import.py`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from .rs_import import load
from .schema_dir import schema_dir

jsonschema_rs = load()

Check = Callable[[Any], bool]


@lru_cache(maxsize=1)
def static_schemas() -> dict[str, dict[str, Any]]:
    """rulec's own schemas (the installed `schema/` folder, read once a process: they are part of
    the compiler, not of its input), by kind."""
    return {path.name.removesuffix(".schema.json"): json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(schema_dir().glob("*.schema.json"))}


def _registry() -> Any:
    # no `$id`s: a `$ref` names the file beside it (`common.schema.json#/...`), as editors read it
    return jsonschema_rs.Registry([(f"{kind}.schema.json", s) for kind, s in static_schemas().items()])


def fast_check(schema: dict[str, Any]) -> Check:
    """`schema` as a yes/no function (its `$ref`s to rulec's own schemas followed). Compiling costs
    about a millisecond: a caller checking many instances against one schema keeps the function.
    A schema that refers only to itself (a ruleset's scenario schema) is compiled without reading
    rulec's schemas into a registry, which cost four times the compiling (`rulec resolve`)."""
    if not _refers_out(schema):
        return jsonschema_rs.validator_for(schema).is_valid  # type: ignore[no-any-return]
    return jsonschema_rs.validator_for(schema, registry=_registry()).is_valid  # type: ignore[no-any-return]


def _refers_out(schema: Any) -> bool:
    """Whether a `$ref` anywhere in `schema` names another document (anything but `#...`). Only
    objects and arrays are walked into: a 10,000-weapon scenario schema's enumerations are 20,000
    strings, which cost `rulec resolve` 5 ms when each was pushed and looked at."""
    stack = [schema] if isinstance(schema, (dict, list)) else []
    while stack:
        node = stack.pop()
        children: Iterable[Any] = node
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                return True
            children = node.values()
        stack.extend([child for child in children if isinstance(child, (dict, list))])
    return False


def ecma_regex(pattern: str) -> re.Pattern[str]:
    """A JSON Schema `pattern` with the meaning it has in ECMA-262: `$` is the end of the text.
    Python's `$` also matches before a final newline, which let `id: "blade\\n"` pass."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        out.append("\\Z" if ch == "$" and not in_class else ch)
        i += 1
    return re.compile("".join(out))  # `re` keeps the compiled pattern (its own cache)


@lru_cache(maxsize=None)
def static_check(kind: str) -> Check:
    """The fast check of a rule file of `kind` against rulec's own schema of that kind (compiled
    once a process, as the schemas are part of the compiler)."""
    return fast_check(static_schemas()[kind])
