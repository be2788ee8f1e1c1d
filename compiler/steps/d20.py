"""`d20`: roll a d20 with advantage and disadvantage layers and name the face kept (d20检定).

How layers combine is the d20 engine's `layers` setting (compiler/engines/d20.py): the kind's
IR node carries the net layers as an expression built from it, so every form rolls
|layers| + 1 dice and keeps the highest (layers > 0) or the lowest (layers < 0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from ..emit.js.code import Js, js, string as js_string
from ..emit.handlers import handler, rolling
from ..emit.python.code import Code, code, string
from ..ir import Formula, PreparedBody, Step, Template
from ..ir.expr import INT, Call, Const, Expr, Hoisted
from .base import Arg, CheckedStep, StepKind, Work, when_text

if TYPE_CHECKING:
    from ..emit.js.gen import JsGen
    from ..emit.python.gen import PyGen


class D20(Step, frozen=True):
    advantage: Formula
    disadvantage: Formula
    layers: Expr  # net layers, by the engine's rule
    say: Template | None

    def rolls(self) -> bool:
        return True


class D20Kind(StepKind):
    key = "d20"
    name = "d20检定"
    summary = "Roll a d20 with advantage and disadvantage layers and name the face kept."
    args = (Arg("advantage", (INT,), "0", description="Advantage layers."),
            Arg("disadvantage", (INT,), "0", description="Disadvantage layers."))
    defines = INT
    engine = "d20"
    node: ClassVar[type[Step]] = D20
    runtime = ("d20",)
    prepared_whole = ("layers",)

    def check_more(self, raw: Any, ctx: Any, checked: CheckedStep) -> None:
        from ..engines.d20 import layers_expr

        if "advantage" in checked.args and "disadvantage" in checked.args:
            checked.extra["layers"] = layers_expr(str(ctx.dice.setting("layers")), checked.args["advantage"].expr,
                                                  checked.args["disadvantage"].expr)

    def lower(self, c: CheckedStep) -> D20:
        return D20(c.target, c.name, c.when, c.rules, c.span, c.arg("advantage"), c.arg("disadvantage"),
                   c.extra["layers"], c.say)

    def tabulates_faces(self, step: D20, invariant: Callable[[Expr], bool]) -> bool:
        return step.when is None and invariant(step.layers)

    def common_assumptions(self, step: D20, body: PreparedBody) -> tuple[tuple[Expr, Const], ...]:
        """The face table's d20 is plain (no layers) in the common case."""
        if step.target == body.face_table and isinstance(step.layers, Hoisted):
            return ((step.layers, Const(INT, 0)),)
        return ()

    def describe(self, step: D20, zh: Any) -> str:
        return (f"掷d20（优势层数：{zh(step.advantage.expr)}；劣势层数：{zh(step.disadvantage.expr)}），"
                f"取用的骰面记为{step.name}{when_text(step, zh)}")

    def work(self, step: D20) -> tuple[Work, ...]:
        """|layers| + 1 dice are rolled."""
        return (Work("this roll's advantage layers", "layers", "优劣势层数", Call(INT, "abs", (step.layers,)), "layers",
                     step.advantage),)

    def local_range(self, step: D20, ev: Any) -> Any:
        from ..validate.intervals import Interval

        return Interval(1, 20)


def _traced(step: D20, g: PyGen) -> None:
    roll, var = g.temp(step, "roll"), g.local(step)
    sentence = code("_rt_d20_sentence({}, {})", string(step.name), roll)
    if step.say is not None:
        sentence = code("{} + '；' + {}", sentence, g.sentence(step.say))

    def body() -> None:
        g.w.line(code("{} = _rt_roll_d20(_source, {})", roll, g.expr(step.layers)))
        g.w.line(code("_rolls.append({})", roll))
        g.w.line(code("{} = {}.natural", var, roll))
        g.trace("d20", sentence, g.values(("faces", code("{}.faces", roll)), (step.target or "", var)))

    g.only_when(step, body)


