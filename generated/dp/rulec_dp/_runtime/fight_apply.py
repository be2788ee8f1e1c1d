"""The applying side of a fight (`Fight` inherits it): an `Action` as `Fight.resolve` returns it, and
what changes the fight — `Fight.apply(action)` applies the procedure's declared effects (counters,
track points and the states they cause, modifiers, states, conditions, resources, relations) and
says each change in a sentence; `Fight.next_turn()` advances the turn and lets modifiers and
conditions lapse. Each returns a new fight: nothing is mutated.

Every value stays within its declared range (`fight_state.py`): `apply` saturates points at the
top the accumulation procedure accepts and counters at `MAX_VALUE`, and says each saturation.
"""

from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, NamedTuple, Optional, Set, Tuple

from .core import OutOfBounds, described
from .fight_budget import Plan
from .fight_conditions import Condition
from .fight_events import end_on_taking, follow_lapsed
from .fight_resources import capacity_kw
from .fight_state import (MAX_LOG_LINE, MAX_TURN, MAX_VALUE, ActionSpec, Effect, FightRules, Member,
                          Modifier, clamp, get, line, put)
from .sources import FixedDice

if TYPE_CHECKING:
    from .fight import Fight

_NO_DICE = FixedDice(())  # the accumulation rule rolls nothing: a roll would be DiceExhausted, never a hang


class Action(NamedTuple):
    """A resolved action of a fight: which procedure, who played which role, its result, and the
    state that changed the stats it was resolved with (one sentence each)."""

    procedure: str
    roles: Tuple[Tuple[str, str], ...]  # (role, combatant name)
    result: Any
    applied: Tuple[str, ...] = ()
    used: Tuple[Tuple[str, str, str], ...] = ()  # (holder, condition, source) the action used up
    plan: Optional[Plan] = None  # what it costs its actor's turn (fight_budget.py; None: no budget)

    def text(self, gm: bool = False) -> str:
        """The sentences of the state that applied, then the result's trace."""
        return "\n".join([*self.applied, self.result.text(gm)])


