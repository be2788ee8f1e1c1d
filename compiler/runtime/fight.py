"""A fight: combatants whose state carries from one action to the next, as an immutable value.

The generated package's `fight.py` describes, as data, what its ruleset declares (`fight:` in the
manifest, `effects:` of each procedure); this module interprets it. Nothing here knows a ruleset:

- counters per combatant (damage taken, ...), points per condition track, active states,
  temporary modifiers of stats with a duration ("until its next turn", N rounds), relations
  between combatants (a grapple);
- `Fight.resolve(procedure, roles, **options)` resolves an action with every combatant's
  *effective* stats (modifiers added, stats a state takes away set to their minimum) and returns an
  `Action`; `Fight.apply(action)` returns a new fight with the procedure's declared effects applied
  and a sentence for each change; nothing is mutated (`fight_apply.py`, the applying side);
- `Fight.next_turn()` advances the turn (and the round) and lets modifiers lapse (`fight_apply.py`);
- `Fight.until_state(...)` is the exact number of actions until a track's state, following the
  odds as the state changes them (`fight_odds.py` holds the chains).

Every value stays within its declared range (`fight_state.py`): `apply` saturates points at the
top the accumulation procedure accepts, counters at `MAX_VALUE`, and merges modifiers of the same
source, so every action a combatant can take keeps resolving however long the fight goes on; the
log says each saturation. `Fight.from_dict` checks every value of stored data against the same
ranges.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

from .core import OutOfBounds, RuleError, described
from .fight_apply import Action, Applying
from .fight_budget import Budget, Plan
from .fight_carried import Carried
from .fight_shown import Shown
from .fight_stats import _EFFECTIVE, _LOWERED, _UNDEBUFFED, MAX_REMEMBERED, Stats  # noqa: F401  (tests read the memos)
from .fight_checks import CheckUse, check_penalties
from .fight_until import Until, state_threshold
from .fight_plan import Planned
from .fight_resources import Resources, refuse_spends, supplied as track_inputs
from .fight_conditions import Condition, Refused
from .fight_odds import (MAX_ATTACKS, MAX_CHAIN_WORK, MAX_THRESHOLD, UntilOdds, attacks_until, chain_until,
                         expected_attacks, sequence_odds)
from .fight_state import (MAX_LOG, MAX_MEMBERS, MAX_MODIFIERS, MAX_TURN, MAX_VALUE, ActionSpec, Effect, Facts,
                          FightRules, Log, Member, Modifier, check_name, facts, line, bad_options)
from .fight_stored import read_fight

__all__ = ["CheckUse", "Condition", "Refused",
           "MAX_ATTACKS", "MAX_CHAIN_WORK", "MAX_THRESHOLD", "MAX_LOG", "MAX_MEMBERS",
           "MAX_MODIFIERS", "MAX_TURN", "MAX_VALUE", "Action", "ActionSpec", "Effect", "Fight", "FightRules",
           "Member", "Modifier", "UntilOdds", "attacks_until", "chain_until", "expected_attacks", "sequence_odds",
           "state_threshold"]


class Fight(Stats, Shown, Carried, Budget, Until, Planned, Resources, Applying):
    """An immutable fight. Build one with `Fight.start(rules, {"甲": Combatant(...), ...})`."""

    __slots__ = ("rules", "members", "turn", "relations", "_log")
    rules: FightRules
    members: Tuple[Member, ...]
    turn: int
    relations: Tuple[Tuple[str, str, str], ...]
    _log: Log

    def __init__(self, rules: FightRules, members: Tuple[Member, ...], turn: int = 0,
                 relations: Tuple[Tuple[str, str, str], ...] = (), log: Tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "members", members)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "relations", relations)
        object.__setattr__(self, "_log", Log.of(tuple(log)))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Fight is immutable: apply() and next_turn() return a new one")

    # ---- building ----
    @classmethod
    def start(cls, rules: FightRules, combatants: Mapping[str, Any], turns: bool = False) -> "Fight":
        """A fight between `combatants` (name -> Combatant), who act in the order given; with `turns`,
        each combatant's turn is the budget the ruleset's turn structure declares (fight_budget.py)."""
        if type(rules) is not FightRules:
            raise OutOfBounds("战斗规则必须是本模块的 FIGHT_RULES", key="rules")
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
                raise OutOfBounds(f"{described(name)}不是 Combatant", key=name)
            members.append(Member(name, base, (), (), (), ()))
        return cls(rules, tuple(members))

    def _with(self, members: Optional[Tuple[Member, ...]] = None, turn: Optional[int] = None,
              relations: Optional[Tuple[Tuple[str, str, str], ...]] = None,
              log: Optional[Tuple[str, ...]] = None, added: Optional[List[str]] = None) -> "Fight":
        """This fight with the values given changed: `log` replaces the log, `added` extends it."""
        return self._made(self.members if members is None else members, self.turn if turn is None else turn,
                          self.relations if relations is None else relations,
                          Log.of(tuple(log)) if log is not None else self._log.extended(added) if added else self._log)

    def _next(self, members: Tuple[Member, ...], added: List[str]) -> "Fight":
        """`_with(members=members, added=added)`, the step every plain action ends with."""
        return self._made(members, self.turn, self.relations, self._log.extended(added) if added else self._log)

    def _made(self, members: Tuple[Member, ...], turn: int, relations: Tuple[Tuple[str, str, str], ...],
              log: Log) -> "Fight":
        """A fight of these rules from its parts: what Fight(...) does, through the slots' setters
        (a fight is made at each step of every action)."""
        new = _new(Fight)
        _SET_RULES(new, self.rules)
        _SET_MEMBERS(new, members)
        _SET_TURN(new, turn)
        _SET_RELATIONS(new, relations)
        _SET_LOG(new, log)
        return new

    @property
    def log(self) -> Tuple[str, ...]:
        """The last `MAX_LOG` lines said of the fight, oldest first."""
        return self._log.lines()

    def log_since(self, earlier: "Fight") -> Tuple[str, ...]:
        """The lines said of the fight since `earlier`, the fight this one was made from (by `act`,
        `apply`, `next_turn`, ...): what a bot shows after a command. Not `log[len(earlier.log):]`,
        which is empty once the log holds its `MAX_LOG` lines and drops one for each it adds."""
        if not isinstance(earlier, Fight):
            raise OutOfBounds("log_since 需要本场战斗之前的一个 Fight", key="earlier")
        return self._log.since(earlier._log)

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
        raise OutOfBounds(f"战斗中没有{described(name)}", key=name)

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

    def remove_state(self, name: str, state: str) -> "Fight":
        """A new fight with `state` lifted from `name` (a recovery, the game master's call)."""
        m = self.member(name)
        if state not in m.states:
            return self
        kept = tuple(s for s in m.states if s != state)
        return self._with(members=tuple(x._replace(states=kept) if x.name == name else x for x in self.members),
                          added=[line(f"{name}的{self.rules.state_names.get(state, state)}解除")])

    @classmethod
    def from_dict(cls, rules: FightRules, data: Mapping[str, Any]) -> "Fight":
        """The fight `to_dict` wrote (a bot keeps one between chat messages): every value is checked
        against its declared range (`fight_stored.read_fight`); anything else is `OutOfBounds`."""
        if type(rules) is not FightRules:
            raise OutOfBounds("战斗规则必须是本模块的 FIGHT_RULES", key="rules")
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
# the setters of Fight's slots, for `_with` (a slot added to Fight must be set there too)
_SET_RULES, _SET_MEMBERS, _SET_TURN, _SET_RELATIONS, _SET_LOG = (
    getattr(Fight, slot).__set__ for slot in ("rules", "members", "turn", "relations", "_log"))


def _shown(value: Any) -> str:
    return "是" if value is True else "否" if value is False else str(value)
