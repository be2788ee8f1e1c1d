"""Ruleset features: capabilities a manifest switches on (`features: [initiative]`), each with the
dice engine and the rulings it needs, the runtime module that implements it, and what it adds to
the generated package. Checked while validating: a feature whose ruling is missing is a
diagnostic at the manifest, never a NameError in a user's program."""

from __future__ import annotations

from .record import Record


class Feature(Record, frozen=True):
    id: str
    name: str
    engine: str
    rulings: tuple[str, ...]
    runtime: tuple[str, ...]
    description: str


FEATURES: dict[str, Feature] = {f.id: f for f in (
    Feature("initiative", "先攻顺序", "pool", ("initiative_tiebreak_extras",), ("initiative",),
            "initiative_order([(name, dice, extras), ...]) orders combatants by successes, then extra successes "
            "(when the ruling says so), re-rolling only those still tied."),
)}
