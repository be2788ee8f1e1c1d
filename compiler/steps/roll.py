"""`roll`: roll damage dice such as `2d6+3` and name the total; on a crit every die twice (伤害骰)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..emit.js.code import Js, js, string as js_string
from ..emit.handlers import handler, rolling
from ..emit.python.code import Code, code, string
from ..ir import Formula, Step, Template
from ..record import replace
from ..ir.expr import BOOL, DICE, INT, Binary, Call, Cond, Const, Expr, Hoisted
from .base import Arg, CheckedStep, StepKind, Work, when_text

if TYPE_CHECKING:
    from ..emit.js.gen import JsGen
    from ..emit.python.gen import PyGen


class Roll(Step, frozen=True):
    dice: Formula
    crit: Formula | None
    say: Template | None

    def rolls(self) -> bool:
        return True


class RollKind(StepKind):
    key = "roll"
    name = "伤害骰"
    summary = "Roll damage dice such as 2d6+3 and name the total; on a crit every die is rolled twice."
    args = (Arg("dice", (DICE,), required=True, description="A dice value, e.g. weapon.damage_dice or dice(n, 6)."),
            Arg("crit", (BOOL,), description="When true every die is rolled twice, the bonus added once."))
    defines = INT
    node: ClassVar[type[Step]] = Roll
    runtime = ("damage",)
    prepared_whole = ("dice",)

    def lower(self, c: CheckedStep) -> Roll:
        return Roll(c.target, c.name, c.when, c.rules, c.span, c.arg("dice"), c.args.get("crit"), c.say)

    def one_die_guard(self, step: Roll) -> Expr | None:
        """Prepared dice: the common case assumes one die, rolled inline (`_<target>_sides`, set by
        the prepare handler, is 0 for any other dice)."""
        if _prepared_dice(step) and step.target:
            return Hoisted(INT, f"_{step.target}_sides", Const(INT, 0))
        return None

    def joined_sum(self, first: Roll, second: Step, target: str, name: str) -> Roll | None:
        """Two damage rolls as one roll of all their dice, when they take the same crit formula (a
        crit rolls every die twice and adds each roll's bonus once, as the joined roll does): its
        dice `join_dice(<first's dice> if <first's when> else none, <second's> likewise)`, with no
        condition of its own (a part that does not happen adds nothing). The odds form only."""
        if not isinstance(second, Roll) or _crit_expr(first) != _crit_expr(second):
            return None
        dice = Call(DICE, "join_dice", (_part(first), _part(second)))
        rules = first.rules + tuple(r for r in second.rules if r not in first.rules)
        return Roll(target, name, None, rules, first.span, replace(first.dice, expr=dice), first.crit, None)

    def describe(self, step: Roll, zh: Any) -> str:
        crit = f"；{zh(step.crit.expr)}时所有伤害骰掷两次" if step.crit is not None else ""
        return f"掷{zh(step.dice.expr)}，总和记为{step.name}{crit}{when_text(step, zh)}"

    def work(self, step: Roll) -> tuple[Work, ...]:
        d = step.dice.expr
        if isinstance(d, Call) and d.func == "join_dice":
            return ()  # the odds form's two rolls as one: each was checked in the setup (optimise/fuse.py)
        count: Expr = (Call(INT, "max", (d.args[0], Const(INT, 0))) if isinstance(d, Call) and d.func == "dice"
                       else Call(INT, "dice_count", (d,)))
        if step.crit is not None:  # a crit rolls every die twice: the worst case, known before the roll
            count = Binary(INT, "*", count, Const(INT, 2))
        return (Work("this damage roll", "dice", "伤害骰数", count, "damage_dice", step.dice),)

    def local_range(self, step: Roll, ev: Any) -> Any:
        from ..validate.intervals import Dice, Interval

        v = ev(step.dice.expr)
        total = v.total if isinstance(v, Dice) else ev.unknown(INT)
        crit = step.crit is not None and ev.num(step.crit.expr).hi > 0
        return Interval(min(total.lo, 0), total.hi * 2 if crit and total.hi > 0 else total.hi)


def _crit_expr(step: Roll) -> Expr | None:
    return step.crit.expr if step.crit is not None else None


def _part(step: Roll) -> Expr:
    """The roll's dice when it happens, else none."""
    return Cond(DICE, step.when.expr, step.dice.expr, Const(DICE, None)) if step.when is not None else step.dice.expr


def _crit(step: Roll, g: PyGen) -> Code:
    return g.expr(step.crit.expr) if step.crit is not None else Code("False")


def _traced(step: Roll, g: PyGen) -> None:
    value, roll, var = g.temp(step, "dice"), g.temp(step, "roll"), g.local(step)
    when = g.when(step)
    dice = g.operand(step.dice.expr) if when is not None else g.expr(step.dice.expr)
    g.w.line(code("{} = {}", value, code("{} if {} else None", dice, when) if when is not None else dice))
    with g.w.block(code("if {} is not None", value)):
        g.w.line(code("{} = _rt_roll_damage(_source, {}.terms, {})", roll, value, _crit(step, g)))
        g.w.line(code("_rolls.append({})", roll))
        g.w.line(code("{} = {}.total + {}.flat", var, roll, value))
        sentence = code("_rt_damage_sentence({}, {}, {}.flat)", string(step.name), roll, value)
        if step.say is not None:
            sentence = code("{} + '；' + {}", sentence, g.sentence(step.say))
        g.trace("roll", sentence, g.values(("faces", code("{}.faces", roll)), (step.target or "", var)))
    with g.w.block(Code("else")):
        g.w.line(code("{} = 0", var))


def _fast(step: Roll, g: PyGen) -> None:
    value, var = g.temp(step, "dice"), g.local(step)
    die = Code("dice.die") if g.mode == "rand" else Code("_die")

    def body() -> None:
        g.w.line(code("{} = {}", value, g.expr(step.dice.expr)))
        g.w.line(code("{} = _rt_damage_total({}, {}.terms, {}) + {}.flat if {} is not None else 0",
                      var, die, value, _crit(step, g), value, value))

    g.only_when(step, body)


def _prepared_dice(step: Roll) -> bool:
    return isinstance(step.dice.expr, Hoisted)


@handler("python", "prepare", Roll)
def _prepare(step: Roll, g: PyGen) -> None:
    """A roll whose dice need no roll gets its rollers once: one die plus a bonus rolls inline."""
    if not _prepared_dice(step):
        return
    dice = g.expr(step.dice.expr)
    g.w.line(code("{} = _rt_damage_roller({})", g.temp(step, "roller"), dice))
    g.w.line(code("{} = _rt_damage_roller_random({})", g.temp(step, "roller_random"), dice))
    g.w.line(code("{}, {} = _rt_single_die({})", g.temp(step, "sides"), g.temp(step, "flat"), dice))


@handler("python", "prepared", Roll)
def _prepared(step: Roll, g: PyGen) -> None:
    if not _prepared_dice(step):
        _fast(step, g)
        return
    var, crit, when = g.local(step), _crit(step, g), g.when(step)
    if g.mode == "rand":
        sides, flat = g.temp(step, "sides"), g.temp(step, "flat")
        crit_test = g.operand(step.crit.expr) if step.crit is not None else Code("False")
        inline = code("(int(_rand() * {0}) + int(_rand() * {0}) + 2 if {1} else int(_rand() * {0}) + 1) + {2}",
                      sides, crit_test, flat)
        if g.body is None or step.target not in g.body.single_die:
            inline = code("{} if {} else {}(_rand, {})", inline, sides, g.temp(step, "roller_random"), crit)
        value = inline
    else:
        value = code("{}(_die, {})", g.temp(step, "roller"), crit)
    if when is not None:
        value = code("({}) if {} else 0", value, when)
    g.w.line(code("{} = {}", var, value))


handler("python", "traced", Roll)(_traced)
handler("python", "fast", Roll)(_fast)
rolling(Roll, prepare=True)


@handler("python", "odds", Roll)
def _odds(step: Roll, g: PyGen) -> None:
    """The loop over the roll's totals. Its dice are computed only when it happens, as the traced
    form does (a `dice(n, sides)` whose `n` is negative when the roll does not happen raises in
    neither form)."""
    dice, when = g.expr(step.dice.expr), g.when(step)
    value = dice if str(dice).isidentifier() else g.temp(step, "dice")  # a prepared (hoisted) value: as it is
    test = code("{} is not None", value)
    if value is not dice:
        g.w.line(code("{} = {}", value, code("{} if {} else None", g.operand(step.dice.expr), when)
                      if when is not None else dice))
    elif when is not None:
        test = code("({}) and {}", when, test)
    g.loop(step, g.local(step), code("_rt_dice_items({0}.terms, {0}.flat, {1}) if {2} else _rt_ZERO_ITEMS",
                                     value, _crit(step, g), test))


# ---- JavaScript ----
def _js_crit(step: Roll, g: JsGen) -> Js:
    return g.expr(step.crit.expr) if step.crit is not None else Js("false")


def _js_traced(step: Roll, g: JsGen) -> None:
    value, roll, var = g.temp(step, "dice"), g.temp(step, "roll"), g.local(step)
    when = g.when(step)
    dice = g.expr(step.dice.expr)
    g.assign(value, js("{} ? {} : null", when, g.operand(step.dice.expr)) if when is not None else dice)
    with g.w.block(js("if ({} !== null)", value)):
        g.assign(roll, js("_rt_roll_damage(_source, {}.terms, {})", value, _js_crit(step, g)))
        g.w.line(js("_rolls.push({});", roll))
        g.assign(var, js("{}.total + {}.flat", roll, value))
        sentence = js("_rt_damage_sentence({}, {}, {}.flat)", js_string(step.name), roll, value)
        if step.say is not None:
            sentence = js("{} + '；' + {}", sentence, g.sentence(step.say))
        g.trace("roll", sentence, g.values(("faces", js("{}.faces", roll)), (step.target or "", var)))
    with g.w.block(Js("else")):
        g.assign(var, Js("0"))


def _js_fast(step: Roll, g: JsGen) -> None:
    dice, var = g.expr(step.dice.expr), g.local(step)
    value = dice if dice.isidentifier() else g.temp(step, "dice")  # a prepared (hoisted) value: as it is

    def body() -> None:
        if value is not dice:
            g.assign(value, dice)
        g.assign(var, js("{0} !== null ? _rt_damage_total(dice, {0}.terms, {1}) + {0}.flat : 0", value,
                         _js_crit(step, g)))

    g.only_when(step, body)


@handler("js", "odds", Roll)
def _js_odds(step: Roll, g: JsGen) -> None:
    dice, when = g.expr(step.dice.expr), g.when(step)
    value = dice if dice.isidentifier() else g.temp(step, "dice")  # a prepared (hoisted) value: as it is
    test = js("{} !== null", value)
    if value is not dice:  # computed only when the roll happens, as in the Python package
        g.assign(value, js("{} ? {} : null", when, g.operand(step.dice.expr)) if when is not None else dice)
    elif when is not None:
        test = js("({}) && {}", when, test)
    g.loop(step, g.local(step), js("{2} ? _rt_dice_items({0}.terms, {0}.flat, {1}) : _rt_ZERO_ITEMS",
                                   value, _js_crit(step, g), test))


handler("js", "traced", Roll)(_js_traced)
handler("js", "fast", Roll)(_js_fast)
