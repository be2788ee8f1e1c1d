"""Pass 3, lower: a checked ruleset -> the IR (`ir.Ruleset`).

Validation has checked everything; lowering only builds: each checked step becomes its kind's
IR node (`StepKind.lower`), each checked procedure an `ir.Procedure`. Nothing here can fail on a
user's rules, and nothing here renders any target language.
"""

from __future__ import annotations

from .ir import Procedure, Ruleset
from .record import replace
from .validate import Checked
from .validate.procedures import CheckedProcedure


def lower_procedure(c: CheckedProcedure) -> Procedure:
    steps = tuple(step.kind.lower(step) for step in c.steps)
    return Procedure(c.id, c.name, c.description, c.rules, c.subject, c.params, steps, c.result, c.summary, c.span,
                     effects=c.effects, action=c.action, action_from=c.action_from, costs=c.costs,
                     checks=c.checks)


def lower(c: Checked, *, pack_label: str = "") -> Ruleset:
    return replace(c.ruleset, procedures=tuple(lower_procedure(p) for p in c.procedures), pack_label=pack_label)
