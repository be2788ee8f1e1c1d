"""The intermediate representation: rules data and procedures (`model`), typed formulas (`expr`)."""

from __future__ import annotations

from .model import (
    DiceExpr,
    Dice,
    Entry,
    EnumValue,
    ErrorType,
    FieldDecl,
    FieldValue,
    Formula,
    FormulaField,
    ConditionDecl,
    Effect,
    FightSpec,
    RelationDecl,
    TurnDecl,
    GAP_LACKS,
    Helper,
    NotModelled,
    OddsPreset,
    Output,
    Param,
    Plan,
    PreparedBody,
    Procedure,
    RuleRef,
    Ruleset,
    Ruling,
    Section,
    Stat,
    StatGroup,
    Step,
    Summary,
    Table,
    Template,
)

__all__ = [
    "Dice", "DiceExpr", "Entry", "EnumValue", "ErrorType", "FieldDecl", "FieldValue", "Formula", "FormulaField",
    "ConditionDecl", "Effect", "FightSpec", "GAP_LACKS", "RelationDecl", "TurnDecl", "Helper", "NotModelled", "OddsPreset", "Output", "Param", "Plan", "PreparedBody", "Procedure", "RuleRef", "Ruleset", "Ruling", "Section", "Stat",
    "StatGroup", "Step", "Summary", "Table", "Template",
]
