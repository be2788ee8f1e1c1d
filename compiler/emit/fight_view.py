"""The page's view of what a fight carries between actions: each declared condition (what it
changes, when it applies, what it forbids, when it ends, who sets and clears it) and each relation
rule, as Chinese sentences for the reference page."""

from __future__ import annotations

from typing import Any

from ..ir import Ruleset

_ACTIONS = {"standard": "标准动作", "move": "移动动作", "swift": "迅捷动作", "free": "自由动作",
            "reflex": "反射动作", "full_round": "整轮动作", "bonus": "附赠动作", "": "动作"}
_NATURES = {"physical": "物理", "mental": "精神", "": ""}
_WHO = {"holder": "自身", "source": "来源者"}


def fight_view(rs: Ruleset) -> dict[str, Any]:
    """{"conditions": [...], "relations": [...], "debuffs": [...], "turn": {...} or None} (empty without a fight
    section)."""
    if rs.fight is None:
        return {"conditions": [], "relations": [], "debuffs": [], "turn": None, "resources": [], "capacity": ""}
    stats = {s.id: s.name for s in rs.stats}
    procs = {p.id: p for p in rs.procedures}

    def proc(pid: str) -> str:
        return procs[pid].name if pid in procs else pid

    def role(pids: tuple[str, ...], rid: str) -> str:
        for p in (procs[x] for x in pids if x in procs) if pids else rs.procedures:
            for q in p.params:
                if q.id == rid:
                    return q.name
        return rid

    def scope(sc: tuple[tuple[str, ...], str, str, str]) -> str:
        pids, holder, source, when = sc
        parts = []
        if pids:
            parts.append("在" + "、".join(proc(p) for p in pids) + "中")
        if holder:
            parts.append(f"自身为{role(pids, holder)}")
        if source:
            parts.append(f"来源者为{role(pids, source)}")
        if when:
            outs = {o.id: o.name for p in (procs[x] for x in pids if x in procs) for o in p.result}
            parts.append(f"且{outs.get(when, when)}")
        return "，".join(parts)

    taken = {**dict(rs.fight.counters), "any_track": "任何负面点数",
             **{e.id: e.name for t in rs.tables if t.id == rs.fight.tracks for e in t.entries}}

    def ending(e: tuple[str, str, int, tuple[tuple[str, ...], str, str, str], str]) -> str:
        kind, of, nth, sc, stat = e
        if kind in ("turn_start", "turn_end"):
            at = "开始" if kind == "turn_start" else "结束"
            count = f"第{nth}个" if nth > 1 else "下一个" if kind == "turn_start" else "当前（或下一个）"
            return f"{_WHO.get(of, of)}{count}回合{at}时"
        if kind == "next_turn_end":
            return f"{_WHO.get(of, of)}{f'之后第{nth}个' if nth > 1 else '下一个'}回合结束时"
        if kind == "rounds":
            return f"{nth}轮后"
        if kind == "round_end":
            return "本轮结束时" if nth == 1 else f"第{nth}轮（本轮计为第1轮）结束时"
        if kind == "state":
            return f"自身处于{state_names.get(stat, stat)}时"
        if kind == "takes":
            return f"自身受到{taken.get(stat, stat)}时"
        if kind == "used":
            return "用于一次行动后"
        if kind == "stat":
            return f"自身{stats.get(stat, stat)}时"
        return scope(sc) + "行动后"

    setters: dict[str, list[str]] = {}
    clearers: dict[str, list[str]] = {}
    for p in rs.procedures:
        for e in p.effects:
            if e.kind == "condition":
                setters.setdefault(e.key, []).append(p.name)
            elif e.kind == "clear":
                clearers.setdefault(e.key, []).append(p.name + ("（所有参战者）" if e.duration == "everyone" else ""))
    for c in rs.fight.conditions:  # what follows an expiry (then:) sets a condition too
        for kind, key in c.then:
            if kind == "condition":
                setters.setdefault(key, []).append(f"{c.name}到期")
    state_names = {e.id: e.name for t in rs.tables if t.id == rs.fight.states for e in t.entries} if rs.fight.states else {}
    states = set(state_names)
    cond_names = {c.id: c.name for c in rs.fight.conditions}
    pools = {p[0]: p for p in rs.fight.turn.pools} if rs.fight.turn is not None else {}
    conditions = []
    for c in rs.fight.conditions:
        changes = [f"{stats.get(s, s)}为{'是' if v else '否'}" for s, v in c.sets]
        changes += [f"{stats.get(s, s)}{per:+d}" + ("×数值" if per else "") for s, per in c.adds]
        changes += [f"视为{state_names.get(x, x)}" for x in c.as_states]
        changes += [f"参数{k}为{'数值' if v == 'value' else '是' if v is True else '否' if v is False else v}"
                    for k, v in c.options]
        changes += [f"回合最多{_amount(pools[k], v) if k in pools else v}" for k, v in c.turn_pools]
        then = [f"进入{cond_names.get(x, x) if k == 'condition' else state_names.get(x, x)}" for k, x in c.then]
        forbids = ["、".join(proc(p) for p in c.forbids)] if c.forbids else []
        forbids += [f"{_NATURES.get(n, '')}{_ACTIONS.get(a, a)}" if (a or n) else "任何动作"
                    for a, n in c.forbids_actions]
        conditions.append({
            "name": c.name, "rules": "、".join(c.rules), "description": c.description,
            "changes": "；".join(changes) or "—", "applies": scope(c.applies) or "总是",
            "forbids": "、".join(forbids) or "—",
            "ends": ("；".join(ending(e) for e in c.ends) or ("处于该状态期间" if c.id in states else "被清除时"))
            + (f"（到期后{'、'.join(then)}）" if then else ""),
            "set_by": "、".join(setters.get(c.id, [])) or ("负面状态" if c.id in states else "关系"),
            "cleared_by": "、".join(clearers.get(c.id, [])) or "—"})
    names = dict(rs.fight.relations)
    relations = [{"name": names.get(r.id, r.id), "rules": "、".join(r.rules),
                  "gives": "；".join(x for x in (f"被持有者{cond_names.get(r.held, r.held)}" if r.held else "",
                                                f"持有者{cond_names.get(r.holder, r.holder)}" if r.holder else "") if x)
                  or "—",
                  "ends": "、".join([f"持有者{stats.get(s, s)}" for s in r.ends_holder]
                                   + [f"被持有者{stats.get(s, s)}" for s in r.ends_held]
                                   + [f"被持有者{names.get(x, x)}持有者" for x in r.ends_if_held_by]) or "—",
                  "clears": "、".join(cond_names.get(x, x) for x in r.clears) or "—"}
                 for r in rs.fight.relation_rules]
    return {"conditions": conditions, "relations": relations, "debuffs": _debuffs(rs, stats), "turn": _turn_view(rs),
            "resources": _resources(rs, stats, cond_names), "capacity": _capacity(rs)}


