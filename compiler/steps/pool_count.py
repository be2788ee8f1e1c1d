"""`pool_count`: roll the same pool several times (each shot of a burst) and count the rolls whose
successes plus extras reach a threshold (连续骰池检定)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..emit.js.code import Js, js, literal as js_literal, string as js_string
from ..emit.handlers import handler, rolling
from ..emit.python.code import code, string
from ..ir import Formula, Step, Template
from ..ir.expr import INT
from .base import Arg, CheckedStep, StepKind, Work, when_text
from .pool import added_dice, successes

if TYPE_CHECKING:
    from ..emit.js.gen import JsGen
    from ..emit.python.gen import PyGen


class PoolCount(Step, frozen=True):
    dice: Formula
    extras: Formula
    times: Formula
    at_least: Formula
    say: Template | None

    def rolls(self) -> bool:
        return True


class PoolCountKind(StepKind):
    key = "pool_count"
    name = "连续骰池检定"
    summary = ("Roll the same pool several times (e.g. each shot of a burst) and count the rolls whose "
               "successes plus extras reach at_least.")
    args = (Arg("dice", (INT,), required=True, description="Dice per roll."),
            Arg("extras", (INT,), "0", description="Extra successes of each roll."),
            Arg("times", (INT,), required=True, description="How many rolls."),
            Arg("at_least", (INT,), "1", description="Successes plus extras a roll needs to count."))
    defines = INT
    engine = "pool"
    node: ClassVar[type[Step]] = PoolCount
    runtime = ("pool",)

    def lower(self, c: CheckedStep) -> PoolCount:
        return PoolCount(c.target, c.name, c.when, c.rules, c.span, c.arg("dice"), c.arg("extras"), c.arg("times"),
                         c.arg("at_least"), c.say)

    def describe(self, step: PoolCount, zh: Any) -> str:
        text = f"骰池检定{zh(step.times.expr)}次：每次{zh(step.dice.expr)}个骰子"
        extras = zh(step.extras.expr)
        if extras != "0":
            text += f"，附加成功{extras}"
        return f"{text}；成功数达到{zh(step.at_least.expr)}的次数记为{step.name}{when_text(step, zh)}"

    def work(self, step: PoolCount) -> tuple[Work, ...]:
        return (Work("this pool", "dice", "骰池骰子数", step.dice.expr, "pool_dice", step.dice),
                Work("this pool_count step", "rolls", "连续检定次数", step.times.expr, "pool_rolls", step.times))

    def local_range(self, step: PoolCount, ev: Any) -> Any:
        from ..validate.intervals import Interval

        return Interval(0, max(ev.num(step.times.expr).hi, 0))


def _traced(step: PoolCount, g: PyGen) -> None:
    var, roll, i = g.local(step), g.temp(step, "roll"), g.temp(step, "i")
    g.w.line(code("{} = 0", var))

    def body() -> None:
        with g.w.block(code("for {} in range({})", i, g.expr(step.times.expr))):
            g.w.line(code("{} = _rt_roll_pool(_source, _POOL, {}, {}, False, {})", roll, g.expr(step.dice.expr),
                          g.expr(step.extras.expr), added_dice(g.ctx.dice)))
            g.w.line(code("_rolls.append({})", roll))
            with g.w.block(code("if {0}.successes + {0}.extras >= {1}", roll, g.paren(step.at_least.expr))):
                g.w.line(code("{} += 1", var))
            label = code("{} + '第' + str({} + 1) + '次'", string(step.name), i)
            g.trace("pool", code("_rt_pool_sentence({}, {})", label, roll),
                    g.values(("command", code("{}.command", roll)), ("faces", code("{}.faces", roll))))

    g.only_when(step, body, otherwise_zero=False)  # the count starts at 0 before it
    summary = code("{} + '：' + str({}) + '次达到要求'", string(step.name), var)
    if step.say is not None:
        summary = code("{} + '；' + {}", summary, g.sentence(step.say))
    g.trace("pool_count", summary, g.values((step.target or "", var)))


def _fast(step: PoolCount, g: PyGen) -> None:
    var, i = g.local(step), g.temp(step, "i")
    g.w.line(code("{} = 0", var))

    def body() -> None:
        with g.w.block(code("for {} in range({})", i, g.expr(step.times.expr))):
            rolled = successes(g, g.expr(step.dice.expr), rand=g.mode == "rand")
            with g.w.block(code("if ({}) + {} >= {}", rolled, g.paren(step.extras.expr), g.paren(step.at_least.expr))):
                g.w.line(code("{} += 1", var))

    g.only_when(step, body, otherwise_zero=False)


handler("python", "traced", PoolCount)(_traced)
handler("python", "fast", PoolCount)(_fast)
handler("python", "prepared", PoolCount)(_fast)
rolling(PoolCount)




@handler("python", "odds", PoolCount)
def _odds(step: PoolCount, g: PyGen) -> None:
    value = code("_rt_count_distribution(_rt_pool_distribution({}, {}, {}, {}), {} - {}, {})",
                 g.expr(step.dice.expr), g.setting("sides"), g.setting("success_at"), g.setting("add_at_raw"),
                 g.paren(step.at_least.expr), g.paren(step.extras.expr), g.expr(step.times.expr))
    items = code("_odds.outcomes({}, {})", g.p, value)
    when = g.when(step)
    if when is not None:  # a roll that does not happen: its zero, certain (no branch to count)
        items = code("({} if {} else _rt_ZERO_ITEMS)", items, when)
    g.loop(step, g.local(step), items, charged=True)


# ---- JavaScript ----
def _js_traced(step: PoolCount, g: JsGen) -> None:
    var, roll, i = g.local(step), g.temp(step, "roll"), g.temp(step, "i")
    g.assign(var, Js("0"))

    def body() -> None:
        with g.w.block(js("for (let {0} = 0; {0} < {1}; {0}++)", i, g.expr(step.times.expr))):
            g.w.line(js("const {} = _rt_roll_pool(_source, _POOL, {}, {}, false, {});", roll,
                        g.expr(step.dice.expr), g.expr(step.extras.expr), js_literal(g.dice.limits["added_dice"])))
            g.w.line(js("_rolls.push({});", roll))
            with g.w.block(js("if ({0}.successes + {0}.extras >= {1})", roll, g.paren(step.at_least.expr))):
                g.w.line(js("{} += 1;", var))
            label = js("{} + '第' + String({} + 1) + '次'", js_string(step.name), i)
            g.trace("pool", js("_rt_pool_sentence({}, {})", label, roll),
                    g.values(("command", js("{}.command", roll)), ("faces", js("{}.faces", roll))))

    g.only_when(step, body, otherwise_zero=False)
    summary = js("{} + '：' + String({}) + '次达到要求'", js_string(step.name), var)
    if step.say is not None:
        summary = js("{} + '；' + {}", summary, g.sentence(step.say))
    g.trace("pool_count", summary, g.values((step.target or "", var)))


def _js_fast(step: PoolCount, g: JsGen) -> None:
    from .pool import js_successes

    var, i = g.local(step), g.temp(step, "i")
    g.assign(var, Js("0"))

    def body() -> None:
        with g.w.block(js("for (let {0} = 0; {0} < {1}; {0}++)", i, g.expr(step.times.expr))):
            rolled = js_successes(g, g.expr(step.dice.expr))
            with g.w.block(js("if ({} + {} >= {})", rolled, g.paren(step.extras.expr), g.paren(step.at_least.expr))):
                g.w.line(js("{} += 1;", var))

    g.only_when(step, body, otherwise_zero=False)


@handler("js", "odds", PoolCount)
def _js_odds(step: PoolCount, g: JsGen) -> None:
    value = js("_rt_count_distribution(_rt_pool_distribution({}, {}, {}, {}), {} - {}, {})",
               g.expr(step.dice.expr), g.setting("sides"), g.setting("success_at"), g.setting("add_at_raw"),
               g.paren(step.at_least.expr), g.paren(step.extras.expr), g.expr(step.times.expr))
    items = js("_odds.outcomes({}, {})", g.p, value)
    when = g.when(step)
    if when is not None:  # a roll that does not happen: its zero, certain (no branch to count)
        items = js("({} ? {} : _rt_ZERO_ITEMS)", when, items)
    g.loop(step, g.local(step), items, charged=True)


handler("js", "traced", PoolCount)(_js_traced)
handler("js", "fast", PoolCount)(_js_fast)
