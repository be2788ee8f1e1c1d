"""Exact odds over a plan: how many actions of an opening sequence and then a repeated cycle until
a target is reached (`Fight.until_plan`, inherited from `Planned`), following the whole fight state
as it changes — conditions set and used up, debuffs, states, relations, expiries at turn ends.

The chain's states are fights (without their logs); each action maps a state to the states its
outcomes lead to, by the procedure's exact odds with the stats and options the fight supplies in
that state (`Fight._prepare`, the same as `resolve`), and `Fight.apply` of each outcome. Outcomes
that change the fight alike are merged first (only the outcome fields the effects and endings read
matter), and each state's step is computed once per place in the plan.

Plans and targets are read and checked by `fight_plan_read.py` (it says their form). An action the
fight refuses in some state (its actor 昏迷, say) does nothing there and the plan goes on.

Bounded: plans of at most `MAX_PLAN_STEPS` steps (`fight_plan_read.py`), at most `MAX_ATTACKS`
actions, at most `MAX_PLAN_STATES` live states, `MAX_PLAN_WORK` outcome applications and
`MAX_PLAN_MOVES` moves of the chain (a state, one of its next states, one total carried), each
checked before the work it bounds: a chain whose states keep growing (a counter summed in the
state, never reaching its target) stops within about two seconds, whatever `max_actions` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple

from .core import LimitExceeded, OutOfBounds, cache
from .fight_apply import Action
from .fight_conditions import Refused
from .fight_odds import MAX_ATTACKS, UntilOdds, attacks_until, expected_attacks
from .fight_plan_read import PlanStep, Target, read_plan, read_targets
from .fight_state import ActionSpec, FightRules, Member, bad_options

if TYPE_CHECKING:
    from .fight import Fight

MAX_PLAN_STATES = 20_000  # distinct fight states alive after one action
MAX_PLAN_WORK = 20_000  # outcome applications (Fight.apply) in one call: about 1 s at the worst
MAX_PLAN_MOVES = 600_000  # (state, next state, total) steps of the chain in one call: about 0.6 s


class _Outcome:
    """An outcome of a procedure's odds, read by `Fight.apply` as it reads a result."""

    __slots__ = ("__dict__",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.__dict__.update(values)


class Planned:
    """`until_plan` for `Fight` (which provides the attributes and methods below)."""

    __slots__ = ()
    rules: FightRules
    members: Tuple[Member, ...]
    turn: int
    relations: Tuple[Tuple[str, str, str], ...]

    if TYPE_CHECKING:  # provided by Fight
        def _prepare(self, procedure: str, roles: Mapping[str, str], options: Mapping[str, Any]
                     ) -> Tuple[ActionSpec, Dict[str, Any], Tuple[str, ...], Tuple[Tuple[str, str, str], ...], Any]: ...

        def _with(self, members: Optional[Tuple[Member, ...]] = None, turn: Optional[int] = None,
                  relations: Optional[Tuple[Tuple[str, str, str], ...]] = None,
                  log: Optional[Tuple[str, ...]] = None, added: Optional[List[str]] = None) -> "Fight": ...

        def _active(self, m: Member) -> Tuple[Any, ...]: ...

        def _priced(self, spec: ActionSpec, roles: Mapping[str, str], result: Any) -> Tuple[Any, Tuple[str, ...]]: ...

        def member(self, name: str) -> Member: ...

    def reached(self, target: Any) -> bool:
        """Whether the fight has reached `target` (as `until_plan` takes it)."""
        return _reached(self, read_targets(self.rules, [m.name for m in self.members], target))

    def expected_until(self, plan: Any, target: Any, max_actions: int = 1000) -> Optional[float]:
        """The exact mean number of actions of `plan` until `target`: solved for the mean where one
        action repeated leaves the state as it was (`expected_attacks`, no cut-off), else from
        `until_plan`'s distribution; None when the target may never be reached, or not within
        `max_actions` (more than 1e-9 of the chance left)."""
        names = [m.name for m in self.members]
        opening, cycle = read_plan(self.rules, names, plan)
        targets = read_targets(self.rules, names, target)
        if len(targets) == 1 and targets[0].kind == "counter" and not opening and len(cycle) == 1:
            counted = targets[0]
            start = _zero(self._with(log=()), counted)
            gains = _Chain(self.rules, counted).cycle_gains(start, cycle[0])
            need = counted.at_least - self.member(counted.who).counter(counted.key)
            if gains is not None and need >= 1:
                return expected_attacks(gains, need)
        odds = self.until_plan(plan, target, max_actions)
        return odds.expected if odds.tail <= 1e-9 else None

    def until_plan(self, plan: Any, target: Any, max_actions: int = 200,
                   negligible: float = 1e-15) -> UntilOdds:
        """Exactly: how many actions of `plan` (an opening, then its cycle again and again) until
        `target` is reached, from this fight, following its whole state. `probabilities[k]` is the
        chance that it is first reached by action k + 1; `tail` the chance that it is not within
        `max_actions` (or before the rest is below `negligible`)."""
        names = [m.name for m in self.members]
        opening, cycle = read_plan(self.rules, names, plan)
        targets = read_targets(self.rules, names, target)
        if type(max_actions) is not int or not 1 <= max_actions <= MAX_ATTACKS:
            raise OutOfBounds(f"最多行动次数必须是1至{MAX_ATTACKS}的整数", key="max_actions")
        if _reached(self, targets):
            raise OutOfBounds("战斗已经达到这个目标", key="target")
        # A lone counter target is carried beside the state rather than in it: counters feed no
        # stat, so the states that differ only in that total share their steps (the chain over the
        # fight becomes a chain over the total wherever nothing else changes).
        counted = targets[0] if len(targets) == 1 and targets[0].kind == "counter" else None
        start = self._with(log=())
        total0 = 0
        if counted is not None:
            total0 = start.member(counted.who).counter(counted.key)
            start = _zero(start, counted)
        dist: Dict[Any, Tuple["Fight", Dict[int, float]]] = {_key(start): (start, {total0: 1.0})}
        chain = _Chain(self.rules, counted)
        if counted is not None and not opening and len(cycle) == 1:
            # one action again and again that leaves the state as it was (but for the total): the
            # plain chain over the total, stepped as whole lists (fight_odds.attacks_until)
            gains = chain.cycle_gains(start, cycle[0])
            if gains is not None:
                need = counted.at_least - total0
                return attacks_until(gains, need, max_actions, negligible)._replace(threshold=counted.at_least)
        out: List[float] = []
        alive = 1.0
        for k in range(max_actions):
            place = k if k < len(opening) else len(opening) + (k - len(opening)) % len(cycle)
            step = opening[place] if place < len(opening) else cycle[place - len(opening)]
            nxt: Dict[Any, Tuple["Fight", Dict[int, float]]] = {}
            absorbed = 0.0
            for key, (fight, totals) in dist.items():
                following = chain.step(fight, key, place, step)
                chain.moving(len(following) * len(totals))
                for after, k2, delta, q in following:
                    if counted is None and _reached(after, targets):
                        absorbed += q * sum(totals.values())
                        continue
                    have = nxt.get(k2)
                    if have is None:
                        have = nxt[k2] = (after, {})
                    into = have[1]
                    for total, p in totals.items():
                        if counted is not None and total + delta >= counted.at_least:
                            absorbed += p * q
                        else:
                            into[total + delta] = into.get(total + delta, 0.0) + p * q
            live = sum(len(t) for _, t in nxt.values())
            if live > MAX_PLAN_STATES:
                raise LimitExceeded(f"计划的战斗状态有{live}种，超过上限{MAX_PLAN_STATES}：请减少最多行动次数")
            out.append(absorbed)
            dist = {k2: v for k2, v in nxt.items() if v[1]}
            alive = sum(p for _, t in dist.values() for p in t.values())
            if alive < negligible:
                break
        threshold = targets[0].at_least if len(targets) == 1 else 1
        return UntilOdds(tuple(out), max(0.0, alive), threshold)


def _key(fight: Any) -> Any:
    """What tells two states of one chain apart (the combatants' base stats never change)."""
    return (tuple(m[2:] for m in fight.members), fight.turn, fight.relations)


def _zero(fight: Any, counted: Target) -> Any:
    """`fight` with the counted total set aside (its counter at 0)."""
    members = tuple(m._replace(counters=tuple((k, v) for k, v in m.counters if k != counted.key))
                    if m.name == counted.who else m for m in fight.members)
    return fight._with(members=members)


def _reached(fight: Any, targets: Tuple[Target, ...]) -> bool:
    for t in targets:
        m = fight.member(t.who)
        if t.kind == "state" and t.key in m.states:
            return True
        if t.kind == "condition" and any(c.id == t.key for c in fight._active(m)):
            return True
        if t.kind == "counter" and m.counter(t.key) >= t.at_least:
            return True
        if t.kind == "points" and m.track_points(t.key) >= t.at_least:
            return True
    return False


class _Chain:
    """The steps of one `until_plan` call: each state's successors at each place in the plan, and
    each procedure's odds for the arguments a state gives it, computed once."""

    def __init__(self, rules: FightRules, counted: Optional[Target]) -> None:
        self.rules = rules
        self.counted = counted
        self.steps: Dict[Any, List[Tuple[Any, Any, int, float]]] = {}
        self.grouped: Dict[Any, _Merged] = {}  # (procedure, its arguments) -> its merged outcomes
        self.work = 0
        self.moves = 0

    def moving(self, moves: int) -> None:
        """Count `moves` steps of the chain about to be taken (MAX_PLAN_MOVES)."""
        if self.moves + moves > MAX_PLAN_MOVES:
            raise LimitExceeded(f"计划的计算量超过{MAX_PLAN_MOVES}次状态转移：请减少最多行动次数")
        self.moves += moves

    def step(self, fight: Any, key: Any, place: int, step: PlanStep) -> List[Tuple[Any, Any, int, float]]:
        """The states one step leads to from `fight`: (state, its key, what the counted total
        gained, probability)."""
        kept = self.steps.get((key, place))
        if kept is not None:
            return kept
        roles = dict(step.roles)
        merged: Dict[Any, Tuple[Any, float]] = {}
        try:
            spec, kwargs, applied, used, turn = fight._prepare(step.procedure, roles, dict(step.options))
        except Refused:
            self._add(merged, _end(fight, step), 1.0)
        else:
            outcomes = self._outcomes(step.procedure, spec, kwargs)
            if self.work + len(outcomes) > MAX_PLAN_WORK:
                raise LimitExceeded(f"计划的计算量超过{MAX_PLAN_WORK}次结算：请减少最多行动次数")
            self.work += len(outcomes)
            for outcome, q in outcomes:
                if spec.action_from or spec.costs:  # what this outcome spends (refused: the step ends)
                    try:
                        turn = fight._priced(spec, roles, outcome)[0]
                    except Refused:
                        self._add(merged, _end(fight, step), q)
                        continue
                action = Action(step.procedure, step.roles, outcome, applied, used, turn)
                self._add(merged, _end(fight.apply(action), step), q)
        out = [(after, k2[0], k2[1], q) for k2, (after, q) in merged.items()]
        self.steps[(key, place)] = out
        return out

    def _add(self, merged: Dict[Any, Tuple[Any, float]], after: Any, q: float) -> None:
        delta = 0
        if self.counted is not None:
            delta = after.member(self.counted.who).counter(self.counted.key)
            if delta:
                after = _zero(after, self.counted)
        k2 = (_key(after), delta)
        have = merged.get(k2)
        merged[k2] = (after, q if have is None else have[1] + q)

    def cycle_gains(self, fight: Any, step: PlanStep) -> Optional[Dict[int, float]]:
        """What one action adds to the counted total when it leaves the state as it was but for
        that total (told without applying it, `plain_gains`, else from its applied outcomes), so
        that the chain is the plain one over the total; None when some outcome changes the state
        or lowers the total."""
        gains = self.plain_gains(fight, step)
        if gains is not None:
            return gains
        key = _key(fight)
        steps = self.step(fight, key, 0, step)
        if not all(k2 == key and delta >= 0 for _, k2, delta, _ in steps):
            return None
        gains = {}
        for _, _, delta, q in steps:
            gains[delta] = gains.get(delta, 0.0) + q
        return gains

    def plain_gains(self, fight: Any, step: PlanStep) -> Optional[Dict[int, float]]:
        """What one action adds to the counted total, when it can be told without applying it:
        nobody carries anything (no modifier, state, condition, points, relation, turn budget) and
        every outcome's effects but the counted counter's do nothing (no amount, no track, nothing
        spent, their gate false); then the action leaves the state as it was and the chain is the plain one.
        None when that cannot be told this way (the caller applies the outcomes)."""
        counted = self.counted
        if counted is None or fight.relations or getattr(fight.rules, "turn", None) is not None:
            return None
        if any(m.modifiers or m.states or m.conditions or m.points for m in fight.members):
            return None
        roles = dict(step.roles)
        try:
            spec, kwargs, _applied, _used, turn = fight._prepare(step.procedure, roles, dict(step.options))
        except Refused:
            return None
        if turn is not None:
            return None
        merged = self._grouped(step.procedure, spec, kwargs)
        read, grouped = merged.read, merged.values
        which = (read, step.roles, counted.key, counted.who)
        reads = _reads(self.rules, spec)
        kept = reads.plain
        checks = kept.get(which)
        if checks is None:
            if len(kept) >= 256:
                kept.clear()
            checks = kept[which] = _plain_checks(spec, read, counted, roles)
        return reads.gains(checks, grouped)

    def _grouped(self, procedure: str, spec: ActionSpec, kwargs: Dict[str, Any]) -> "_Merged":
        """The procedure's outcomes for these arguments, merged by the fields the fight reads."""
        try:
            cache_key: Any = (procedure, tuple(sorted(kwargs.items())))
            hash(cache_key)
        except TypeError:
            cache_key = None
        if cache_key is not None:
            kept = self.grouped.get(cache_key)
            if kept is not None:
                return kept
        assert spec.odds is not None
        try:
            odds = spec.odds(**kwargs)
        except TypeError:  # a required option left out
            raise bad_options(spec, procedure) from None
        read, at = _reads(self.rules, spec).projection(odds.fields)
        merged: Dict[Tuple[Any, ...], float] = {}
        for projected, p in odds.project(at):  # each outcome's values of the fields read
            if p > 0.0:
                merged[projected] = merged.get(projected, 0.0) + p
        out = _Merged(read, list(merged.items()))
        if cache_key is not None:
            self.grouped[cache_key] = out
        return out

    def _outcomes(self, procedure: str, spec: ActionSpec, kwargs: Dict[str, Any]) -> List[Tuple[_Outcome, float]]:
        """The procedure's outcomes for these arguments, merged by the fields the fight reads, as
        `Fight.apply` reads a result."""
        merged = self._grouped(procedure, spec, kwargs)
        if merged.outcomes is None:
            read = merged.read
            merged.outcomes = [(_Outcome(dict(zip(read, values))), p) for values, p in merged.values]
        return merged.outcomes


class _Merged:
    """A procedure's outcomes for one set of arguments, merged by the fields the fight reads:
    those fields (`read`), [(their values, probability)], and the same as `_Outcome`s once asked."""

    __slots__ = ("read", "values", "outcomes")

    def __init__(self, read: Tuple[str, ...], values: List[Tuple[Tuple[Any, ...], float]]) -> None:
        self.read = read
        self.values = values
        self.outcomes: Optional[List[Tuple[_Outcome, float]]] = None


# What `plain_gains` asks of one effect of an outcome whose gate is true (`_plain_checks`): the
# counted counter's amount; no amount; no amount or no track named; nothing spent; never inert.
_COUNTED, _NO_AMOUNT, _NO_TRACK, _NOTHING_SPENT, _ACTS = range(5)


def _plain_gains(grouped: List[Tuple[Tuple[Any, ...], float]], checks: Tuple[Tuple[int, int, int, int, int], ...]
                 ) -> Optional[Dict[int, float]]:
    """`plain_gains` over the merged outcomes, a check at a time down the columns of the fields
    read (each outcome's values): what the counted total gains in each, None when some outcome's
    effect would do anything else. An amount is an int (a bool counts as 0 or 1) and a sign +1 or
    -1, so an amount times its sign is non-zero exactly when the amount is."""
    if not grouped:
        return {}
    columns = list(zip(*[values for values, _ in grouped]))
    deltas: List[int] = [0] * len(grouped)
    for code, when, at, sign, key in checks:
        gates = columns[when] if when >= 0 else None
        if code == _COUNTED:
            amounts = [int(a) * sign for a in columns[at]]
            deltas = ([d + a for d, a in zip(deltas, amounts)] if gates is None else
                      [d + a if g else d for d, a, g in zip(deltas, amounts, gates)])
        elif code == _NO_AMOUNT:
            if any(columns[at] if gates is None else [g and a for a, g in zip(columns[at], gates)]):
                return None
        elif code == _NO_TRACK:
            tracks = columns[key]
            if any([a and t for a, t in zip(columns[at], tracks)] if gates is None else
                   [g and a and t for a, t, g in zip(columns[at], tracks, gates)]):
                return None
        elif code == _NOTHING_SPENT:
            if any([int(a) > 0 for a in columns[at]] if gates is None else
                   [int(a) > 0 for a, g in zip(columns[at], gates) if g]):
                return None
        elif gates is None or any(gates):  # an effect that always does something when its gate is true
            return None
    gains: Dict[int, float] = {}
    for delta, (_, q) in zip(deltas, grouped):
        if delta < 0:
            return None
        gains[delta] = gains.get(delta, 0.0) + q
    return gains


def _plain_checks(spec: ActionSpec, read: Tuple[str, ...], counted: Target, roles: Mapping[str, str]
                  ) -> Tuple[Tuple[int, int, int, int, int], ...]:
    """Each effect of `spec` that may do something, as (what to check, the position of its gate
    in an outcome's values of `read` (-1: none), of its amount, its sign, of the track it names):
    the effects that can never do anything (no amount to add, nothing to clear or spend) left out."""
    at = {f: i for i, f in enumerate(read)}
    out = []
    for e in spec.effects:
        when = at[e.when] if e.when else -1
        amount = at[e.field] if e.field else -1
        if e.kind == "counter" and e.key == counted.key and roles[e.role] == counted.who:
            if amount >= 0:
                out.append((_COUNTED, when, amount, e.sign, -1))
        elif e.kind in ("counter", "modifier"):
            if amount >= 0:
                out.append((_NO_AMOUNT, when, amount, e.sign, -1))
        elif e.kind == "track":
            if amount >= 0:
                out.append((_NO_TRACK, when, amount, e.sign, at[e.key]))
        elif e.kind == "clear":
            continue  # nobody has a condition to clear
        elif e.kind in ("resource", "capacity"):
            if amount >= 0:
                out.append((_NOTHING_SPENT, when, amount, 1, -1))
            elif int(e.duration or 0) > 0:  # a fixed amount: always spends
                out.append((_ACTS, when, -1, 1, -1))
        else:
            out.append((_ACTS, when, -1, 1, -1))
    return tuple(out)


class _Reads:
    """What a chain reads of one action spec under one set of fight rules, worked out once for
    every chain that runs it (the pages run a chain per cell): the outcome fields `Fight.apply`
    reads (`_fields_read`), where they stand among an odds' fields, the `_plain_checks` of each
    (fields read, roles, counted target), and `_plain_gains` by those checks and the merged
    outcomes (the cells of a page's column of 1,000 weapons hold about 30 distinct ones)."""

    __slots__ = ("rules", "spec", "fields", "plain", "_at", "_gains")

    def __init__(self, rules: FightRules, spec: ActionSpec) -> None:
        self.rules = rules
        self.spec = spec
        self.fields = _fields_read(rules, spec)
        self.plain: Dict[Any, Tuple[Tuple[int, int, int, int, int], ...]] = {}
        self._at: Dict[Tuple[str, ...], Tuple[Tuple[str, ...], Tuple[int, ...]]] = {}
        self._gains: Dict[Any, Optional[Dict[int, float]]] = {}

    def gains(self, checks: Tuple[Tuple[int, int, int, int, int], ...],
              grouped: List[Tuple[Tuple[Any, ...], float]]) -> Optional[Dict[int, float]]:
        """`_plain_gains(grouped, checks)`, a new dict each time (at most 1,024 kept)."""
        key = (checks, tuple(grouped))
        try:
            found = self._gains[key]
        except KeyError:
            if len(self._gains) >= 1024:
                self._gains.clear()
            found = self._gains[key] = _plain_gains(grouped, checks)
        return None if found is None else dict(found)

    def projection(self, fields: Tuple[str, ...]) -> Tuple[Tuple[str, ...], Tuple[int, ...]]:
        """The fields read among an odds' `fields`, in their order, and their positions there."""
        kept = self._at.get(fields)
        if kept is None:
            if len(self._at) >= 64:
                self._at.clear()
            read = tuple(f for f in fields if f in self.fields)
            kept = self._at[fields] = (read, tuple(fields.index(f) for f in read))
        return kept


def _reads(rules: FightRules, spec: ActionSpec) -> _Reads:
    """`spec`'s `_Reads` under `rules`, remembered by their identities (each entry holds both, so
    no identity is reused while it is kept)."""
    hit = _READS.get((id(rules), id(spec)))
    if hit is not None and hit.spec is spec and hit.rules is rules:
        return hit
    if len(_READS) >= 1024:
        _READS.clear()
    made = _READS[(id(rules), id(spec))] = _Reads(rules, spec)
    return made


_READS: Dict[Tuple[int, int], _Reads] = cache()


def _fields_read(rules: FightRules, spec: ActionSpec) -> Tuple[str, ...]:
    """The outcome fields of an action of `spec` that `Fight.apply` reads: its effects' amounts,
    gates and tracks, the gates of the conditions an action ends, and the kind of action it spends."""
    read = [x.scope.when for c in rules.conditions.values() for x in c.ends if x.kind == "acts" and x.scope.when]
    if spec.action_from:  # the kind of action it spends
        read.append(spec.action_from)
    read += [field for _, field in spec.costs]  # what it spends of the turn's pools
    for e in spec.effects:
        read += [f for f in (e.field, e.when, e.key if e.kind == "track" else "") if f]
    return tuple(dict.fromkeys(read))


def _end(fight: Any, step: PlanStep) -> Any:
    """The fight after the step: without its log, and when the step ends the turn, at the acting
    combatant's next turn (everyone else's turn passing); its turn counted from the start of the
    round (every expiry turn moved with it), so that a state the chain has met before, rounds ago,
    is met again as the same state."""
    if step.end_turn:
        spec = fight.rules.actions[step.procedure]
        actor = dict(step.roles)[spec.roles[spec.subject]]
        for _ in range(len(fight.members)):
            fight = fight.next_turn()
            if fight.actor == actor:
                break
    n = len(fight.members)
    shift = fight.turn // n * n
    if not shift:
        return fight._with(log=())
    members = tuple(m._replace(modifiers=tuple(x._replace(expires=x.expires - shift) if x.expires >= 0 else x
                                               for x in m.modifiers),
                               conditions=tuple(c._replace(expires=c.expires - shift) if c.expires >= 0 else c
                                                for c in m.conditions))
                    for m in fight.members)
    return fight._with(members=members, turn=fight.turn - shift, log=())
