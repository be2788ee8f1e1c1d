"""Conditions beyond their turn-bound expiry: endings on what the holder takes, what follows an
expiry, and the turn a condition shortens (fight_conditions.py declares them; `Fight` calls these).

- `{takes: damage}` / `{takes: pain}` / `{takes: any_track}`: a condition ends when an action makes
  a counter of its holder grow, or gives it points on a track (any track): tracks' 专注中 ends when
  an attack contest deals damage or points during the concentrating action (TR-F18).
- `{state: awed}`: a condition ends when its holder is in a state (or counted as in it): 专注中
  ends on 震慑 (「专注检定默认失败」) and 昏迷 (TR-F10).
- `then:` what follows when a condition lapses by expiry (a turn or a round it was bound to): a
  condition set on its holder, or a state — dp's 以意志保持清醒 is followed by 昏迷 (DP-F15).
- `turn_pools: {time: 9}`: the most each pool of its holder's turn holds while it has the condition
  (the lowest of several): the surprise round's turns of three seconds (TR-F01), read by the turn
  budget (fight_budget.py).

Nothing here knows a ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, FrozenSet, List, Optional, Tuple

from .fight_conditions import Condition, ConditionSpec
from .fight_state import FightRules, Member, TurnSpec, clamp, get, line

if TYPE_CHECKING:
    from .fight import Fight

ANY_TRACK = "any_track"  # `takes:` points on any track


def taken(rules: FightRules, spec: ConditionSpec, before: Member, after: Member) -> str:
    """What `after` took since `before` that ends `spec` ("所受伤害+3"; "" when nothing did)."""
    for x in spec.ends:
        if x.kind != "takes":
            continue
        if x.stat in rules.counters:
            gained = get(after.counters, x.stat) - get(before.counters, x.stat)
            if gained > 0:
                return f"{rules.counters[x.stat]}+{gained}"
            continue
        for track, points in after.points:
            gained = points - get(before.points, track)
            if gained > 0 and (x.stat == ANY_TRACK or x.stat == track):
                return f"{rules.tracks.get(track, track)}+{gained}"
    return ""


def end_on_taking(rules: FightRules, before: Tuple[Member, ...], members: Dict[str, Member],
                  log: List[str]) -> None:
    """End, in `members` (the action's result so far), each condition its holder held before the
    action (not one the action set) whose holder took what ends it."""
    old = {m.name: m for m in before}
    for name, m in members.items():
        if not m.conditions or name not in old or not old[name].conditions:
            continue
        held = {(c.id, c.source) for c in old[name].conditions}
        kept = []
        for c in m.conditions:
            spec = rules.conditions[c.id]
            takes = (c.id, c.source) in held and any(x.kind == "takes" for x in spec.ends)
            why = taken(rules, spec, old[name], m) if takes else ""
            if why:
                log.append(line(f"{name}的{spec.name}结束（{why}）"))
            else:
                kept.append(c)
        if len(kept) != len(m.conditions):
            members[name] = m._replace(conditions=tuple(kept))


def states_of(fight: Any, m: Member) -> FrozenSet[str]:
    """The states `m` is in now: its own and those its conditions count it as being in."""
    rules: FightRules = fight.rules
    return frozenset((*m.states, *(s for c in fight._active(m) for s in rules.conditions[c.id].as_states)))


def settled(rules: FightRules, spec: ConditionSpec, stats: Any, states: FrozenSet[str]) -> Optional[str]:
    """Whether a `stat` or `state` ending of `spec` holds (a true/false stat is true, or the holder
    is in the state): None when none does, else what to say ("" for a stat, the state's name)."""
    for x in spec.ends:
        if x.kind == "stat" and getattr(stats, x.stat, False) is True:
            return ""
        if x.kind == "state" and x.stat in states:
            return rules.state_names.get(x.stat, x.stat)
    return None


def follow_lapsed(fight: "Fight", members: List[Member], lapsed: List[Tuple[int, Condition]],
                  log: List[str]) -> bool:
    """Set on each holder what follows its lapsed conditions (`then:`); `fight` is at the new turn.
    Whether anything followed (then a stat may have ended a relation: the caller settles)."""
    rules = fight.rules
    followed = False
    for i, c in lapsed:
        for kind, key in rules.conditions[c.id].then:
            m = members[i]
            if kind == "condition":
                members[i] = fight._set_condition(m, key, 1, "", i, -1, log)
            elif key not in m.states:
                members[i] = m._replace(states=tuple(sorted((*m.states, key))))
                log.append(line(f"{m.name}进入{rules.state_names.get(key, key)}"))
            followed = True
    return followed


def _from_stats(fight: Any, m: Member, turn: TurnSpec) -> TurnSpec:
    """`turn` with each pool held in a stat at `m`'s effective value of it, within 0 and the pool's most."""
    plain = not (m.modifiers or m.states or m.conditions or m.points or m.resources or fight.relations)
    stats = m.base if plain else fight._effective(m)
    return turn._replace(pools=tuple(p._replace(per_turn=clamp(int(getattr(stats, p.stat)), 0, p.per_turn))
                                     if p.stat else p for p in turn.pools))


def turn_for(fight: Any, m: Member) -> Optional[TurnSpec]:
    """What `m`'s turn holds now: the ruleset's turn, a pool held in a stat (d20's movement: its
    speed) at `m`'s effective value of it, each pool lowered to the least its active conditions'
    `turn_pools` allow (None without a turn budget)."""
    rules: FightRules = fight.rules
    turn = rules.turn
    if turn is None:
        return turn
    if turn.stat_pools:
        turn = _from_stats(fight, m, turn)
    if not (m.conditions or m.states or fight.relations):
        return turn
    low: Dict[str, int] = {}
    for c in fight._active(m):
        for pool, most in rules.conditions[c.id].turn_pools:
            low[pool] = min(most, low.get(pool, most))
    if not low:
        return turn
    return turn._replace(pools=tuple(p._replace(per_turn=min(p.per_turn, low[p.id])) if p.id in low else p
                                     for p in turn.pools))
