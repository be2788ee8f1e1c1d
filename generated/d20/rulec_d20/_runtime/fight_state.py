"""The values a fight holds, their declared ranges, and the one checked reader of stored fights.

Every value of a fight has a declared range, kept by `Fight.apply`/`next_turn` (they saturate at
the top and say so) and enforced by `read_fight` on stored data (a bot keeps a fight as JSON
between chat messages, so the data may be damaged or hostile): a member count of 1 to
`MAX_MEMBERS`, unique names of 1 to `MAX_NAME` characters without control, bidirectional or
zero-width characters, counters within +-`MAX_VALUE`, points within 0 to the rules' `points_max`
(the top the accumulation procedure accepts), a turn within 0 to `MAX_TURN`, unique states and
relations the rules declare, at most `MAX_MODIFIERS` modifiers each, at most `MAX_LOG` log lines of
at most `MAX_LOG_LINE` characters, and no key the format does not have. Types are checked before
anything is read from a value, so no input nests deeper than the format (no recursion at all).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, List, Mapping, NamedTuple, Optional, Tuple

from .core import OutOfBounds
from .fight_conditions import Condition, ConditionSpec, RelationSpec

if TYPE_CHECKING:
    from .fight_checks import CheckUse

MAX_MEMBERS = 100
MAX_LOG = 1000
MAX_LOG_LINE = 500  # characters of one log line (longer lines are cut with "…")
MAX_VALUE = 1_000_000_000  # counters, modifier amounts and expiry turns
MAX_TURN = 1_000_000
MAX_NAME = 100  # characters of a combatant's name
MAX_MODIFIERS = 100  # active modifiers per combatant


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


_FACTS: Dict[int, Facts] = {}


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


def logged(log: Tuple[str, ...], added: List[str]) -> Tuple[str, ...]:
    """`(log + tuple(added))[-MAX_LOG:]`, copying the kept lines once (a long fight's log is full)."""
    if not added:
        return log
    over = len(log) + len(added) - MAX_LOG
    return log + tuple(added) if over <= 0 else (log[over:] + tuple(added))[-MAX_LOG:]


def _hidden(ch: str) -> bool:
    """A control, format (bidirectional, zero-width), surrogate or unassigned character."""
    import unicodedata  # only when a name is checked: the package's import stays light

    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def check_name(name: Any) -> str:
    if type(name) is not str or not 1 <= len(name) <= MAX_NAME or any(_hidden(c) for c in name):
        raise OutOfBounds(f"角色的名字必须是1至{MAX_NAME}个字的文字，不含控制字符", key="name")
    return name


# ---- the checked reader of stored fights ----

_TOP_KEYS = frozenset(("turn", "turns", "members", "relations", "log"))
_MEMBER_KEYS = frozenset(("name", "stats", "counters", "points", "states", "modifiers", "conditions", "spent", "owed",
                          "ready", "resources", "lowered"))
MAX_CONDITIONS = 100  # conditions per combatant


def _bad(what: str) -> OutOfBounds:
    return OutOfBounds(f"战斗记录无效：{what}", key="fight")


def _mapping(value: Any, what: str, keys: Optional[FrozenSet[str]] = None, limit: int = 1000) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise _bad(f"{what}应为映射")
    if len(value) > limit:
        raise _bad(f"{what}的条目超过{limit}个")
    if keys is not None:
        unknown = [k for k in value if k not in keys]
        if unknown:
            raise _bad(f"{what}有未知的键")
    return value


def _list(value: Any, what: str, limit: int) -> List[Any]:
    if type(value) not in (list, tuple):
        raise _bad(f"{what}应为列表")
    if len(value) > limit:
        raise _bad(f"{what}超过{limit}项")
    return list(value)


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise _bad(f"{what}必须是{lo}至{hi}的整数")
    return value


def _text(value: Any, what: str, limit: int) -> str:
    if type(value) is not str or len(value) > limit:
        raise _bad(f"{what}必须是至多{limit}个字的文字")
    return value


def _pairs(value: Any, what: str, known: Mapping[str, str], lo: int, hi: int) -> Tuple[Tuple[str, int], ...]:
    raw = _mapping(value, what, frozenset(known), limit=len(known))
    return tuple(sorted((str(k), _int(v, f"{what}“{k}”", lo, hi)) for k, v in raw.items()))


def _stats(rules: FightRules, value: Any) -> Any:
    fields = getattr(rules.combatant, "__dataclass_fields__", {})
    raw = _mapping(value, "属性", limit=2 * max(1, len(fields)))
    for k, v in raw.items():
        _text(k, "属性名", MAX_NAME)
        if type(v) is not bool:
            _int(v, f"属性“{k}”", -MAX_VALUE, MAX_VALUE)
    return rules.combatant.from_dict(raw)  # each stat's own range: the package's OutOfBounds


def read_fight(rules: FightRules, data: Any) -> Tuple[Tuple[Member, ...], int, Tuple[Tuple[str, str, str], ...],
                                                         Tuple[str, ...]]:
    """(members, turn, relations, log) of a stored fight, every value checked (OutOfBounds)."""
    top = _mapping(data, "战斗记录", _TOP_KEYS)
    if "members" not in top:
        raise _bad("缺少 members")
    raw_members = _list(top["members"], "角色", MAX_MEMBERS)
    if not raw_members:
        raise _bad(f"一场战斗要有1至{MAX_MEMBERS}名角色")
    sources = frozenset(spec.name for spec in rules.actions.values())
    members: List[Member] = []
    names: Dict[str, None] = {}
    for raw in raw_members:
        m = _mapping(raw, "角色", _MEMBER_KEYS)
        if "name" not in m or "stats" not in m:
            raise _bad("角色缺少 name 或 stats")
        name = check_name(m["name"])
        if name in names:
            raise _bad(f"角色“{name}”出现了两次")
        names[name] = None
        base = _stats(rules, m["stats"])
        counters = _pairs(m.get("counters", {}), "计数", rules.counters, -MAX_VALUE, MAX_VALUE)
        points = _pairs(m.get("points", {}), "负面点数", rules.tracks, 0, rules.points_max)
        states: List[str] = []
        for s in _list(m.get("states", []), "状态", len(rules.state_names)):
            if type(s) is not str or s not in rules.state_names or s in states:
                raise _bad("状态未知或重复")
            states.append(s)
        mods: List[Modifier] = []
        for x in _list(m.get("modifiers", []), "临时修正", MAX_MODIFIERS):
            parts = _list(x, "临时修正", 4)
            if (len(parts) != 4 or type(parts[0]) is not str or type(parts[3]) is not str
                    or parts[0] not in rules.stats or parts[3] not in sources):
                raise _bad("临时修正应为（属性, 数值, 到期回合, 来源过程）")
            mods.append(Modifier(parts[0], _int(parts[1], "修正值", -MAX_VALUE, MAX_VALUE),
                                 _int(parts[2], "到期回合", -1, MAX_VALUE), parts[3]))
        spent, owed, ready = _budget(rules, m)
        members.append(Member(name, base, counters, points, tuple(sorted(states)), tuple(mods),
                              _conditions(rules, m.get("conditions", [])), spent, owed, ready,
                              *_resources(rules, m, base)))
    n = len(members)
    relations: List[Tuple[str, str, str]] = []
    for x in _list(top.get("relations", []), "关系", max(1, len(rules.relations)) * n * n):
        parts = _list(x, "关系", 3)
        if (len(parts) != 3 or any(type(p) is not str for p in parts) or parts[0] not in rules.relations
                or parts[1] not in names or parts[2] not in names):
            raise _bad("关系应为（关系, 角色, 角色），且都已声明")
        key = (str(parts[0]), str(parts[1]), str(parts[2]))
        if key in relations:
            raise _bad("关系重复")
        relations.append(key)
    for m_ in members:
        if any(c.source and c.source not in names for c in m_.conditions):
            raise _bad("条件的来源不是战斗中的角色")
    log = tuple(_text(x, "记录行", MAX_LOG_LINE) for x in _list(top.get("log", []), "战斗记录行", MAX_LOG))
    turn = _int(top.get("turn", 0), "回合", 0, MAX_TURN)
    if type(top.get("turns", False)) is not bool:
        raise _bad("turns 应为是或否")
    return tuple(members), turn, tuple(sorted(relations)), log


def _conditions(rules: FightRules, value: Any) -> Tuple[Condition, ...]:
    out: List[Condition] = []
    for x in _list(value, "条件", MAX_CONDITIONS):
        parts = _list(x, "条件", 4)
        if len(parts) != 4 or type(parts[0]) is not str or parts[0] not in rules.conditions:
            raise _bad("条件应为（条件, 数值, 来源, 到期回合），且条件已声明")
        spec = rules.conditions[parts[0]]
        c = Condition(parts[0], _int(parts[1], "条件数值", 0, spec.max_value), _text(parts[2], "条件来源", MAX_NAME),
                      _int(parts[3], "到期回合", -1, MAX_VALUE))
        if any((d.id, d.source) == (c.id, c.source) for d in out):
            raise _bad("条件重复")
        out.append(c)
    return tuple(out)


def _resources(rules: FightRules, m: Mapping[str, Any], base: Any) -> Tuple[Cost, Cost]:
    """(resources, lowered) of a stored member: each resource within 0 to its top, each capacity loss
    within 1 to the top the accumulation procedure accepts."""
    names = {rid: spec.name for rid, spec in rules.resources.items()}
    resources = _pairs(m.get("resources", {}), "资源", names, 0, MAX_VALUE)
    if any(v > resource_top(rules.resources[k], base) for k, v in resources):
        raise _bad("资源超过其上限")
    lowered = _pairs(m.get("lowered", {}), "累积槽降低", rules.tracks if rules.capacity_param else {}, 1,
                     max(1, rules.lowered_max))
    return resources, lowered


def _budget(rules: FightRules, m: Mapping[str, Any]) -> Tuple[Cost, Cost, str]:
    """(spent, owed, ready) of a stored member: each pool within 0 to what a turn holds, a readied
    kind one the turn declares."""
    turn = rules.turn
    pools = {p.id: p.name or p.id for p in turn.pools} if turn is not None else {}
    top = max((p.per_turn for p in turn.pools), default=0) if turn is not None else 0
    spent = _pairs(m.get("spent", {}), "本回合已用", pools, 0, top)
    owed = _pairs(m.get("owed", {}), "下一回合被占用", pools, 0, top)
    per = {p.id: p.per_turn for p in turn.pools} if turn is not None else {}
    if any(v > per[k] for k, v in (*spent, *owed)):
        raise _bad("回合预算超出每回合的量")
    ready = _text(m.get("ready", ""), "准备动作", MAX_NAME)
    if ready and (turn is None or turn.kind(ready) is None):
        raise _bad("准备的动作种类未声明")
    return spent, owed, ready


def bad_options(spec: ActionSpec, procedure: str) -> OutOfBounds:
    """The error of an action called without an option it requires (or with one it does not take)."""
    return OutOfBounds(f"“{spec.name}”的选项不全或有误：{'、'.join(spec.params.values())}", key=procedure)
