"""Initiative order (a ruleset feature: tracks R50): successes, then extras, re-rolling the tied."""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple

from .core import RuleError, bounded_list, check_int
from .pool import ADDED_DICE, PoolSpec, pool_sentence, roll_pool


def initiative_order(entries: Sequence[Tuple[str, int, int]], spec: PoolSpec, source: Any,
                     use_extras: bool = True, max_rerolls: int = 50, max_dice: int = 200,
                     max_entries: int = 1000, max_added: int = ADDED_DICE) -> Tuple[List[str], List[str]]:
    """Order combatants by initiative (tracks R50) and return (names in order, trace sentences).

    Each entry is (name, dice, extras). Sort by successes, then extras, both
    descending; only those still tied roll again, repeatedly, until the order is
    strict. Entries that can never break a tie (no dice, same extras) keep their
    given order after `max_rerolls` rounds. Every entry's dice must be within the ruleset's pool
    limit and there may be at most `max_entries` of them, and a roll adds at most `max_added` dice
    (LimitExceeded).
    """
    entries = bounded_list("先攻条目", entries, max_entries)
    for entry in entries:
        if not (isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[0], str)):
            raise RuleError(f"先攻条目应为（名称, 骰子数, 附加成功）：{entry!r}"[:200])
        check_int("先攻骰子数", entry[1], 0, max_dice)
        check_int("先攻附加成功", entry[2], -max_dice, max_dice)
    trace: List[str] = []

    def rank(group: List[Tuple[str, int, int]], depth: int) -> List[str]:
        rolled = []
        for name, dice, extras in group:
            roll = roll_pool(source, spec, dice, extras, False, max_added)
            trace.append(pool_sentence(f"{name}先攻" + (f"（第{depth + 1}次重掷）" if depth else ""), roll))
            rolled.append(((roll.successes, extras if use_extras else 0), (name, dice, extras)))
        rolled.sort(key=lambda item: (-item[0][0], -item[0][1]))
        order: List[str] = []
        i = 0
        while i < len(rolled):
            j = i
            while j < len(rolled) and rolled[j][0] == rolled[i][0]:
                j += 1
            tied = [entry for _, entry in rolled[i:j]]
            if len(tied) == 1:
                order.append(tied[0][0])
            elif depth >= max_rerolls:
                trace.append("仍然平手，保持给出的顺序：" + "、".join(e[0] for e in tied))
                order += [e[0] for e in tied]
            else:
                trace.append("平手，重新检定：" + "、".join(e[0] for e in tied))
                order += rank(tied, depth + 1)
            i = j
        return order

    return rank(entries, 0), trace
