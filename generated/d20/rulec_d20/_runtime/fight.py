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
from .fight_checks import CheckUse, check_penalties, lowered_checks
from .fight_until import Until, state_threshold
from .fight_plan import Planned
from .fight_resources import Resources, capacity_kw, refuse_spends, supplied as track_inputs
from .fight_conditions import Condition, ConditionSpec, Refused
from .fight_events import end_on_taking, follow_lapsed
from .fight_odds import (MAX_ATTACKS, MAX_CHAIN_WORK, MAX_THRESHOLD, UntilOdds, attacks_until, chain_until,
                         expected_attacks, sequence_odds)
from .fight_state import (MAX_LOG, MAX_LOG_LINE, MAX_MEMBERS, MAX_MODIFIERS, MAX_TURN, MAX_VALUE, ActionSpec, Effect,
                          FightRules, Member, Modifier, check_name, clamp, get, line, logged, put, read_fight,
                          with_counters, with_points, bad_options)
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
        spec, kwargs, applied, used, plan = self._prepare(procedure, roles, options)
        try:
            result = spec.function(**kwargs)
        except TypeError:  # a required option left out, or one the procedure does not take
            raise bad_options(spec, procedure) from None
        if spec.action_from:  # the kind of action its result spends, refused when it does not fit
            plan, said = self._priced(spec, roles, result)
            applied += said
        if self.rules.resources:  # what it spends, refused past what is left (fight_resources.py)
            applied += refuse_spends(self.rules, spec, roles, result, {m.name: m for m in self.members})
        return _tuple_new(Action, (procedure, tuple(zip(spec.roles, map(roles.__getitem__, spec.roles))), result,
                                   applied, used, plan))

    def _priced(self, spec: ActionSpec, roles: Mapping[str, str], result: Any
                ) -> Tuple[Optional[Plan], Tuple[str, ...]]:
        """What an action whose result names the kind it spends (`action_from`) costs its actor, and
        the sentence when it does not fit but the ruling lets it through; `Refused` when it is refused."""
        if self.rules.turn is None:
            return None, ()
        plan = self._plan(self.member(roles[spec.roles[spec.subject]]), spec, str(getattr(result, spec.action_from)))
        return plan, (line(f"{plan.over}：按裁定仍然进行"),) if plan is not None and plan.over else ()

    def _prepare(self, procedure: str, roles: Mapping[str, str], options: Mapping[str, Any]
                 ) -> Tuple[ActionSpec, Dict[str, Any], Tuple[str, ...], Tuple[Tuple[str, str, str], ...],
                            Optional[Plan]]:
        """What `resolve` calls the procedure with: (its spec, the arguments — every role's effective
        stats, the options its conditions supply, then the caller's — the sentences of the state that
        applied, the conditions it uses up, what it spends of its actor's turn); `Refused` when the
        actor's conditions or turn forbid it."""
        spec = self.rules.actions.get(procedure) if type(procedure) is str else None
        if spec is None:
            raise OutOfBounds("没有可在战斗中使用的这个过程", key="procedure")
        if type(roles) is not dict and not isinstance(roles, Mapping):  # typing's isinstance is slow
            raise OutOfBounds(f"“{spec.name}”的角色应为映射（角色: 名字）", key="roles")
        named = False  # whether an option is named as a role
        if len(roles) == len(spec.roles):
            for r in spec.roles:
                if r not in roles:
                    break
                named = named or r in options
            else:
                r = ""
        if len(roles) != len(spec.roles) or r:  # a role missing or extra
            raise OutOfBounds(f"“{spec.name}”的角色是 {', '.join(spec.roles)}", key=procedure)
        if named:
            for key in options:
                if key in spec.roles:
                    raise OutOfBounds(f"“{key}”是角色，不是选项", key=key)
        found: Dict[str, Member] = {}  # all exist before anything is refused
        for name in roles.values():
            for m in self.members:
                if m.name == name:
                    found[name] = m
                    break
            else:
                self.member(name)  # raises: no such combatant
        actor = found[roles[spec.roles[spec.subject]]]
        plain = not self.relations and self.rules.turn is None
        if plain:
            for m in found.values():
                if m.modifiers or m.states or m.conditions or m.points or m.resources:
                    plain = False
                    break
            else:  # nothing changes their stats, nothing applies to them, no turn budget: their base stats
                kwargs: Dict[str, Any] = {role: found[roles[role]].base for role in spec.roles}
                kwargs.update(options)
                return spec, kwargs, (), (), None
        by_name: Dict[str, str] = {}  # name -> role, made when a condition needs it
        if actor.conditions or actor.states or self.relations:  # what may forbid the action
            by_name = {roles[r]: r for r in reversed(spec.roles)}
            self._refuse(actor, procedure, spec, by_name)
        plan = self._plan(actor, spec) if not spec.action_from else None  # else: from its result (_priced)
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
        return spec, kwargs, tuple(applied), tuple(used), plan

    def applied_to(self, name: str,
                   applying: Optional[List[Tuple[Condition, ConditionSpec]]] = None) -> Tuple[str, ...]:
        """What `name`'s state does to its stats now (or in an action: the conditions `applying`),
        one sentence per modifier, state and condition."""
        m = self.member(name)
        out = [f"{name}的{self.rules.stats[x.stat][0]}{x.delta:+d}（{x.source}）" for x in m.modifiers
               if x.stat in self.rules.stats]
        for state in m.states:
            if getattr(m.base, self.rules.state_spared.get(state, "") or "-", False) is True:
                continue
            taken = [self.rules.stats[s][0] for s in self.rules.state_stats.get(state, ()) if s in self.rules.stats]
            if taken:
                out.append(f"{name}处于{self.rules.state_names.get(state, state)}：{'、'.join(taken)}视为最低")
        for stat, amount in self._lowered(m):
            out.append(f"{name}的减益：{self.rules.stats[stat][0]}-{amount}")
        if applying is None:  # in an action, only the checks it rolls are said (fight_checks)
            out += lowered_checks(self.rules, self._debuff_amounts(m), name)
        for c, spec in self._applying(m) if applying is None else applying:
            changes = [self.rules.flag_names.get(stat, stat) if flag else f"非{self.rules.flag_names.get(stat, stat)}"
                       for stat, flag in spec.sets]
            changes += [f"{self.rules.stats[stat][0]}{per * c.value:+d}" for stat, per in spec.adds if per * c.value]
            changes += [f"视为{self.rules.state_names.get(x, x)}" for x in spec.as_states]
            if changes:
                by = f"，来自{c.source}" if c.source else ""
                out.append(line(f"{name}处于{spec.name}（{'、'.join(changes)}{by}）"))
        return tuple(out)

    def act(self, procedure: str, roles: Mapping[str, str], **options: Any) -> Tuple[Action, "Fight"]:
        """Resolve and apply in one call."""
        action = self.resolve(procedure, roles, **options)
        return action, self.apply(action)

    def apply(self, action: Action) -> "Fight":
        """A new fight with the action's declared effects applied (a sentence for each change)."""
        rules = self.rules
        spec = rules.actions.get(action.procedure)
        if spec is None or type(action) is not Action:
            raise OutOfBounds("只能应用本场战斗 resolve() 得到的行动", key="action")
        roles = dict(action.roles)
        result = action.result
        members = dict(zip(map(_NAME, self.members), self.members))
        holding = False  # whether a role holds a condition the action may use up or end
        for name in roles.values():
            m = members.get(name)
            if m is None:
                raise OutOfBounds(f"战斗中没有“{name}”", key=name)
            if m.conditions:
                holding = True
        relations: Optional[Set[Tuple[str, str, str]]] = None  # made by the first relation effect
        log: List[str] = []
        n = len(self.members)
        if holding:
            self._end_used(action, spec, members, log)
        if action.plan is not None:
            members[action.plan.name] = self._spend(members[action.plan.name], action.plan, log)
        for e in spec.effects:
            if e.when and not getattr(result, e.when):
                continue
            who = roles[e.role]
            m = members[who]
            if e.field:
                amount = getattr(result, e.field)
                amount = (amount if type(amount) is int else int(amount)) * e.sign
            else:
                amount = 0
            if e.kind == "counter":
                if amount == 0:
                    continue
                ckey, pairs = e.key, m.counters
                if len(pairs) == 1 and pairs[0][0] == ckey:  # the common case, without get() and put()
                    total = pairs[0][1] + amount
                    pairs = ((ckey, total),) if -MAX_VALUE < total < MAX_VALUE else ()
                else:
                    total = get(pairs, ckey) + amount
                    pairs = ()
                top = ""
                if not -MAX_VALUE < total < MAX_VALUE:
                    total = clamp(total, -MAX_VALUE, MAX_VALUE)
                    top = "，已达上限"
                m = with_counters(m, pairs or put(m.counters, ckey, total))
                said = f"{who}的{rules.counters[ckey]}{amount:+d}（共{total}{top}）"
                log.append(said if len(said) <= MAX_LOG_LINE else line(said))
                if amount > 0 and m.states and rules.on_damage is not None and rules.on_damage[0] == ckey:
                    m = self._recover(m, amount if amount < rules.taken_max else rules.taken_max, log)
                members[who] = m
            elif e.kind == "track":
                track = getattr(result, e.key)
                if not track or amount == 0:
                    continue
                if type(track) is not str:
                    track = str(track)
                if track not in rules.tracks:
                    continue
                before = get(m.points, track)
                # saturate at the top the accumulation procedure accepts: every later action still resolves
                total = before + amount
                top = ""
                if not 0 <= total <= rules.points_max:
                    if total > rules.points_max:
                        top = f"，已达上限{rules.points_max}"
                    total = clamp(total, 0, rules.points_max)
                m = with_points(m, put(m.points, track, total))
                said = f"{who}的{rules.tracks[track]}{amount:+d}（共{total}{top}）"
                log.append(said if len(said) <= MAX_LOG_LINE else line(said))
                if rules.accumulate is not None:
                    plain = self._effective(m, debuffs=False)
                    state = str(rules.accumulate(plain, track, current=before if before < total else total,
                                                 gained=total - before if total > before else 0, dice=_NO_DICE,
                                                 **capacity_kw(rules, m, track))[rules.state_index] or "")
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
            elif e.kind == "modifier":
                if amount == 0:
                    continue
                index = [x.name for x in self.members].index(who)
                if e.duration == "next_turn":
                    expires = self.turn + 1 + (index - self.turn - 1) % n
                elif e.duration.startswith("rounds:"):
                    expires = self.turn + int(e.duration[7:]) * n
                else:
                    expires = -1
                members[who] = m = self._modify(m, Modifier(e.key, amount, min(expires, MAX_VALUE), spec.name), log)
                until = {"next_turn": "，直到其下一回合开始"}.get(e.duration, "")
                log.append(line(f"{who}的{self.rules.stats[e.key][0]}{amount:+d}（{spec.name}{until}）"))
            elif e.kind == "state":
                if e.key not in m.states:
                    members[who] = m._replace(states=tuple(sorted((*m.states, e.key))))
                    log.append(line(f"{who}进入{self.rules.state_names.get(e.key, e.key)}"))
            elif e.kind == "condition":
                value = amount if e.field else 1
                source = roles.get(e.other, "") if e.other else ""
                names = [x.name for x in self.members]
                members[who] = self._set_condition(m, e.key, value, source, names.index(who),
                                                   names.index(source) if source else -1, log)
            elif e.kind == "clear":  # on the target, or on everyone (duration "everyone")
                for name in (list(members) if e.duration == "everyone" else (who,)):
                    m = members[name]
                    kept = tuple(c for c in m.conditions if c.id != e.key)
                    if kept != m.conditions:
                        members[name] = m._replace(conditions=kept)
                        log.append(line(f"{name}的{rules.conditions[e.key].name}结束（{spec.name}）"))
            elif e.kind == "resource" or e.kind == "capacity":
                members[who] = self._resource_effect(m, e, result, spec.name, log)
            elif e.kind == "relation":
                held = roles[e.other]
                key = (e.key, who, held)
                if relations is None:
                    relations = set(self.relations)
                if e.duration == "start" and key not in relations:
                    relations.add(key)
                    log.append(line(f"{who}{self.rules.relations[e.key]}{held}"))
                elif e.duration == "end" and key in relations:
                    relations.discard(key)
                    log.append(line(f"{who}对{held}的{self.rules.relations[e.key]}结束"))
        if holding:  # what a holder took may end a condition it held (fight_events)
            end_on_taking(rules, self.members, members, log)
        changed = tuple(members.values())  # in the fight's order: the dict was made from it
        if relations is None and not self.relations and not any(map(_CONDITIONS, changed)):
            new = _new(Fight)  # what _settle would return: no condition or relation can end
            _SET_RULES(new, rules)
            _SET_MEMBERS(new, changed)
            _SET_TURN(new, self.turn)
            _SET_RELATIONS(new, self.relations)
            _SET_LOG(new, logged(self.log, log))
            return new
        after = self._with(members=changed, relations=self.relations if relations is None
                           or relations == set(self.relations) else tuple(sorted(relations)))
        return after._settle(log, self.relations)

    @staticmethod
    def _modify(m: Member, new: Modifier, log: List[str]) -> Member:
        """`m` with modifier `new`: added to one of the same stat, expiry and source (so repeating
        an action within a turn never piles up modifiers), else appended; past `MAX_MODIFIERS`
        distinct ones it does not take effect, and the log says so (the action still applies)."""
        for i, x in enumerate(m.modifiers):
            if (x.stat, x.expires, x.source) == (new.stat, new.expires, new.source):
                merged = x._replace(delta=clamp(x.delta + new.delta, -MAX_VALUE, MAX_VALUE))
                return m._replace(modifiers=m.modifiers[:i] + (merged,) + m.modifiers[i + 1:])
        if len(m.modifiers) >= MAX_MODIFIERS:
            log.append(line(f"{m.name}身上的临时修正已达上限{MAX_MODIFIERS}个，这一项未生效"))
            return m
        return m._replace(modifiers=(*m.modifiers, new))

    def _recover(self, m: Member, taken: int, log: List[str]) -> Member:
        """The ruleset's recovery rule for a combatant whose counter grew: each track whose state it
        is in may lose points, and the state lifts when the rule says it wakes."""
        assert self.rules.on_damage is not None
        _counter, fn, points_at, awake_at, source = self.rules.on_damage
        for track, points in m.points:
            state = self.rules.track_states.get(track)
            if points <= 0 or state is None or state not in m.states:
                continue
            out = fn(self._effective(m, debuffs=False), track, current=points, taken=taken, dice=_NO_DICE,
                     **capacity_kw(self.rules, m, track))
            left, awake = int(out[points_at]), bool(out[awake_at])
            if left != points:
                m = m._replace(points=put(m.points, track, left))
                shown = self.rules.tracks.get(track, track)
                log.append(line(f"{m.name}的{shown}{left - points:+d}（{source}，共{left}）"))
            if awake:
                m = m._replace(states=tuple(s for s in m.states if s != state))
                log.append(line(f"{m.name}的{self.rules.state_names.get(state, state)}解除"))
        return m

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
# the setters of Fight's slots, for `_with` (a slot added to Fight must be set there too)
_SET_RULES, _SET_MEMBERS, _SET_TURN, _SET_RELATIONS, _SET_LOG = (
    getattr(Fight, slot).__set__ for slot in ("rules", "members", "turn", "relations", "log"))


def _shown(value: Any) -> str:
    return "是" if value is True else "否" if value is False else str(value)
