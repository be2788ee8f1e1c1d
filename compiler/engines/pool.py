"""The success-counting pool engine (the `.ww` family of the dice bots, R1): sides, a success
threshold and an add-die threshold, with added dice adding again."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..diagnostics import Span
from ..ir import Dice
from ..runtime.odds import TAIL
from ..runtime.pool import ADDED_DICE
from ..messages import say

KEY = "pool"
RUNTIME = ("pool",)
LIMITS = {"pool_dice": 200, "pool_rolls": 1000, "damage_dice": 200, "odds_branches": 200_000,
          "added_dice": ADDED_DICE}
# The most a ruleset may raise each limit to: the slowest call stays well under a second.
MAX_LIMITS = {"pool_dice": 1000, "pool_rolls": 10000, "damage_dice": 500, "odds_branches": 2_000_000,
              "added_dice": 10000}

SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["engine", "sides", "success_at", "add_die_at"],
    "properties": {
        "engine": {"const": "pool"},
        "name": {"$ref": "common.schema.json#/$defs/name"},
        "sides": {"type": "integer", "minimum": 2, "maximum": 100},
        "success_at": {"type": "integer", "minimum": 1, "maximum": 100,
                       "description": "A die showing this or more is a success."},
        "add_die_at": {"type": "integer", "minimum": 0, "maximum": 100,
                       "description": "A die showing this or more adds one die (0: never)."},
        "bot_prefix": {"type": "string", "maxLength": 10, "description": "Dice-bot command prefix, e.g. .ww"},
        "bot_default_add_die_at": {"type": "integer", "minimum": 0, "maximum": 100},
        "limits": {
            "type": "object", "additionalProperties": False,
            "description": "The most dice one pool may roll, rolls one pool_count step may make and dice one "
                           "damage roll may roll (the compiler proves every formula stays within them), the "
                           "most outcomes an exact odds function may enumerate before it gives up (LimitExceeded), "
                           "and the most dice one pool may add (added_dice: past it the roll stops with "
                           "LimitExceeded; the compiler checks fair dice pass it with probability at most 1e-16 "
                           "for a pool of pool_dice dice, so only a dice source that is not random reaches it).",
            "properties": {k: {"type": "integer", "minimum": 1, "maximum": MAX_LIMITS[k], "default": v}
                           for k, v in LIMITS.items()},
        },
        "rulings": {"$ref": "common.schema.json#/$defs/rule_ids"},
    },
}

Report = Callable[[tuple[str, ...], str, str], None]


def lower(raw: dict[str, Any], span: Span, report: Report) -> Dice:
    sides, s_at, a_at = raw["sides"], raw["success_at"], raw["add_die_at"]
    if s_at > sides:
        report(("success_at",), "bad-dice", say("pool.success-at-more-than", s_at=s_at, sides=sides))
    if a_at == 1:
        report(("add_die_at",), "bad-dice", say("pool.add-die-at-1"))
    if a_at > sides:
        report(("add_die_at",), "bad-dice", say("pool.add-die-at-more", a_at=a_at, sides=sides))
    elif a_at > 1 and (sides - a_at + 1) * 4 > sides * 3:
        report(("add_die_at",), "bad-dice", say("pool.add-die-at-adds", a_at=a_at, number=sides - a_at + 1, sides=sides))
    limits = {**LIMITS, **raw.get("limits", {})}
    if 1 < a_at <= sides:
        needed = added_dice_needed(limits["pool_dice"], (sides - a_at + 1) / sides)
        if limits["added_dice"] < needed:
            report(("limits", "added_dice"), "bad-dice",
                   say("pool.added-dice-too-low", added_dice=limits['added_dice'], pool_dice=limits['pool_dice'], tail=TAIL, needed=needed))
    settings: dict[str, int | str] = {
        "sides": sides, "success_at": s_at, "add_at_raw": a_at, "add_at": a_at if a_at > 0 else sides + 1,
        "bot_prefix": raw.get("bot_prefix", ".ww"), "bot_default_add_at": raw.get("bot_default_add_die_at", 10)}
    return Dice(KEY, raw.get("name", "骰池"), settings, limits, span)


def added_tail(dice: int, add: float, limit: int) -> float:
    """P(a pool of `dice` fair dice adds more than `limit` dice), each die adding with probability
    `add`: the added dice are negative-binomial, P(k) = C(dice+k-1, k) add^k (1-add)^dice. A
    limit at or below the mean gives 1.0 (an upper bound: such a limit is far from any tail)."""
    if dice <= 0 or add <= 0.0:
        return 0.0
    if add >= 1.0 or limit + 1 <= dice * add / (1.0 - add):  # at or below the mean: far from small
        return 1.0
    k = limit + 1
    log_p = (math.lgamma(dice + k) - math.lgamma(k + 1) - math.lgamma(dice) + k * math.log(add)
             + dice * math.log1p(-add))
    term, total = math.exp(log_p), 0.0
    for _ in range(1_000_000):
        total += term
        ratio = (dice + k) / (k + 1) * add  # P(k + 1) / P(k), falling as k grows
        term *= ratio
        k += 1
        if ratio < 1.0 and term / (1.0 - ratio) <= total * 1e-9:
            total += term / (1.0 - ratio)  # the rest is at most this: an upper bound, never below
            break
    return min(total, 1.0)


def added_dice_needed(dice: int, add: float) -> int:
    """The least added_dice that fair dice pass with probability at most TAIL (odds.py's tail)."""
    lo, hi = 0, MAX_LIMITS["added_dice"] * 4
    while lo < hi:
        mid = (lo + hi) // 2
        if added_tail(dice, add, mid) <= TAIL:
            hi = mid
        else:
            lo = mid + 1
    return lo


def describe(d: Dice) -> str:
    add = f"骰面≥{d.setting('add_at_raw')}时加骰一枚（加骰可连锁）" if d.setting("add_at_raw") else "不加骰"
    return (f"{d.name}：d{d.setting('sides')}骰池，骰面≥{d.setting('success_at')}为成功，{add}；"
            f"掷骰指令形如 {d.setting('bot_prefix')}8+5（8个骰子、5个附加成功）。"
            f"每个骰池至多{d.limits['pool_dice']}个骰子、至多加骰{d.limits['added_dice']}个"
            f"（公平的骰子超过它的概率低于10⁻¹⁶），每步至多连续检定{d.limits['pool_rolls']}次。")
