"""The values a fight holds and their declared ranges.

Every value of a fight has a declared range, kept by `Fight.apply`/`next_turn` (they saturate at
the top and say so) and enforced on stored data by `fight_stored.read_fight`: a member count of 1
to `MAX_MEMBERS`, unique names of 1 to `MAX_NAME` characters without control, bidirectional or
zero-width characters, counters within +-`MAX_VALUE`, points within 0 to the rules' `points_max`
(the top the accumulation procedure accepts), a turn within 0 to `MAX_TURN`, unique states and
relations the rules declare, at most `MAX_MODIFIERS` modifiers and `MAX_CONDITIONS` conditions
each, at most `MAX_LOG` log lines of at most `MAX_LOG_LINE` characters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, List, Mapping, NamedTuple, Optional, Tuple

from .core import OutOfBounds, cache
from .fight_conditions import ACTION_NAMES, Condition, ConditionSpec, RelationSpec

if TYPE_CHECKING:
    from .fight_checks import CheckUse

MAX_MEMBERS = 100
MAX_LOG = 1000
MAX_LOG_LINE = 500  # characters of one log line (longer lines are cut with "…")
MAX_VALUE = 1_000_000_000  # counters, modifier amounts and expiry turns
MAX_TURN = 1_000_000
MAX_NAME = 100  # characters of a combatant's name
MAX_MODIFIERS = 100  # active modifiers per combatant
MAX_CONDITIONS = 100  # conditions per combatant


class Effect(NamedTuple):
    """One declared effect of a procedure's result (compiler: validate/fight.py).

    kind: "counter" (add an outcome to a counter), "track" (add points to the track an outcome
    names), "modifier" (a temporary stat change), "state" (set a state), "relation" (start or end
    a relation between two roles), "condition" (set a declared condition, its value from an
    outcome, its source the role `other`), "clear" (end a condition). `when` names a true/false
    outcome that gates it ("" = always).
    """

    kind: str
    role: str
    key: str  # counter, stat, state or relation id; for "track" the outcome naming the track
    field: str  # the outcome holding the amount ("" = none)
    sign: int  # +1 or -1 (a modifier that subtracts)
    duration: str  # modifier: "next_turn", "rounds:N" or "fight"; relation: "start" or "end"; clear: "everyone" or ""
    when: str
    other: str  # relation: the second role (held); condition: the source's role ("" none)


class ActionSpec(NamedTuple):
    name: str  # the procedure's Chinese name
    function: Callable[..., Any]
    roles: Tuple[str, ...]  # its combatant parameters, in order
    effects: Tuple[Effect, ...]
    odds: Optional[Callable[..., Any]] = None  # its exact-odds form, for `Fight.until_state`
    params: Mapping[str, str] = {}  # its other parameters: id -> Chinese name (conditions supply some)
    action: str = ""  # the kind of action it is (fight_conditions.ACTIONS; "" = not declared)
    nature: str = ""  # "physical", "mental" or ""
    subject: int = 0  # which role acts (its index in roles): the one whose conditions may forbid it
    checks: Tuple["CheckUse", ...] = ()  # the checks it rolls that a debuff may lower (fight_checks.py)
    action_from: str = ""  # the text outcome naming the kind of action it spends ("": `action`, before it resolves)
    costs: Tuple[Tuple[str, str], ...] = ()  # turn pool -> the whole-number outcome holding what it spends of it


class Facts(NamedTuple):
    """What the fight reads of an ActionSpec at every action, worked out once (`facts`)."""

    spec: ActionSpec
    roles: FrozenSet[str]  # its roles, for the check of the roles an action names
    spends: bool  # whether an effect spends a resource (fight_resources.refuse_spends)
    positional: bool  # whether its function's first parameters are its roles, in order (passed so)


def facts(spec: ActionSpec) -> Facts:
    """`spec`'s Facts, remembered by its identity (each entry holds it, so no identity is reused)."""
    hit = _FACTS.get(id(spec))
    if hit is not None and hit.spec is spec:
        return hit
    if len(_FACTS) >= 1024:
        _FACTS.clear()
    code = getattr(spec.function, "__code__", None)
    positional = (code is not None and code.co_argcount >= len(spec.roles)
                  and tuple(code.co_varnames[:len(spec.roles)]) == spec.roles)
    made = _FACTS[id(spec)] = Facts(spec, frozenset(spec.roles),
                                    any(e.kind == "resource" and e.sign < 0 for e in spec.effects), positional)
    return made


_FACTS: Dict[int, Facts] = cache()


Cost = Tuple[Tuple[str, int], ...]  # (pool, amount), sorted by pool


class Pool(NamedTuple):
    """A pool of what a turn holds (compiler: validate/fight_turn.py; runtime: fight_budget.py)."""

    id: str
    name: str  # shown before the amount ("" for a single pool of time)
    per_turn: int
    unit: str = ""  # shown after the amount (秒, 次)
    per_unit: int = 1  # amounts per shown unit (3: thirds of a second)
    stat: str = ""  # the whole-number stat it holds each turn (d20: speed in feet), per_turn then its most


