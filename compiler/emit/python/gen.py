"""The generator context a step kind's Python handlers write through (one per function written).

A handler gets the step's IR node and a `PyGen`: the `Writer` of the function, the form being
written, how names are spelt in it, and helpers for what several kinds need (trace records,
sentences, temporaries named after the step, the probability loops of the odds form).
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Callable

from ...ir import Dice, Procedure, Step, Template
from ...ir import expr as ir
from ...ir import Plan, PreparedBody
from ...record import MutableRecord, field
from .code import Code, Writer, code, join, literal, name, string
from .expr import P_OR, P_UNARY, Names, PyExpr

RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins)) | {"dice"}


def local_name(target: str) -> Code:
    """A step's local, spelt after its id; ids that would shadow a builtin or `dice` get a `_`."""
    if target in RESERVED or target.startswith("get_"):
        return name(target + "_")
    return name(target)


class ProcedureContext(MutableRecord):
    """What every form of one procedure shares."""

    proc: Procedure
    plan: Plan
    dice: Dice
    stacking: bool = True
    error_classes: dict[str, Code] = field(default_factory=dict)


class PyGen:
    def __init__(self, ctx: ProcedureContext, form: str, w: Writer, *, mode: str | None = None,
                 body: PreparedBody | None = None) -> None:
        self.ctx = ctx
        self.form = form
        self.w = w
        self.mode = mode  # prepared: "rand" (faces from a SeededDice's random) or "die"
        self.body = body
        self.p: Code = name("_p")  # odds: the probability of the branch being written
        self.outcome_type: Code = Code("Any")  # prepared: the type of the outcome tuple
        self.expr = PyExpr(Names(local=local_name, hoisted=name))

    # ---- names ----
    def local(self, step: Step) -> Code:
        assert step.target is not None
        return local_name(step.target)

    def temp(self, step: Step, suffix: str) -> Code:
        """A temporary of the step, named after it: `_natural_roll`, `_weapon_damage_dice`."""
        base = step.target or f"{type(step).__name__.lower()}{self.ctx.proc.steps.index(step)}"
        return name(f"_{base}_{suffix}")

    # ---- sentences and trace records ----
    def sentence(self, template: Template) -> Code:
        """The sentence as an f-string, or a concatenation where a hole's code could not sit in one."""
        holes = {i: (self.expr(p), p.type) for i, p in enumerate(template.parts) if not isinstance(p, str)}
        if not holes:
            return string("".join(p for p in template.parts if isinstance(p, str)))
        if all(_FIELD_SAFE.fullmatch(text) for text, _ in holes.values()):
            body = []
            for i, p in enumerate(template.parts):
                if i in holes:
                    text, type_ = holes[i]
                    body.append("{" + (text if type_ in (ir.INT, ir.STR) else f"_rt_fmt({text})") + "}")
                else:
                    body.append(_fstring_text(str(p)))
            return Code("f'" + "".join(body) + "'")
        pieces: list[Code] = []
        for i, p in enumerate(template.parts):
            if i in holes:
                text, type_ = holes[i]
                pieces.append(text if type_ == ir.STR else code("str({})", text) if type_ == ir.INT
                              else code("_rt_fmt({})", text))
            elif p:
                pieces.append(string(str(p)))
        return join(" + ", pieces)

    def trace(self, kind: str, sentence: Code, values: Code, *, guarded: bool | None = None) -> None:
        """Append a trace line; in the setup function only when a trace is being kept."""
        line = code("_trace.append(_rec(_Step, ({}, {}, {})))", string(kind), sentence, values)
        if self.form == "setup" if guarded is None else guarded:
            with self.w.block(Code("if _trace is not None")):
                self.w.line(line)
        else:
            self.w.line(line)

    def values(self, *pairs: tuple[str, Code]) -> Code:
        """The (name, value) pairs of a trace record, as a tuple literal."""
        items = [code("({}, {})", string(k), v) for k, v in pairs]
        if len(items) == 1:
            return code("({},)", items[0])
        return Code("(" + ", ".join(items) + ")") if items else Code("()")

    # ---- the odds form ----
    def loop(self, step: Step, var: Code, items: Code, *, charged: bool = False) -> None:
        """Open the loop over a roll's distribution; the steps after it are written inside. Its
        outcomes are charged to the odds budget as it opens (`_odds.each`), unless `items` is
        already a charging call (`charged`: the builder's `outcomes`)."""
        q = self.temp(step, "q")
        if not charged:
            items = code("_odds.each({})", items)
        self.w.line(code("for {}, {} in {}:", var, q, items))
        self.w.indent()
        p = self.temp(step, "p")
        self.w.line(code("{} = {} * {}", p, self.p, q))
        self.p = p

    # ---- the dice engine ----
    def setting(self, key: str) -> Code:
        return literal(self.ctx.dice.setting(key))

    def when(self, step: Step) -> Code | None:
        """The step's condition, as an operand (it may sit inside `x if c else y`)."""
        return self.operand(step.when.expr) if step.when is not None else None

    def only_when(self, step: Step, body: Callable[[], None], *, otherwise_zero: bool = True) -> None:
        """Write `body` for the step, inside `if <when>:` when it has a condition; a step that does
        not happen defines its local as 0 (`otherwise_zero`)."""
        when = self.when(step)
        if when is None:
            body()
            return
        with self.w.block(code("if {}", when)):
            body()
        if otherwise_zero and step.target is not None:
            with self.w.block(Code("else")):
                self.w.line(code("{} = 0", self.local(step)))

    def paren(self, e: ir.Expr) -> Code:
        """An expression safe as an operand of arithmetic or a comparison (parenthesised unless atomic)."""
        return self.expr.sub(e, P_UNARY)

    def operand(self, e: ir.Expr) -> Code:
        """An expression safe as an operand of `x if c else y` (parenthesised when looser)."""
        return self.expr.sub(e, P_OR)


_FIELD_SAFE = re.compile(r"[\w.(), -]+")  # what an f-string field may hold on Python 3.8: no quotes, braces, \


def _fstring_text(text: str) -> str:
    """Literal text inside f'...': the escapes of repr, the quote escaped, braces doubled."""
    body = repr(text)[1:-1]
    if repr(text)[0] == '"':  # repr chose double quotes: the text has a ' and no "
        body = body.replace("'", "\\'")
    return body.replace("{", "{{").replace("}", "}}")
