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
- `attacks_until(...)` is the exact distribution of the number of identical actions until an
  outcome's running total reaches a threshold: an absorbing chain over the total, not sampling.

Every quantity is bounded: at most `MAX_MEMBERS` combatants, `MAX_LOG` log lines kept, counters
within the stats' integer range, `attacks_until` at most `MAX_ATTACKS` steps and thresholds up to
`MAX_THRESHOLD`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from .core import OutOfBounds, RuleError
from .sources import FixedDice

_NO_DICE = FixedDice(())  # the accumulation rule rolls nothing: a roll would be DiceExhausted, never a hang

MAX_MEMBERS = 100
MAX_LOG = 1000
MAX_ATTACKS = 10_000
MAX_THRESHOLD = 100_000
MAX_VALUE = 1_000_000_000
MAX_NAME = 100  # characters of a combatant's name
MAX_MODIFIERS = 100  # active modifiers per combatant
MAX_CHAIN_WORK = 20_000_000  # totals x outcomes x actions an exact sequence computation may step through


class Effect(NamedTuple):
    """One declared effect of a procedure's result (compiler: validate/fight.py).

    kind: "counter" (add an outcome to a counter), "track" (add points to the track an outcome
    names), "modifier" (a temporary stat change), "state" (set a state), "relation" (start or end
    a relation between two roles). `when` names a true/false outcome that gates it ("" = always).
    """

    kind: str
    role: str
    key: str  # counter, stat, state or relation id; for "track" the outcome naming the track
    field: str  # the outcome holding the amount ("" = none)
    sign: int  # +1 or -1 (a modifier that subtracts)
    duration: str  # modifier: "next_turn", "rounds:N" or "fight"; relation: "start" or "end"
    when: str
    other: str  # relation: the second role (held)


class ActionSpec(NamedTuple):
    name: str  # the procedure's Chinese name
    function: Callable[..., Any]
    roles: Tuple[str, ...]  # its combatant parameters, in order
    effects: Tuple[Effect, ...]
    odds: Optional[Callable[..., Any]] = None  # its exact-odds form, for `Fight.until_state`


class FightRules(NamedTuple):
    combatant: Any  # the package's Combatant class
    stats: Mapping[str, Tuple[str, int, int]]  # int stat id -> (Chinese name, min, max)
    counters: Mapping[str, str]  # counter id -> Chinese name
    tracks: Mapping[str, str]  # track id -> Chinese name ({} when the ruleset has none)
    accumulate: Optional[Callable[..., Any]]  # (creature, track, current, gained) -> outcome tuple (its `_fast` form)
    state_names: Mapping[str, str]
    state_stats: Mapping[str, Tuple[str, ...]]  # state id -> the stats it takes away
    relations: Mapping[str, str]  # relation id -> Chinese name
    actions: Mapping[str, ActionSpec]
    state_index: int = 0  # where the accumulation outcome holds `state`
    # a recovery rule: (counter, procedure's fast form, index of `points`, index of `awake`, its name)
    on_damage: Optional[Tuple[str, Callable[..., Any], int, int, str]] = None
    track_states: Mapping[str, str] = {}  # track id -> the state its points cause
    track_debuffs: Mapping[str, Tuple[str, ...]] = {}  # track id -> the stats its debuff lowers
    debuff_index: int = -1  # where the accumulation outcome holds `debuff`


class Modifier(NamedTuple):
    stat: str
    delta: int
    expires: int  # the absolute turn at whose start it lapses (-1: lasts the fight)
    source: str  # the procedure's Chinese name


class Member(NamedTuple):
    name: str
    base: Any
    counters: Tuple[Tuple[str, int], ...]
    points: Tuple[Tuple[str, int], ...]
    states: Tuple[str, ...]
    modifiers: Tuple[Modifier, ...]

    def counter(self, key: str) -> int:
        return _get(self.counters, key)

    def track_points(self, key: str) -> int:
        return _get(self.points, key)


