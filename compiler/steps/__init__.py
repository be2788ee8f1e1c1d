"""The closed vocabulary of procedure steps: one module per kind (see `base.py` for what a kind has).

Adding a kind is one new module here (its IR node, `StepKind` subclass and handlers) plus its
entry in `KINDS`; `scripts/sync_schemas.py` writes its schema fragment into
`schema/procedures.schema.json`, and `tests/test_steps.py` fails until every part exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..ir import Step
from .base import Arg, CheckedStep, StepKind
from .d20 import D20, D20Kind
from .let import Let, LetKind
from .note import Note, NoteKind
from .pool import Pool, PoolKind
from .pool_count import PoolCount, PoolCountKind
from .require import Require, RequireKind, error_class
from .roll import Roll, RollKind

KINDS: dict[str, StepKind] = {k.key: k for k in (LetKind(), RequireKind(), PoolKind(), PoolCountKind(), D20Kind(),
                                                   RollKind(), NoteKind())}
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
           "StepKind", "error_class", "kind_for", "kind_of"]
