"""The checks a track's debuff lowers (tracks TR-60..TR-70: 「对应部位进行的感知检定」,
「意志与智力检定」): the debuff lowers *checks* of declared kinds, not the stat they use.

A procedure declares each check it rolls (`CheckUse`: its kind, the role that rolls it, the
whole-number parameter that takes the penalty and, when the kind depends on an option, the option
values for which it is this kind). `check_penalties` gives, for one action, the penalty of each
such parameter — the sum of the rolling combatant's debuffs on that kind, within the parameter's
top — and a sentence for each debuff that applied. A value the caller passes itself wins.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Tuple

from .fight_state import line


class CheckUse(NamedTuple):
    check: str  # the kind of check (the ruleset's fight: checks:)
    role: str  # the combatant role that rolls it
    lowers: str  # the whole-number parameter (from 0) the penalty goes to
    top: int  # that parameter's max: the penalty saturates there
    when: Tuple[Tuple[str, Tuple[Any, ...], bool], ...] = ()  # (option, values that match, default matches)


def _matches(options: Mapping[str, Any], param: str, values: Tuple[Any, ...], default: bool) -> bool:
    if param not in options:
        return default
    given = options[param]
    if isinstance(given, (str, int)):  # an id, a Chinese name, a number or a flag
        return any(type(given) is type(v) and given == v for v in values)
    return getattr(given, "id", None) in values  # a table entry


def check_penalties(rules: Any, checks: Tuple[CheckUse, ...], roles: Mapping[str, str],
                    amounts: Callable[[str], Tuple[Tuple[str, int], ...]],
                    options: Mapping[str, Any]) -> Tuple[Dict[str, int], List[str]]:
    """(parameter -> penalty, sentences) for the checks an action rolls: `amounts(name)` is the
    (track, amount) of each debuff `name` suffers now."""
    penalties: Dict[str, int] = {}
    said: List[str] = []
    for use in checks:
        if use.lowers in options or not all(_matches(options, p, v, d) for p, v, d in use.when):
            continue
        name = roles[use.role]
        for track, amount in amounts(name):
            if amount > 0 and use.check in rules.track_debuff_checks.get(track, ()):
                before = penalties.get(use.lowers, 0)
                penalties[use.lowers] = min(use.top, before + amount)
                top = f"，已达上限{use.top}" if before + amount > use.top else ""
                said.append(line(f"{name}的{rules.tracks.get(track, track)}减益："
                                 f"{rules.check_names.get(use.check, use.check)}-{amount}{top}"))
    return penalties, said


def lowered_checks(rules: Any, amounts: Tuple[Tuple[str, int], ...], name: str) -> List[str]:
    """A sentence for each debuff `name` suffers that lowers kinds of check."""
    out = []
    for track, amount in amounts:
        kinds = [rules.check_names.get(k, k) for k in rules.track_debuff_checks.get(track, ())]
        if kinds:
            out.append(line(f"{name}的{rules.tracks.get(track, track)}减益：{'、'.join(kinds)}-{amount}"))
    return out
