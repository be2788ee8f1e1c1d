"""A fight shown and stored (`Fight` inherits `Shown`): one line of a combatant's state in the
rules' language — what its states and conditions forbid, how long each lasts, its relations, what
is left of its turn — and the plain JSON a bot keeps between chat messages (`Fight.from_dict` reads it
back, every value checked by `fight_stored.read_fight`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from .fight_budget import shown_cost
from .fight_checks import lowered_checks
from .fight_conditions import Condition, ConditionSpec, forbids_text
from .fight_resources import shown as resources_shown, stored
from .fight_state import FightRules, Member, line


class Shown:
    """`status`, `applied_to` and `to_dict` (`Fight.from_dict` reads it back), for `Fight` (which
    provides the attributes below)."""

    __slots__ = ()
    rules: FightRules
    members: Tuple[Member, ...]
    turn: int
    relations: Tuple[Tuple[str, str, str], ...]

    if TYPE_CHECKING:  # provided by Fight
        @property
        def log(self) -> Tuple[str, ...]: ...

        def member(self, name: str) -> Member: ...

        def left(self, name: str) -> str: ...

        def _lowered(self, m: Member) -> Tuple[Tuple[str, int], ...]: ...

        def _debuff_amounts(self, m: Member) -> Tuple[Tuple[str, int], ...]: ...

        def _applying(self, m: Member, procedure: Optional[str] = None,
                      by_name: Optional[Any] = None) -> List[Tuple[Condition, ConditionSpec]]: ...

    def status(self, name: str) -> str:
        """One line of `name`'s state in the rules' language."""
        m = self.member(name)
        parts = [f"{self.rules.counters[k]}{v}" for k, v in m.counters]
        parts += [f"{self.rules.tracks.get(k, k)}{v}" for k, v in m.points if v]
        names = {p: a.name for p, a in self.rules.actions.items()}
        for s in m.states:
            forbids = forbids_text(self.rules.conditions[s], names) if s in self.rules.conditions else ""
            parts.append(self.rules.state_names.get(s, s) + (f"（{forbids}）" if forbids else ""))
        parts += [f"{self.rules.stats[x.stat][0]}{x.delta:+d}" for x in m.modifiers]
        for c in m.conditions:
            spec = self.rules.conditions[c.id]
            more = [str(c.value)] if spec.adds or any(v == "value" for _, v in spec.options) else []
            if c.source:
                more.append(f"来自{c.source}")
            if c.expires >= 0:
                more.append(f"还剩{max(0, c.expires - self.turn)}个回合")
            forbids = forbids_text(spec, names)
            if forbids:
                more.append(forbids)
            parts.append(spec.name + (f"（{'，'.join(more)}）" if more else ""))
        if self.rules.resources or m.lowered:
            parts += resources_shown(self.rules, m)
        parts += [f"{self.rules.relations[r]}{b}" for r, a, b in self.relations if a == name]
        parts += [f"被{a}{self.rules.relations[r]}" for r, a, b in self.relations if b == name]
        if self.rules.turn is not None and (m.spent or m.owed or m.ready):
            parts.append(f"本回合剩余{self.left(name)}")
            if m.owed:
                parts.append(f"下一回合被占用{shown_cost(self.rules.turn, m.owed)}")
            if m.ready:
                parts.append(f"准备了{self.rules.turn.kind_name(m.ready)}")
        return f"{name}：" + ("，".join(parts) if parts else "无变化")

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

    def to_dict(self) -> Dict[str, Any]:
        return {"turn": self.turn, "turns": self.rules.turn is not None,
                "members": [{"name": m.name, "stats": m.base.to_dict(), "counters": dict(m.counters),
                             "points": dict(m.points), "states": list(m.states),
                             "modifiers": [list(x) for x in m.modifiers],
                             "conditions": [list(c) for c in m.conditions], "spent": dict(m.spent),
                             "owed": dict(m.owed), "ready": m.ready, **stored(m)} for m in self.members],
                "relations": [list(r) for r in self.relations], "log": list(self.log)}
