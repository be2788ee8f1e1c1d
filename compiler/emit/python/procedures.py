"""The procedures module of a Python package, written by walking the optimised IR.

For each procedure `NAME` it writes `NAME_setup` (the input checks and the steps that need no
dice, shared by every form) and the four public forms, each a handler walk over the plan's
per-roll steps (compiler/steps/<kind>.py holds each kind's handlers):

* `NAME(...)` the traced form, with every roll's record and the trace;
* `NAME_fast(...)` the outcome tuple only;
* `NAME_prepare(...)` a closure for many rolls of one situation: roll-independent parts are
  prepared values, a SeededDice's faces are drawn inline from its `random`, a leading plain d20
  walks a face table, and a common-case variant is returned when its guard holds;
* `NAME_odds(...)` the exact distribution: each roll is a loop over its distribution.
"""

from __future__ import annotations

from ...ir import Procedure, Ruleset, Step
from ...ir import expr as ir
from ...steps import kind_for
from ...steps.base import Work
from ...validate.bounds import open_world_reach
from ...validate.scopes import class_name
from ..handlers import handler_for
from .code import Code, Writer, code, comment, docstring, fields_class, join, literal, name, string
from .gen import ProcedureContext, PyGen, local_name
from .many_rolls import ManyRollForms

OUT_TYPES = {"int": "int", "bool": "bool", "str": "str"}


def camel(identifier: str) -> str:
    return "".join(p.capitalize() for p in identifier.split("_"))


