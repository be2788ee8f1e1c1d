"""The procedures of a JavaScript module, written by walking the same optimised IR as Python's.

For each procedure `NAME` (compiler/steps/<kind>.py holds each kind's `js` handlers):

* `_NAME_setup(...)`: the input checks and the steps that need no dice, shared by every form;
* `NAME(...)` the traced form: a frozen result with the outcome fields, every roll and the trace;
* `NAME_fast(..., {dice})` the outcome array only (fields in NAME_FIELDS), faces from `dice.die`;
* `NAME_prepare(...)` the setup once; returns `dice => outcome array` (the fast form's roll);
* `NAME_odds(...)` the exact distribution: each roll is a loop over its distribution.

Leading parameters are positional as in Python's `attack(attacker, target, "longsword",
distance=30)`; the options (Python's keyword-only parameters, and `dice`) come last in one
object: `attack(attacker, target, "longsword", {distance: 30, dice})`.
"""

from __future__ import annotations

from ...ir import Param, Procedure, Ruleset, Step
from ...ir import expr as ir
from ...optimise.fuse import joined_sums
from ...steps import kind_for
from ...steps.base import Work
from ...validate.scopes import class_name
from ..handlers import handler_for
from ..python.code import Writer as PyWriter
from ..python.procedures import ProcedureWriter as PyProcedureWriter
from ..python.procedures import camel
from .code import Js, Writer, comment_text, join, js, literal, name, string
from .gen import JsGen, local_name


