"""The d20 engine: one d20, or with N net advantage (or disadvantage) layers N + 1 of them, keeping
the highest (or the lowest). How advantage and disadvantage combine is the `layers` setting:

* `stack` (R32): layers stack, net = A − D;
* `cancel` (5e): any advantage and any disadvantage together give a straight roll, net =
  (1 if A > 0) − (1 if D > 0);
* `single`: at most one extra die, keeping the sign of A − D.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..diagnostics import Span
from ..ir import Dice
from ..ir.expr import BOOL, INT, Binary, Compare, Cond, Const, Expr

KEY = "d20"
RUNTIME = ("d20",)
LIMITS = {"layers": 20, "damage_dice": 200, "odds_branches": 200_000}
# The most a ruleset may raise each limit to: the slowest call stays well under a second.
MAX_LIMITS = {"layers": 100, "damage_dice": 500, "odds_branches": 2_000_000}
LAYER_MODES = {"stack": "优势层数叠加：掷|优势−劣势|+1个d20取高或取低",
               "cancel": "任何优势与任何劣势同时存在时互相抵消，改为正常掷骰；否则多掷一个d20",
               "single": "优势与劣势相抵后至多多掷一个d20"}

SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["engine"],
    "properties": {
        "engine": {"const": "d20"},
        "name": {"$ref": "common.schema.json#/$defs/name"},
        "layers": {"enum": list(LAYER_MODES),
                   "description": "stack: |A-D|+1 dice (R32); cancel: any advantage and any disadvantage give a "
                                  "straight roll (5e); single: one extra die at most, by the sign of A-D."},
        "bot_prefix": {"type": "string", "maxLength": 10},
        "limits": {
            "type": "object", "additionalProperties": False,
            "description": "The most advantage or disadvantage layers a roll may have and dice one damage roll "
                           "may roll (the compiler proves every formula stays within them), and the most "
                           "outcomes an exact odds function may enumerate before it gives up (LimitExceeded).",
            "properties": {k: {"type": "integer", "minimum": 1, "maximum": MAX_LIMITS[k], "default": v}
                           for k, v in LIMITS.items()},
        },
    },
}

Report = Callable[[tuple[str, ...], str, str], None]


def lower(raw: dict[str, Any], span: Span, report: Report) -> Dice:
    settings: dict[str, int | str] = {"layers": raw.get("layers", "stack"), "bot_prefix": raw.get("bot_prefix", ".r")}
    return Dice(KEY, raw.get("name", "d20"), settings, {**LIMITS, **raw.get("limits", {})}, span)


def describe(d: Dice) -> str:
    mode = str(d.setting("layers"))
    others = "；".join(f"{k}：{v}" for k, v in LAYER_MODES.items() if k != mode)
    return (f"{d.name}：d20检定，{LAYER_MODES[mode]}；至多{d.limits['layers']}层。"
            f"骰子一节的 layers 可改为其他组合方式（{others}；cancel 即5e的规则）。")


def layers_expr(mode: str, advantage: Expr, disadvantage: Expr) -> Expr:
    """The net layers of a roll as an expression, by the engine's rule."""
    if mode == "stack":
        return Binary(INT, "-", advantage, disadvantage)
    if mode == "cancel":
        def one_if(x: Expr) -> Expr:
            return Cond(INT, Compare(BOOL, (">",), (x, Const(INT, 0))), Const(INT, 1), Const(INT, 0))
        return Binary(INT, "-", one_if(advantage), one_if(disadvantage))
    diff = Binary(INT, "-", advantage, disadvantage)
    return Cond(INT, Compare(BOOL, (">",), (diff, Const(INT, 0))), Const(INT, 1),
                Cond(INT, Compare(BOOL, ("<",), (diff, Const(INT, 0))), Const(INT, -1), Const(INT, 0)))
