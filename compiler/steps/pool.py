"""`pool`: roll a success-counting dice pool (the `.ww` family) and name its successes (骰池检定)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..emit.js.code import Js, js, literal as js_literal, string as js_string
from ..emit.handlers import handler, rolling
from ..emit.python.code import Code, code, literal, string
from ..ir import Formula, Step, Template
from ..ir.expr import BOOL, INT
from .base import Arg, CheckedStep, StepKind, Work, when_text

if TYPE_CHECKING:
    from ..emit.js.gen import JsGen
    from ..emit.python.gen import PyGen


class Pool(Step, frozen=True):
    dice: Formula
    extras: Formula
    all_succeed: Formula | None
    say: Template | None

    def rolls(self) -> bool:
        return True


class PoolKind(StepKind):
    key = "pool"
    name = "骰池检定"
    summary = "Roll a pool of dice (added dice chain) and name its number of successes."
    args = (Arg("dice", (INT,), required=True, description="How many dice (0 or less rolls none)."),
            Arg("extras", (INT,), "0", description="Extra successes, reported with the roll."),
            Arg("all_succeed", (BOOL,), description="When true every die counts as a success and none is added."))
    defines = INT
    engine = "pool"
    node: ClassVar[type[Step]] = Pool
    runtime = ("pool",)

    def lower(self, c: CheckedStep) -> Pool:
        return Pool(c.target, c.name, c.when, c.rules, c.span, c.arg("dice"), c.arg("extras"),
                    c.args.get("all_succeed"), c.say)

    def describe(self, step: Pool, zh: Any) -> str:
        text = f"掷骰池：{zh(step.dice.expr)}个骰子"
        extras = zh(step.extras.expr)
        if extras != "0":
            text += f"，附加成功{extras}"
        if step.all_succeed is not None:
            text += f"；当{zh(step.all_succeed.expr)}时所有骰子均视为成功且不加骰"
        return f"{text}，成功数记为{step.name}{when_text(step, zh)}"

    def work(self, step: Pool) -> tuple[Work, ...]:
        return (Work("this pool", "dice", "骰池骰子数", step.dice.expr, "pool_dice", step.dice),)

    def local_range(self, step: Pool, ev: Any) -> Any:
        return successes_range(ev, step.dice.expr)


def successes_range(ev: Any, dice: Any) -> Any:
    """Successes of a pool: at most its dice, or without bound when added dice chain."""
    from ..validate.intervals import INF, Interval

    settings = ev.rs.dice.settings
    most = max(ev.num(dice).hi, 0)
    return Interval(0, most if int(settings["add_at"]) > int(settings["sides"]) else INF)


def engine_args(g: PyGen) -> Code:
    """The pool engine's sides, success and add-die thresholds and its limit of added dice, as call
    arguments."""
    return code("{}, {}, {}, {}", g.setting("sides"), g.setting("success_at"), g.setting("add_at"),
                added_dice(g.ctx.dice))


def added_dice(dice: Any) -> Code:
    """The ruleset's declared limit of added dice of one pool (dice.limits.added_dice)."""
    return literal(dice.limits["added_dice"])


def successes(g: PyGen, dice: Code, *, rand: bool) -> Code:
    """The successes of `dice` dice: faces inline from `_rand`, or from `_die` (and from the source's
    `random` when it has one: after dice_source only a SeededDice has)."""
    if rand:
        return code("_rt_pool_successes_random(_rand, {}, {})", dice, engine_args(g))
    return code("_rt_pool_successes(_die, {0}, {1}) if _maybe_rand is None else "
                "_rt_pool_successes_random(_maybe_rand, {0}, {1})", dice, engine_args(g))


def _traced(step: Pool, g: PyGen) -> None:
    roll, var = g.temp(step, "roll"), g.local(step)
    all_succeed = g.expr(step.all_succeed.expr) if step.all_succeed is not None else Code("False")
    sentence = code("_rt_pool_sentence({}, {})", string(step.name), roll)
    if step.say is not None:
        sentence = code("{} + '；' + {}", sentence, g.sentence(step.say))

    def body() -> None:
        g.w.line(code("{} = _rt_roll_pool(_source, _POOL, {}, {}, {}, {})", roll, g.expr(step.dice.expr),
                      g.expr(step.extras.expr), all_succeed, added_dice(g.ctx.dice)))
        g.w.line(code("_rolls.append({})", roll))
        g.w.line(code("{} = {}.successes", var, roll))
        g.trace("pool", sentence, g.values(("command", code("{}.command", roll)), ("faces", code("{}.faces", roll)),
                                           (step.target or "", var)))

    g.only_when(step, body)


