"""A fight: combatants whose state carries from one action to the next, as an immutable value.

The generated package's `fight.py` describes, as data, what its ruleset declares (`fight:` in the
manifest, `effects:` of each procedure); this module interprets it. Nothing here knows a ruleset:

- counters per combatant (damage taken, ...), points per condition track, active states,
  temporary modifiers of stats with a duration ("until its next turn", N rounds), relations
  between combatants (a grapple);
- `Fight.resolve(procedure, roles, **options)` resolves an action with every combatant's
  *effective* stats (modifiers added, stats a state takes away set to their minimum) and returns an
  `Action`; `Fight.apply(action)` returns a new fight with the procedure's declared effects applied
  and a sentence for each change; nothing is mutated;
- `Fight.next_turn()` advances the turn (and the round) and lets modifiers lapse;
- `Fight.until_state(...)` is the exact number of actions until a track's state, following the
  odds as the state changes them (`fight_odds.py` holds the chains).

Every value stays within its declared range (`fight_state.py`): `apply` saturates points at the
top the accumulation procedure accepts, counters at `MAX_VALUE`, and merges modifiers of the same
source, so every action a combatant can take keeps resolving however long the fight goes on; the
log says each saturation. `Fight.from_dict` checks every value of stored data against the same
ranges.
"""

from __future__ import annotations

from operator import attrgetter, itemgetter
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Set, Tuple

from .core import OutOfBounds, RuleError
from .fight_budget import Budget, Plan
from .fight_carried import Carried
from .fight_shown import Shown
from .fight_stats import _EFFECTIVE, _LOWERED, _UNDEBUFFED, MAX_REMEMBERED, Stats  # noqa: F401  (tests read the memos)
from .fight_checks import CheckUse, check_penalties
from .fight_until import Until, state_threshold
from .fight_plan import Planned
from .fight_resources import Resources, capacity_kw, refuse_spends, supplied as track_inputs
from .fight_conditions import Condition, Refused
from .fight_events import end_on_taking, follow_lapsed
from .fight_odds import (MAX_ATTACKS, MAX_CHAIN_WORK, MAX_THRESHOLD, UntilOdds, attacks_until, chain_until,
                         expected_attacks, sequence_odds)
from .fight_state import (MAX_LOG, MAX_LOG_LINE, MAX_MEMBERS, MAX_MODIFIERS, MAX_TURN, MAX_VALUE, ActionSpec, Effect,
                          Facts, FightRules, Member, Modifier, check_name, clamp, facts, get, line, logged, put,
                          read_fight, bad_options)
from .sources import FixedDice

__all__ = ["CheckUse", "Condition", "Refused",
           "MAX_ATTACKS", "MAX_CHAIN_WORK", "MAX_THRESHOLD", "MAX_LOG", "MAX_MEMBERS",
           "MAX_MODIFIERS", "MAX_TURN", "MAX_VALUE", "Action", "ActionSpec", "Effect", "Fight", "FightRules",
           "Member", "Modifier", "UntilOdds", "attacks_until", "chain_until", "expected_attacks", "sequence_odds",
           "state_threshold"]

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