def _kept(g: PyGen, layers: Code, *, rand: bool) -> Code:
    if rand:
        return code("int(_rand() * 20) + 1 if {0} == 0 else _rt_d20_natural_random(_rand, {0})", layers)
    return code("_die(20) if {0} == 0 else _rt_d20_natural(_die, {0})", layers)


def _layers(step: D20, g: PyGen) -> Code:
    """The net layers as a name: the prepared value, or a temporary computed here."""
    text = g.expr(step.layers)
    if text.isidentifier() or isinstance(step.layers, Const):
        return text
    temp = g.temp(step, "layers")
    g.w.line(code("{} = {}", temp, text))
    return temp


def _fast(step: D20, g: PyGen) -> None:
    var = g.local(step)
    rand = g.mode == "rand"

    def body() -> None:
        if isinstance(step.layers, Const) and step.layers.value == 0:
            g.w.line(code("{} = {}", var, Code("int(_rand() * 20) + 1") if rand else Code("_die(20)")))
        else:
            g.w.line(code("{} = {}", var, _kept(g, _layers(step, g), rand=rand)))
        if rand and g.body is not None and g.body.face_table == step.target:
            _walk_face_tree(step, g)

    g.only_when(step, body)


def _walk_face_tree(step: D20, g: PyGen) -> None:
    """The face table of a prepared resolver (runtime face_table/face_tree): the outcome this face,
    and the faces drawn below it, decide; tabulated from the closure's own general path."""
    var, table = g.local(step), g.temp(step, "faces")
    plain = isinstance(step.layers, Const) and step.layers.value == 0

    def walk() -> None:
        g.w.line(code("_node = {}[{}]", table, var))
        with g.w.block(Code("if _node is False")):
            g.w.line(code("_node = _rt_face_tree(_roll, {}, {})  # the first roll of this face: tabulate it",
                          table, var))
        with g.w.block(Code("if _node is not None")):
            with g.w.block(Code("while _node.__class__ is list")):
                g.w.line(Code("_node = _node[int(_rand() * len(_node))]"))
            g.w.line(code("_out: Tuple[{}] = _node", g.outcome_type))
            g.w.line(Code("return _out"))

    if plain:
        walk()
        return
    with g.w.block(code("if {} == 0", g.paren(step.layers))):
        walk()


handler("python", "traced", D20)(_traced)
handler("python", "fast", D20)(_fast)
handler("python", "prepared", D20)(_fast)
rolling(D20)




@handler("python", "odds", D20)
def _odds(step: D20, g: PyGen) -> None:
    items = code("_rt_d20_distribution({})", g.expr(step.layers))
    when = g.when(step)
    if when is not None:
        items = code("{} if {} else _rt_ZERO_ITEMS", items, when)
    g.loop(step, g.local(step), items)


# ---- JavaScript ----
def _js_traced(step: D20, g: JsGen) -> None:
    roll, var = g.temp(step, "roll"), g.local(step)
    sentence = js("_rt_d20_sentence({}, {})", js_string(step.name), roll)
    if step.say is not None:
        sentence = js("{} + '；' + {}", sentence, g.sentence(step.say))

    def body() -> None:
        g.assign(roll, js("_rt_roll_d20(_source, {})", g.expr(step.layers)))
        g.w.line(js("_rolls.push({});", roll))
        g.assign(var, js("{}.natural", roll))
        g.trace("d20", sentence, g.values(("faces", js("{}.faces", roll)), (step.target or "", var)))

    g.only_when(step, body)


def _js_fast(step: D20, g: JsGen) -> None:
    if isinstance(step.layers, Const) and step.layers.value == 0:
        value = Js("dice.die(20)")
    else:
        value = js("_rt_d20_natural(dice, {})", g.expr(step.layers))
    g.only_when(step, lambda: g.assign(g.local(step), value))


@handler("js", "odds", D20)
def _js_odds(step: D20, g: JsGen) -> None:
    items = js("_rt_d20_distribution({})", g.expr(step.layers))
    when = g.when(step)
    if when is not None:
        items = js("{} ? {} : _rt_ZERO_ITEMS", when, items)
    g.loop(step, g.local(step), items)


handler("js", "traced", D20)(_js_traced)
handler("js", "fast", D20)(_js_fast)