def _rolled(step: Pool, g: PyGen, *, rand: bool) -> Code:
    value = successes(g, g.expr(step.dice.expr), rand=rand)
    if step.all_succeed is not None:
        value = code("max(0, {}) if {} else {}", g.expr(step.dice.expr), g.operand(step.all_succeed.expr), value)
    return value


def _fast(step: Pool, g: PyGen) -> None:
    value = _rolled(step, g, rand=g.mode == "rand")
    g.only_when(step, lambda: g.w.line(code("{} = {}", g.local(step), value)))


handler("python", "traced", Pool)(_traced)
handler("python", "fast", Pool)(_fast)
handler("python", "prepared", Pool)(_fast)
rolling(Pool)




@handler("python", "odds", Pool)
def _odds(step: Pool, g: PyGen) -> None:
    dice = g.expr(step.dice.expr)
    value = code("_rt_pool_distribution({}, {}, {}, {})", dice, g.setting("sides"), g.setting("success_at"),
                 g.setting("add_at_raw"))
    if step.all_succeed is not None:
        value = code("_rt_all_succeed_distribution({}) if {} else {}", dice, g.operand(step.all_succeed.expr), value)
    items = code("_odds.outcomes({}, {})", g.p, value)
    when = g.when(step)
    if when is not None:  # a roll that does not happen: its zero, certain (no branch to count)
        items = code("({} if {} else _rt_ZERO_ITEMS)", items, when)
    g.loop(step, g.local(step), items, charged=True)


# ---- JavaScript ----
def _js_traced(step: Pool, g: JsGen) -> None:
    roll, var = g.temp(step, "roll"), g.local(step)
    all_succeed = g.expr(step.all_succeed.expr) if step.all_succeed is not None else Js("false")
    sentence = js("_rt_pool_sentence({}, {})", js_string(step.name), roll)
    if step.say is not None:
        sentence = js("{} + '；' + {}", sentence, g.sentence(step.say))

    def body() -> None:
        g.assign(roll, js("_rt_roll_pool(_source, _POOL, {}, {}, {}, {})", g.expr(step.dice.expr),
                          g.expr(step.extras.expr), all_succeed, js_literal(g.dice.limits["added_dice"])))
        g.w.line(js("_rolls.push({});", roll))
        g.assign(var, js("{}.successes", roll))
        g.trace("pool", sentence, g.values(("command", js("{}.command", roll)), ("faces", js("{}.faces", roll)),
                                           (step.target or "", var)))

    g.only_when(step, body)


def js_successes(g: JsGen, dice: Js) -> Js:
    return js("_rt_pool_successes(dice, {}, {}, {}, {}, {})", dice, g.setting("sides"), g.setting("success_at"),
              g.setting("add_at"), js_literal(g.dice.limits["added_dice"]))


def _js_fast(step: Pool, g: JsGen) -> None:
    value = js_successes(g, g.expr(step.dice.expr))
    if step.all_succeed is not None:
        value = js("{} ? Math.max(0, {}) : {}", g.operand(step.all_succeed.expr), g.expr(step.dice.expr), value)
    g.only_when(step, lambda: g.assign(g.local(step), value))


@handler("js", "odds", Pool)
def _js_odds(step: Pool, g: JsGen) -> None:
    dice = g.expr(step.dice.expr)
    value = js("_rt_pool_distribution({}, {}, {}, {})", dice, g.setting("sides"), g.setting("success_at"),
               g.setting("add_at_raw"))
    if step.all_succeed is not None:
        value = js("({} ? _rt_all_succeed_distribution({}) : {})", g.operand(step.all_succeed.expr), dice, value)
    items = js("_odds.outcomes({}, {})", g.p, value)
    when = g.when(step)
    if when is not None:  # a roll that does not happen: its zero, certain (no branch to count)
        items = js("({} ? {} : _rt_ZERO_ITEMS)", when, items)
    g.loop(step, g.local(step), items, charged=True)


handler("js", "traced", Pool)(_js_traced)
handler("js", "fast", Pool)(_js_fast)
