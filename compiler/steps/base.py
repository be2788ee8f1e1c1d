"""What every step kind has: its schema fragment, its checking, its lowering, its page description.

A step kind is one module of `compiler/steps/` holding a `StepKind` subclass and its IR node
(a subclass of `ir.Step`), plus one code-generation handler per target and form (registered
with `emit.handlers.handler`). Checking (the validation pass) turns a step's YAML mapping into
a `CheckedStep`: its formulas typed in the scope as it stands at that step, its sentences
compiled, its target defined for the steps after it. Lowering turns a `CheckedStep` into the
kind's IR node; nothing there can fail.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from ..diagnostics import Span
from ..ir import ErrorType, Formula, PreparedBody, Step, Template
from ..ir.expr import BOOL, INT, Const, Expr, Local
from ..messages import say
from ..record import MutableRecord, Record, field

if TYPE_CHECKING:
    from ..formula.chinese import Chinese
    from ..validate.evaluator import Evaluator
    from ..validate.intervals import Value
    from ..validate.context import StepContext

_COMMON = "common.schema.json#/$defs/"


def ref(name: str, description: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"$ref": _COMMON + name}
    if description:
        out["description"] = description
    return out


DEFINITIONAL: dict[str, Any] = {
    "type": "array", "maxItems": 20,
    "description": "Numbers other than 0 and 1 in this step's formulas that are part of a definition rather "
                   "than a rule a pack could change, each with why (validate/literals.py); any other such "
                   "number is a diagnostic: make it a ruling.",
    "items": {"type": "object", "additionalProperties": False, "required": ["value", "text"],
              "properties": {"value": {"type": "integer", "minimum": -10**12, "maximum": 10**12},
                             "text": ref("text")}}}


class Arg(Record, frozen=True):
    """A formula argument of a step: its key, the types it takes, the text used when omitted."""

    key: str
    types: tuple[str, ...]
    default: str | None = None
    required: bool = False
    description: str = ""


class Work(Record, frozen=True):
    """A quantity of a step that drives work (dice rolled, rolls made, advantage layers), bounded by
    the limit `limit` of the ruleset's dice section: the build proves it (validate/bounds.py) and
    the generated code checks it when it runs."""

    what: str  # for diagnostics: "this pool"
    unit: str  # "dice"
    label: str  # for the runtime error, in the rules' Chinese: "骰池骰子数"
    quantity: Expr  # an int expression
    limit: str  # a key of Dice.limits
    formula: Formula  # where it is written


class CheckedStep(MutableRecord):
    """A step after checking: what lowering needs to build the kind's IR node."""

    kind: StepKind
    raw: Mapping[str, Any]
    target: str | None
    name: str
    args: dict[str, Formula]
    when: Formula | None
    say: Template | None
    rules: tuple[str, ...]
    span: Span
    error: ErrorType | None = None
    message: Template | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def arg(self, key: str) -> Formula:
        return self.args[key]


