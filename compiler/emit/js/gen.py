"""The generator context a step kind's JavaScript handlers write through (one per function).

The twin of `emit/python/gen.py`: the `Writer` of the function, the form being written, how
names are spelt, and helpers for trace records, sentences, temporaries named after the step and
the probability loops of the odds form. A handler assigns a local with `assign`, which records
it, and the procedure writer declares every recorded local once, at the top of the function
(`let a, b;`), so a local set inside a branch is still in scope after it.
"""

from __future__ import annotations

from collections.abc import Callable

from ...ir import Dice, Procedure, Step, Template
from ...ir import expr as ir
from .code import RESERVED, Js, Writer, join, js, literal, name, string
from .expr import P_COND, P_UNARY, JsExpr, Names


def local_name(target: str) -> Js:
    """A step's local, spelt after its id; an id that is a reserved word or global gets a `_`."""
    if target in RESERVED or target in ("dice", "options") or target.startswith("get_"):
        return name(target + "_")
    return name(target)


class JsGen:
    def __init__(self, proc: Procedure, dice: Dice, form: str, w: Writer) -> None:
        self.proc = proc
        self.dice = dice
        self.form = form
        self.w = w
        self.p: Js = name("_p")  # odds: the probability of the branch being written
        self.loops = 0  # odds: loops opened (the procedure writer closes them)
        self.declared: list[Js] = []
        self.expr = JsExpr(Names(local=local_name, hoisted=name))

    # ---- names ----
    def local(self, step: Step) -> Js:
        assert step.target is not None
        return local_name(step.target)

    def temp(self, step: Step, suffix: str) -> Js:
        base = step.target or f"{type(step).__name__.lower()}{self.proc.steps.index(step)}"
        return name(f"_{base}_{suffix}")

    def declare(self, var: Js) -> Js:
        if var not in self.declared:
            self.declared.append(var)
        return var

    def assign(self, var: Js, value: Js) -> None:
        self.w.line(js("{} = {};", self.declare(var), value))

    # ---- sentences and trace records ----
    def sentence(self, template: Template) -> Js:
        """The sentence as a concatenation: text as literals, a hole as the text Python's f-string gives."""
        pieces: list[Js] = []
        for p in template.parts:
            if isinstance(p, str):
                if p:
                    pieces.append(string(p))
            elif p.type == ir.STR:
                pieces.append(self.paren(p))
            elif p.type == ir.INT:
                pieces.append(js("String({})", self.expr(p)))
            else:
                pieces.append(js("_rt_fmt({})", self.expr(p)))
        return join(" + ", pieces) if pieces else string("")

    def trace(self, kind: str, sentence: Js, values: Js, *, guarded: bool | None = None) -> None:
        line = js("_trace.push(new TraceStep({}, {}, {}));", string(kind), sentence, values)
        if self.form == "setup" if guarded is None else guarded:
            self.w.line(js("if (_trace !== null) {}", line))
        else:
            self.w.line(line)

    def values(self, *pairs: tuple[str, Js]) -> Js:
        return js("[{}]", join(", ", [js("[{}, {}]", string(k), v) for k, v in pairs]))

    # ---- the odds form ----
    def loop(self, step: Step, var: Js, items: Js, *, charged: bool = False) -> None:
        """Open the loop over a roll's distribution; the steps after it are written inside. Its
        outcomes are charged to the odds budget as it opens (`_odds.each`), unless `items` is
        already a charging call (`charged`: the builder's `outcomes`)."""
        item, p = self.temp(step, "item"), self.temp(step, "p")
        if not charged:
            items = js("_odds.each({})", items)
        self.w.line(js("for (const {} of {}) {{", item, items))
        self.w.indent()
        self.loops += 1
        self.assign(var, js("{}[0]", item))
        self.w.line(js("const {} = {} * {}[1];", p, self.p, item))
        self.p = p

    # ---- the dice engine ----
    def setting(self, key: str) -> Js:
        return literal(self.dice.setting(key))

    def when(self, step: Step) -> Js | None:
        return self.expr.sub(step.when.expr, P_COND + 1) if step.when is not None else None

    def only_when(self, step: Step, body: Callable[[], None], *, otherwise_zero: bool = True) -> None:
        when = self.when(step)
        if when is None:
            body()
            return
        with self.w.block(js("if ({})", when)):
            body()
        if otherwise_zero and step.target is not None:
            with self.w.block(Js("else")):
                self.assign(self.local(step), Js("0"))

    def paren(self, e: ir.Expr) -> Js:
        return self.expr.sub(e, P_UNARY)

    def operand(self, e: ir.Expr) -> Js:
        return self.expr.sub(e, P_COND + 1)