def _resources(rs: Ruleset, stats: dict[str, str], conditions: dict[str, str]) -> list[dict[str, str]]:
    """Each resource: its start and top, the stat that shows what is left, what empties it and who
    spends and restores it, in the page's words."""
    assert rs.fight is not None
    rulings = {r.key: r for r in rs.rulings}

    def amount(x: int | str) -> str:
        return str(x) if isinstance(x, int) else stats.get(x, x)

    out = []
    for r in rs.fight.resources:
        by = {sign: "、".join(dict.fromkeys(p.name for p in rs.procedures for e in p.effects
                                            if e.kind == "resource" and e.key == r.id and e.sign == sign)) or "—"
              for sign in (-1, 1)}
        empty = "—"
        if r.on_empty:
            empty = f"进入{conditions.get(r.on_empty, r.on_empty)}" + ("，恢复后结束" if r.lifts else "")
            if r.ruling:
                ruling = rulings.get(r.ruling)
                empty += f"（裁定“{ruling.name if ruling else r.ruling}”：{'是' if r.knocks else '否，默认不生效'}）"
        out.append({"name": r.name, "description": r.description, "rules": "、".join(r.rules),
                    "start": amount(r.start), "top": amount(r.top), "stat": stats.get(r.stat, r.stat) if r.stat else "—",
                    "empty": empty, "spent_by": by[-1], "restored_by": by[1]})
    return out


