"""Dice engines: one module per engine, each holding everything of that engine.

An engine module has its schema fragment (a branch of the manifest's `dice:` section), its
lowering (`lower(raw, span, report) -> ir.Dice`), its limits with their defaults, the Chinese
text the reference page shows, the runtime modules a package using it needs, and the module-level
lines its generated Python needs (`python_prelude`). The step kinds that roll it name it (`engine`).
"""

from __future__ import annotations

from types import ModuleType

from . import d20, pool

ENGINES: dict[str, ModuleType] = {"pool": pool, "d20": d20}

# Limits every engine has: damage dice of a `roll` step (the sum of the counts of its terms).
COMMON_LIMITS = {"damage_dice": 200}


def engine(name: str) -> ModuleType:
    return ENGINES[name]


def schema_fragments() -> list[dict[str, object]]:
    return [module.SCHEMA for module in ENGINES.values()]