class Action(NamedTuple):
    """A resolved action of a fight: which procedure, who played which role, its result, and the
    state that changed the stats it was resolved with (one sentence each)."""

    procedure: str
    roles: Tuple[Tuple[str, str], ...]  # (role, combatant name)
    result: Any
    applied: Tuple[str, ...] = ()

    def text(self, gm: bool = False) -> str:
        """The sentences of the state that applied, then the result's trace."""
        return "\n".join([*self.applied, self.result.text(gm)])


def _get(pairs: Tuple[Tuple[str, int], ...], key: str) -> int:
    for k, v in pairs:
        if k == key:
            return v
    return 0


def _put(pairs: Tuple[Tuple[str, int], ...], key: str, value: int) -> Tuple[Tuple[str, int], ...]:
    """`pairs` (sorted by key) with `key` set to `value` (a handful of keys: a scan beats a dict)."""
    for i, (k, _) in enumerate(pairs):
        if k == key:
            return pairs[:i] + ((key, value),) + pairs[i + 1:]
        if k > key:
            return pairs[:i] + ((key, value),) + pairs[i:]
    return pairs + ((key, value),)


class Fight:
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
        if not combatants or len(combatants) > MAX_MEMBERS:
            raise OutOfBounds(f"一场战斗要有1至{MAX_MEMBERS}名角色", key="combatants")
        members = []
        for name, base in combatants.items():
            if not isinstance(name, str) or not name or len(name) > MAX_NAME:
                raise OutOfBounds(f"角色的名字必须是1至{MAX_NAME}个字的文字", key="name")
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

    def _effective(self, m: Member, debuffs: bool = True) -> Any:
        """The stats of `m` with its modifiers and states (and, unless `debuffs` is false, the
        debuffs of its tracks: the accumulation rule itself reads the stats without them, so a
        debuff never feeds back into the capacity it is measured against)."""
        lowered = self._debuffs(m) if debuffs else ()
        if not m.modifiers and not m.states and not lowered:
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

    def until_state(self, procedure: str, roles: Mapping[str, str], target: str, track: str,
                    max_attacks: int = 200, **options: Any) -> UntilOdds:
        """Exactly: how many more times `procedure` (with these roles and options) must hit the
        combatant in role `target` until its points on `track` put it into the track's state. The
        chain's state is the points so far; each total has its own odds, from the target's stats as
        the fight would then see them (a debuff that lowers a defense makes later hits likelier)."""
        spec = self.rules.actions.get(procedure)
        if spec is None or spec.odds is None or target not in roles:
            raise OutOfBounds(f"“{procedure}”不能在战斗中计算累积概率", key=procedure)
        effect = next((e for e in spec.effects if e.kind == "track" and e.role == target), None)
        if effect is None or self.rules.accumulate is None:
            raise OutOfBounds(f"“{spec.name}”不给{target}累积负面点数", key=procedure)
        m = self.member(roles[target])
        start = m.track_points(track)
        needed = state_threshold(self.rules, self._effective(m, debuffs=False), track)
        if needed <= 0:
            raise OutOfBounds(f"“{self.rules.tracks.get(track, track)}”没有负面状态", key=track)
        others = {role: self.effective(name) for role, name in roles.items() if role != target}
        fields: Optional[Tuple[str, ...]] = None
        cache: Dict[Any, Dict[int, float]] = {}

        def gains(total: int) -> Mapping[int, float]:
            nonlocal fields
            seen = self._effective(m._replace(points=_put(m.points, track, start + total)))
            if seen not in cache:
                odds = spec.odds(**{target: seen}, **others, **options)  # type: ignore[misc]
                fields = odds.fields
                at_track, at_points = fields.index(effect.key), fields.index(effect.field)
                dist: Dict[int, float] = {}
                for outcome, p in odds.outcomes.items():
                    gained = int(outcome[at_points]) if outcome[at_track] == track else 0
                    dist[gained] = dist.get(gained, 0.0) + p
                cache[seen] = dist
            return cache[seen]

        return chain_until(gains, max(1, needed - start), max_attacks)

    def holds(self, relation: str, holder: str, held: str) -> bool:
        return (relation, holder, held) in self.relations

    # ---- acting ----
    def resolve(self, procedure: str, roles: Mapping[str, str], **options: Any) -> Action:
        """Resolve `procedure` with the named combatants in its roles (`{"attacker": "甲", ...}`),
        each with its effective stats; the fight is unchanged (apply the action to change it)."""
        spec = self.rules.actions.get(procedure)
        if spec is None:
            raise OutOfBounds(f"没有可在战斗中使用的过程“{procedure}”", key=procedure)
        missing = [r for r in spec.roles if r not in roles]
        extra = [r for r in roles if r not in spec.roles]
        if missing or extra:
            raise OutOfBounds(f"“{spec.name}”的角色是 {', '.join(spec.roles)}", key=procedure)
        kwargs = {role: self.effective(roles[role]) for role in spec.roles}
        for key in options:
            if key in kwargs:
                raise OutOfBounds(f"“{key}”是角色，不是选项", key=key)
        kwargs.update(options)
        result = spec.function(**kwargs)
        applied = tuple(line for r in spec.roles for line in self.applied_to(roles[r]))
        return Action(procedure, tuple((r, roles[r]) for r in spec.roles), result, applied)

    def applied_to(self, name: str) -> Tuple[str, ...]:
        """What `name`'s state does to its stats now, one sentence per modifier and state."""
        m = self.member(name)
        out = [f"{name}的{self.rules.stats[x.stat][0]}{x.delta:+d}（{x.source}）" for x in m.modifiers
               if x.stat in self.rules.stats]
        for state in m.states:
            taken = [self.rules.stats[s][0] for s in self.rules.state_stats.get(state, ()) if s in self.rules.stats]
            if taken:
                out.append(f"{name}处于{self.rules.state_names.get(state, state)}：{'、'.join(taken)}视为最低")
        for stat, amount in self._debuffs(m):
            out.append(f"{name}的减益：{self.rules.stats[stat][0]}-{amount}")
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
        for e in spec.effects:
            if e.when and not getattr(result, e.when):
                continue
            who = roles[e.role]
            m = members[who]
            amount = int(getattr(result, e.field)) * e.sign if e.field else 0
            if e.kind == "counter":
                if amount == 0:
                    continue
                total = max(-MAX_VALUE, min(MAX_VALUE, _get(m.counters, e.key) + amount))
                m = Member(m.name, m.base, _put(m.counters, e.key, total), m.points, m.states, m.modifiers)
                log.append(f"{who}的{self.rules.counters[e.key]}{amount:+d}（共{total}）")
                if rules.on_damage is not None and rules.on_damage[0] == e.key and amount > 0 and m.states:
                    m = self._recover(m, amount, log)
                members[who] = m
            elif e.kind == "track":
                track = str(getattr(result, e.key) or "")
                if not track or amount == 0:
                    continue
                total = max(0, min(MAX_VALUE, _get(m.points, track) + amount))
                m = Member(m.name, m.base, m.counters, _put(m.points, track, total), m.states, m.modifiers)
                log.append(f"{who}的{self.rules.tracks.get(track, track)}{amount:+d}（共{total}）")
                if rules.accumulate is not None:
                    state = str(rules.accumulate(self._effective(m, debuffs=False), track, current=total - amount,
                                                 gained=amount, dice=_NO_DICE)[rules.state_index] or "")
                    if state and state not in m.states:
                        m = m._replace(states=tuple(sorted((*m.states, state))))
                        log.append(f"{who}进入{self.rules.state_names.get(state, state)}")
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
                if len(m.modifiers) >= MAX_MODIFIERS:
                    raise OutOfBounds(f"“{who}”身上的临时修正超过{MAX_MODIFIERS}个", key=who)
                members[who] = m._replace(modifiers=(*m.modifiers, Modifier(e.key, amount, expires, spec.name)))
                until = {"next_turn": "，直到其下一回合开始"}.get(e.duration, "")
                log.append(f"{who}的{self.rules.stats[e.key][0]}{amount:+d}（{spec.name}{until}）")
            elif e.kind == "state":
                if e.key not in m.states:
                    members[who] = m._replace(states=tuple(sorted((*m.states, e.key))))
                    log.append(f"{who}进入{self.rules.state_names.get(e.key, e.key)}")
            elif e.kind == "relation":
                held = roles[e.other]
                key = (e.key, who, held)
                if e.duration == "start" and key not in relations:
                    relations.add(key)
                    log.append(f"{who}{self.rules.relations[e.key]}{held}")
                elif e.duration == "end" and key in relations:
                    relations.discard(key)
                    log.append(f"{who}对{held}的{self.rules.relations[e.key]}结束")
        return self._with(members=tuple(members[x.name] for x in self.members),
                          relations=tuple(sorted(relations)) if relations != set(self.relations) else self.relations,
                          log=self.log + tuple(log))

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
                m = Member(m.name, m.base, m.counters, _put(m.points, track, left), m.states, m.modifiers)
                log.append(f"{m.name}的{self.rules.tracks.get(track, track)}{left - points:+d}（{source}，共{left}）")
            if awake:
                m = Member(m.name, m.base, m.counters, m.points, tuple(s for s in m.states if s != state), m.modifiers)
                log.append(f"{m.name}的{self.rules.state_names.get(state, state)}解除")
        return m

    def next_turn(self) -> "Fight":
        """The next combatant's turn (a new round after the last); modifiers that last until the
        start of this turn lapse."""
        turn = self.turn + 1
        log = list(self.log)
        members = []
        for m in self.members:
            kept = tuple(x for x in m.modifiers if x.expires < 0 or x.expires > turn)
            for gone in m.modifiers:
                if gone not in kept:
                    log.append(f"{m.name}的{self.rules.stats[gone.stat][0]}恢复（{gone.source}）")
            members.append(m._replace(modifiers=kept))
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
                          log=(*self.log, f"{name}的{self.rules.state_names.get(state, state)}解除"))

    # ---- showing and storing ----
    def status(self, name: str) -> str:
        """One line of `name`'s state in the rules' language."""
        m = self.member(name)
        parts = [f"{self.rules.counters[k]}{v}" for k, v in m.counters]
        parts += [f"{self.rules.tracks.get(k, k)}{v}" for k, v in m.points if v]
        parts += [self.rules.state_names.get(s, s) for s in m.states]
        parts += [f"{self.rules.stats[x.stat][0]}{x.delta:+d}" for x in m.modifiers]
        parts += [f"{self.rules.relations[r]}{b}" for r, a, b in self.relations if a == name]
        return f"{name}：" + ("，".join(parts) if parts else "无变化")

    def to_dict(self) -> Dict[str, Any]:
        return {"turn": self.turn,
                "members": [{"name": m.name, "stats": m.base.to_dict(), "counters": dict(m.counters),
                             "points": dict(m.points), "states": list(m.states),
                             "modifiers": [list(x) for x in m.modifiers]} for m in self.members],
                "relations": [list(r) for r in self.relations], "log": list(self.log)}

    @classmethod
    def from_dict(cls, rules: FightRules, data: Mapping[str, Any]) -> "Fight":
        """The fight `to_dict` wrote (a bot keeps one between chat messages); every value is checked."""
        try:
            raw_members = list(data["members"])
            if not raw_members or len(raw_members) > MAX_MEMBERS:
                raise OutOfBounds("战斗的角色数不对", key="members")
            members = []
            for raw in raw_members:
                name = str(raw["name"])
                if not name or len(name) > MAX_NAME or len(raw.get("modifiers", [])) > MAX_MODIFIERS:
                    raise OutOfBounds("战斗记录中的名字或临时修正超出范围", key="members")
                base = rules.combatant.from_dict(raw["stats"])
                counters = tuple(sorted((str(k), _int(v)) for k, v in dict(raw.get("counters", {})).items()
                                        if k in rules.counters))
                points = tuple(sorted((str(k), _int(v)) for k, v in dict(raw.get("points", {})).items()
                                      if k in rules.tracks))
                states = tuple(sorted(str(s) for s in raw.get("states", []) if s in rules.state_names))
                mods = tuple(Modifier(str(s), _int(d), _int(x), str(src)) for s, d, x, src in raw.get("modifiers", [])
                             if s in rules.stats)
                members.append(Member(name, base, counters, points, states, mods))
            names = {m.name for m in members}
            relations = tuple(sorted((str(r), str(a), str(b)) for r, a, b in data.get("relations", [])
                                     if r in rules.relations and a in names and b in names))
            log = tuple(str(x) for x in list(data.get("log", []))[-MAX_LOG:])
            return cls(rules, tuple(members), _int(data.get("turn", 0)), relations, log)
        except RuleError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise OutOfBounds(f"无法读取战斗记录：{exc}", key="fight") from None


