"""The two forms of a Python procedure made for many rolls of one situation, for
`procedures.ProcedureWriter`: `NAME_prepare(...)` (the setup once, then a closure that rolls,
with the prepared body's hoisted values, SeededDice's faces inline, a leading d20's face table
and the common-case variant) and `NAME_odds(...)` (the exact distribution: the same prepared
body, each roll a loop over its distribution, and its unswitched variant where a prepared switch
skips a roll).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir import Procedure, Ruleset, Step
from ...ir import expr as ir
from ...optimise.fuse import joined_sums
from ...record import replace
from ..handlers import handler_for
from .code import Code, Writer, code, docstring, join, literal, name
from .gen import ProcedureContext, PyGen

if TYPE_CHECKING:
    from ...ir import Plan, PreparedBody


class ManyRollForms:
    """`prepare` and `odds` for `ProcedureWriter` (which provides the attributes and methods below)."""

    rs: Ruleset
    p: Procedure
    plan: "Plan"
    w: Writer
    ctx: ProcedureContext
    fields: Code
    out_type: Code

    if TYPE_CHECKING:  # provided by ProcedureWriter
        def signature(self, extra: list[Code]) -> Code: ...

        def setup_call(self, trace: Code) -> None: ...

        def _per_roll(self, form: str, g: PyGen, steps: tuple[Step, ...]) -> None: ...

        def checked_in_setup(self, step: Step) -> bool: ...

        def _outputs(self, outputs: tuple[ir.Expr, ...], g: PyGen) -> Code: ...

        def roll_call(self, dice: Code = Code("dice")) -> Code: ...

    def prepare(self) -> None:
        w, p, body = self.w, self.p, self.plan.prepared
        w.line()
        w.line()
        with w.block(code("def {}({}) -> Callable[[DiceSource], Tuple[{}]]", name(p.id + "_prepare"),
                          self.signature([]), self.out_type)):
            w.line(docstring(f"{p.name}: the setup once; the function returned rolls and returns the outcome tuple."))
            self.setup_call(Code("None"))
            g = PyGen(self.ctx, "prepare", w, body=body)
            for h in body.hoisted:
                assert isinstance(h, ir.Hoisted)
                w.line(code("{} = {}", name(h.name), g.expr(h.value)))
            for s in body.steps:
                handler_for("python", "prepare", s)(s, g)
            self.closure("_roll", body, general=True)
            if body.face_table is not None:
                step = next(s for s in body.steps if s.target == body.face_table)
                w.line()
                w.line(Code("# Outcomes by the faces rolled, tabulated from _roll itself as faces come up (face_tree)."))
                w.line(code("{} = _rt_face_table(20)", g.temp(step, "faces")))
            common = self.plan.common
            if common is not None:
                guard = join(" and ", [PyGen(self.ctx, "prepared", w, body=common).expr(e) for e in common.guard])
                self.closure("_roll_common", common, general=False, guard=guard)
                w.line()
                w.line(code("return _roll_common if {} else _roll", guard))
            else:
                w.line()
                w.line(Code("return _roll"))

    def closure(self, fn: str, body: object, *, general: bool, guard: Code | None = None) -> None:
        from ...ir import PreparedBody

        assert isinstance(body, PreparedBody)
        w = self.w
        w.line()
        with w.block(code("def {}(dice: DiceSource) -> Tuple[{}]", name(fn), self.out_type)):
            if guard is not None:
                w.line(docstring("_roll's SeededDice branch, folded for the common case (see its guard below)."))
            rolls = bool(body.steps)
            if rolls:
                with w.block(Code("if dice.__class__ is SeededDice")):
                    if general:
                        w.line(Code("# Faces inline: int(_rand() * sides) + 1 is exactly SeededDice.die, in order."))
                    w.line(Code("_rand = dice.random"))
                    g = PyGen(self.ctx, "prepared", w, mode="rand", body=body)
                    g.outcome_type = self.out_type
                    self._per_roll("prepared", g, body.steps)
                    w.line(code("return ({})", self._outputs(body.outputs, g)))
            if not general:
                w.line(Code("return _roll(dice)"))
            elif rolls:
                w.line(code("return {}", self.roll_call(Code("_rt_dice_source(dice)"))))
            else:
                w.line(Code("_rt_dice_source(dice)  # refused when it is not a dice source, as in every form"))
                g = PyGen(self.ctx, "prepared", w, mode="die", body=body)
                w.line(code("return ({})", self._outputs(body.outputs, g)))

    def odds(self) -> None:
        w, p = self.w, self.p
        w.line()
        w.line()
        with w.block(code("def {}({}) -> Odds", name(p.id + "_odds"), self.signature([]))):
            w.line(docstring(f"{p.name}: the exact distribution of the fields of {p.id.upper()}_FIELDS."))
            self.setup_call(Code("None"))
            w.line(code("_odds, _p = OddsBuilder({}, {}, {}, {}), 1.0", self.fields, literal(p.summary.hit),
                        literal(p.summary.damage), literal(self.rs.dice.limits["odds_branches"])))
            w.line(Code("_acc = _odds.acc"))
            w.line(Code("_acc_get = _acc.get"))
            body = self._joined(self.plan.prepared)  # the per-roll steps, roll-independent parts hoisted
            g = PyGen(self.ctx, "odds", w, body=body)
            for h in body.hoisted:  # computed once, not once per outcome enumerated
                assert isinstance(h, ir.Hoisted)
                w.line(code("{} = {}", name(h.name), g.expr(h.value)))
            variant = self.plan.odds  # the rolls the prepared switches skip, folded away (optimise/unswitch.py)
            if variant is not None:
                variant = self._joined(variant)
                guard = join(" and ", [g.expr(e) for e in variant.guard])
                with w.block(code("if {}", guard)):
                    self._enumerate(PyGen(self.ctx, "odds", w, body=variant), variant, first=True)
            self._enumerate(g, body, first=variant is None)

    def _joined(self, body: "PreparedBody") -> "PreparedBody":
        """The body with two rolls read only as their sum enumerated as one (optimise/fuse.py)."""
        steps, outputs = joined_sums(body.steps, body.outputs, self.checked_in_setup)
        return replace(body, steps=steps, outputs=outputs) if steps is not body.steps else body

    def _enumerate(self, g: PyGen, body: "PreparedBody", *, first: bool) -> None:
        """The loops over the body's rolls, each outcome added, and the distribution returned. The
        outcome fields no roll changes (`_fixed`) are left out of the key each outcome hashes and
        given to the builder once, after the loops (runtime/odds.py `Odds`). The `first` key of
        the function is declared a tuple of any length: the variant's and the general body's may
        leave out different fields (mypy --strict reads the generated packages)."""
        level = self.w.level
        self._per_roll("odds", g, body.steps)
        fixed = _fixed(body)
        varying = tuple(o for i, o in enumerate(body.outputs) if i not in fixed)
        # the builder's `add` written out, uncharged: every loop around it charged its outcomes
        key = Code("_key: Tuple[Any, ...]") if first else Code("_key")
        self.w.line(code("{} = ({})", key, self._outputs(varying, g)) if varying else code("{} = ()", key))
        self.w.line(code("_acc[_key] = _acc_get(_key, 0.0) + {}", g.p))
        self.w.level = level
        if not fixed:
            self.w.line(Code("return _odds.build()"))
            return
        pairs = [code("({}, {})", literal(i), g.expr(body.outputs[i])) for i in sorted(fixed)]
        self.w.line(code("return _odds.build(({}))", join(", ", pairs) if len(pairs) > 1 else code("{},", pairs[0])))


def _fixed(body: "PreparedBody") -> set[int]:
    """The positions of the body's outputs that are the same in every outcome: a constant, a
    parameter, a prepared (hoisted) value or a local no per-roll step sets, as `optimise/plan.py`
    `prepare` left them, which cannot raise (`ir.total`: the loops would have raised first)."""
    per_roll = {s.target for s in body.steps if s.target}
    return {i for i, o in enumerate(body.outputs)
            if isinstance(o, (ir.Const, ir.Param, ir.Hoisted))
            or (isinstance(o, ir.Local) and o.name not in per_roll)}