def getter(table: str) -> Js:
    cls = class_name(table)
    return name("get_" + "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(cls)))


def split_params(p: Procedure) -> tuple[list[Param], list[Param]]:
    """(positional, options), as Python's signature puts the `*`."""
    positional: list[Param] = []
    defaulted = False
    for i, prm in enumerate(p.params):
        is_entity = prm.type not in ("int", "bool")
        has_default = prm.default is not None or (is_entity and prm.optional)
        if (has_default and not is_entity) or (not has_default and defaulted):
            return positional, list(p.params[i:])
        defaulted = defaulted or has_default
        positional.append(prm)
    return positional, []


class ProcedureWriter:
    def __init__(self, rs: Ruleset, p: Procedure, w: Writer) -> None:
        assert p.plan is not None
        self.rs, self.p, self.plan, self.w = rs, p, p.plan, w
        self.py = PyProcedureWriter(rs, p, PyWriter())  # what is decided once for both targets
        self.fields = name(p.id.upper() + "_FIELDS")
        self.cls = name(camel(p.id) + "Result")
        self.positional, self.options = split_params(p)

    # ---- signatures ----
    def _default(self, prm: Param) -> Js:
        if prm.type in ("int", "bool"):
            return literal(prm.default)
        return Js("null") if prm.default is None else literal(prm.default)

    def head(self, fn: Js, extra: tuple[str, ...]) -> None:
        """`function fn(a, b, options) {` and the options read from their object (unknown keys refused:
        a procedure without options refuses any, as Python refuses a keyword it does not take)."""
        args = [name(prm.id) for prm in self.positional] + [Js("options")]
        self.w.line(js("function {}({}) {{", fn, join(", ", args)))
        self.w.indent()
        for prm in self.positional:  # a positional parameter with a default may be left out (undefined)
            if prm.default is not None and prm.type not in ("int", "bool", "combatant"):
                self.w.line(js("if ({0} === undefined) {0} = {1};", name(prm.id), literal(prm.default)))
        keys = [prm.id for prm in self.options] + list(extra)
        self.w.line(js("options = _rt_options(options, {});", literal(keys)))
        if self.options or extra:
            for prm in self.options:
                pid = name(prm.id)
                self.w.line(js("let {0} = options.{0} === undefined ? {1} : options.{0};", pid, self._default(prm)))

    def setup_call(self, trace: Js) -> None:
        args = join(", ", [name(prm.id) for prm in self.p.params] + [trace])
        call = js("{}({})", name(f"_{self.p.id}_setup"), args)
        carried = self.plan.carried
        if not carried:
            self.w.line(js("{};", call))
            return
        targets = [self._carried_name(c) for c in carried]
        params = {prm.id for prm in self.p.params}
        if not any(c in params for c in carried):
            self.w.line(js("const [{}] = {};", join(", ", targets), call))
            return
        self.w.line(js("const _setup = {};", call))  # a parameter the setup normalised is assigned again
        for i, (c, t) in enumerate(zip(carried, targets)):
            self.w.line(js("{} = _setup[{}];", t, literal(i)) if c in params else
                        js("const {} = _setup[{}];", t, literal(i)))

    def _carried_name(self, carried: str) -> Js:
        return name(carried) if any(prm.id == carried for prm in self.p.params) else local_name(carried)

    # ---- the module parts of one procedure ----
    def write(self) -> None:
        self.setup()
        self.result_class()
        self.traced()
        if self.plan.per_roll:
            self.roll_function()
        self.fast()
        self.prepare()
        self.odds()

    def result_class(self) -> None:
        w, p = self.w, self.p
        w.line()
        w.line(js("const {} = Object.freeze({});", self.fields, literal([o.id for o in p.result])))
        w.line(js("// The result of {} ({}): its outcome fields, rolls and trace; outcome(), text(), toDict().",
                  name(p.id), comment_text(p.name)))
        w.line(js("class {} extends Result {{}}", self.cls))
        w.line(js("{}.PROCEDURE = {};", self.cls, string(p.id)))
        w.line(js("{}.FIELDS = {};", self.cls, self.fields))

    def _body(self, form: str, steps: tuple[Step, ...]) -> tuple[Writer, JsGen]:
        """The steps in the form, written apart so that their locals can be declared above them."""
        body = Writer(self.w.level)
        g = JsGen(self.p, self.rs.dice, form, body)
        for s in steps:
            if form != "setup":
                self._check_work(s, g)
            handler_for("js", form, s)(s, g)
        return body, g

    def _splice(self, body: Writer, g: JsGen, skip: frozenset[Js] = frozenset()) -> None:
        """`let` for every local the body assigns (but `skip`), then the body."""
        names = [d for d in g.declared if d not in skip]
        line: list[Js] = []
        for n in names:  # one `let` a line, as many names as fit
            if line and len("  " * self.w.level) + len(", ".join(line + [n])) + 5 > 120:
                self.w.line(js("let {};", join(", ", line)))
                line = []
            line.append(n)
        if line:
            self.w.line(js("let {};", join(", ", line)))
        self.w.splice(body)

    def setup(self) -> None:
        w, p = self.w, self.p
        params = join(", ", [name(prm.id) for prm in p.params] + [Js("_trace")])
        w.line()
        with w.block(js("function {}({})", name(f"_{p.id}_setup"), params)):
            self.checks()
            body, g = self._body("setup", self.plan.setup)
            self._setup_work_checks(g)
            self._splice(body, g, frozenset(name(prm.id) for prm in p.params))
            if self.plan.carried:
                w.line(js("return [{}];", join(", ", [self._carried_name(c) for c in self.plan.carried])))

    def checks(self) -> None:
        w = self.w
        tests: list[Js] = []
        specs: list[Js] = []
        for prm in self.p.params:
            pid, label = name(prm.id), string(prm.name)
            if prm.type == "int":
                lo, hi = literal(prm.min), literal(prm.max)
                tests.append(js("Number.isInteger({0}) && {1} <= {0} && {0} <= {2}", pid, lo, hi))
                specs.append(js("['int', {}, {}, {}, {}]", label, pid, lo, hi))
            elif prm.type == "bool":
                tests.append(js("typeof {} === 'boolean'", pid))
                specs.append(js("['bool', {}, {}]", label, pid))
            elif prm.type == "combatant":
                tests.append(js("{} instanceof Combatant", pid))
                specs.append(js("['type', {}, {}, Combatant]", label, pid))
            else:
                cls = name(class_name(prm.type))
                if prm.optional:
                    w.line(js("{0} = {0} === null || {0} === undefined ? {1} : {0} instanceof {2} ? {0} : {3}({0});",
                              pid, name(f"_NO_{cls.upper()}"), cls, getter(prm.type)))
                else:
                    w.line(js("{0} = {0} instanceof {1} ? {0} : {2}({0});", pid, cls, getter(prm.type)))
                tests.append(js("{}.not_specified === null", pid))
                specs.append(js("['entry', {}, {}]", label, pid))
        if tests:
            with w.block(js("if (!({}))", join(" && ", tests))):
                w.line(js("_rt_check_inputs([{}]);", join(", ", specs)))

    # ---- bounded work: the same checks, in the same places, as the Python package ----
    def _setup_work_checks(self, g: JsGen) -> None:
        done: set[tuple[ir.Expr, int]] = set()
        for step in self.plan.per_roll:
            for work, limit in self.py._works(step):
                if self.py._in_setup(work) and (work.quantity, limit) not in done:
                    done.add((work.quantity, limit))
                    self._emit_work_check(work, limit, None, g)

    def _check_work(self, step: Step, g: JsGen) -> None:
        per_roll = {w.label for w, _ in self.py._works(step) if not self.py._in_setup(w)}
        for work in kind_for(step).work(step):
            if work.label in per_roll:
                self._emit_work_check(work, self.rs.dice.limits[work.limit], g.when(step), g)

    @staticmethod
    def _emit_work_check(work: Work, limit: int, when: Js | None, g: JsGen) -> None:
        test = js("{} > {}", g.paren(work.quantity), literal(limit))
        with g.w.block(js("if ({} && {})", when, test) if when is not None else js("if ({})", test)):
            g.w.line(js("_rt_within({}, {}, {});", string(work.label), g.expr(work.quantity), literal(limit)))

    def _outputs(self, g: JsGen) -> Js:
        return join(", ", [g.expr(o) for o in self.plan.outputs])

    def traced(self) -> None:
        w, p = self.w, self.p
        w.line()
        w.line(js("// {}", comment_text(p.name + (f"（{'、'.join(p.rules)}）" if p.rules else ""))))
        self.head(name(p.id), ("dice",))
        w.line(Js("const _trace = [];"))
        self.setup_call(Js("_trace"))
        rolls = bool(self.plan.per_roll)
        if rolls:
            w.line(Js("const _source = options.dice !== undefined && options.dice !== null ? "
                      "_rt_dice_source(options.dice) : new SeededDice();"))
            w.line(Js("const _rolls = [];"))
        else:
            w.line(Js("if (options.dice !== undefined && options.dice !== null) _rt_dice_source(options.dice);"))
        body, g = self._body("traced", self.plan.per_roll)
        self._splice(body, g)
        w.line(js("return _rt_result({}, [{}], {}, _trace);", self.cls, self._outputs(g),
                  Js("_rolls") if rolls else Js("[]")))
        w.dedent()
        w.line(Js("}"))

    def roll_args(self) -> list[Js]:
        out = [self._carried_name(c) for c in self.plan.carried]
        read: set[str] = set()
        for s in self.plan.per_roll:
            for e in s.exprs(sentences=False):
                read |= ir.params_read(e)
        for o in self.plan.outputs:
            read |= ir.params_read(o)
        for prm in self.p.params:
            if prm.id in read and prm.id not in self.plan.carried:
                out.append(name(prm.id))
        return out

    def roll_function(self) -> None:
        w, p = self.w, self.p
        w.line()
        with w.block(js("function {}({})", name(f"_{p.id}_roll"), join(", ", [Js("dice")] + self.roll_args()))):
            body, g = self._body("fast", self.plan.per_roll)
            self._splice(body, g)
            w.line(js("return [{}];", self._outputs(g)))

    def roll_call(self, dice: Js) -> Js:
        return js("{}({})", name(f"_{self.p.id}_roll"), join(", ", [dice] + self.roll_args()))

    def fast(self) -> None:
        w, p = self.w, self.p
        w.line()
        w.line(js("// {}: the outcome only (the fields of {}), no trace.", comment_text(p.name), self.fields))
        self.head(name(p.id + "_fast"), ("dice",))
        self.setup_call(Js("null"))
        if self.plan.per_roll:
            w.line(Js("const dice = _rt_dice_source(options.dice);"))
            w.line(js("return {};", self.roll_call(Js("dice"))))
        else:
            w.line(Js("_rt_dice_source(options.dice);  // refused when it is not a dice source, as in every form"))
            body, g = self._body("fast", ())
            w.line(js("return [{}];", self._outputs(g)))
        w.dedent()
        w.line(Js("}"))

    def prepare(self) -> None:
        """The setup once, the roll-independent parts of the per-roll formulas (the plan's prepared
        body, optimise/hoist.py) computed once, and a closure running the rest of the fast form."""
        w, p, prepared = self.w, self.p, self.plan.prepared
        w.line()
        w.line(js("// {}: the setup once; the function returned rolls and returns the outcome array.",
                  comment_text(p.name)))
        self.head(name(p.id + "_prepare"), ())
        self.setup_call(Js("null"))
        g = JsGen(self.p, self.rs.dice, "fast", w)
        for h in prepared.hoisted:
            assert isinstance(h, ir.Hoisted)
            w.line(js("const {} = {};", name(h.name), g.expr(h.value)))
        if prepared.steps:
            with w.block(Js("return dice =>")):
                w.line(Js("dice = _rt_dice_source(dice);  // faces checked unless it is a SeededDice or FixedDice"))
                body, g = self._body("fast", prepared.steps)
                self._splice(body, g)
                w.line(js("return [{}];", join(", ", [g.expr(o) for o in prepared.outputs])))
        else:
            w.line(js("const _out = [{}];", join(", ", [g.expr(o) for o in prepared.outputs])))
            w.line(Js("return dice => { _rt_dice_source(dice); return _out.slice(); };"))
        w.dedent()
        w.line(Js("}"))

    def odds(self) -> None:
        w, p = self.w, self.p
        w.line()
        w.line(js("// {}: the exact distribution of the fields of {}.", comment_text(p.name), self.fields))
        self.head(name(p.id + "_odds"), ())
        self.setup_call(Js("null"))
        w.line(js("const _odds = new OddsBuilder({}, {}, {}, {});", self.fields, literal(p.summary.hit),
                  literal(p.summary.damage), literal(self.rs.dice.limits["odds_branches"])))
        w.line(Js("const _p = 1.0;"))
        variant = self.plan.odds  # the rolls the prepared switches skip, folded away (optimise/unswitch.py)
        if variant is not None:  # in a block of its own: the general body's locals may share its values' names
            w.line(Js("{"))
            w.indent()
            g = JsGen(self.p, self.rs.dice, "odds", w)
            for h in self.plan.prepared.hoisted:  # what the variant reads, computed once
                assert isinstance(h, ir.Hoisted)
                w.line(js("const {} = {};", name(h.name), g.expr(h.value)))
            with w.block(js("if ({})", join(" && ", [g.expr(e) for e in variant.guard]))):
                self._enumerate(variant.steps, variant.outputs)
            w.dedent()
            w.line(Js("}"))
        self._enumerate(self.plan.per_roll, self.plan.outputs)
        w.dedent()
        w.line(Js("}"))

    def _enumerate(self, steps: tuple[Step, ...], outputs: tuple[ir.Expr, ...]) -> None:
        """The loops over the steps' rolls, each outcome put, and the distribution returned (two
        rolls read only as their sum enumerated as one, optimise/fuse.py, as in the Python package:
        the steps that only write the trace, which no odds form writes, left out first)."""
        steps = tuple(s for s in steps if not kind_for(s).traces_only)
        steps, outputs = joined_sums(steps, outputs, self.py.checked_in_setup)
        body, g = self._body("odds", steps)
        body.line(js("_odds.put([{}], {});", join(", ", [g.expr(o) for o in outputs]), g.p))  # its loops charged
        for _ in range(g.loops):
            body.dedent()
            body.line(Js("}"))
        self._splice(body, g)
        self.w.line(Js("return _odds.build();"))


def write_procedure(rs: Ruleset, p: Procedure, w: Writer) -> None:
    ProcedureWriter(rs, p, w).write()