class KindCost(NamedTuple):
    own: Tuple[Cost, ...] = ()  # alternatives on the actor's own turn (none: not on its own turn)
    off: Tuple[Cost, ...] = ()  # alternatives off its turn (none: not off its turn)
    next: Cost = ()  # taken from the actor's next turn


class TurnSpec(NamedTuple):
    pools: Tuple[Pool, ...]
    kinds: Tuple[Tuple[str, KindCost], ...]  # action kind -> what it costs
    refuse: bool = True  # the ruling: refuse an action that does not fit (else let it through, logged)
    ready: Tuple[Cost, ...] = ()  # what declaring a readied action costs (none: the declared kind's own cost)
    owes: bool = False  # a triggered readied action takes the declared kind's cost from the next turn
    rules: Tuple[str, ...] = ()
    stat_pools: bool = False  # a pool is held in a stat (fight_events.turn_for reads it from the combatant)
    names: Tuple[Tuple[str, str], ...] = ()  # action kind -> the ruleset's own name for it (d20: move is 移动)

    def kind_name(self, action: str) -> str:
        """What the ruleset calls a kind of action (its own name, else the common one)."""
        for k, text in self.names:
            if k == action:
                return text
        return ACTION_NAMES.get(action, action)

    def kind(self, action: str) -> Optional[KindCost]:
        for k, cost in self.kinds:
            if k == action:
                return cost
        return None


class ResourceSpec(NamedTuple):
    """A resource of the fight (`FightRules.resources`: id -> spec; fight_resources.py spends it)."""

    name: str
    start: Any  # a whole number, or the id of the stat holding it
    top: Any  # the most it holds: a whole number, or a stat's id
    stat: str = ""  # the whole-number stat the procedures read as what is left ("" none)
    on_empty: str = ""  # the condition set when it reaches 0 ("" none)
    knocks: bool = False  # whether `on_empty` is in force (its ruling)
    lifts: bool = False  # whether `on_empty` ends when it is restored above 0
    rules: Tuple[str, ...] = ()


def resource_top(spec: ResourceSpec, base: Any) -> int:
    """The most a combatant with stats `base` holds of a resource."""
    return max(0, spec.top if type(spec.top) is int else int(getattr(base, spec.top)))


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
    # the most points a track holds: the top of the range the accumulation and recovery procedures
    # declare for the points they are given (their `current`, `gained`), so they accept every total
    points_max: int = MAX_VALUE
    taken_max: int = MAX_VALUE  # the top of the recovery procedure's `taken`
    flag_names: Mapping[str, str] = {}  # true/false stat id -> Chinese name
    conditions: Mapping[str, ConditionSpec] = {}  # condition id -> what it does and when it ends
    relation_specs: Mapping[str, RelationSpec] = {}  # relation id -> its conditions and endings
    check_names: Mapping[str, str] = {}  # kind of check id -> Chinese name
    track_debuff_checks: Mapping[str, Tuple[str, ...]] = {}  # track id -> the kinds of check its debuff lowers
    turn: Optional[TurnSpec] = None  # what a turn holds and what each kind of action costs (fight_budget.py)
    wake_tracks: Tuple[str, ...] = ()  # tracks whose points gained are taken like damage by the recovery rule
    state_spared: Mapping[str, str] = {}  # state id -> the true/false stat that spares what it takes away
    resources: Mapping[str, ResourceSpec] = {}  # resource id -> its spec (fight_resources.py)
    track_inputs: Mapping[str, Tuple[str, str, str, str]] = {}  # procedure -> (track, points, loss, default)
    capacity_param: str = ""  # the accumulation and recovery procedures' capacity-loss parameter ("" none)
    lowered_max: int = 0  # the most a track's capacity is lowered (the top that parameter accepts)


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
    conditions: Tuple[Condition, ...] = ()
    spent: Tuple[Tuple[str, int], ...] = ()  # of its turn budget, since its own turn began (pool, amount)
    owed: Tuple[Tuple[str, int], ...] = ()  # taken from its next turn (a reflex's second)
    ready: str = ""  # the kind of action it has readied ("" none)
    resources: Tuple[Tuple[str, int], ...] = ()  # what is left of the resources that changed (fight_resources)
    lowered: Tuple[Tuple[str, int], ...] = ()  # how far each track's capacity is lowered (track, loss > 0)

    def counter(self, key: str) -> int:
        return get(self.counters, key)

    def track_points(self, key: str) -> int:
        return get(self.points, key)


def get(pairs: Tuple[Tuple[str, int], ...], key: str) -> int:
    for k, v in pairs:
        if k == key:
            return v
    return 0


