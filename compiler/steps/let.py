"""`let`: compute a value from a formula and name it for the steps after it (计算)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..emit.handlers import handler
from ..emit.python.code import code
from ..ir import Formula, Step, Template
from ..ir.expr import BOOL, DICE, INT, LIST, STR, Expr
from .base import Arg, CheckedStep, StepKind
from ..messages import say

if TYPE_CHECKING:
    from ..emit.js.gen import JsGen
    from ..emit.python.gen import PyGen


class Let(Step, frozen=True):
    value: Formula
    say: Template | None




class LetKind(StepKind):
    key = "let"
    name = "计算"
    summary = "Compute a value from a formula and name it for the steps after it."
    args = (Arg("value", (INT, BOOL, STR), required=True, description="The formula."),)
    defines = "value"
    has_when = False
    node: ClassVar[type[Step]] = Let

    def check_more(self, raw: Any, ctx: Any, checked: CheckedStep) -> None:
        value = checked.args.get("value")
        if value is not None and value.type in (DICE, LIST):
            ctx.error(("value",), "wrong-type", say("wrong-type.let-step-holds-number"))

    def lower(self, c: CheckedStep) -> Let:
        return Let(c.target, c.name, None, c.rules, c.span, c.arg("value"), c.say)

    def value_of(self, step: Let) -> Expr:
        return step.value.expr

    def local_type(self, step: Let) -> str:
        return step.value.type

    def describe(self, step: Let, zh: Any) -> str:
        return f"{step.name} = {zh(step.value.expr)}"

    def local_range(self, step: Let, ev: Any) -> Any:
        return ev(step.value.expr)


def binding(step: Step, value: Formula) -> Let:
    """A let in place of `step`, defining its local as `value` (folding: a roll that does not happen
    defines its local as 0)."""
    return Let(step.target, step.name, None, step.rules, step.span, value, None)


def _assign(step: Let, g: PyGen) -> None:
    g.w.line(code("{} = {}", g.local(step), g.expr(step.value.expr)))


def _assign_traced(step: Let, g: PyGen) -> None:
    _assign(step, g)
    if step.say is not None:
        g.trace("let", g.sentence(step.say), g.values((step.target or "", g.local(step))))


for _form in ("setup", "traced"):
    handler("python", _form, Let)(_assign_traced)
for _form in ("fast", "prepared", "odds"):
    handler("python", _form, Let)(_assign)


@handler("python", "prepare", Let)
def _prepare(step: Let, g: PyGen) -> None:
    """Nothing to prepare: a let's roll-independent parts are prepared values of the closure."""


# ---- JavaScript ----
def _js_assign(step: Let, g: JsGen) -> None:
    g.assign(g.local(step), g.expr(step.value.expr))


def _js_assign_traced(step: Let, g: JsGen) -> None:
    _js_assign(step, g)
    if step.say is not None:
        g.trace("let", g.sentence(step.say), g.values((step.target or "", g.local(step))))


for _form in ("setup", "traced"):
    handler("js", _form, Let)(_js_assign_traced)
for _form in ("fast", "odds"):
    handler("js", _form, Let)(_js_assign)
