"""The one checked reader of stored fights (`read_fight`, which `Fight.from_dict` calls).

A bot keeps a fight as JSON between chat messages, so the data may be damaged or hostile: every
value is checked against its declared range (`fight_state.py` declares them), and no key the
format does not have is accepted. Types are checked before anything is read from a value, so no
input nests deeper than the format (no recursion at all). Anything else is `OutOfBounds`.
"""

from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Tuple

from .core import OutOfBounds
from .fight_conditions import Condition
from .fight_state import (MAX_CONDITIONS, MAX_LOG, MAX_LOG_LINE, MAX_MEMBERS, MAX_MODIFIERS, MAX_NAME, MAX_TURN,
                          MAX_VALUE, Cost, FightRules, Member, Modifier, check_name, resource_top)

_TOP_KEYS = frozenset(("turn", "turns", "members", "relations", "log"))
_MEMBER_KEYS = frozenset(("name", "stats", "counters", "points", "states", "modifiers", "conditions", "spent", "owed",
                          "ready", "resources", "lowered"))


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
