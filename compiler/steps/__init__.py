"""The closed vocabulary of procedure steps: one module per kind (see `base.py` for what a kind has).

Adding a kind is one new module here (its IR node, `StepKind` subclass and handlers): `KINDS`
finds it; `scripts/sync_schemas.py` writes its schema fragment into
`schema/procedures.schema.json`, and `tests/test_steps.py` and `tests/test_step_kinds.py` fail
until every part exists (docs/architecture.md has the whole recipe).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from typing import Any

from ..ir import Step
from .base import Arg, CheckedStep, StepKind
from .d20 import D20
from .let import Let, binding
from .note import Note
from .pool import Pool
from .pool_count import PoolCount
from .require import Require, error_class
from .roll import Roll


def _discovered() -> dict[str, StepKind]:
    """One instance of every `StepKind` subclass defined in a module of this package, by key, in
    the order of the modules' names: a new kind is a new module, registered by being here."""
    kinds: dict[str, StepKind] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, StepKind) and value.__module__ == module.__name__ \
                    and "key" in vars(value):
                kind = value()
                if kind.key in kinds:
                    raise TypeError(f"two step kinds have the key {kind.key!r}")
                kinds[kind.key] = kind
    return kinds


KINDS: dict[str, StepKind] = _discovered()
NODES: tuple[type[Step], ...] = tuple(k.node for k in KINDS.values())
_BY_NODE: dict[type[Step], StepKind] = {k.node: k for k in KINDS.values()}


def kind_of(raw: Mapping[str, Any]) -> StepKind:
    """The kind of a step mapping (the schema has checked it names exactly one)."""
    for key, kind in KINDS.items():
        if key in raw:
            return kind
    raise KeyError("no step kind")


def kind_for(step: Step) -> StepKind:
    return _BY_NODE[type(step)]


__all__ = ["Arg", "CheckedStep", "D20", "KINDS", "Let", "NODES", "Note", "Pool", "PoolCount", "Require", "Roll",
           "StepKind", "binding", "error_class", "kind_for", "kind_of"]
