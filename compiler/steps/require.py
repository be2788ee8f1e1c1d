"""`require`: refuse the request with one of the ruleset's error types unless a condition holds (前提)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..emit.js.code import js, name as js_name
from ..emit.handlers import handler
from ..emit.python.code import code, name
from ..ir import ErrorType, Formula, Step, Template
from ..ir.expr import BOOL, Const
from .base import CheckedStep, StepKind, ref

if TYPE_CHECKING:
    from ..emit.js.gen import JsGen
    from ..emit.python.gen import PyGen


class Require(Step, frozen=True):
    condition: Formula
    error: ErrorType
    message: Template

    def simplify(self) -> Step | None:
        c = self.condition.expr
        return None if isinstance(c, Const) and c.value is True else self


def error_class(error: ErrorType) -> str:
    return "".join(p.capitalize() for p in error.id.split("_"))


class RequireKind(StepKind):
    key = "require"
    name = "前提"
    summary = "Refuse the request with one of the ruleset's error types unless the condition holds."
    has_when = has_say = has_name = False
    extra_properties: ClassVar[dict[str, Any]] = {"error": ref("id", "The id of an error type of the manifest.")}
    node: ClassVar[type[Step]] = Require

    def key_schema(self) -> dict[str, Any]:
        return ref("formula", "The condition that must hold.")

    def schema(self) -> dict[str, Any]:
        out = super().schema()
        out["required"] = ["require", "error"]
        return out

    def check(self, raw: Any, ctx: Any) -> CheckedStep | None:
        condition = ctx.formula(raw["require"], (BOOL,), ("require",))
        error = ctx.error_type(raw["error"], ("error",))
        message = ctx.template(error.message, ("error",)) if error is not None else None
        if condition is None or error is None or message is None:
            return None
        return CheckedStep(self, raw, None, self.name, {"require": condition}, None, None,
                           ctx.rules(raw.get("rules", [])), ctx.span(), error, message)

    def lower(self, c: CheckedStep) -> Require:
        assert c.error is not None and c.message is not None
        return Require(None, self.name, None, c.rules, c.span, c.arg("require"), c.error, c.message)

    def describe(self, step: Require, zh: Any) -> str:
        return f"要求：{zh(step.condition.expr)}；否则拒绝（{step.error.name}）"


def _check(step: Require, g: PyGen) -> None:
    with g.w.block(code("if not ({})", g.expr(step.condition.expr))):
        g.w.line(code("raise {}({})", name(error_class(step.error)), g.sentence(step.message)))


for _form in ("setup", "traced", "fast", "prepared", "odds"):
    handler("python", _form, Require)(_check)


@handler("python", "prepare", Require)
def _prepare(step: Require, g: PyGen) -> None:
    """Nothing to prepare."""


# ---- JavaScript ----
def _js_check(step: Require, g: JsGen) -> None:
    with g.w.block(js("if (!({}))", g.expr(step.condition.expr))):
        g.w.line(js("throw new {}({});", js_name(error_class(step.error)), g.sentence(step.message)))


for _form in ("setup", "traced", "fast", "odds"):
    handler("js", _form, Require)(_js_check)