def put(pairs: Tuple[Tuple[str, int], ...], key: str, value: int) -> Tuple[Tuple[str, int], ...]:
    """`pairs` (sorted by key) with `key` set to `value` (a handful of keys: a scan beats a dict)."""
    if len(pairs) == 1:  # the common case: one counter, one track
        k = pairs[0][0]
        return ((key, value),) if k == key else (pairs[0], (key, value)) if k < key else ((key, value), pairs[0])
    for i, (k, _) in enumerate(pairs):
        if k == key:
            return pairs[:i] + ((key, value),) + pairs[i + 1:]
        if k > key:
            return pairs[:i] + ((key, value),) + pairs[i:]
    return pairs + ((key, value),)


def stat_values(base: Any) -> Dict[str, Any]:
    """`base.to_dict()` of a Combatant without its deep copy: every field is a whole number or a
    true/false value, so the instance's own attributes, copied, are the same dict."""
    return dict(base.__dict__)


def trusted(cls: Any, values: Dict[str, Any]) -> Any:
    """A Combatant of class `cls` from `values` already within their ranges, without running its
    checks: the fight keeps every value it derives in range (`Fight._effective` clamps each),
    so the checked constructor could only accept them."""
    made = object.__new__(cls)
    made.__dict__.update(values)
    return made


def clamp(value: int, lo: int, hi: int) -> int:
    return lo if value < lo else hi if value > hi else value


def line(text: str) -> str:
    """A log line within `MAX_LOG_LINE` characters."""
    return text if len(text) <= MAX_LOG_LINE else text[:MAX_LOG_LINE - 1] + "…"


class Log:
    """A fight's log: its last `MAX_LOG` lines, shared by the fights made one from another.

    A fight's log is the one before it and the lines its step added, so adding is a new link to
    the old log (O(lines added): a full log is not copied at every action, which made a long
    fight's actions cost more than a short one's); `lines()` reads back through the links once
    and keeps the tuple; a log that holds twice `MAX_LOG` lines, or is extended after being read,
    starts again from its last lines. Immutable as seen from outside (`lines()` is a pure function
    of what it holds). `written` counts every line written to it, those dropped past MAX_LOG too:
    what a later log holds that an earlier one did not (`since`) is told by it, not by the lengths,
    which stop growing once the log is full."""

    __slots__ = ("added", "before", "size", "written", "_lines")

    def __init__(self, added: Tuple[str, ...], before: Optional["Log"], size: int, written: int) -> None:
        self.added = added  # the lines of this link
        self.before = before  # the log it extends
        self.size = size  # the lines of the whole chain (up to 2 x MAX_LOG)
        self.written = written  # the lines ever written to it (from its first, or from those it was read back with)
        self._lines: Optional[Tuple[str, ...]] = None

    @classmethod
    def of(cls, lines: Tuple[str, ...], written: Optional[int] = None) -> "Log":
        kept = lines[-MAX_LOG:]
        log = cls(kept, None, len(kept), len(lines) if written is None else written)
        log._lines = kept
        return log

    def since(self, earlier: "Log") -> Tuple[str, ...]:
        """The lines written to this log after `earlier` (a log this one was extended from), as many
        of them as it still holds."""
        lines = self.lines()
        n = min(self.written - earlier.written, len(lines))
        return lines[len(lines) - n:] if n > 0 else ()

    def lines(self) -> Tuple[str, ...]:
        """The last `MAX_LOG` lines, oldest first."""
        if self._lines is None:
            chunks: List[Tuple[str, ...]] = []
            count = 0
            link: Optional[Log] = self
            while link is not None and count < MAX_LOG:
                chunks.append(link.added)
                count += len(link.added)
                link = link.before
            chunks.reverse()
            self._lines = tuple([x for chunk in chunks for x in chunk][-MAX_LOG:])
        return self._lines

    def extended(self, added: List[str]) -> "Log":
        """This log with `added` after it."""
        if not added:
            return self
        if self._lines is not None and self.before is not None:
            base = Log.of(self._lines, self.written)  # read already: link to its lines, not to the chain behind them
        else:
            base = self
        size, written = base.size + len(added), self.written + len(added)
        if size > 2 * MAX_LOG:
            return Log.of(base.lines() + tuple(added), written)
        return Log(tuple(added), base, size, written)


EMPTY_LOG = Log.of(())


def _hidden(ch: str) -> bool:
    """A control, format (bidirectional, zero-width), surrogate or unassigned character."""
    import unicodedata  # only when a name is checked: the package's import stays light

    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def check_name(name: Any) -> str:
    if type(name) is not str or not 1 <= len(name) <= MAX_NAME or any(_hidden(c) for c in name):
        raise OutOfBounds(f"角色的名字必须是1至{MAX_NAME}个字的文字，不含控制字符", key="name")
    return name


def bad_options(spec: ActionSpec, procedure: str) -> OutOfBounds:
    """The error of an action called without an option it requires (or with one it does not take)."""
    return OutOfBounds(f"“{spec.name}”的选项不全或有误：{'、'.join(spec.params.values())}", key=procedure)