def getter(table: str) -> Code:
    cls = class_name(table)
    return name("get_" + "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(cls)))


def _py_type(type_: str) -> Code:
    table = ir.table_of(type_)
    if table is not None:
        return name(class_name(table))
    return Code({"int": "int", "bool": "bool", "str": "str", "dice": "Optional[DiceValue]"}.get(type_, "Any"))


def outcome_type(p: Procedure) -> Code:
    return Code(", ".join(OUT_TYPES[o.formula.type] for o in p.result))


class ProcedureWriter(ManyRollForms):
    def __init__(self, rs: Ruleset, p: Procedure, w: Writer) -> None:
        assert p.plan is not None
        self.rs, self.p, self.plan, self.w = rs, p, p.plan, w
        self.ctx = ProcedureContext(p, p.plan, rs.dice)
        self.fields = name(p.id.upper() + "_FIELDS")
        self.cls = name(camel(p.id) + "Result")
        self.out_type = outcome_type(p)
        self.reach = open_world_reach(rs, p)

    # ---- signatures ----
    def _param(self, prm: object, *, with_default: bool = True) -> tuple[Code, bool, bool]:
        from ...ir import Param

        assert isinstance(prm, Param)
        pid = name(prm.id)
        if prm.type in ("int", "bool"):
            ann, default = Code(prm.type), None if prm.default is None else literal(prm.default)
        elif prm.type == "combatant":
            ann, default = Code("Combatant"), None
        else:
            cls = name(class_name(prm.type))
            if prm.optional:
                ann, default = code("Union[{}, str, None]", cls), Code("None")
            else:
                ann, default = code("Union[{}, str]", cls), literal(prm.default) if prm.default is not None else None
        text = code("{}: {}", pid, ann) if default is None or not with_default else code("{}: {} = {}", pid, ann, default)
        return text, default is not None, prm.type not in ("int", "bool")

    def signature(self, extra: list[Code]) -> Code:
        """Leading required and entity parameters are positional; options are keyword-only, so calls
        read like attack(attacker, target, "longsword", distance=30)."""
        out: list[Code] = []
        star = defaulted = False
        parts = [self._param(prm) for prm in self.p.params]
        for text, has_default, is_entity in parts + [(e, "=" in e, False) for e in extra]:
            if not star and ((has_default and not is_entity) or (not has_default and defaulted)):
                out.append(Code("*"))
                star = True
            defaulted = defaulted or has_default
            out.append(text)
        return join(", ", out)

    def setup_call(self, trace: Code) -> None:
        args = join(", ", [name(prm.id) for prm in self.p.params] + [trace])
        call = code("{}({})", name(f"_{self.p.id}_setup"), args)
        carried = self.plan.carried
        if not carried:
            self.w.line(call)
        elif len(carried) == 1:
            self.w.line(code("({},) = {}", self._carried_name(carried[0]), call))
        else:
            targets = join(", ", [self._carried_name(c) for c in carried])
            if len(targets) > 80:  # a long target list: its own statement, in brackets the writer can break
                self.w.line(code("_setup = {}", call))
                self.w.line(code("({}) = _setup", targets))
            else:
                self.w.line(code("{} = {}", targets, call))

    def _carried_name(self, carried: str) -> Code:
        return name(carried) if any(prm.id == carried for prm in self.p.params) else local_name(carried)

    # ---- the module parts of one procedure ----
    def write(self) -> None:
        self.setup()
        self.traced()
        if self.plan.per_roll:
            self.roll_function()
        self.fast()
        self.prepare()
        self.odds()

    def result_class(self) -> None:
        """The procedure's FIELDS and its result type (written into results.py)."""
        w, p = self.w, self.p
        fields = name(f"_{camel(p.id)}Fields")
        w.line()
        w.line()
        w.line(code("{}: Tuple[str, ...] = {}", self.fields, literal(tuple(o.id for o in p.result))))
        w.line()
        w.line()
        fields_class(w, fields, [*[(name(o.id), Code(OUT_TYPES[o.formula.type]), comment(o.name)) for o in p.result],
                                 (Code("rolls"), Code("Tuple[Any, ...]"), None),
                                 (Code("trace"), Code("Tuple[_Step, ...]"), None)],
                     code('{} + ("rolls", "trace")', self.fields))
        w.line()
        w.line()
        with w.block(code("class {}({}, _rt_Result)", self.cls, fields)):
            w.line(docstring(f"The result of {p.id} ({p.name}): its outcome fields, rolls and trace; "
                             "outcome(), text(), to_dict()."))
            w.line()
            w.line(Code("__slots__ = ()"))
            w.line(code("procedure = {}", string(p.id)))

    def carried_types(self) -> list[Code]:
        out = []
        for c in self.plan.carried:
            prm = next((x for x in self.p.params if x.id == c), None)
            if prm is not None:
                out.append(name(class_name(prm.type)))
            else:
                step = next(s for s in self.plan.setup if s.target == c)
                out.append(_py_type(kind_for(step).local_type(step)))
        return out

    def setup(self) -> None:
        """`_NAME_setup(...)`: the input checks and the steps that need no dice, shared by every form."""
        w, p = self.w, self.p
        params = join(", ", [self._param(prm, with_default=False)[0] for prm in p.params]
                      + [Code("_trace: Optional[List[_Step]]")])
        carried_types = self.carried_types()
        returns = code("Tuple[{}]", join(", ", carried_types)) if carried_types else Code("None")
        w.line()
        w.line()
        with w.block(code("def {}({}) -> {}", name(f"_{p.id}_setup"), params, returns)):
            self.checks()
            g = PyGen(self.ctx, "setup", w)
            for s in self.plan.setup:
                handler_for("python", "setup", s)(s, g)
            self._setup_work_checks(g)
            if self.plan.carried:
                items = [self._carried_name(c) for c in self.plan.carried]
                w.line(code("return ({})", Code("".join(f"{i}, " for i in items).rstrip())))

    def checks(self) -> None:
        """Entries are looked up by id or name; then every input is tested inline in one condition,
        and only when it fails does the runtime check them in order to say which (and raise)."""
        w = self.w
        tests: list[Code] = []
        specs: list[Code] = []
        for prm in self.p.params:
            pid, label = name(prm.id), string(prm.name)
            if prm.type == "int":
                lo, hi = literal(prm.min), literal(prm.max)
                tests.append(code("type({0}) is int and {1} <= {0} <= {2}", pid, lo, hi))
                specs.append(code("('int', {}, {}, {}, {})", label, pid, lo, hi))
            elif prm.type == "bool":
                tests.append(code("({0} is False or {0} is True)", pid))
                specs.append(code("('bool', {}, {})", label, pid))
            elif prm.type == "combatant":
                tests.append(code("type({}) is Combatant", pid))
                specs.append(code("('type', {}, {}, Combatant)", label, pid))
            else:
                cls = name(class_name(prm.type))
                if prm.optional:
                    w.line(code("{0} = {1} if {0} is None else {0} if type({0}) is {2} else {3}({0})", pid,
                                name(f"_NO_{cls.upper()}"), cls, getter(prm.type)))
                else:
                    w.line(code("{0} = {0} if type({0}) is {1} else {2}({0})", pid, cls, getter(prm.type)))
                tests.append(code("{}.not_specified is None", pid))
                specs.append(code("('entry', {}, {})", label, pid))
        if tests:
            test = code("not ({})", join(" and ", tests)) if len(tests) > 1 or " and " in tests[0] \
                else Code(tests[0].replace(" is ", " is not ", 1))
            with w.block(code("if {}", test)):
                w.line(code("_rt_check_inputs(({},))", join(", ", specs)))

    def _outputs(self, outputs: tuple[ir.Expr, ...], g: PyGen) -> Code:
        """The outcome fields, for inside a tuple's brackets (one field keeps its comma)."""
        items = [g.expr(o) for o in outputs]
        return Code(f"{items[0]},") if len(items) == 1 else join(", ", items)

    def _per_roll(self, form: str, g: PyGen, steps: tuple[Step, ...]) -> None:
        for s in steps:
            self._check_work(s, g)
            handler_for("python", form, s)(s, g)

    def _works(self, step: Step) -> list[tuple[Work, int]]:
        """The work quantities of a step the generated code checks, with their limits. The build
        proved each bound for the rules' own entries; what it cannot see is an entry a program
        builds itself, so a quantity goes unchecked only when it stays within its limit whatever
        the entries hold (validate/bounds.py, open world)."""
        out = []
        for work in kind_for(step).work(step):
            limit = self.rs.dice.limits.get(work.limit)
            reach = self.reach.get((step.span, work.label))
            if limit is not None and (reach is None or reach.hi > limit):
                out.append((work, limit))
        return out

    def _in_setup(self, work: Work) -> bool:
        """A quantity no roll feeds, which cannot raise, is checked once in the setup function,
        whether or not its step happens (so only an entry a program built itself can fail it)."""
        rolled = {s.target for s in self.plan.per_roll if s.target}
        return not ir.locals_read(work.quantity) & rolled and ir.total(work.quantity)

    def _setup_work_checks(self, g: PyGen) -> None:
        done: set[tuple[ir.Expr, int]] = set()
        for step in self.plan.per_roll:
            for work, limit in self._works(step):
                if self._in_setup(work) and (work.quantity, limit) not in done:
                    done.add((work.quantity, limit))
                    self._emit_work_check(work, limit, None, g)

    def checked_in_setup(self, step: Step) -> bool:
        """True when every work quantity of the step the generated code checks is checked in the
        setup function (optimise/fuse.py joins two rolls only then)."""
        original = next((s for s in self.plan.per_roll if s.span == step.span), step)
        return all(self._in_setup(w) for w, _ in self._works(original))

    def _check_work(self, step: Step, g: PyGen) -> None:
        """Before a step whose quantity a roll feeds: raise LimitExceeded when it is over its limit."""
        original = next((s for s in self.plan.per_roll if s.span == step.span), step)
        per_roll = {w.label for w, _ in self._works(original) if not self._in_setup(w)}
        for work in kind_for(step).work(step):  # the step as this form has it (prepared values hoisted)
            if work.label in per_roll:
                self._emit_work_check(work, self.rs.dice.limits[work.limit], g.when(step), g)

    @staticmethod
    def _emit_work_check(work: Work, limit: int, when: Code | None, g: PyGen) -> None:
        quantity = g.paren(work.quantity)
        test = code("{} > {}", quantity, literal(limit))  # inline: the common path makes no call
        with g.w.block(code("if {} and {}", when, test) if when is not None else code("if {}", test)):
            g.w.line(code("_rt_within({}, {}, {})", string(work.label), g.expr(work.quantity), literal(limit)))

    def traced(self) -> None:
        w, p = self.w, self.p
        w.line()
        w.line()
        with w.block(code("def {}({}) -> {}", name(p.id), self.signature([Code("dice: Optional[DiceSource] = None")]),
                          self.cls)):
            w.line(docstring(p.name + (f"（{'、'.join(p.rules)}）" if p.rules else "")))
            w.line(Code("_trace: List[_Step] = []"))
            self.setup_call(Code("_trace"))
            rolls = bool(self.plan.per_roll)
            if rolls:  # every dice argument enters through _rt_dice_source (faces checked, runtime/sources.py)
                w.line(Code("_source: Any = _rt_dice_source(dice) if dice is not None else SeededDice()"))
                w.line(Code("_rolls: List[Any] = []"))
            else:
                with w.block(Code("if dice is not None")):
                    w.line(Code("_rt_dice_source(dice)  # refused when it is not a dice source, as in every form"))
            g = PyGen(self.ctx, "traced", w)
            self._per_roll("traced", g, self.plan.per_roll)
            w.line(code("return _rec({}, ({}, {}, tuple(_trace)))", self.cls,
                        join(", ", [g.expr(o) for o in self.plan.outputs]),
                        Code("tuple(_rolls)") if rolls else Code("()")))

    def roll_args(self) -> list[tuple[Code, Code]]:
        """(name, type) of what the per-roll steps read: the setup's hand-ons, then parameters."""
        out = [(self._carried_name(c), t) for c, t in zip(self.plan.carried, self.carried_types())]
        read: set[str] = set()
        for s in self.plan.per_roll:
            for e in s.exprs(sentences=False):
                read |= ir.params_read(e)
        for o in self.plan.outputs:
            read |= ir.params_read(o)
        for prm in self.p.params:
            if prm.id in read and prm.id not in self.plan.carried:
                out.append((name(prm.id), Code("Combatant") if prm.type == "combatant" else Code(prm.type)))
        return out

    def roll_function(self) -> None:
        """`_NAME_roll(dice, ...)`: the per-roll steps, faces from `dice.die`; the fast form and the
        prepared closure's path for any other dice source share it."""
        w, p = self.w, self.p
        args = join(", ", [Code("dice: DiceSource")] + [code("{}: {}", n, t) for n, t in self.roll_args()])
        w.line()
        w.line()
        with w.block(code("def {}({}) -> Tuple[{}]", name(f"_{p.id}_roll"), args, self.out_type)):
            body = Writer(w.level)
            g = PyGen(self.ctx, "fast", body)
            self._per_roll("fast", g, self.plan.per_roll)
            self._dice_names(body, w)
            w.lines.extend(body.lines)
            w.line(code("return ({})", self._outputs(self.plan.outputs, g)))

    def roll_call(self, dice: Code = Code("dice")) -> Code:
        return code("{}({})", name(f"_{self.p.id}_roll"), join(", ", [dice] + [n for n, _ in self.roll_args()]))

    def fast(self) -> None:
        w, p = self.w, self.p
        w.line()
        w.line()
        with w.block(code("def {}({}) -> Tuple[{}]", name(p.id + "_fast"), self.signature([Code("dice: DiceSource")]),
                          self.out_type)):
            w.line(docstring(f"{p.name}: the outcome only (the fields of {p.id.upper()}_FIELDS), no trace."))
            self.setup_call(Code("None"))
            with w.block(Code("if dice.__class__ is not SeededDice")):
                w.line(Code("dice = _rt_dice_source(dice)  # faces checked (runtime/sources.py)"))
            if self.plan.per_roll:
                w.line(code("return {}", self.roll_call()))
            else:
                g = PyGen(self.ctx, "fast", w)
                w.line(code("return ({})", self._outputs(self.plan.outputs, g)))

    def _dice_names(self, body: Writer, w: Writer) -> None:
        text = "\n".join(body.lines)
        if "_die" in text:
            w.line(Code("_die = dice.die"))
        if "_maybe_rand" in text:
            w.line(Code('_maybe_rand = getattr(dice, "random", None)'))


def write_procedure(rs: Ruleset, p: Procedure, w: Writer) -> None:
    ProcedureWriter(rs, p, w).write()


def write_result(rs: Ruleset, p: Procedure, w: Writer) -> None:
    ProcedureWriter(rs, p, w).result_class()

