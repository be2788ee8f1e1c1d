"""Conditions: what a combatant carries from one action into later ones, declared once as data.

A ruleset's `fight: conditions:` (compiler: validate/fight_conditions.py) declares each condition
the way Foundry's Active Effects declare an effect: what it changes while it applies (true/false
stats it sets, whole-number stats it adds to per point of its value, procedure options it supplies
to the role its holder plays), when it applies (some procedures only, a role of the holder, only
against the combatant that caused it), what it forbids (procedures,
or kinds of action), and when it ends: at the start or end of someone's turn, after rounds, once
used, when its holder plays a role in given procedures (an outcome may gate it), or when a
true/false stat of its holder becomes true. A relation may give its held party a condition for as
long as it lasts, and ends when a stat of either party becomes true.

The fight keeps each condition as a `Condition` (id, value, source, expiry turn); this module holds
the pure functions that decide what applies and what ends. Nothing here knows a ruleset.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

from .core import RuleError

# the endings a turn or round ends (each becomes the condition's expiry turn when it is set)
TURN_BOUND = ("turn_start", "turn_end", "next_turn_end", "rounds", "round_end")

# the kinds of action a procedure may declare (`action:`), and the natures (`nature:`)
ACTIONS = ("standard", "move", "swift", "free", "reflex", "full_round", "bonus")
ACTION_NAMES = {"standard": "标准动作", "move": "移动动作", "swift": "迅捷动作", "free": "自由动作",
                "reflex": "反射动作", "full_round": "整轮动作", "bonus": "附赠动作", "": "动作"}
NATURE_NAMES = {"physical": "物理", "mental": "精神", "": ""}


class Scope(NamedTuple):
    """When a condition applies (or an event matches): every part empty = always."""

    procedures: Tuple[str, ...] = ()  # only in these procedures
    role: str = ""  # only while the holder plays this role
    source_role: str = ""  # only while the condition's source plays this role (the same action)
    when: str = ""  # events only: a true/false outcome of the action that must be true


class Refused(RuleError):
    """An action its actor's conditions forbid (the message says which condition and what)."""

    code = "refused"


class Ending(NamedTuple):
    """One way a condition ends. kind: "turn_start"/"turn_end" (of `of`: "holder" or "source", the
    `count`-th one from when it was set, the current turn counting), "next_turn_end" (the end of
    `of`'s `nth` turn that begins after now: the current one not counting), "rounds" (`nth` rounds),
    "round_end" (the end of the `nth` round, the current one counting), "used" (once it applied to
    an action), "acts" (its holder acts as `scope` says), "stat" (a true/false stat `stat` of its
    holder becomes true), "state" (its holder is in state `stat`, or counted as in it), "takes"
    (its holder's counter `stat` grows, or it gains points on track `stat`, or on any track when
    `stat` is "any_track": fight_events.py)."""

    kind: str
    of: str = "holder"
    nth: int = 1
    scope: Scope = Scope()
    stat: str = ""


class ConditionSpec(NamedTuple):
    name: str
    sets: Tuple[Tuple[str, bool], ...] = ()  # true/false stats it sets
    adds: Tuple[Tuple[str, int], ...] = ()  # whole-number stats: amount per point of value
    options: Tuple[Tuple[str, Any], ...] = ()  # procedure parameter -> value (the string "value": its value)
    applies: Scope = Scope()
    forbids: Tuple[str, ...] = ()  # procedure ids its holder cannot act in (as the first role)
    forbids_actions: Tuple[Tuple[str, str], ...] = ()  # (action kind, nature); "" = any
    ends: Tuple[Ending, ...] = ()
    max_value: int = 1_000_000_000  # a value added to past this is kept at it
    stack: str = "replace"  # set again from the same source: "replace" the value or "add" to it
    rules: Tuple[str, ...] = ()
    as_states: Tuple[str, ...] = ()  # states its holder counts as being in (their stats taken, their forbids)
    then: Tuple[Tuple[str, str], ...] = ()  # on expiry: ("condition", id) set on its holder, or ("state", id)
    turn_pools: Tuple[Tuple[str, int], ...] = ()  # (pool, amount its holder's turn holds at most): fight_budget


class RelationSpec(NamedTuple):
    name: str
    held: str = ""  # the condition its held party has while it lasts ("" none)
    holder: str = ""  # the condition its holder has while it lasts
    ends_holder: Tuple[str, ...] = ()  # true/false stats of the holder that end it
    ends_held: Tuple[str, ...] = ()  # ... of the held party
    clears: Tuple[str, ...] = ()  # conditions of the held party (from its holder) that end with it
    ends_if_held_by: Tuple[str, ...] = ()  # relations in which the held party holding the holder ends it


class Condition(NamedTuple):
    id: str
    value: int
    source: str  # the combatant whose action set it ("" none)
    expires: int  # the absolute turn at whose start it lapses (-1: no turn ends it)


def matches(scope: Scope, procedure: str, holder_role: Optional[str], source_role: Optional[str]) -> bool:
    """Whether an action (its procedure, the role the holder plays, the role the source plays)
    falls in `scope` (an event's `when` outcome is checked by the caller)."""
    if scope.procedures and procedure not in scope.procedures:
        return False
    if scope.role and holder_role != scope.role:
        return False
    if scope.source_role and source_role != scope.source_role:
        return False
    return True


def expiry(ending: Ending, turn: int, n: int, holder: int, source: int) -> int:
    """The absolute turn at whose start a turn-bound ending lapses, for a condition set during
    `turn` (n members; `holder`/`source` are member indices, source -1 when none)."""
    if ending.kind == "rounds":
        return turn + ending.nth * n
    if ending.kind == "round_end":  # the start of the round after the nth (this one counting)
        return (turn // n + ending.nth) * n
    who = source if ending.of == "source" and source >= 0 else holder
    if ending.kind in ("turn_start", "next_turn_end"):  # the nth start of who's turn after now (or its end)
        return turn + 1 + (who - turn - 1) % n + (ending.nth - 1) * n + int(ending.kind == "next_turn_end")
    first = turn + (who - turn) % n  # turn_end: the nth end of who's turn, this one counting
    return first + (ending.nth - 1) * n + 1


def forbidding(spec: ConditionSpec, procedure: str, action: str, nature: str) -> str:
    """The words of what `spec` forbids this action ("" when it does not)."""
    if procedure in spec.forbids:
        return "这个行动"
    if not action:  # not declared as an action of a turn (a rule applied to someone): never refused
        return ""
    for kind, what in spec.forbids_actions:
        if (not kind or kind == action) and (not what or what == nature):
            return f"{NATURE_NAMES.get(nature, '')}{ACTION_NAMES.get(action, '动作')}"
    return ""


def forbids_text(spec: ConditionSpec, procedure_names: Any) -> str:
    """What `spec` forbids, in words ("不能进行物理标准动作、物理移动动作"; "" when nothing)."""
    parts = []
    for kind, what in spec.forbids_actions:
        parts.append(f"{NATURE_NAMES.get(what, '')}{ACTION_NAMES.get(kind, '动作')}" if kind or what else "任何行动")
    parts += [str(procedure_names.get(p, p)) for p in spec.forbids]
    return f"不能进行{'、'.join(dict.fromkeys(parts))}" if parts else ""