class Applying:
    """`apply` and `next_turn` for `Fight` (which provides the attributes and
    methods below)."""

    __slots__ = ()
    rules: FightRules
    members: Tuple[Member, ...]
    turn: int
    relations: Tuple[Tuple[str, str, str], ...]

    if TYPE_CHECKING:  # provided by Fight
        def _with(self, members: Optional[Tuple[Member, ...]] = None, turn: Optional[int] = None,
                  relations: Optional[Tuple[Tuple[str, str, str], ...]] = None,
                  log: Optional[Tuple[str, ...]] = None, added: Optional[List[str]] = None) -> "Fight": ...

        def _end_used(self, action: Action, spec: ActionSpec, members: Dict[str, Member], log: List[str]) -> None: ...

        def _spend(self, m: Member, plan: Optional[Plan], log: List[str]) -> Member: ...

        def _recover(self, m: Member, taken: int, log: List[str]) -> Member: ...

        def _undebuffed(self, m: Member) -> Any: ...

        @staticmethod
        def _modify(m: Member, new: Modifier, log: List[str]) -> Member: ...

        def _set_condition(self, m: Member, cid: str, value: int, source: str, holder: int, src: int,
                           log: List[str]) -> Member: ...

        def _resource_effect(self, m: Member, e: Effect, result: Any, what: str, log: List[str]) -> Member: ...

        def _next(self, members: Tuple[Member, ...], added: List[str]) -> "Fight": ...

        def _settle(self, log: List[str], before: Tuple[Tuple[str, str, str], ...] = ()) -> "Fight": ...

        def _new_turn(self, members: List[Member], turn: int, log: List[str]) -> None: ...

    def apply(self, action: Action) -> "Fight":
        """A new fight with the action's declared effects applied (a sentence for each change)."""
        spec = self.rules.actions.get(action.procedure) if type(action) is Action and type(action.procedure) is str \
            else None
        if spec is None:
            raise OutOfBounds("只能应用本场战斗 resolve() 得到的行动", key="action")
        try:
            return self._apply(action, spec, dict(action.roles))
        except (TypeError, ValueError, AttributeError, KeyError, IndexError, ArithmeticError) as exc:
            # Only an action changed after resolve() gets here (`_replace` on it or on its result: a
            # role, an outcome or a plan of the wrong kind); the JS runtime refuses any action its
            # fights did not resolve (a WeakSet), which a tuple cannot be kept in.
            raise OutOfBounds("只能应用本场战斗 resolve() 得到的行动（这个行动在结算后被改动过）",
                              key="action") from exc

    def _apply(self, action: Action, spec: ActionSpec, roles: Mapping[str, str], resolved: bool = False) -> "Fight":
        rules = self.rules
        result = action.result
        own = self.members
        members = dict(zip(map(_NAME, own), own))
        if not resolved and not all(map(members.__contains__, roles.values())):  # act's are checked
            name = next(x for x in roles.values() if x not in members)
            raise OutOfBounds(f"战斗中没有{described(name)}", key=name)
        # whether anyone may hold a condition after it (one holds one now, or an effect below adds
        # one: `conditioned` is set where one can), and whether a role holds one the action may use up or end
        conditioned = any(map(_CONDITIONS, own))
        holding = conditioned and any(members[x].conditions for x in roles.values())
        relations: Optional[Set[Tuple[str, str, str]]] = None  # made by the first relation effect
        log: List[str] = []
        n = len(self.members)
        if holding:
            self._end_used(action, spec, members, log)
        if action.plan is not None:
            members[action.plan.name] = self._spend(members[action.plan.name], action.plan, log)
        for e in spec.effects:
            kind, role, ekey, field, sign, duration, when, other = e
            if when and not getattr(result, when):
                continue
            who = roles[role]
            m = members[who]
            if field:
                amount = getattr(result, field) * sign
                if type(amount) is not int:
                    amount = int(getattr(result, field)) * sign
            else:
                amount = 0
            if kind == "counter":
                if amount == 0:
                    continue
                ckey, pairs = ekey, m[2]  # counters
                alone = not pairs or len(pairs) == 1 and pairs[0][0] == ckey  # the common case, without put()
                total = (pairs[0][1] if pairs else 0) + amount if alone else get(pairs, ckey) + amount
                top = ""
                if not -MAX_VALUE < total < MAX_VALUE:
                    total = clamp(total, -MAX_VALUE, MAX_VALUE)
                    top = "，已达上限"
                m = _tuple_new(Member, (m[0], m[1], ((ckey, total),) if alone else put(pairs, ckey, total), *m[3:]))
                said = f"{who}的{rules.counters[ckey]}{amount:+d}（共{total}{top}）"
                log.append(said if len(said) <= MAX_LOG_LINE else line(said))
                if amount > 0 and m.states and rules.on_damage is not None and rules.on_damage[0] == ckey:
                    m = self._recover(m, amount if amount < rules.taken_max else rules.taken_max, log)
                members[who] = m
            elif kind == "track":
                track = getattr(result, ekey)
                if not track or amount == 0:
                    continue
                if type(track) is not str:
                    track = str(track)
                if track not in rules.tracks:
                    continue
                pairs = m[3]  # points
                alone = not pairs or len(pairs) == 1 and pairs[0][0] == track
                before = (pairs[0][1] if pairs else 0) if alone else get(pairs, track)
                # saturate at the top the accumulation procedure accepts: every later action still resolves
                total = before + amount
                top = ""
                if not 0 <= total <= rules.points_max:
                    if total > rules.points_max:
                        top = f"，已达上限{rules.points_max}"
                    total = clamp(total, 0, rules.points_max)
                m = _tuple_new(Member, (m[0], m[1], m[2], ((track, total),) if alone else put(pairs, track, total),
                                        *m[4:]))
                said = f"{who}的{rules.tracks[track]}{amount:+d}（共{total}{top}）"
                log.append(said if len(said) <= MAX_LOG_LINE else line(said))
                if rules.accumulate is not None:
                    plain = (self._undebuffed(m) if m.modifiers or m.states or m.conditions or self.relations
                             or m.resources else m.base)  # _effective(m, debuffs=False)
                    low, gain = (before, total - before) if before < total else (total, 0)
                    out = (rules.accumulate(plain, track, current=low, gained=gain, dice=_NO_DICE,
                                            **capacity_kw(rules, m, track)) if m.lowered
                           else rules.accumulate(plain, track, current=low, gained=gain, dice=_NO_DICE))
                    state = out[rules.state_index] or ""
                    if type(state) is not str:
                        state = str(state)
                    if state and state not in m.states:
                        m = m._replace(states=tuple(sorted((*m.states, state))))
                        log.append(line(f"{who}进入{rules.state_names.get(state, state)}"))
                    elif total < before and not state and rules.track_states.get(track) in m.states:
                        gone = rules.track_states[track]  # recovered below the state's threshold (TR-F14)
                        m = m._replace(states=tuple(s for s in m.states if s != gone))
                        log.append(line(f"{who}的{rules.state_names.get(gone, gone)}解除"))
                if m.states and total > before and track in rules.wake_tracks and rules.on_damage is not None:
                    # pain wakes as damage does
                    m = self._recover(m, total - before if total - before < rules.taken_max else rules.taken_max, log)
                members[who] = m
            elif kind == "modifier":
                if amount == 0:
                    continue
                index = [x.name for x in self.members].index(who)
                if duration == "next_turn":
                    expires = self.turn + 1 + (index - self.turn - 1) % n
                elif duration.startswith("rounds:"):
                    expires = self.turn + int(duration[7:]) * n
                else:
                    expires = -1
                members[who] = m = self._modify(m, Modifier(ekey, amount, min(expires, MAX_VALUE), spec.name), log)
                until = {"next_turn": "，直到其下一回合开始"}.get(duration, "")
                log.append(line(f"{who}的{self.rules.stats[ekey][0]}{amount:+d}（{spec.name}{until}）"))
            elif kind == "state":
                if ekey not in m.states:
                    members[who] = m._replace(states=tuple(sorted((*m.states, ekey))))
                    log.append(line(f"{who}进入{self.rules.state_names.get(ekey, ekey)}"))
            elif kind == "condition":
                value = amount if field else 1
                source = roles.get(other, "") if other else ""
                names = [x.name for x in self.members]
                conditioned = True
                members[who] = self._set_condition(m, ekey, value, source, names.index(who),
                                                   names.index(source) if source else -1, log)
            elif kind == "clear":  # on the target, or on everyone (duration "everyone")
                for name in (list(members) if duration == "everyone" else (who,)):
                    m = members[name]
                    kept = tuple(c for c in m.conditions if c.id != ekey)
                    if kept != m.conditions:
                        members[name] = m._replace(conditions=kept)
                        log.append(line(f"{name}的{rules.conditions[ekey].name}结束（{spec.name}）"))
            elif kind == "resource" or kind == "capacity":
                conditioned = True  # an empty resource may set a condition (fight_resources.py)
                members[who] = self._resource_effect(m, e, result, spec.name, log)
            elif kind == "relation":
                held = roles[other]
                key = (ekey, who, held)
                if relations is None:
                    relations = set(self.relations)
                if duration == "start" and key not in relations:
                    relations.add(key)
                    log.append(line(f"{who}{self.rules.relations[ekey]}{held}"))
                elif duration == "end" and key in relations:
                    relations.discard(key)
                    log.append(line(f"{who}对{held}的{self.rules.relations[ekey]}结束"))
        if holding:  # what a holder took may end a condition it held (fight_events)
            end_on_taking(rules, self.members, members, log)
        changed = tuple(members.values())  # in the fight's order: the dict was made from it
        if relations is None and not self.relations and not (conditioned and any(map(_CONDITIONS, changed))):
            # what _settle would return: no condition or relation can end
            return self._next(changed, log)
        after = self._with(members=changed, relations=self.relations if relations is None
                           or relations == set(self.relations) else tuple(sorted(relations)))
        return after._settle(log, self.relations)

    def next_turn(self) -> "Fight":
        """The next combatant's turn (a new round after the last); modifiers that last until the
        start of this turn lapse."""
        turn = self.turn + 1
        if turn > MAX_TURN:
            raise OutOfBounds(f"战斗已进行{MAX_TURN}个回合，不能再推进（行动仍可结算）", key="turn")
        log: List[str] = []  # the lines this turn adds
        members = []
        lapsed: List[Tuple[int, Condition]] = []  # (member index, condition) that expired now
        for m in self.members:
            if not m.modifiers and not m.conditions:
                members.append(m)  # nothing of it lapses
                continue
            kept = tuple(x for x in m.modifiers if x.expires < 0 or x.expires > turn)
            for gone in m.modifiers:
                if gone not in kept:
                    log.append(line(f"{m.name}的{self.rules.stats[gone.stat][0]}恢复（{gone.source}）"))
            lasting = tuple(c for c in m.conditions if c.expires < 0 or c.expires > turn)
            for c in m.conditions:
                if c not in lasting:
                    log.append(line(f"{m.name}的{self.rules.conditions[c.id].name}结束"))
                    lapsed.append((len(members), c))
            members.append(m._replace(modifiers=kept, conditions=lasting))
        followed = bool(lapsed) and follow_lapsed(self._with(turn=turn), members, lapsed, log)  # `then:`
        self._new_turn(members, turn, log)
        n = len(self.members)
        if turn % n == 0:
            log.append(f"第{turn // n + 1}轮")
        after = self._with(members=tuple(members), turn=turn, added=log)
        return after._settle([]) if followed else after


_tuple_new = tuple.__new__
_NAME = itemgetter(0)  # Member.name
_CONDITIONS = attrgetter("conditions")
# `_apply` builds members and reads effects by position
assert Member._fields[2:4] == ("counters", "points")
assert Effect._fields == ("kind", "role", "key", "field", "sign", "duration", "when", "other")