def _int(value: Any) -> int:
    if type(value) is not int or not -MAX_VALUE <= value <= MAX_VALUE:
        raise OutOfBounds(f"{value!r} 不是范围内的整数", key="value")
    return value


class UntilOdds(NamedTuple):
    """The distribution of the number of actions until a running total reaches a threshold."""

    probabilities: Tuple[float, ...]  # P(reached at action k + 1), k = 0 ..
    tail: float  # P(not reached within len(probabilities) actions)
    threshold: int

    @property
    def expected(self) -> float:
        """The mean number of actions, counting the tail as reached at the cut-off (a lower bound
        when `tail` > 0)."""
        n = len(self.probabilities)
        return sum((k + 1) * p for k, p in enumerate(self.probabilities)) + (n + 1) * self.tail

    def at_most(self, n: int) -> float:
        """P(reached within n actions)."""
        return sum(self.probabilities[:max(0, n)])

    @property
    def median(self) -> int:
        total = 0.0
        for k, p in enumerate(self.probabilities):
            total += p
            if total >= 0.5:
                return k + 1
        return len(self.probabilities) + 1


def attacks_until(marginal: Mapping[int, float], threshold: int, max_attacks: int = 200,
                  negligible: float = 1e-15) -> UntilOdds:
    """Exactly: the number of independent actions, each adding a value drawn from `marginal`
    (value -> probability), until the running total reaches `threshold`. The chain's state is the
    total so far (capped at the threshold, which absorbs); it stops at `max_attacks` or when the
    mass still unabsorbed is below `negligible`, and reports that mass as `tail`."""
    if any(v < 0 for v in marginal):
        raise OutOfBounds("累计的结果不能为负", key="marginal")
    return chain_until(lambda total: marginal, threshold, max_attacks, negligible)


