"""Resources and lowered capacities: what a combatant spends and gets back across a fight.

A ruleset's `fight: resources:` (compiler: validate/fight_resources.py) declares each resource once:
its Chinese name, its starting amount (a number, or a whole-number stat of the combatant), its top
(the same), optionally the stat the procedures read as what is left (dp: 意志力, so `willpower_spend`
sees the pool as it stands), and optionally a condition set when it reaches 0 (`on_empty`, in force
when its ruling says so, cleared again when it is restored above 0 if `lifts`). Procedure effects
spend and restore it:

    effects:
      - {target: character, resource: willpower, spend: spent}
      - {target: shooter, resource: magazine, restore: reloaded}

An action that spends more than is left is refused (`Refused`, saying what is left), when resolved
and again when applied. A member keeps only the amounts that changed (`Member.resources`, sorted
pairs): an untouched resource is its starting amount, so a fight stored before it had resources
reads back the same.

A track's capacity can be lowered in the fight too (tracks: 困倦 shrinks by each missed long rest,
TR-F13): an effect `{target: creature, capacity: <outcome naming the track>, lower: <outcome>}` (or
`raise:`) keeps the loss per track (`Member.lowered`, 0 to the top the accumulation procedure
accepts), and the fight passes it to the accumulation and recovery procedures as their capacity
parameter (`FightRules.capacity_param`), so debuffs, states and the wake rule read the *current*
capacity. The procedures that take a track, its current points and its capacity loss get those two
from the fight when the caller leaves them out (`FightRules.track_inputs`: a long rest's recovery
reads the points the fight holds). Nothing here knows a ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Tuple

from .core import OutOfBounds
from .fight_conditions import Refused
from .fight_state import ActionSpec, Effect, FightRules, Member, ResourceSpec, clamp, get, line, put, resource_top

_NONE: Dict[str, int] = {}


def amount(rules: FightRules, m: Member, rid: str) -> int:
    """What `m` has left of resource `rid`: what it changed to, else its starting amount."""
    for k, v in m.resources:
        if k == rid:
            return v
    spec = rules.resources[rid]
    start = spec.start if type(spec.start) is int else int(getattr(m.base, spec.start))
    return clamp(start, 0, resource_top(spec, m.base))


def reflect(rules: FightRules, m: Member, values: Dict[str, Any]) -> None:
    """The stats the procedures read as what is left, set to it (within each stat's range)."""
    for rid, _ in m.resources:
        spec = rules.resources.get(rid)
        if spec is not None and spec.stat:
            _, lo, hi = rules.stats[spec.stat]
            values[spec.stat] = clamp(amount(rules, m, rid), lo, hi)


def capacity_kw(rules: FightRules, m: Member, track: str) -> Mapping[str, int]:
    """The accumulation and recovery procedures' capacity parameter for `track` (empty: not lowered)."""
    loss = get(m.lowered, track) if m.lowered else 0
    return {rules.capacity_param: loss} if loss and rules.capacity_param else _NONE


def spent(e: Effect, result: Any) -> int:
    """How much effect `e` spends or restores (a result field, or the number it names)."""
    return max(0, int(getattr(result, e.field)) if e.field else int(e.duration or 0))


def _refusal(rules: FightRules, m: Member, rid: str, wanted: int, what: str) -> Refused:
    spec = rules.resources[rid]
    return Refused(f"{m.name}的{spec.name}只剩{amount(rules, m, rid)}，不能再消耗{wanted}（{what}）", key="resource")


def refuse_spends(rules: FightRules, spec: ActionSpec, roles: Mapping[str, str], result: Any,
                  members: Mapping[str, Member]) -> Tuple[str, ...]:
    """What the action spends of each resource, one sentence each (for `action.applied`);
    `Refused` when it spends more than its holder has left."""
    wanted: Dict[Tuple[str, str], int] = {}
    for e in spec.effects:
        if e.kind == "resource" and e.sign < 0 and (not e.when or getattr(result, e.when)):
            key = (roles[e.role], e.key)
            wanted[key] = wanted.get(key, 0) + spent(e, result)
    said = []
    for (who, rid), n in wanted.items():
        left = amount(rules, members[who], rid)
        if n > left:
            raise _refusal(rules, members[who], rid, n, spec.name)
        if n:
            said.append(line(f"{who}消耗{rules.resources[rid].name}{n}（剩余{left - n}）"))
    return tuple(said)


def supplied(rules: FightRules, procedure: str, m: Member, options: Mapping[str, Any]) -> Dict[str, Any]:
    """The options the fight gives a procedure that reads a track's points and capacity loss: the
    subject's, on the track its option names, unless the caller gave them."""
    inputs = rules.track_inputs.get(procedure)
    if inputs is None:
        return _NONE
    track_param, points_param, loss_param, default = inputs
    track = options.get(track_param, default)
    track = getattr(track, "id", track)
    if type(track) is not str or track not in rules.tracks:
        return _NONE
    out: Dict[str, Any] = {}
    if points_param and points_param not in options:
        out[points_param] = get(m.points, track)
    if loss_param and loss_param not in options:
        out[loss_param] = get(m.lowered, track)
    return out


class Resources:
    """Resource and capacity effects, and what they show, for `Fight` (which provides the attributes)."""

    __slots__ = ()
    rules: FightRules
    members: Tuple[Member, ...]
    turn: int

    if TYPE_CHECKING:  # provided by Fight
        def member(self, name: str) -> Member: ...

        def _set_condition(self, m: Member, cid: str, value: int, source: str, holder: int, src: int,
                           log: List[str]) -> Member: ...

    def resource(self, name: str, rid: str) -> int:
        """What `name` has left of resource `rid`."""
        if type(rid) is not str or rid not in self.rules.resources:
            raise OutOfBounds("没有这个资源", key="resource")
        return amount(self.rules, self.member(name), rid)

    def _resource_effect(self, m: Member, e: Effect, result: Any, what: str, log: List[str]) -> Member:
        """`m` after a resource or capacity effect of an action named `what` (a sentence each)."""
        rules = self.rules
        if e.kind == "capacity":
            track = str(getattr(result, e.key) or "")
            n = spent(e, result)
            if not n or track not in rules.tracks:
                return m
            before = get(m.lowered, track)
            loss = clamp(before + n * -e.sign, 0, rules.lowered_max)
            if loss == before:
                return m
            log.append(line(f"{m.name}的{rules.tracks[track]}累积槽{before - loss:+d}（{what}，共降低{loss}）"))
            return m._replace(lowered=tuple(p for p in put(m.lowered, track, loss) if p[1]))
        spec = rules.resources[e.key]
        n = spent(e, result)
        if not n:
            return m
        before = amount(rules, m, e.key)
        most = resource_top(spec, m.base)
        if e.sign < 0 and n > before:
            raise _refusal(rules, m, e.key, n, what)
        after = before - n if e.sign < 0 else min(most, before + n)
        full = "，已满" if e.sign > 0 and before + n >= most else ""
        log.append(line(f"{m.name}的{spec.name}{after - before:+d}（{what}，剩余{after}{full}）"))
        m = m._replace(resources=put(m.resources, e.key, after))
        if spec.on_empty and spec.knocks:
            names = [x.name for x in self.members]
            has = any(c.id == spec.on_empty for c in m.conditions)
            spared = bool(e.other and getattr(result, e.other))
            if after == 0 and before > 0 and not has and not spared:
                log.append(line(f"{m.name}的{spec.name}已空"))
                m = self._set_condition(m, spec.on_empty, 1, "", names.index(m.name), -1, log)
            elif after > 0 and has and spec.lifts:
                m = m._replace(conditions=tuple(c for c in m.conditions if c.id != spec.on_empty))
                log.append(line(f"{m.name}的{rules.conditions[spec.on_empty].name}结束（{spec.name}恢复）"))
        return m


def shown(rules: FightRules, m: Member) -> List[str]:
    """What `m` has left of each resource and each lowered capacity, for `Fight.status`."""
    out = [f"{spec.name}{amount(rules, m, rid)}/{resource_top(spec, m.base)}" for rid, spec in rules.resources.items()
           if rid in dict(m.resources) or amount(rules, m, rid)]  # untouched and empty: not said
    out += [f"{rules.tracks.get(t, t)}累积槽-{v}" for t, v in m.lowered if v]
    return out


__all__ = ["ResourceSpec", "Resources", "amount", "capacity_kw", "reflect", "refuse_spends", "shown", "stored",
           "supplied"]


def stored(m: Member) -> Dict[str, Any]:
    """The keys `to_dict` adds for `m` (none when nothing changed)."""
    out: Dict[str, Any] = {}
    if m.resources:
        out["resources"] = dict(m.resources)
    if m.lowered:
        out["lowered"] = dict(m.lowered)
    return out