def _capacity(rs: Ruleset) -> str:
    """The procedures that lower a track's capacity in the fight ("" when none do)."""
    assert rs.fight is not None
    lower = [p.name for p in rs.procedures if any(e.kind == "capacity" for e in p.effects)]
    return "、".join(lower)


def _debuffs(rs: Ruleset, stats: dict[str, str]) -> list[dict[str, str]]:
    """Each track's debuff: the kinds of check it lowers and the procedures that roll them, and
    the stats it lowers directly."""
    assert rs.fight is not None
    tracks = {e.id: e.name for t in rs.tables if t.id == rs.fight.tracks for e in t.entries}
    kinds = dict(rs.fight.checks)
    lowered = dict(rs.fight.debuffs)
    out = []
    for track, checks in rs.fight.debuff_checks:
        rolled = [p.name for p in rs.procedures if any(c.check in checks for c in p.checks)]
        out.append({"name": tracks.get(track, track), "checks": "、".join(kinds.get(c, c) for c in checks) or "—",
                    "stats": "、".join(stats.get(x, x) for x in lowered.get(track, ())) or "—",
                    "procedures": "、".join(rolled) or "—"})
    return out



def _amount(pool: tuple[str, str, int, str, int, str], value: int) -> str:
    """`value` of a turn pool in its shown unit (9 thirds of a second: 3秒)."""
    whole, part = divmod(value, pool[4])
    text = str(whole) if not part else (f"{whole}又" if whole else "") + f"{part}/{pool[4]}"
    return f"{pool[1]}{text}{pool[3]}"


def _turn_view(rs: Ruleset) -> dict[str, Any] | None:
    """The turn structure: what a turn holds, what each kind of action costs, the ruling."""
    turn = rs.fight.turn if rs.fight is not None else None
    if turn is None:
        return None

    amount = _amount
    stat_names = {st.id: st.name for st in rs.stats}

    def holds(pool: tuple[str, str, int, str, int, str]) -> str:
        if not pool[5]:
            return amount(pool, pool[2])
        return f"{pool[1]}等于{stat_names.get(pool[5], pool[5])}（{pool[3]}，至多{pool[2]}）"

    def cost(c: tuple[tuple[str, int], ...]) -> str:
        return "、".join(amount(p, dict(c)[p[0]]) for p in turn.pools if dict(c).get(p[0])) or "不耗费"

    def alternatives(cs: tuple[tuple[tuple[str, int], ...], ...]) -> str:
        return "，或".join(cost(c) for c in cs) if cs else "不能"

    ruling = next((r for r in rs.rulings if r.key == turn.ruling), None)
    ready = "宣言时耗费" + (alternatives(turn.ready) if turn.ready else "所宣言动作的耗费") + "，在自己回合外触发"
    if turn.owes:
        ready += "；所宣言的动作在下一回合被跳过"
    return {"rules": "、".join(turn.rules), "description": turn.description,
            "holds": "、".join(holds(p) for p in turn.pools),
            "kinds": [{"kind": dict(turn.names).get(k, _ACTIONS.get(k, k)), "own": alternatives(own), "off": alternatives(off),
                       "next": cost(nxt) if nxt else "—"} for k, own, off, nxt in turn.kinds],
            "ready": ready,
            "ruling": (f"{ruling.name}（{ruling.key}）：{'拒绝' if turn.refuse else '照常结算并注明'}" if ruling
                       else "拒绝")}
