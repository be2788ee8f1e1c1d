"""The common-case variant of a prepared resolver, folded on the IR before any code exists.

A prepared closure tests, on every roll, switches that were fixed when it was prepared: `_not_
guessed_wrong and total >= _target_armor_class`, `... if _sneak_dice_gt_0 and hit else 0`,
`_natural_layers == 0` for a plain d20, `if _weapon_damage_sides` for one damage die. The variant
assumes the values the options' defaults give those switches (true/false options at their
defaults, prepared switches that read only options folded under the defaults), a plain d20 where
the body has a face table and one damage die where a roll is prepared, folds the body for them
(fold.py), and keeps the guard: the assumptions the folded code relied on. `NAME_prepare(...)`
returns the variant when its guard holds, the general closure otherwise.
"""

from __future__ import annotations

from ..ir import PreparedBody, Procedure, Step
from ..ir import expr as ir
from ..record import replace
from ..steps import kind_for
from .fold import Known, fold, fold_steps, known_name


def common_case(body: PreparedBody, p: Procedure) -> PreparedBody | None:
    known = Known()
    of_steps: set[ir.Expr] = set()  # the assumptions about steps (a plain d20), each worth a variant
    for s in body.steps:
        for node, value in kind_for(s).common_assumptions(s, body):
            known.assume(node, value)
            of_steps.add(known_name(node))
    defaults = options_at_defaults(p)
    for node, value in defaults.values.items():
        if value.type == ir.BOOL:
            known.assume(node, value)
    for h in body.hoisted:
        assert isinstance(h, ir.Hoisted)
        folded = fold(h.value, Known(defaults.values))
        if isinstance(folded, ir.Const) and isinstance(folded.value, bool):
            known.assume(h, folded)
    rolled = fold_steps(body.steps, known)  # first: the constants it finds fold the outputs too
    outputs = tuple(fold(o, known) for o in body.outputs)
    steps = live(rolled, outputs)
    one_die = {s.target: test for s in steps if s.target and (test := kind_for(s).one_die_guard(s)) is not None}
    single = tuple(sorted(one_die))
    guard = [holds(node, known.values[node]) for node in known.used]
    guard += [one_die[t] for t in sorted(single)]
    rolls_before, rolls_after = rolls(body.steps), rolls(steps)
    step_assumed = any(node in of_steps for node in known.used)
    if not guard or not (single or step_assumed or rolls_after < rolls_before):
        return None  # worth a second closure only where it saves a roll's work: a die, a branch, a roll
    return replace(body, steps=tuple(steps), outputs=outputs, single_die=single, guard=tuple(guard))


def live(steps: list[Step] | tuple[Step, ...], outputs: tuple[ir.Expr, ...]) -> list[Step]:
    """The steps without the lets nothing reads any more (folding removed their readers; a
    prepared body writes no trace, so a let's sentence does not count). A let that could raise
    stays: leaving it out would turn an error into an outcome."""
    needed: set[str] = set().union(*(ir.locals_read(o) for o in outputs))
    kept: list[Step] = []
    for step in reversed(steps):
        value = kind_for(step).value_of(step)
        if value is not None and step.target not in needed and ir.total(value):
            continue
        kept.append(step)
        for e in step.exprs(sentences=False):
            needed |= ir.locals_read(e)
    return kept[::-1]


def options_at_defaults(p: Procedure) -> Known:
    """The procedure's whole-number and true/false options, each at its default."""
    defaults = Known()
    for prm in p.params:
        if prm.type in ("int", "bool") and prm.default is not None:
            defaults.assume(ir.Param(prm.type, prm.id, prm.name), ir.Const(prm.type, prm.default))
    return defaults


def rolls(steps: list[Step] | tuple[Step, ...]) -> int:
    """How many of the steps roll."""
    return sum(1 for s in steps if s.rolls())


def holds(node: ir.Expr, value: ir.Const) -> ir.Expr:
    """A true/false expression testing that `node` has the assumed `value`."""
    if isinstance(value.value, bool):
        return node if value.value else ir.Unary(ir.BOOL, "not", node)
    return ir.Compare(ir.BOOL, ("==",), (node, value))
