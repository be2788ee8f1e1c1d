"""The intermediate representation: rules data and procedures (`model`), the fight state and declared
gaps (`fight`), typed formulas (`expr`)."""

from __future__ import annotations

from .fight import GAP_LACKS, CheckUse, ConditionDecl, Effect, FightSpec, NotModelled, RelationDecl, ResourceDecl, TurnDecl
from .model import (
    DiceExpr,
    Dice,
    Entry,
    entry_id,
    EnumValue,
    ErrorType,
    FieldDecl,
    FieldValue,
    Formula,
    FormulaField,
    Helper,
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
    "CheckUse", "ConditionDecl", "Effect", "FightSpec", "GAP_LACKS", "RelationDecl", "ResourceDecl", "TurnDecl", "Helper", "NotModelled", "OddsPreset", "Output", "Param", "Plan", "PreparedBody", "Procedure", "RuleRef", "Ruleset", "Ruling", "Section", "Stat",
    "StatGroup", "Step", "Summary", "Table", "Template", "entry_id",
]
