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

import dataclasses

from ..ir import PreparedBody, Procedure, Step
from ..ir import expr as ir
from ..steps import D20, Let, Roll
from .fold import Known, fold, fold_steps


def common_case(body: PreparedBody, p: Procedure) -> PreparedBody | None:
    known = Known()
    if body.face_table is not None:
        d20 = next(s for s in body.steps if isinstance(s, D20) and s.target == body.face_table)
        if isinstance(d20.layers, ir.Hoisted):
            known.assume(d20.layers, ir.Const(ir.INT, 0))
    defaults = Known()
    for prm in p.params:
        if prm.type in ("int", "bool") and prm.default is not None:
            value = ir.Const(prm.type, prm.default)
            defaults.assume(ir.Param(prm.type, prm.id, prm.name), value)
            if prm.type == "bool":
                known.assume(ir.Param(prm.type, prm.id, prm.name), value)
    for h in body.hoisted:
        assert isinstance(h, ir.Hoisted)
        folded = fold(h.value, Known(defaults.values))
        if isinstance(folded, ir.Const) and isinstance(folded.value, bool):
            known.assume(h, folded)
    rolled = fold_steps(body.steps, known)  # first: the constants it finds fold the outputs too
    outputs = tuple(fold(o, known) for o in body.outputs)
    steps = _live(rolled, outputs)
    single = frozenset(s.target for s in steps if isinstance(s, Roll) and isinstance(s.dice.expr, ir.Hoisted)
                       and s.target)
    guard = [_holds(node, known.values[node]) for node in known.used]
    guard += [ir.Hoisted(ir.INT, f"_{t}_sides", ir.Const(ir.INT, 0)) for t in sorted(single)]
    rolls_before = sum(1 for s in body.steps if s.rolls())
    rolls_after = sum(1 for s in steps if s.rolls())
    plain_d20 = any(isinstance(n, ir.Hoisted) and n.name.endswith("_layers") for n in known.used)
    if not guard or not (single or plain_d20 or rolls_after < rolls_before):
        return None  # worth a second closure only where it saves a roll's work: a die, a branch, a roll
    return dataclasses.replace(body, steps=tuple(steps), outputs=outputs, single_die=single, guard=tuple(guard))


def _live(steps: list[Step] | tuple[Step, ...], outputs: tuple[ir.Expr, ...]) -> list[Step]:
    """The steps without the lets nothing reads any more (folding removed their readers; a
    prepared body writes no trace, so a let's sentence does not count)."""
    needed: set[str] = set().union(*(ir.locals_read(o) for o in outputs))
    kept: list[Step] = []
    for step in reversed(steps):
        if isinstance(step, Let) and step.target not in needed:
            continue
        kept.append(step)
        for f in step.formulas():
            needed |= ir.locals_read(f.expr)
        if isinstance(step, D20):
            needed |= ir.locals_read(step.layers)
    return kept[::-1]


def _holds(node: ir.Expr, value: ir.Const) -> ir.Expr:
    """A true/false expression testing that `node` has the assumed `value`."""
    if isinstance(value.value, bool):
        return node if value.value else ir.Unary(ir.BOOL, "not", node)
    return ir.Compare(ir.BOOL, ("==",), (node, value))
