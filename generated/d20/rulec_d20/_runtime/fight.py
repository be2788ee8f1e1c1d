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

from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Tuple

from .core import OutOfBounds, RuleError
from .fight_carried import Carried
from .fight_until import Until, state_threshold
from .fight_plan import Planned
from .fight_conditions import Condition, ConditionSpec, Refused
from .fight_odds import (MAX_ATTACKS, MAX_CHAIN_WORK, MAX_THRESHOLD, UntilOdds, attacks_until, chain_until,
                         expected_attacks, sequence_odds)
from .fight_state import (MAX_LOG, MAX_MEMBERS, MAX_MODIFIERS, MAX_TURN, MAX_VALUE, ActionSpec, Effect, FightRules,
                          Member, Modifier, check_name, clamp, get, line, put, read_fight)
from .sources import FixedDice

__all__ = ["Condition", "Refused", "MAX_ATTACKS", "MAX_CHAIN_WORK", "MAX_THRESHOLD", "MAX_LOG", "MAX_MEMBERS",
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

    def text(self, gm: bool = False) -> str:
        """The sentences of the state that applied, then the result's trace."""
        return "\n".join([*self.applied, self.result.text(gm)])


class Fight(Carried, Until, Planned):
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
    def start(cls, rules: FightRules, combatants: Mapping[str, Any]) -> "Fight":
        """A fight between `combatants` (name -> Combatant), who act in the order given."""
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
        return Fight(self.rules, self.members if members is None else members, self.turn if turn is None else turn,
                     self.relations if relations is None else relations, self.log if log is None else log)

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

    def effective(self, name: str) -> Any:
        """`name`'s stats as the rules see them now: base stats plus active modifiers (within each
        stat's range), and the stats its states take away at their minimum."""
        return self._effective(self.member(name))

    def _effective(self, m: Member, debuffs: bool = True,
                   applying: Optional[List[Tuple[Condition, ConditionSpec]]] = None) -> Any:
        """The stats of `m` with its modifiers, states and conditions (those `applying`, else those
        with no scope) and, unless `debuffs` is false, the debuffs of its tracks: the accumulation
        rule itself reads the stats without them, so a debuff never feeds back into the capacity it
        is measured against."""
        lowered = self._debuffs(m) if debuffs else ()
        if applying is None:
            applying = self._applying(m) if (m.conditions or self.relations or m.states) else []
        if not m.modifiers and not m.states and not lowered and not applying:
            return m.base
        values = m.base.to_dict()
        for stat, amount in lowered:
            lo = self.rules.stats[stat][1]
            values[stat] = max(lo, values[stat] - amount)
        for mod in m.modifiers:
            name_lo_hi = self.rules.stats.get(mod.stat)
            if name_lo_hi is not None:
                values[mod.stat] = max(name_lo_hi[1], min(name_lo_hi[2], values[mod.stat] + mod.delta))
        for state in m.states:
            for stat in self.rules.state_stats.get(state, ()):
                if stat in self.rules.stats:
                    values[stat] = self.rules.stats[stat][1]
        for c, spec in applying:
            for stat, flag in spec.sets:
                values[stat] = flag
            for stat, per in spec.adds:
                _, lo, hi = self.rules.stats[stat]
                values[stat] = max(lo, min(hi, values[stat] + per * c.value))
        return self.rules.combatant(**values)

    def _debuffs(self, m: Member) -> Tuple[Tuple[str, int], ...]:
        """(stat, amount) for each stat a track's debuff lowers: points past the capacity, by the
        ruleset's accumulation rule."""
        rules = self.rules
        if not rules.track_debuffs or rules.accumulate is None or not m.points:
            return ()
        out: List[Tuple[str, int]] = []
        plain = None
        for track, points in m.points:
            stats = rules.track_debuffs.get(track)
            if not stats or points <= 0:
                continue
            if plain is None:
                plain = self._effective(m, debuffs=False)
            amount = int(rules.accumulate(plain, track, current=points, gained=0, dice=_NO_DICE)[rules.debuff_index])
            if amount > 0:
                out += [(stat, amount) for stat in stats if stat in rules.stats]
        return tuple(out)

    def holds(self, relation: str, holder: str, held: str) -> bool:
        return (relation, holder, held) in self.relations

    # ---- acting ----
    def resolve(self, procedure: str, roles: Mapping[str, str], **options: Any) -> Action:
        """Resolve `procedure` with the named combatants in its roles (`{"attacker": "甲", ...}`),
        each with its effective stats; the fight is unchanged (apply the action to change it)."""
        spec, kwargs, applied, used = self._prepare(procedure, roles, options)
        result = spec.function(**kwargs)
        return Action(procedure, tuple((r, roles[r]) for r in spec.roles), result, applied, used)

    def _prepare(self, procedure: str, roles: Mapping[str, str], options: Mapping[str, Any]
                 ) -> Tuple[ActionSpec, Dict[str, Any], Tuple[str, ...], Tuple[Tuple[str, str, str], ...]]:
        """What `resolve` calls the procedure with: (its spec, the arguments — every role's effective
        stats, the options its conditions supply, then the caller's — the sentences of the state that
        applied, the conditions it uses up); `Refused` when the actor's conditions forbid it."""
        spec = self.rules.actions.get(procedure) if type(procedure) is str else None
        if spec is None:
            raise OutOfBounds("没有可在战斗中使用的这个过程", key="procedure")
        if not isinstance(roles, Mapping):
            raise OutOfBounds(f"“{spec.name}”的角色应为映射（角色: 名字）", key="roles")
        missing = [r for r in spec.roles if r not in roles]
        extra = [r for r in roles if r not in spec.roles]
        if missing or extra:
            raise OutOfBounds(f"“{spec.name}”的角色是 {', '.join(spec.roles)}", key=procedure)
        for key in options:
            if key in spec.roles:
                raise OutOfBounds(f"“{key}”是角色，不是选项", key=key)
        by_name = {roles[r]: r for r in reversed(spec.roles)}
        for name in roles.values():
            self.member(name)  # every combatant named exists before anything is refused
        self._refuse(self.member(roles[spec.roles[spec.subject]]), procedure, spec, by_name)
        kwargs: Dict[str, Any] = {}
        supplied: Dict[str, Any] = {}
        used: List[Tuple[str, str, str]] = []
        applied: List[str] = []
        for role in spec.roles:
            m = self.member(roles[role])
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
        kwargs.update(supplied)
        kwargs.update(options)
        return spec, kwargs, tuple(applied), tuple(used)

    def applied_to(self, name: str,
                   applying: Optional[List[Tuple[Condition, ConditionSpec]]] = None) -> Tuple[str, ...]:
        """What `name`'s state does to its stats now (or in an action: the conditions `applying`),
        one sentence per modifier, state and condition."""
        m = self.member(name)
        out = [f"{name}的{self.rules.stats[x.stat][0]}{x.delta:+d}（{x.source}）" for x in m.modifiers
               if x.stat in self.rules.stats]
        for state in m.states:
            taken = [self.rules.stats[s][0] for s in self.rules.state_stats.get(state, ()) if s in self.rules.stats]
            if taken:
                out.append(f"{name}处于{self.rules.state_names.get(state, state)}：{'、'.join(taken)}视为最低")
        for stat, amount in self._debuffs(m):
            out.append(f"{name}的减益：{self.rules.stats[stat][0]}-{amount}")
        for c, spec in self._applying(m) if applying is None else applying:
            changes = [self.rules.flag_names.get(stat, stat) if flag else f"非{self.rules.flag_names.get(stat, stat)}"
                       for stat, flag in spec.sets]
            changes += [f"{self.rules.stats[stat][0]}{per * c.value:+d}" for stat, per in spec.adds if per * c.value]
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
        spec = self.rules.actions.get(action.procedure)
        if spec is None or type(action) is not Action:
            raise OutOfBounds("只能应用本场战斗 resolve() 得到的行动", key="action")
        roles = dict(action.roles)
        result = action.result
        rules = self.rules
        members = {m.name: m for m in self.members}
        for name in roles.values():
            if name not in members:
                raise OutOfBounds(f"战斗中没有“{name}”", key=name)
        relations = set(self.relations)
        log: List[str] = []
        n = len(self.members)
        names = [x.name for x in self.members]
        self._end_used(action, spec, members, log)
        for e in spec.effects:
            if e.when and not getattr(result, e.when):
                continue
            who = roles[e.role]
            m = members[who]
            amount = int(getattr(result, e.field)) * e.sign if e.field else 0
            if e.kind == "counter":
                if amount == 0:
                    continue
                total = clamp(get(m.counters, e.key) + amount, -MAX_VALUE, MAX_VALUE)
                m = m._replace(counters=put(m.counters, e.key, total))
                top = "，已达上限" if abs(total) == MAX_VALUE else ""
                log.append(line(f"{who}的{self.rules.counters[e.key]}{amount:+d}（共{total}{top}）"))
                if rules.on_damage is not None and rules.on_damage[0] == e.key and amount > 0 and m.states:
                    m = self._recover(m, min(amount, rules.taken_max), log)
                members[who] = m
            elif e.kind == "track":
                track = str(getattr(result, e.key) or "")
                if not track or amount == 0 or track not in rules.tracks:
                    continue
                before = get(m.points, track)
                # saturate at the top the accumulation procedure accepts: every later action still resolves
                total = clamp(before + amount, 0, rules.points_max)
                m = m._replace(points=put(m.points, track, total))
                top = f"，已达上限{rules.points_max}" if before + amount > rules.points_max else ""
                log.append(line(f"{who}的{rules.tracks[track]}{amount:+d}（共{total}{top}）"))
                if rules.accumulate is not None:
                    state = str(rules.accumulate(self._effective(m, debuffs=False), track, current=min(before, total),
                                                 gained=max(0, total - before), dice=_NO_DICE)[rules.state_index]
                                or "")
                    if state and state not in m.states:
                        m = m._replace(states=tuple(sorted((*m.states, state))))
                        log.append(line(f"{who}进入{self.rules.state_names.get(state, state)}"))
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
                members[who] = self._set_condition(m, e.key, value, source, names.index(who),
                                                   names.index(source) if source else -1, log)
            elif e.kind == "clear":
                kept = tuple(c for c in m.conditions if c.id != e.key)
                if kept != m.conditions:
                    members[who] = m._replace(conditions=kept)
                    log.append(line(f"{who}的{rules.conditions[e.key].name}结束（{spec.name}）"))
            elif e.kind == "relation":
                held = roles[e.other]
                key = (e.key, who, held)
                if e.duration == "start" and key not in relations:
                    relations.add(key)
                    log.append(line(f"{who}{self.rules.relations[e.key]}{held}"))
                elif e.duration == "end" and key in relations:
                    relations.discard(key)
                    log.append(line(f"{who}对{held}的{self.rules.relations[e.key]}结束"))
        after = self._with(members=tuple(members[x.name] for x in self.members),
                           relations=tuple(sorted(relations)) if relations != set(self.relations) else self.relations)
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
            out = fn(self._effective(m, debuffs=False), track, current=points, taken=taken, dice=_NO_DICE)
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
        log = list(self.log)
        members = []
        for m in self.members:
            kept = tuple(x for x in m.modifiers if x.expires < 0 or x.expires > turn)
            for gone in m.modifiers:
                if gone not in kept:
                    log.append(line(f"{m.name}的{self.rules.stats[gone.stat][0]}恢复（{gone.source}）"))
            lasting = tuple(c for c in m.conditions if c.expires < 0 or c.expires > turn)
            for c in m.conditions:
                if c not in lasting:
                    log.append(line(f"{m.name}的{self.rules.conditions[c.id].name}结束"))
            members.append(m._replace(modifiers=kept, conditions=lasting))
        n = len(self.members)
        if turn % n == 0:
            log.append(f"第{turn // n + 1}轮")
        return self._with(members=tuple(members), turn=turn, log=tuple(log))

    def remove_state(self, name: str, state: str) -> "Fight":
        """A new fight with `state` lifted from `name` (a recovery, the game master's call)."""
        m = self.member(name)
        if state not in m.states:
            return self
        kept = tuple(s for s in m.states if s != state)
        return self._with(members=tuple(x._replace(states=kept) if x.name == name else x for x in self.members),
                          log=(*self.log, line(f"{name}的{self.rules.state_names.get(state, state)}解除")))

    # ---- showing and storing ----
    def status(self, name: str) -> str:
        """One line of `name`'s state in the rules' language."""
        m = self.member(name)
        parts = [f"{self.rules.counters[k]}{v}" for k, v in m.counters]
        parts += [f"{self.rules.tracks.get(k, k)}{v}" for k, v in m.points if v]
        parts += [self.rules.state_names.get(s, s) for s in m.states]
        parts += [f"{self.rules.stats[x.stat][0]}{x.delta:+d}" for x in m.modifiers]
        for c in m.conditions:
            spec = self.rules.conditions[c.id]
            more = [str(c.value)] if spec.adds or any(v == "value" for _, v in spec.options) else []
            if c.source:
                more.append(f"来自{c.source}")
            if c.expires >= 0:
                more.append(f"还剩{max(0, c.expires - self.turn)}个回合")
            parts.append(spec.name + (f"（{'，'.join(more)}）" if more else ""))
        parts += [f"{self.rules.relations[r]}{b}" for r, a, b in self.relations if a == name]
        return f"{name}：" + ("，".join(parts) if parts else "无变化")

    def to_dict(self) -> Dict[str, Any]:
        return {"turn": self.turn,
                "members": [{"name": m.name, "stats": m.base.to_dict(), "counters": dict(m.counters),
                             "points": dict(m.points), "states": list(m.states),
                             "modifiers": [list(x) for x in m.modifiers],
                             "conditions": [list(c) for c in m.conditions]} for m in self.members],
                "relations": [list(r) for r in self.relations], "log": list(self.log)}

    @classmethod
    def from_dict(cls, rules: FightRules, data: Mapping[str, Any]) -> "Fight":
        """The fight `to_dict` wrote (a bot keeps one between chat messages): every value is checked
        against its declared range (`fight_state.read_fight`); anything else is `OutOfBounds`."""
        try:
            members, turn, relations, log = read_fight(rules, data)
        except RuleError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError):  # a Mapping that misbehaves
            raise OutOfBounds("无法读取战斗记录", key="fight") from None
        return cls(rules, members, turn, relations, log)


def _shown(value: Any) -> str:
    return "是" if value is True else "否" if value is False else str(value)
