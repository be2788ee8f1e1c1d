"""Reading a plan and its targets for `Fight.until_plan` (fight_plan.py): each checked against the
fight's rules and combatants before any odds are worked out (`OutOfBounds` otherwise).

A plan is `{"opening": [step, ...], "cycle": [step, ...]}` (the cycle not empty) or a list of steps
(a cycle with no opening), of at most `MAX_PLAN_STEPS` steps together. A plan step is
`{"procedure": id, "roles": {role: name}, "options": {...}, "end_turn": bool}`; `end_turn` ends
the acting combatant's turn after the action (the turns of the others pass, so their conditions
that end at a turn's start or end do). A target is one mapping or a list of them (any reached):
`{"who": name, "condition": id}`, `{"who": name, "state": id}`,
`{"who": name, "counter": id, "at_least": n}` or `{"who": name, "points": track, "at_least": n}`.
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Sequence, Tuple

from .core import OutOfBounds
from .fight_state import MAX_VALUE, FightRules

MAX_PLAN_STEPS = 100  # steps of the opening and the cycle together
MAX_OPTIONS = 50
_KEYS = frozenset(("procedure", "roles", "options", "end_turn"))
_TARGETS = ("condition", "state", "counter", "points")
_KIND_NAMES = {"condition": "条件", "state": "状态", "counter": "计数", "points": "累积槽"}


class PlanStep(NamedTuple):
    procedure: str
    roles: Tuple[Tuple[str, str], ...]
    options: Tuple[Tuple[str, Any], ...]
    end_turn: bool


class Target(NamedTuple):
    who: str
    kind: str  # "condition", "state", "counter" or "points"
    key: str
    at_least: int  # counter / points: the total that reaches it (1 for the others)


def _step(rules: FightRules, names: Sequence[str], raw: Any) -> PlanStep:
    if not isinstance(raw, Mapping) or not set(raw) <= _KEYS or "procedure" not in raw:
        raise OutOfBounds("计划的每一步是 {procedure, roles, options, end_turn} 的映射", key="plan")
    procedure = raw["procedure"]
    spec = rules.actions.get(procedure) if type(procedure) is str else None
    if spec is None:
        raise OutOfBounds("没有可在战斗中使用的这个过程", key="procedure")
    if spec.odds is None:
        raise OutOfBounds(f"“{spec.name}”没有精确概率，不能用于计划", key=procedure)
    roles = raw.get("roles")
    if not isinstance(roles, Mapping) or set(roles) != set(spec.roles):
        raise OutOfBounds(f"“{spec.name}”的角色是 {', '.join(spec.roles)}", key=procedure)
    for name in roles.values():
        if type(name) is not str or name not in names:
            raise OutOfBounds(f"战斗中没有“{name}”", key=str(name)[:20])
    options = raw.get("options") or {}
    if not isinstance(options, Mapping) or len(options) > MAX_OPTIONS:
        raise OutOfBounds("选项应为映射", key="options")
    for key, value in options.items():
        if key not in spec.params:
            raise OutOfBounds(f"“{spec.name}”没有选项“{str(key)[:20]}”", key=str(key)[:20])
        if value is not None and type(value) not in (bool, int, float, str):
            raise OutOfBounds(f"选项“{spec.params[key]}”应为数、真假或文字", key=key)
    end_turn = raw.get("end_turn", False)
    if type(end_turn) is not bool:
        raise OutOfBounds("end_turn 应为真或假", key="end_turn")
    return PlanStep(procedure, tuple((r, roles[r]) for r in spec.roles), tuple(options.items()), end_turn)


def read_plan(rules: FightRules, names: Sequence[str], plan: Any) -> Tuple[Tuple[PlanStep, ...], Tuple[PlanStep, ...]]:
    """(opening, cycle) of a plan: `{"opening": [step, ...], "cycle": [step, ...]}` (the cycle not
    empty), or a list of steps (a cycle with no opening)."""
    if isinstance(plan, (list, tuple)):
        opening: Any = ()
        cycle: Any = plan
    elif isinstance(plan, Mapping) and set(plan) <= {"opening", "cycle"} and "cycle" in plan:
        opening, cycle = plan.get("opening") or (), plan["cycle"]
    else:
        raise OutOfBounds("计划应为 {opening: [...], cycle: [...]}，或一列步骤", key="plan")
    if not isinstance(opening, (list, tuple)) or not isinstance(cycle, (list, tuple)) or not cycle:
        raise OutOfBounds("计划的循环部分至少要有一步", key="plan")
    if len(opening) + len(cycle) > MAX_PLAN_STEPS:
        raise OutOfBounds(f"计划最多{MAX_PLAN_STEPS}步", key="plan")
    return (tuple(_step(rules, names, s) for s in opening), tuple(_step(rules, names, s) for s in cycle))


def _target(rules: FightRules, names: Sequence[str], raw: Any) -> Target:
    if not isinstance(raw, Mapping) or "who" not in raw:
        raise OutOfBounds("目标应为 {who, condition | state | counter | points, at_least} 的映射", key="target")
    kinds = [k for k in _TARGETS if k in raw]
    if len(kinds) != 1 or not set(raw) <= {"who", "at_least", *_TARGETS}:
        raise OutOfBounds("目标要且只要给出 condition、state、counter、points 之一", key="target")
    who, kind = raw["who"], kinds[0]
    key = raw[kind]
    if type(who) is not str or who not in names:
        raise OutOfBounds(f"战斗中没有“{str(who)[:20]}”", key="who")
    known = {"condition": rules.conditions, "state": rules.state_names, "counter": rules.counters,
             "points": rules.tracks}[kind]
    if type(key) is not str or key not in known:
        raise OutOfBounds(f"没有这个{_KIND_NAMES[kind]}", key=kind)
    at_least = raw.get("at_least", 1)
    if kind in ("counter", "points"):
        if type(at_least) is not int or not 1 <= at_least <= MAX_VALUE:
            raise OutOfBounds(f"at_least 必须是1至{MAX_VALUE}的整数", key="at_least")
    elif "at_least" in raw:
        raise OutOfBounds("at_least 只用于 counter 与 points", key="at_least")
    return Target(who, kind, key, at_least)


def read_targets(rules: FightRules, names: Sequence[str], target: Any) -> Tuple[Target, ...]:
    """One target or a list of them (reaching any is reaching the target)."""
    raw = list(target) if isinstance(target, (list, tuple)) else [target]
    if not 1 <= len(raw) <= MAX_OPTIONS:
        raise OutOfBounds(f"目标应有1至{MAX_OPTIONS}个", key="target")
    return tuple(_target(rules, names, t) for t in raw)
