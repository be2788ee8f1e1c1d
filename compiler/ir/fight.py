"""The fight part of the IR: the state a ruleset's combatants carry through a fight (`FightSpec`, the
manifest's `fight:` with its conditions and relations) and the effects a procedure declares on it;
the sub-rules of the source no procedure computes (`NotModelled`, with `GAP_LACKS`). Frozen and
tuple-only, like the rest of the IR (model.py)."""

from __future__ import annotations

from ..diagnostics import Span
from ..record import Record


class Effect(Record, frozen=True):
    """A declared effect of a procedure's result on the fight state (see runtime/fight.py Effect)."""

    kind: str  # counter track modifier state relation condition clear resource capacity
    role: str
    key: str
    field: str
    sign: int
    duration: str
    when: str
    other: str
    span: Span


class CheckUse(Record, frozen=True):
    """A check a procedure rolls, of one of the fight's kinds of check (validate/checks.py): the
    role that rolls it, the whole-number parameter a debuff's penalty goes to, and the option
    values (param, value, whether the param's default is that value) for which it is this kind."""

    check: str
    role: str
    lowers: str
    when: tuple[tuple[str, str | int | bool, bool], ...] = ()


class ConditionDecl(Record, frozen=True):
    """A condition of the fight (the manifest's `fight: conditions:`; runtime/fight_conditions.py
    interprets it, with runtime/fight_events.py). Scopes are (procedures, role, source_role, when);
    endings are (kind, of, nth, scope, stat) as `fight_conditions.Ending`."""

    id: str
    name: str
    description: str
    rules: tuple[str, ...]
    sets: tuple[tuple[str, bool], ...]
    adds: tuple[tuple[str, int], ...]
    options: tuple[tuple[str, bool | int | str], ...]
    applies: tuple[tuple[str, ...], str, str, str]
    forbids: tuple[str, ...]
    forbids_actions: tuple[tuple[str, str], ...]
    ends: tuple[tuple[str, str, int, tuple[tuple[str, ...], str, str, str], str], ...]
    max_value: int
    stack: str
    span: Span
    as_states: tuple[str, ...] = ()  # states of the fight's states table its holder counts as being in
    then: tuple[tuple[str, str], ...] = ()  # what follows its expiry: ("condition" | "state", id)
    turn_pools: tuple[tuple[str, int], ...] = ()  # (pool of the turn, the most it holds for the holder)


class RelationDecl(Record, frozen=True):
    """What a relation of the fight gives and what ends it (the manifest's `fight: relations:`)."""

    id: str
    held: str
    holder: str
    ends_holder: tuple[str, ...]
    ends_held: tuple[str, ...]
    rules: tuple[str, ...]
    clears: tuple[str, ...] = ()
    ends_if_held_by: tuple[str, ...] = ()  # relations in which the held party holding the holder ends it


Cost = tuple[tuple[str, int], ...]  # (pool, amount), sorted by pool


class TurnDecl(Record, frozen=True):
    """What a turn holds and what each kind of action costs (the manifest's `fight: turn:`;
    runtime/fight_budget.py interprets it). Pools are (id, name, per_turn, unit, per_unit, stat: the
    whole-number stat it holds each turn, per_turn then its most; "" for a fixed amount); kinds
    are (action kind, own alternatives, off-turn alternatives, taken from the next turn)."""

    pools: tuple[tuple[str, str, int, str, int, str], ...]
    kinds: tuple[tuple[str, tuple[Cost, ...], tuple[Cost, ...], Cost], ...]
    ruling: str  # the true/false ruling that refuses what does not fit ("" : always refuse)
    refuse: bool
    ready: tuple[Cost, ...]
    owes: bool
    rules: tuple[str, ...]
    description: str
    span: Span
    names: tuple[tuple[str, str], ...] = ()  # action kind -> this ruleset's name for it (when declared)


class ResourceDecl(Record, frozen=True):
    """A resource of the fight (the manifest's `fight: resources:`; runtime/fight_resources.py
    spends it). `start` and `top` are a whole number or a whole-number stat's id."""

    id: str
    name: str
    description: str
    start: int | str
    top: int | str
    stat: str  # the stat the procedures read as what is left ("" none)
    on_empty: str  # the condition set when it reaches 0 ("" none)
    ruling: str  # the true/false ruling that puts on_empty in force ("" always)
    knocks: bool  # on_empty in force (the ruling's value)
    lifts: bool  # on_empty ends when it is restored above 0
    rules: tuple[str, ...]
    span: Span


class FightSpec(Record, frozen=True):
    """The state a combatant carries through a fight (the manifest's `fight:`)."""

    counters: tuple[tuple[str, str], ...]
    tracks: str | None
    accumulate: str | None
    states: str | None
    state_stats: tuple[tuple[str, tuple[str, ...]], ...]  # (flag field of the states table, stats)
    relations: tuple[tuple[str, str], ...]
    span: Span
    on_damage: tuple[str, str] | None = None  # (counter, procedure): a recovery rule over the state
    debuffs: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (track, stats its debuff lowers)
    conditions: tuple[ConditionDecl, ...] = ()
    relation_rules: tuple[RelationDecl, ...] = ()
    checks: tuple[tuple[str, str], ...] = ()  # the kinds of check: (id, name)
    debuff_checks: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (track, kinds of check its debuff lowers)
    turn: TurnDecl | None = None
    wake_tracks: tuple[str, ...] = ()  # tracks whose points gained count as taken by the on_damage rule
    state_spared: tuple[tuple[str, str], ...] = ()  # (flag of the states table, true/false stat that spares it)
    resources: tuple[ResourceDecl, ...] = ()
    track_inputs: tuple[str, str] = ("", "")  # the params the fight supplies: (track's points, capacity loss)


class NotModelled(Record, frozen=True):
    """A sub-rule of the source that no procedure computes (declared, so the gap is not silent)."""

    rules: tuple[str, ...]
    what: str
    reason: str
    span: Span
    lacks: str = "no_number"  # what the ruleset lacks to compute it: a key of GAP_LACKS (validate/gaps.py)
    needs: str = ""  # the id of what is lacking (a relation, state, track, helper or fight facility)


# The closed vocabulary of what a declared gap lacks, with the words the page shows.
GAP_LACKS: dict[str, str] = {
    "no_number": "原文没有数值",
    "referee": "原文交由主持人裁定",
    "limit": "本流程输入的范围",
    "relation": "缺少战斗关系",
    "condition": "缺少状态",
    "track": "缺少累积槽",
    "geometry": "缺少几何函数",
    "state_across_actions": "需要跨行动的战斗机制",
}