def chain_until(gains: Callable[[int], Mapping[int, float]], threshold: int, max_attacks: int = 200,
                negligible: float = 1e-15) -> UntilOdds:
    """`attacks_until` where each running total has its own distribution of what one more action
    adds (`gains(total)`): the absorbing chain over the total, exactly."""
    if type(threshold) is not int or not 1 <= threshold <= MAX_THRESHOLD:
        raise OutOfBounds(f"阈值必须是1至{MAX_THRESHOLD}的整数", key="threshold")
    if type(max_attacks) is not int or not 1 <= max_attacks <= MAX_ATTACKS:
        raise OutOfBounds(f"最多攻击次数必须是1至{MAX_ATTACKS}的整数", key="max_attacks")
    steps_at: Dict[int, List[Tuple[int, float]]] = {}

    def steps(total: int) -> List[Tuple[int, float]]:
        if total not in steps_at:
            steps_at[total] = [(max(0, int(v)), float(p)) for v, p in gains(total).items() if p > 0]
            if threshold * max(1, len(steps_at[total])) * max_attacks > MAX_CHAIN_WORK:
                raise OutOfBounds(f"阈值×结果种数×攻击次数超过{MAX_CHAIN_WORK}：请降低阈值或最多攻击次数",
                                  key="threshold")
        return steps_at[total]

    dist = [0.0] * threshold
    dist[0] = 1.0
    out: List[float] = []
    alive = 1.0
    for _ in range(max_attacks):
        nxt = [0.0] * threshold
        absorbed = 0.0
        for total, mass in enumerate(dist):
            if mass == 0.0:
                continue
            for v, p in steps(total):
                t = total + v
                if t >= threshold:
                    absorbed += mass * p
                else:
                    nxt[t] += mass * p
        out.append(absorbed)
        dist = nxt
        alive = sum(dist)
        if alive < negligible:
            break
    return UntilOdds(tuple(out), max(0.0, alive), threshold)


