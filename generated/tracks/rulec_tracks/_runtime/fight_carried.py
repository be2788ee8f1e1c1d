"""The part of a fight that carries conditions and relations between actions (`Fight` inherits
it): which conditions a combatant has now (its own, its relations', its states'), which apply to an
action, what they forbid, and how they are set, used up and ended (fight_conditions.py holds the
declarations and the pure rules).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Mapping, Optional, Tuple

from .fight_conditions import TURN_BOUND, Condition, ConditionSpec, Refused, expiry, forbidding, matches
from .fight_events import settled, states_of
from .fight_state import MAX_CONDITIONS, MAX_VALUE, ActionSpec, FightRules, Member, clamp, line

if TYPE_CHECKING:
    from .fight import Fight
    from .fight_apply import Action


class Carried:
    """Conditions and relations, for `Fight` (which provides the attributes below)."""

    __slots__ = ()
    rules: FightRules
    members: Tuple[Member, ...]
    turn: int
    relations: Tuple[Tuple[str, str, str], ...]

    if TYPE_CHECKING:  # provided by Fight
        def _with(self, members: Optional[Tuple[Member, ...]] = None, turn: Optional[int] = None,
                  relations: Optional[Tuple[Tuple[str, str, str], ...]] = None,
                  log: Optional[Tuple[str, ...]] = None, added: Optional[List[str]] = None) -> "Fight": ...

        def _effective(self, m: Member, debuffs: bool = True,
                       applying: Optional[List[Tuple[Condition, ConditionSpec]]] = None) -> object: ...

    def active_conditions(self, name: str) -> Tuple[Condition, ...]:
        """`name`'s conditions now: its own, those its relations give it, its states'."""
        for m in self.members:
            if m.name == name:
                return self._active(m)
        return ()

    def _active(self, m: Member) -> Tuple[Condition, ...]:
        """`m`'s conditions: its own, those its relations give it, and its states declared as
        conditions."""
        if not m.conditions and not m.states and not self.relations:
            return ()
        rules = self.rules
        out = list(m.conditions)
        for rel, holder, held in self.relations:
            spec = rules.relation_specs.get(rel)
            if spec is not None and spec.held and held == m.name and not _has(m, spec.held, holder):
                out.append(Condition(spec.held, 1, holder, -1))
            if spec is not None and spec.holder and holder == m.name and not _has(m, spec.holder, held):
                out.append(Condition(spec.holder, 1, held, -1))
        out += [Condition(s, 1, "", -1) for s in m.states if s in rules.conditions]
        out += [Condition(s, 1, c.source, -1) for c in tuple(out) for s in rules.conditions[c.id].as_states
                if s in rules.conditions and s not in m.states]  # counted as in a state: its forbids
        return tuple(out)

    def _applying(self, m: Member, procedure: Optional[str] = None,
                  by_name: Optional[Mapping[str, str]] = None) -> List[Tuple[Condition, ConditionSpec]]:
        """The conditions of `m` that apply: in an action (its procedure and who plays which role),
        those whose scope it falls in; outside one, those with no scope."""
        out = []
        for c in self._active(m):
            spec = self.rules.conditions[c.id]
            if procedure is None or by_name is None:
                if not any(spec.applies):
                    out.append((c, spec))
            elif matches(spec.applies, procedure, by_name.get(m.name), by_name.get(c.source) if c.source else None):
                out.append((c, spec))
        return out

    def _refuse(self, m: Member, procedure: str, spec: ActionSpec, by_name: Mapping[str, str]) -> None:
        """Refuse an action the actor's conditions forbid (`Refused`, saying which and what); a
        condition with a scope forbids only the actions in it (a retry against the same target)."""
        for c in self._active(m):
            cs = self.rules.conditions[c.id]
            if any(cs.applies) and not matches(cs.applies, procedure, by_name.get(m.name),
                                               by_name.get(c.source) if c.source else None):
                continue
            what = forbidding(cs, procedure, spec.action, spec.nature)
            if what:
                raise Refused(f"{m.name}处于{cs.name}状态，不能进行{what}（{spec.name}）", key=procedure)

    def _set_condition(self, m: Member, cid: str, value: int, source: str, holder: int, src: int,
                       log: List[str]) -> Member:
        """`m` with condition `cid` (from `source`) set, or its value replaced or added to, its
        turn-bound endings turned into an expiry turn."""
        spec = self.rules.conditions[cid]
        n = len(self.members)
        turns = [expiry(x, self.turn, n, holder, src) for x in spec.ends if x.kind in TURN_BOUND]
        expires = min(min(turns), MAX_VALUE) if turns else -1
        old = next((c for c in m.conditions if (c.id, c.source) == (cid, source)), None)
        if old is not None and spec.stack == "add":
            value = old.value + value
        value = clamp(value, 0, spec.max_value)
        kept = tuple(c for c in m.conditions if c is not old)
        if old is None and len(kept) >= MAX_CONDITIONS:
            log.append(line(f"{m.name}身上的条件已达上限{MAX_CONDITIONS}个，{spec.name}未生效"))
            return m
        shown = f"（{value}）" if spec.adds or any(v == "value" for _, v in spec.options) else ""
        by = f"，来自{source}" if source else ""
        log.append(line(f"{m.name}进入{spec.name}{shown}{by}"))
        return m._replace(conditions=(*kept, Condition(cid, value, source, expires)))

    def _end_used(self, action: "Action", spec: ActionSpec, members: Dict[str, Member], log: List[str]) -> None:
        """End the conditions the action used up, and those whose holder's part in it ends them."""
        roles = dict(action.roles)
        by_name = {name: role for role, name in reversed(action.roles)}
        for name in dict.fromkeys(roles.values()):
            m = members[name]
            kept = []
            for c in m.conditions:
                cs = self.rules.conditions[c.id]
                ends = (name, c.id, c.source) in action.used
                for x in cs.ends:
                    if x.kind == "acts" and matches(x.scope, action.procedure, by_name.get(name),
                                                    by_name.get(c.source) if c.source else None):
                        ends = ends or not x.scope.when or bool(getattr(action.result, x.scope.when, False))
                if ends:
                    log.append(line(f"{name}的{cs.name}结束（{spec.name}）"))
                else:
                    kept.append(c)
            if len(kept) != len(m.conditions):
                members[name] = m._replace(conditions=tuple(kept))

    def _settle(self, log: List[str], before: Tuple[Tuple[str, str, str], ...] = ()) -> "Fight":
        """This fight after the conditions and relations that a true/false stat ends have ended
        (a condition whose holder became, say, 失能; a grapple whose holder did), with `log` added."""
        if not self.relations and not before and not any(m.conditions for m in self.members):
            return self._with(added=log)  # no condition or relation that could end
        rules = self.rules
        members = list(self.members)
        relations = self.relations
        for _ in range(3):  # an ending can end another (a relation's condition): a fixed, small depth
            changed = False
            for i, m in enumerate(members):
                if not any(x.kind in ("stat", "state") for c in m.conditions for x in rules.conditions[c.id].ends):
                    continue  # nothing of m's ends by a stat or a state: its stats are not needed
                now = self._with(members=tuple(members), relations=relations)
                stats, states = now._effective(m), states_of(now, m)
                ended = [(c, settled(rules, rules.conditions[c.id], stats, states)) for c in m.conditions]
                kept = tuple(c for c, why in ended if why is None)
                for c, why in ended:
                    if why is not None:  # a state says which ("乙的专注中结束（震慑）")
                        log.append(line(f"{m.name}的{rules.conditions[c.id].name}结束{f'（{why}）' if why else ''}"))
                if kept != m.conditions:
                    members[i] = m._replace(conditions=kept)
                    changed = True
            by_name = {m.name: m for m in members}
            live = []
            for rel in relations:
                spec = rules.relation_specs.get(rel[0])
                holder, held = by_name[rel[1]], by_name[rel[2]]
                why = ""
                if spec is not None:
                    h = self._with(members=tuple(members), relations=relations)
                    hs, ds = h._effective(holder), h._effective(held)
                    why = next((rules.flag_names.get(x, x) for x in spec.ends_holder if getattr(hs, x, False) is True),
                               "") or next((rules.flag_names.get(x, x) for x in spec.ends_held
                                            if getattr(ds, x, False) is True), "") or next(
                        (f"被{rel[2]}{rules.relations[x]}" for x in spec.ends_if_held_by
                         if (x, rel[2], rel[1]) in relations), "")
                if why:
                    log.append(line(f"{rel[1]}对{rel[2]}的{rules.relations[rel[0]]}结束（{why}）"))
                    changed = True
                else:
                    live.append(rel)
            relations = tuple(live)
            if not changed:
                break
        for rel in dict.fromkeys((*before, *self.relations)):
            spec = rules.relation_specs.get(rel[0])
            if rel in relations or spec is None:
                continue
            for i, m in enumerate(members):  # what the relation gave ends with it
                other = rel[1] if m.name == rel[2] else rel[2] if m.name == rel[1] else ""
                ids = (*spec.clears, spec.held) if m.name == rel[2] else (spec.holder,) if m.name == rel[1] else ()
                kept = tuple(c for c in m.conditions if not (c.source == other and c.id in ids))
                for c in m.conditions:
                    if c not in kept:
                        log.append(line(f"{m.name}的{rules.conditions[c.id].name}结束"))
                members[i] = m._replace(conditions=kept)
        return self._with(members=tuple(members), relations=relations, added=log)



def _has(m: Member, cid: str, source: str) -> bool:
    return any(c.id == cid and c.source == source for c in m.conditions)