class StepKind(ABC):
    key: ClassVar[str]
    name: ClassVar[str]  # the kind's Chinese name, for the pages
    summary: ClassVar[str]  # one English sentence, for the schema (editors show it on hover)
    args: ClassVar[tuple[Arg, ...]] = ()
    defines: ClassVar[str | None] = None  # the type of the local it defines; "value": its value's type
    engine: ClassVar[str | None] = None  # the dice engine it needs
    has_when: ClassVar[bool] = True
    has_say: ClassVar[bool] = True
    has_name: ClassVar[bool] = True
    extra_properties: ClassVar[dict[str, Any]] = {}
    node: ClassVar[type[Step]]
    # The runtime its handlers call: modules of compiler/runtime/ (Python: `_rt_<name>` imports of
    # the package) and files of compiler/runtime/js/ beyond the core every JS module has
    # (emit/js/bundle.py CORE_RUNTIME: runtime.js, sources.js, engines.js, odds.js, calls.js).
    # One left out fails the build: an emitted module naming what nothing defines is a rulec bug
    # (emit/python/resolved.py, emit/js/resolved.py).
    runtime: ClassVar[tuple[str, ...]] = ()
    runtime_js: ClassVar[tuple[str, ...]] = ()
    # The optimiser (optimise/plan.py, specialise.py) asks the kind, never the node's class:
    traces_only: ClassVar[bool] = False  # it only writes the trace: a prepared closure leaves it out
    prepared_whole: ClassVar[tuple[str, ...]] = ()  # expression fields a prepared closure computes once, as
    #                                                 one value, when they read no rolled value (its handlers see a Hoisted)

    # ---- schema ----
    def schema(self) -> dict[str, Any]:
        """This kind's fragment of procedures.schema.json (`<kind>_step`)."""
        props: dict[str, Any] = {self.key: self.key_schema()}
        if self.has_name:
            props["name"] = ref("name", "How the pages and traces name the step's value.")
        for a in self.args:
            props[a.key] = ref("formula", a.description or None)
        if self.has_when:
            props["when"] = ref("formula", "The step applies only when this is true.")
        if self.has_say:
            props["say"] = ref("template", "A trace sentence; {名称} holes show values.")
        props.update(self.extra_properties)
        props["rules"] = ref("rule_ids")
        props["definitional"] = DEFINITIONAL
        required = [self.key] + [a.key for a in self.args if a.required]
        return {"type": "object", "additionalProperties": False, "required": required,
                "description": self.summary, "properties": props}

    def key_schema(self) -> dict[str, Any]:
        return ref("id", f"The local this {self.key} step defines.")

    # ---- checking (validation pass) ----
    def check(self, raw: Mapping[str, Any], ctx: StepContext) -> CheckedStep | None:
        """Type the step's formulas and sentences in the scope as it stands, define its target."""
        if self.engine is not None and self.engine != ctx.engine:
            ctx.error((self.key,), "wrong-engine",
                      say("wrong-engine.step-needs-dice-engine", key_=self.key, engine=self.engine, engine2=ctx.engine),
                      key=True)
            return None
        when = ctx.formula(raw["when"], (BOOL,), ("when",)) if "when" in raw else None
        args: dict[str, Formula] = {}
        ok = True
        for a in self.args:
            text = raw.get(a.key, a.default)
            if text is None:
                continue
            f = ctx.formula(text, a.types, (a.key,) if a.key in raw else ())
            if f is None:
                ok = False
            else:
                args[a.key] = f
        target = raw.get(self.key) if self.defines else None
        name = raw.get("name", target or self.name)
        checked = CheckedStep(self, raw, target, name, args, when, None, ctx.rules(raw.get("rules", [])), ctx.span())
        self.check_more(raw, ctx, checked)
        if target is not None:
            ctx.define(target, name, self.defined_type(checked), (self.key,))
        if self.has_say and "say" in raw:
            checked.say = ctx.template(raw["say"], ("say",))
        return checked if ok else None

    def check_more(self, raw: Mapping[str, Any], ctx: StepContext, checked: CheckedStep) -> None:  # noqa: B027
        """Kind-specific checks (an error type, a sentence, a bound) before the target is defined;
        none by default."""

    def defined_type(self, checked: CheckedStep) -> str:
        if self.defines == "value":
            value = checked.args.get("value")
            return value.type if value is not None else INT
        return self.defines or INT

    # ---- lowering ----
    @abstractmethod
    def lower(self, c: CheckedStep) -> Step:
        """The kind's IR node for a checked step."""

    # ---- the optimiser ----
    def value_of(self, step: Any) -> Expr | None:
        """The expression whose value, as the step's local, is the step's only effect (no roll, no
        error, no trace line in a prepared closure), or None: such a step may run in the setup,
        have its constant substituted, or be dropped when nothing reads it."""
        return None

    def local_type(self, step: Any) -> str:
        """The type of the local the step defines."""
        return self.defines if self.defines in (INT, BOOL) else INT

    def tabulates_faces(self, step: Any, invariant: Callable[[Expr], bool]) -> bool:
        """True when, as the first step of a prepared closure, its faces can get a decision tree
        (the closure's `face_table`); `invariant` tells an expression that reads no rolled value."""
        return False

    def common_assumptions(self, step: Any, body: PreparedBody) -> tuple[tuple[Expr, Const], ...]:
        """What the common-case variant of a prepared closure may assume of the step (a plain d20
        for the face table): folded in, and guarded when the folded code relies on it."""
        return ()

    def one_die_guard(self, step: Any) -> Expr | None:
        """For a step the common case may assume rolls one die: the test that it does; else None."""
        return None

    def joined_sum(self, first: Any, second: Step, target: str, name: str) -> Step | None:
        """For the odds form (optimise/fuse.py): one step that enumerates the sum of `first`'s
        local and `second`'s, defining it as `target`, when the two can be enumerated as one
        (`second` reads nothing `first` defines; the pass checks the rest); else None."""
        return None

    # ---- bounded work (validate/bounds.py) ----
    def work(self, step: Any) -> tuple[Work, ...]:
        """The quantities of the step that drive work; none by default."""
        return ()

    def local_range(self, step: Any, ev: Evaluator) -> Value:
        """The range of the local the step defines (unknown by default)."""
        return ev.unknown(self.defines if self.defines in (INT, BOOL) else "")

    # ---- the reference page ----
    @abstractmethod
    def describe(self, step: Any, zh: Chinese) -> str:
        """One Chinese sentence saying what the step does, for the rulebook."""


def when_text(step: Step, zh: Chinese) -> str:
    return f"（仅当{zh(step.when.expr)}）" if step.when is not None else ""


def local_of(step: Step, type_: str) -> Expr:
    assert step.target is not None
    return Local(type_, step.target, step.name)