def expected_attacks(marginal: Mapping[int, float], threshold: int) -> Optional[float]:
    """The exact mean number of actions until the running total reaches `threshold`, without the
    distribution: E(t) = (1 + sum over v > 0 of p_v E(t + v)) / (1 - p_0), E(>= threshold) = 0, from
    the top total down (O(threshold x outcomes)). None when the total can never grow."""
    if type(threshold) is not int or not 1 <= threshold <= MAX_THRESHOLD:
        raise OutOfBounds(f"阈值必须是1至{MAX_THRESHOLD}的整数", key="threshold")
    stay = sum(p for v, p in marginal.items() if v <= 0)
    steps = [(int(v), float(p)) for v, p in marginal.items() if v > 0 and p > 0]
    if threshold * max(1, len(steps)) > MAX_CHAIN_WORK:
        raise OutOfBounds(f"阈值×结果种数超过{MAX_CHAIN_WORK}", key="threshold")
    if not steps or stay >= 1.0:
        return None
    top = max(v for v, _ in steps)
    e = [0.0] * (threshold + top)  # e[t]: from total t; 0 from the threshold on
    values, probs = [v for v, _ in steps], [p for _, p in steps]
    scale = 1.0 - stay
    for t in range(threshold - 1, -1, -1):
        e[t] = (1.0 + sum([p * e[t + v] for v, p in zip(values, probs)])) / scale
    return e[0]


def state_threshold(rules: FightRules, creature: Any, track: str, limit: int = MAX_THRESHOLD) -> int:
    """The fewest points on `track` that put `creature` into the track's state (by the ruleset's own
    accumulation procedure), found by doubling and bisection; 0 when no total up to `limit` does."""
    accumulate = rules.accumulate
    if accumulate is None:
        return 0

    def reaches(points: int) -> bool:
        return bool(accumulate(creature, track, current=0, gained=points, dice=_NO_DICE)[rules.state_index])

    hi = 1
    while not reaches(hi):
        if hi >= limit:
            return 0
        hi = min(limit, hi * 2)
    lo = hi // 2
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if reaches(mid):
            hi = mid
        else:
            lo = mid
    return hi


def sequence_odds(odds: Callable[..., Any], field: str, threshold: int, max_attacks: int,
                  args: Sequence[Any], kwargs: Mapping[str, Any]) -> UntilOdds:
    """`attacks_until` over the marginal of `field` in the exact odds of one action."""
    marginal = odds(*args, **kwargs).marginal(field)
    if any(type(v) is not int for v in marginal):
        raise OutOfBounds(f"“{field}”不是整数结果，无法累计", key=field)
    return attacks_until(marginal, threshold, max_attacks)
