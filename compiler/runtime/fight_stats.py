"""A combatant's stats as the fight's rules see them (`Fight` inherits `Stats`): base stats plus
active modifiers (within each stat's range), the stats its states take away at their minimum, the
conditions that apply, and the debuffs of its tracks — remembered, since an action reads them
several times and a long fight meets the same few states again (fightperf, issue 34); and the two
effects that read or change them: a modifier merged into those a combatant has (`_modify`), and the
ruleset's recovery rule for a combatant in a track's state who takes damage (`_recover`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from .core import cache
from .fight_conditions import Condition, ConditionSpec
from .fight_resources import capacity_kw, reflect
from .fight_state import MAX_MODIFIERS, MAX_VALUE, FightRules, Member, Modifier, clamp, line, put, stat_values, trusted
from .sources import FixedDice

_NO_DICE = FixedDice(())  # the accumulation rule rolls nothing: a roll would be DiceExhausted, never a hang


class Stats:
    """Effective stats, debuffs, modifiers and recovery, for `Fight` (which provides the attributes)."""

    __slots__ = ()
    rules: FightRules
    relations: Tuple[Tuple[str, str, str], ...]

    if TYPE_CHECKING:  # provided by Fight
        def member(self, name: str) -> Member: ...

        def _applying(self, m: Member, procedure: Optional[str] = None,
                      by_name: Optional[Any] = None) -> List[Tuple[Condition, ConditionSpec]]: ...

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
        if not debuffs and applying is None:
            if not (m.modifiers or m.states or m.conditions or self.relations or m.resources):
                return m.base
            return self._undebuffed(m)
        lowered = self._lowered(m) if debuffs else ()
        if applying is None:
            applying = self._applying(m) if (m.conditions or self.relations or m.states) else []
        if applying:  # only a condition that changes a stat changes them (昏迷 forbids actions, it sets none)
            applying = [ca for ca in applying if ca[1].sets or ca[1].adds or ca[1].as_states]
        if not m.modifiers and not m.states and not lowered and not applying and not m.resources:
            return m.base
        key = (id(m.base), id(m.modifiers), m.states, lowered, m.resources)  # all it depends on, no condition applying
        if not applying:
            hit = _EFFECTIVE.get(key)
            if hit is not None and hit[0] is m.base and hit[1] is m.modifiers and hit[2] is self.rules:
                return hit[3]
        values = stat_values(m.base)
        for stat, amount in lowered:
            lo = self.rules.stats[stat][1]
            values[stat] = max(lo, values[stat] - amount)
        for mod in m.modifiers:
            name_lo_hi = self.rules.stats.get(mod.stat)
            if name_lo_hi is not None:
                values[mod.stat] = max(name_lo_hi[1], min(name_lo_hi[2], values[mod.stat] + mod.delta))
        if m.resources:  # what is left of a resource, as the stat the procedures read (fight_resources.py)
            reflect(self.rules, m, values)
        for state in m.states:
            if values.get(self.rules.state_spared.get(state, "")) is True:
                continue  # spared: another working sense keeps the defenses (tracks' 目盲)
            for stat in self.rules.state_stats.get(state, ()):
                if stat in self.rules.stats:
                    values[stat] = self.rules.stats[stat][1]
        for c, spec in applying:
            for state in spec.as_states:  # counted as in a state: the stats it takes away at their minimum
                for stat in self.rules.state_stats.get(state, ()):
                    if stat in self.rules.stats:
                        values[stat] = self.rules.stats[stat][1]
            for stat, flag in spec.sets:
                values[stat] = flag
            for stat, per in spec.adds:
                _, lo, hi = self.rules.stats[stat]
                values[stat] = max(lo, min(hi, values[stat] + per * c.value))
        stats = trusted(self.rules.combatant, values)
        if not applying:
            _remember(_EFFECTIVE, key, (m.base, m.modifiers, self.rules, stats))
        return stats

    def _undebuffed(self, m: Member) -> Any:
        """`_effective(m, debuffs=False)`, remembered: the accumulation and recovery rules read it once
        or twice an action, and it depends only on the parts of `m` an action rarely changes (base
        stats, modifiers, states, conditions, name) and on the relations and rules, all immutable,
        so their identities are the key (each entry holds them, so no identity is reused while it lives)."""
        key = (id(m.base), id(m.modifiers), m.states, id(m.conditions), m.name, id(self.relations), m.resources)
        hit = _UNDEBUFFED.get(key)  # the states by value (names): a state left and entered again is the same
        if (hit is not None and hit[0] is m.base and hit[1] is m.modifiers
                and hit[3] is m.conditions and hit[4] is self.relations and hit[5] is self.rules):
            return hit[6]
        stats = self._effective(m, debuffs=False, applying=self._applying(m))
        _remember(_UNDEBUFFED, key, (m.base, m.modifiers, m.states, m.conditions, self.relations, self.rules, stats))
        return stats

    def _lowered(self, m: Member) -> Tuple[Tuple[str, int], ...]:
        """`_debuffs(m)`, remembered: they depend only on `m`'s stats without debuffs (what the
        accumulation rule reads: `m.base` or an object `_undebuffed` remembers, held by the entry,
        so its identity is a key), its points and the rules. An action asks for them for its stats
        and for what it says, and in a long fight the points take the same few values again."""
        if not m.points:
            return self._debuffs(m)
        plain = self._effective(m, debuffs=False)
        key = (id(plain), m.points, m.lowered)
        hit = _LOWERED.get(key)
        if hit is not None and hit[0] is plain and hit[1] is self.rules:
            return hit[2]  # type: ignore[no-any-return]
        out = self._debuffs(m)
        _remember(_LOWERED, key, (plain, self.rules, out))
        return out

    def _debuffs(self, m: Member) -> Tuple[Tuple[str, int], ...]:
        """(stat, amount) for each stat a track's debuff lowers directly (a defense: the checks it
        lowers are `fight_checks`'), by the points past the capacity."""
        stats = self.rules.stats
        return tuple((stat, amount) for track, amount in self._debuff_amounts(m)
                     for stat in self.rules.track_debuffs.get(track, ()) if stat in stats)

    def _debuff_amounts(self, m: Member) -> Tuple[Tuple[str, int], ...]:
        """(track, amount) for each track whose debuff `m` suffers: points past the capacity, by the
        ruleset's accumulation rule."""
        rules = self.rules
        if not (rules.track_debuffs or rules.track_debuff_checks) or rules.accumulate is None or not m.points:
            return ()
        out: List[Tuple[str, int]] = []
        plain = None
        for track, points in m.points:
            if points <= 0 or (track not in rules.track_debuffs and track not in rules.track_debuff_checks):
                continue
            if plain is None:
                plain = self._effective(m, debuffs=False)
            amount = int(rules.accumulate(plain, track, current=points, gained=0, dice=_NO_DICE,
                                          **capacity_kw(rules, m, track))[rules.debuff_index])
            if amount > 0:
                out.append((track, amount))
        return tuple(out)

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
            out = fn(self._effective(m, debuffs=False), track, current=points, taken=taken, dice=_NO_DICE,
                     **capacity_kw(self.rules, m, track))
            left, awake = int(out[points_at]), bool(out[awake_at])
            if left != points:
                m = m._replace(points=put(m.points, track, left))
                shown = self.rules.tracks.get(track, track)
                log.append(line(f"{m.name}的{shown}{left - points:+d}（{source}，共{left}）"))
            if awake:
                m = m._replace(states=tuple(s for s in m.states if s != state))
                log.append(line(f"{m.name}的{self.rules.state_names.get(state, state)}解除"))
        return m


# What `_effective` remembers (each entry holds the objects whose identities its key has, so no
# identity is reused while it lives): at most MAX_REMEMBERED entries each, cleared when full.
MAX_REMEMBERED = 256
_UNDEBUFFED: Dict[Tuple[Any, ...], Tuple[Any, ...]] = cache()  # stats without debuffs
_LOWERED: Dict[Tuple[Any, ...], Tuple[Any, ...]] = cache()  # the debuffs
_EFFECTIVE: Dict[Tuple[Any, ...], Tuple[Any, ...]] = cache()  # the stats with debuffs, no condition applying


def _remember(memo: Dict[Tuple[Any, ...], Tuple[Any, ...]], key: Tuple[Any, ...], entry: Tuple[Any, ...]) -> None:
    if len(memo) >= MAX_REMEMBERED:
        memo.clear()
    memo[key] = entry
