"""The intermediate representation: frozen, tuple-only, no back-references.

Lowering builds it; the emitters only read it. Every node keeps the `Span` of
the YAML it came from so that late passes and reference pages can still point
at the rule file. Formulas and templates carry their ready-made Python and
Chinese forms (the emitters' view model), computed once while lowering.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .diagnostics import Span

if TYPE_CHECKING:
    from .formula.check import TypedFormula


@dataclass(frozen=True, slots=True)
class Formula:
    text: str
    python: str
    chinese: str
    type: str
    span: Span
    reads: frozenset[str] = frozenset()  # procedure locals (step targets) the formula uses
    # The checked tree, for emitters that rewrite the Python form (prepared resolvers hoist
    # roll-independent parts); not part of the IR's value or of `--dump-ir`.
    typed: TypedFormula | None = field(default=None, compare=False, repr=False, metadata={"dump": False})


@dataclass(frozen=True, slots=True)
class Template:
    """A trace or error sentence: literal text with `{name}` holes, pre-compiled to Python."""

    text: str
    python: str  # a Python expression that builds the sentence
    span: Span
    reads: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class DiceExpr:
    text: str
    terms: tuple[tuple[int, int], ...]
    flat: int


@dataclass(frozen=True, slots=True)
class Stat:
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


@dataclass(frozen=True, slots=True)
class StatGroup:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class EnumValue:
    id: str
    name: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class FieldDecl:
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


@dataclass(frozen=True, slots=True)
class EntryFormula:
    """A formula-valued field of an entry, compiled to a shared module-level function."""

    formula: Formula
    function: str  # name of the generated function


FieldValue = int | bool | str | None | tuple[str, ...] | DiceExpr | EntryFormula


@dataclass(frozen=True, slots=True)
class Entry:
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


@dataclass(frozen=True, slots=True)
class Table:
    id: str
    name: str
    description: str
    group_by: str | None
    fields: tuple[FieldDecl, ...]
    entries: tuple[Entry, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Ruling:
    key: str
    ruling: str
    name: str
    value: int | bool
    text: str
    rules: tuple[str, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class RuleRef:
    id: str
    title: str
    section: str | None
    summary: str
    referee_call: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class ErrorType:
    id: str
    name: str
    message: str
    description: str
    span: Span


@dataclass(frozen=True, slots=True)
class Param:
    id: str
    name: str
    type: str  # int bool combatant or a table id
    min: int | None
    max: int | None
    default: int | bool | str | None
    optional: bool
    description: str
    span: Span


@dataclass(frozen=True, slots=True)
class Step:
    """One procedure step. `kind` names its entry in the step registry (steps.py)."""

    kind: str
    target: str | None  # the local it defines, if any
    name: str  # display name of the target (or of the step)
    args: tuple[tuple[str, Formula], ...]
    say: Template | None
    when: Formula | None
    error: str | None
    error_message: Template | None
    rules: tuple[str, ...]
    span: Span

    def arg(self, name: str) -> Formula | None:
        for key, value in self.args:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True)
class Output:
    id: str
    name: str
    formula: Formula


@dataclass(frozen=True, slots=True)
class Procedure:
    id: str
    name: str
    description: str
    rules: tuple[str, ...]
    subject: str | None
    params: tuple[Param, ...]
    steps: tuple[Step, ...]
    result: tuple[Output, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Dice:
    engine: str  # pool | d20
    name: str
    sides: int
    success_at: int
    add_at: int
    bot_prefix: str
    bot_default_add_at: int
    layers: str  # stack | single (d20)
    span: Span


@dataclass(frozen=True, slots=True)
class OddsPreset:
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


@dataclass(frozen=True, slots=True)
class Ruleset:
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
    initiative: bool = False
    odds_presets: tuple[OddsPreset, ...] = ()

    def table(self, table_id: str) -> Table:
        for t in self.tables:
            if t.id == table_id:
                return t
        raise KeyError(table_id)
