"""The intermediate representation of a ruleset: frozen, tuple-only, no back-references.

The lowering pass builds it from checked documents; the optimiser rewrites procedures; the
emitters only read it. Formulas are typed expression trees (`ir/expr.py`), never rendered
text: each emitter (Python, JavaScript, the Chinese of the reference pages) renders them its
own way. Every node keeps the `Span` of the YAML it came from, so late passes and the pages can
still point at the rule file. Step kinds subclass `Step` in their own modules (`compiler/steps/`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any

from ..diagnostics import Span
from .expr import Expr
from .fight import CheckUse, Effect, FightSpec, NotModelled
from ..record import Record, field, field_names


class Formula(Record, frozen=True):
    """A formula of the rules: its text as written, its typed tree, where it was written."""

    text: str
    expr: Expr
    span: Span

    @property
    def type(self) -> str:
        return self.expr.type


class Template(Record, frozen=True):
    """A trace or error sentence: literal text and holes (typed expressions), in order."""

    text: str
    parts: tuple[str | Expr, ...]
    span: Span


class DiceExpr(Record, frozen=True):
    text: str
    terms: tuple[tuple[int, int], ...]
    flat: int


class Stat(Record, frozen=True):
    id: str
    name: str
    group: str
    type: str
    min: int
    max: int
    default: int | bool
    description: str
    rules: tuple[str, ...]
    span: Span


class StatGroup(Record, frozen=True):
    id: str
    name: str


class EnumValue(Record, frozen=True):
    id: str
    name: str
    description: str = ""


class FieldDecl(Record, frozen=True):
    id: str
    name: str
    type: str  # int bool text enum enum_list ref dice formula
    description: str
    required: bool
    min: int | None
    max: int | None
    default: object
    values: tuple[EnumValue, ...]
    table: str | None
    result: str | None
    context: tuple[tuple[str, str], ...]  # (param, table) pairs for formula fields
    span: Span
    labels: tuple[tuple[int, str], ...] = ()  # names of special int values, for the pages
    not_modelled: str = ""  # why no procedure reads it (validate/usage.py)


class FormulaField(Record, frozen=True):
    """A formula-valued field of an entry, compiled to a module-level function shared by every
    entry with the same formula text (named after the first: `<table>_<entry>_<field>`)."""

    formula: Formula
    function: str


FieldValue = int | bool | str | None | tuple[str, ...] | DiceExpr | FormulaField


class Entry(Record, frozen=True):
    table: str
    id: str
    name: str
    description: str
    rules: tuple[str, ...]
    values: Mapping[str, FieldValue]  # one per declared field, in declaration order
    not_specified: str | None
    origin: str  # "ruleset" or the pack id
    span: Span

    def get(self, field: str) -> FieldValue:
        return self.values[field]


# An entry's id, the key its table's runs are cut by (`Memo.each_run`): a C function, as it is
# called for every entry of a 10,000-entry table by every pass that keeps runs.
entry_id: Callable[[Entry], str] = attrgetter("id")


class Table(Record, frozen=True):
    id: str
    name: str
    description: str
    group_by: str | None
    fields: tuple[FieldDecl, ...]
    entries: tuple[Entry, ...]
    span: Span
    index: str | None = None  # a field formulas may index the table by: `sizes[attacker.size]`


class Ruling(Record, frozen=True):
    key: str
    ruling: str
    name: str
    value: int | bool
    text: str
    rules: tuple[str, ...]
    span: Span
    min: int | None = None
    max: int | None = None
    not_modelled: str = ""  # why no procedure reads it (validate/usage.py)


class RuleRef(Record, frozen=True):
    id: str
    title: str
    section: str | None
    summary: str
    referee_call: bool
    span: Span


class Section(Record, frozen=True):
    id: str
    name: str


class ErrorType(Record, frozen=True):
    id: str
    name: str
    message: str
    description: str
    span: Span


class Helper(Record, frozen=True):
    """A helper function the manifest declares, implemented by a runtime module of rulec."""

    id: str
    name: str
    module: str
    params: tuple[str, ...]
    result: str
    description: str
    span: Span


class Param(Record, frozen=True):
    id: str
    name: str
    type: str  # int bool combatant or a table id
    min: int | None
    max: int | None
    default: int | bool | str | None
    optional: bool
    description: str
    span: Span


class Step(Record, frozen=True):
    """One step of a procedure. Each step kind (compiler/steps/<kind>.py) subclasses it with its
    own typed arguments; emitters dispatch on the subclass."""

    target: str | None  # the local it defines, if any
    name: str  # display name of the target (or of the step)
    when: Formula | None
    rules: tuple[str, ...]
    span: Span

    def formulas(self) -> tuple[Formula, ...]:
        """Every formula of the step (its `when` included): its fields that are formulas."""
        return tuple(v for v in _field_values(self) if isinstance(v, Formula))

    def templates(self) -> tuple[Template, ...]:
        """Every sentence of the step: its fields that are templates."""
        return tuple(v for v in _field_values(self) if isinstance(v, Template))

    def exprs(self, *, sentences: bool = True) -> tuple[Expr, ...]:
        """Every expression the step holds, for the analyses over all steps (what it reads, what a
        prepared closure needs): its formulas' trees, its fields that are expressions (a d20's net
        layers) and, unless `sentences` is false, the holes of its sentences. Derived from the
        kind's fields, so a new kind cannot leave one out."""
        out: list[Expr] = []
        for v in _field_values(self):
            if isinstance(v, Formula):
                out.append(v.expr)
            elif isinstance(v, Expr):
                out.append(v)
            elif sentences and isinstance(v, Template):
                out += [p for p in v.parts if not isinstance(p, str)]
        return tuple(out)

    def rolls(self) -> bool:
        """True for steps that roll dice."""
        return False

    def simplify(self) -> Step | None:
        """After constant folding: the step, or None when it now does nothing (a requirement that
        always holds)."""
        return self