class Fight(Stats, Shown, Carried, Budget, Until, Planned, Resources):
    """An immutable fight. Build one with `Fight.start(rules, {"甲": Combatant(...), ...})`."""

    __slots__ = ("rules", "members", "turn", "relations", "log")
    rules: FightRules
    members: Tuple[Member, ...]
    turn: int
    relations: Tuple[Tuple[str, str, str], ...]
    log: Tuple[str, ...]

    def __init__(self, rules: FightRules, members: Tuple[Member, ...], turn: int = 0,
                 relations: Tuple[Tuple[str, str, str], ...] = (), log: Tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "members", members)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "relations", relations)
        object.__setattr__(self, "log", log[-MAX_LOG:])

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Fight is immutable: apply() and next_turn() return a new one")

    # ---- building ----
    @classmethod
    def start(cls, rules: FightRules, combatants: Mapping[str, Any], turns: bool = False) -> "Fight":
        """A fight between `combatants` (name -> Combatant), who act in the order given; with `turns`,
        each combatant's turn is the budget the ruleset's turn structure declares (fight_budget.py)."""
        if turns is not True and turns is not False:
            raise OutOfBounds("turns 应为是或否", key="turns")
        if not turns and rules.turn is not None:
            rules = rules._replace(turn=None)
        if not isinstance(combatants, Mapping) or not 1 <= len(combatants) <= MAX_MEMBERS:
            raise OutOfBounds(f"一场战斗要有1至{MAX_MEMBERS}名角色", key="combatants")
        members = []
        for name, base in combatants.items():
            check_name(name)
            if type(base) is not rules.combatant:
                raise OutOfBounds(f"“{name}”不是 Combatant", key=name)
            members.append(Member(name, base, (), (), (), ()))
        return cls(rules, tuple(members))

    def _with(self, members: Optional[Tuple[Member, ...]] = None, turn: Optional[int] = None,
              relations: Optional[Tuple[Tuple[str, str, str], ...]] = None,
              log: Optional[Tuple[str, ...]] = None) -> "Fight":
        # what Fight(...) does, through the slots' setters (a fight is made at each step of every action)
        new = _new(Fight)
        _SET_RULES(new, self.rules)
        _SET_MEMBERS(new, self.members if members is None else members)
        _SET_TURN(new, self.turn if turn is None else turn)
        _SET_RELATIONS(new, self.relations if relations is None else relations)
        _SET_LOG(new, self.log if log is None else log[-MAX_LOG:])
        return new

    # ---- reading ----
    @property
    def round(self) -> int:
        return self.turn // len(self.members) + 1

    @property
    def actor(self) -> str:
        """Whose turn it is."""
        return self.members[self.turn % len(self.members)].name

    def member(self, name: str) -> Member:
        for m in self.members:
            if m.name == name:
                return m
        raise OutOfBounds(f"战斗中没有“{name}”", key=name)

    def holds(self, relation: str, holder: str, held: str) -> bool:
        return (relation, holder, held) in self.relations

    # ---- acting ----
    def resolve(self, procedure: str, roles: Mapping[str, str], **options: Any) -> Action:
        """Resolve `procedure` with the named combatants in its roles (`{"attacker": "甲", ...}`),
        each with its effective stats; the fight is unchanged (apply the action to change it)."""
        return self._resolve(procedure, roles, options)[0]

    def _resolve(self, procedure: str, roles: Mapping[str, str], options: Dict[str, Any]
                 ) -> Tuple[Action, ActionSpec]:
        known, found, bases = self._checked(procedure, roles, options)
        spec = known.spec
        applied: Tuple[str, ...] = ()
        used: Tuple[Tuple[str, str, str], ...] = ()
        if bases is not None and known.positional:  # the roles' base stats, nothing applies: no copy
            kwargs, plan = options, None
        else:
            kwargs, applied, used, plan = self._stated(procedure, spec, found, roles, options, bases)
            bases = []
        try:
            result = spec.function(*bases, **kwargs)
        except TypeError:  # a required option left out, or one the procedure does not take
            raise bad_options(spec, procedure) from None
        if spec.action_from or spec.costs:  # what its result spends, refused when it does not fit
            plan, said = self._priced(spec, roles, result)
            applied += said
        if self.rules.resources and known.spends:  # refused past what is left (fight_resources.py)
            applied += refuse_spends(self.rules, spec, roles, result, {m.name: m for m in self.members})
        return _tuple_new(Action, (procedure, tuple([(r, roles[r]) for r in spec.roles]), result, applied, used,
                                   plan)), spec

    def _priced(self, spec: ActionSpec, roles: Mapping[str, str], result: Any
                ) -> Tuple[Optional[Plan], Tuple[str, ...]]:
        """What an action whose result decides what it spends — the kind of action (`action_from`),
        amounts of the turn's pools (`costs`) — costs its actor, and the sentence when it does not fit
        but the ruling lets it through; `Refused` when it is refused."""
        if self.rules.turn is None:
            return None, ()
        action = str(getattr(result, spec.action_from)) if spec.action_from else None
        extra = tuple((pool, max(0, int(getattr(result, field)))) for pool, field in spec.costs)
        plan = self._plan(self.member(roles[spec.roles[spec.subject]]), spec, action, extra)
        return plan, (line(f"{plan.over}：按裁定仍然进行"),) if plan is not None and plan.over else ()

    def _prepare(self, procedure: str, roles: Mapping[str, str], options: Mapping[str, Any]
                 ) -> Tuple[ActionSpec, Dict[str, Any], Tuple[str, ...], Tuple[Tuple[str, str, str], ...],
                            Optional[Plan]]:
        """What `resolve` calls the procedure with: (its spec, the arguments — every role's effective
        stats, the options its conditions supply, then the caller's — the sentences of the state that
        applied, the conditions it uses up, what it spends of its actor's turn); `Refused` when the
        actor's conditions or turn forbid it."""
        known, found, bases = self._checked(procedure, roles, options)
        return (known.spec, *self._stated(procedure, known.spec, found, roles, options, bases))

    def _checked(self, procedure: str, roles: Mapping[str, str], options: Mapping[str, Any]
                 ) -> Tuple[Facts, Dict[str, Member], Optional[List[Any]]]:
        """The spec of `procedure` (its Facts), the members `roles` name (all exist), and their base stats in the
        order of the roles when nothing changes their stats or applies to them (else None)."""
        spec = self.rules.actions.get(procedure) if type(procedure) is str else None
        if spec is None:
            raise OutOfBounds("没有可在战斗中使用的这个过程", key="procedure")
        if type(roles) is not dict and not isinstance(roles, Mapping):  # typing's isinstance is slow
            raise OutOfBounds(f"“{spec.name}”的角色应为映射（角色: 名字）", key="roles")
        known = facts(spec)
        role_set = known.roles
        if roles.keys() != role_set:  # a role missing or extra
            raise OutOfBounds(f"“{spec.name}”的角色是 {', '.join(spec.roles)}", key=procedure)
        if options and not role_set.isdisjoint(options):
            for key in options:
                if key in role_set:
                    raise OutOfBounds(f"“{key}”是角色，不是选项", key=key)
        found: Dict[str, Member] = {}
        members = self.members
        bases: Optional[List[Any]] = [] if not self.relations and self.rules.turn is None else None
        for role in spec.roles:
            name = roles[role]
            for m in members:
                if m.name == name:
                    break
            else:  # all exist before anything is refused: the first missing, in the caller's order, raises
                for name in roles.values():
                    self.member(name)
            found[name] = m
            if bases is not None:
                if m.modifiers or m.states or m.conditions or m.points or m.resources:
                    bases = None  # its stats may change, something may apply to it
                else:
                    bases.append(m.base)  # nothing changes its stats (and no turn budget): its base stats
        return known, found, bases

    def _stated(self, procedure: str, spec: ActionSpec, found: Dict[str, Member], roles: Mapping[str, str],
                options: Mapping[str, Any], bases: Optional[List[Any]]
                ) -> Tuple[Dict[str, Any], Tuple[str, ...], Tuple[Tuple[str, str, str], ...], Optional[Plan]]:
        if bases is not None:
            kwargs: Dict[str, Any] = dict(zip(spec.roles, bases))
            kwargs.update(options)
            return kwargs, (), (), None
        actor = found[roles[spec.roles[spec.subject]]]
        by_name: Dict[str, str] = {}  # name -> role, made when a condition needs it
        if actor.conditions or actor.states or self.relations:  # what may forbid the action
            by_name = {roles[r]: r for r in reversed(spec.roles)}
            self._refuse(actor, procedure, spec, by_name)
        plan = self._plan(actor, spec) if not (spec.action_from or spec.costs) else None  # else: _priced
        kwargs = {}
        supplied: Dict[str, Any] = {}
        used: List[Tuple[str, str, str]] = []
        applied: List[str] = [line(f"{plan.over}：按裁定仍然进行")] if plan is not None and plan.over else []
        plain = not self.relations
        for role in spec.roles:
            m = found[roles[role]]
            if plain and not (m.modifiers or m.states or m.conditions or m.points or m.resources):
                kwargs[role] = m.base  # nothing changes its stats, nothing applies to it: nothing to say
                continue
            if not by_name:
                by_name = {roles[r]: r for r in reversed(spec.roles)}
            applying = self._applying(m, procedure, by_name)
            kwargs[role] = self._effective(m, applying=applying)
            applied += self.applied_to(m.name, applying)
            for c, cs in applying:
                for param, value in cs.options:
                    if param in spec.params and param not in options and param not in supplied:
                        supplied[param] = c.value if value == "value" else value
                        applied.append(line(f"{m.name}的{cs.name}：{spec.params[param]}为{_shown(supplied[param])}"))
                if any(x.kind == "used" for x in cs.ends) and c in m.conditions:
                    used.append((m.name, c.id, c.source))
        if spec.checks:  # the debuffs on the checks it rolls (TR-60..TR-70)
            penalties, said = check_penalties(self.rules, spec.checks, roles,
                                              lambda who: self._debuff_amounts(self.member(who)), options)
            applied += said
            kwargs.update(penalties)
        if supplied:
            kwargs.update(supplied)
        if self.rules.track_inputs:  # a track's points and capacity loss, from the fight (fight_resources.py)
            kwargs.update(track_inputs(self.rules, procedure, actor, options))
        kwargs.update(options)
        return kwargs, tuple(applied), tuple(used), plan

    def act(self, procedure: str, roles: Mapping[str, str], **options: Any) -> Tuple[Action, "Fight"]:
        """Resolve and apply in one call."""
        action, spec = self._resolve(procedure, roles, options)
        return action, self._apply(action, spec, roles if type(roles) is dict else dict(action.roles), True)

    def apply(self, action: Action) -> "Fight":
        """A new fight with the action's declared effects applied (a sentence for each change)."""
        spec = self.rules.actions.get(action.procedure)
        if spec is None or type(action) is not Action:
            raise OutOfBounds("只能应用本场战斗 resolve() 得到的行动", key="action")
        return self._apply(action, spec, dict(action.roles))

    def _apply(self, action: Action, spec: ActionSpec, roles: Mapping[str, str], resolved: bool = False) -> "Fight":
        rules = self.rules
        result = action.result
        members = dict(zip(map(_NAME, self.members), self.members))
        if not resolved and not all(map(members.__contains__, roles.values())):  # act's are checked
            name = next(x for x in roles.values() if x not in members)
            raise OutOfBounds(f"战斗中没有“{name}”", key=name)
        # whether a role holds a condition the action may use up or end
        holding = any(map(_CONDITIONS, self.members)) and any(members[x].conditions for x in roles.values())
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
                    state = str(out[rules.state_index] or "")
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
        if relations is None and not self.relations and not any(map(_CONDITIONS, changed)):
            new = _new(Fight)  # what _settle would return: no condition or relation can end
            _SET_RULES(new, rules)
            _SET_MEMBERS(new, changed)
            _SET_TURN(new, self.turn)
            _SET_RELATIONS(new, self.relations)
            _SET_LOG(new, self.log + tuple(log) if len(self.log) + len(log) <= MAX_LOG else logged(self.log, log))
            return new
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
        after = self._with(members=tuple(members), turn=turn, log=logged(self.log, log) if log else None)
        return after._settle([]) if followed else after

    def remove_state(self, name: str, state: str) -> "Fight":
        """A new fight with `state` lifted from `name` (a recovery, the game master's call)."""
        m = self.member(name)
        if state not in m.states:
            return self
        kept = tuple(s for s in m.states if s != state)
        return self._with(members=tuple(x._replace(states=kept) if x.name == name else x for x in self.members),
                          log=(*self.log, line(f"{name}的{self.rules.state_names.get(state, state)}解除")))

    @classmethod
    def from_dict(cls, rules: FightRules, data: Mapping[str, Any]) -> "Fight":
        """The fight `to_dict` wrote (a bot keeps one between chat messages): every value is checked
        against its declared range (`fight_state.read_fight`); anything else is `OutOfBounds`."""
        try:
            if not (isinstance(data, Mapping) and data.get("turns") is True) and rules.turn is not None:
                rules = rules._replace(turn=None)  # a fight without the turn budget (stored before it, or off)
            members, turn, relations, log = read_fight(rules, data)
        except RuleError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError):  # a Mapping that misbehaves
            raise OutOfBounds("无法读取战斗记录", key="fight") from None
        return cls(rules, members, turn, relations, log)


_new = object.__new__
_tuple_new = tuple.__new__
_NAME = itemgetter(0)  # Member.name
_CONDITIONS = attrgetter("conditions")
# `_apply` builds members and reads effects by position
assert Member._fields[2:4] == ("counters", "points")
assert Effect._fields == ("kind", "role", "key", "field", "sign", "duration", "when", "other")
# the setters of Fight's slots, for `_with` (a slot added to Fight must be set there too)
_SET_RULES, _SET_MEMBERS, _SET_TURN, _SET_RELATIONS, _SET_LOG = (
    getattr(Fight, slot).__set__ for slot in ("rules", "members", "turn", "relations", "log"))


def _shown(value: Any) -> str:
    return "是" if value is True else "否" if value is False else str(value)