def _field_values(step: Step) -> list[object]:
    return [getattr(step, name) for name in field_names(step)]


class Output(Record, frozen=True):
    id: str
    name: str
    formula: Formula


class Summary(Record, frozen=True):
    """Which outcome fields an odds summary reads as the hit and the damage (or none)."""

    hit: str | None
    damage: str | None


class PreparedBody(Record, frozen=True):
    """The per-roll steps of a prepared resolver: roll-independent parts of their formulas are
    `Hoisted` values computed once when it is prepared (optimise/hoist.py)."""

    steps: tuple[Step, ...]
    outputs: tuple[Expr, ...]
    hoisted: tuple[Expr, ...]  # the Hoisted nodes to define, in order
    face_table: str | None  # the leading plain d20 step whose faces get a decision tree
    single_die: tuple[str, ...] = ()  # roll steps assumed to roll one die (the common case), sorted
    guard: tuple[Expr, ...] = ()  # what the common case assumes, as true/false expressions


class Plan(Record, frozen=True):
    """How a procedure is run (optimise/plan.py): the setup steps shared by every form (input
    checks come first), what they hand on, the steps each roll runs, the prepared closure's
    body, its common-case variant and the odds form's unswitched variant."""

    setup: tuple[Step, ...]
    carried: tuple[str, ...]  # entry parameters and setup locals the rest reads, in order
    per_roll: tuple[Step, ...]
    outputs: tuple[Expr, ...]
    prepared: PreparedBody
    common: PreparedBody | None
    odds: PreparedBody | None = None  # the odds form's variant with the switches that skip a roll off


class Procedure(Record, frozen=True):
    id: str
    name: str
    description: str
    rules: tuple[str, ...]
    subject: str | None
    params: tuple[Param, ...]
    steps: tuple[Step, ...]
    result: tuple[Output, ...]
    summary: Summary
    span: Span
    plan: Plan | None = None  # set by the optimiser
    effects: tuple[Effect, ...] = ()  # what its result does to a fight's state (runtime/fight.py applies them)
    action: tuple[str, str] = ("", "")  # (kind of action, nature) for the conditions that forbid kinds
    action_from: str = ""  # the text outcome naming the kind of action it spends, decided by its result
    costs: tuple[tuple[str, str], ...] = ()  # turn pool -> the whole-number outcome holding what it spends of it
    checks: tuple[CheckUse, ...] = ()  # the checks it rolls that a track's debuff may lower


class Dice(Record, frozen=True):
    """The ruleset's dice engine (compiler/engines/<engine>.py interprets `settings`)."""

    engine: str
    name: str
    settings: Mapping[str, int | str]
    limits: Mapping[str, int]
    span: Span

    def setting(self, key: str) -> int | str:
        return self.settings[key]


class OddsPreset(Record, frozen=True):
    """A balancing table for the reference page: a procedure's odds for every entry of a table."""

    title: str
    table: str
    procedure: str
    param: str
    combatants: tuple[tuple[str, tuple[tuple[str, int | bool], ...]], ...]
    args: tuple[tuple[str, int | bool | str], ...]
    vary_target: str
    vary_name: str
    vary_values: tuple[int, ...]
    max_entries: int
    span: Span
    until_at: int = 0  # also the expected attacks until the damage totals this (0: not shown)
    until_name: str = ""


class Ruleset(Record, frozen=True):
    id: str
    name: str
    version: str
    description: str
    source_file: str
    dice: Dice
    stat_groups: tuple[StatGroup, ...]
    stats: tuple[Stat, ...]
    rulings: tuple[Ruling, ...]
    sections: tuple[Section, ...]
    rules: tuple[RuleRef, ...]
    errors: tuple[ErrorType, ...]
    tables: tuple[Table, ...]
    procedures: tuple[Procedure, ...]
    packs: tuple[str, ...]
    files: tuple[str, ...]  # every rule file that went into it, sorted
    span: Span
    helpers: tuple[Helper, ...] = ()
    features: tuple[str, ...] = ()  # ruleset features such as "initiative" (compiler/features.py)
    odds_presets: tuple[OddsPreset, ...] = ()
    pack_label: str = ""  # the local version label of a build with packs: "my.pack.1a2b3c4d"
    not_modelled: tuple[NotModelled, ...] = ()  # sub-rules of the source no procedure computes, and why
    fight: FightSpec | None = None  # the fight state, when the ruleset declares one
    # For each ruling's key, what reads it (the procedures and steps, by name): set after the
    # usage check (validate/usage.py `readers`), shown by the pages.
    ruling_readers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The (table, field) pairs of its `text` fields that nothing reads, sorted: prose such as a
    # weapon's 说明, set after the usage check with `ruling_readers`; an odds row's key leaves them
    # out (emit/odds_tables.py). Empty (nothing left out) until then.
    prose: tuple[tuple[str, str], ...] = ()
    quick: Mapping[str, Any] = field(default_factory=dict)  # the manifest's reference.quick (the quick sheet)

    def table(self, table_id: str) -> Table:
        for t in self.tables:
            if t.id == table_id:
                return t
        raise KeyError(table_id)

    def ruling(self, key: str) -> Ruling:
        for r in self.rulings:
            if r.key == key:
                return r
        raise KeyError(key)
