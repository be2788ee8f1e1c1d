"""Exact odds over a fight that follows its own state: how many more hits until a track's state
(`Fight.until_state`, inherited from `Until`) and the fewest points that cause it
(`state_threshold`); the absorbing chains themselves are in fight_odds.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Tuple

from .core import OutOfBounds, described
from .fight_odds import MAX_THRESHOLD, UntilOdds, chain_until
from .fight_resources import capacity_kw
from .fight_state import FightRules, Member, bad_options, put
from .sources import FixedDice

_NO_DICE = FixedDice(())  # the accumulation rule rolls nothing


class Until:
    """`until_state` for `Fight` (which provides the attributes and methods below)."""

    __slots__ = ()
    rules: FightRules

    if TYPE_CHECKING:  # provided by Fight
        def member(self, name: str) -> Member: ...

        def effective(self, name: str) -> Any: ...

        def _effective(self, m: Member, debuffs: bool = True, applying: Optional[Any] = None) -> Any: ...

    def until_state(self, procedure: str, roles: Mapping[str, str], target: str, track: str,
                    max_attacks: int = 200, **options: Any) -> UntilOdds:
        """Exactly: how many more times `procedure` (with these roles and options) must hit the
        combatant in role `target` until its points on `track` put it into the track's state. The
        chain's state is the points so far; each total has its own odds, from the target's stats as
        the fight would then see them (a debuff that lowers a defense makes later hits likelier)."""
        spec = self.rules.actions.get(procedure) if type(procedure) is str else None
        if (spec is None or spec.odds is None or type(target) is not str or not isinstance(roles, Mapping)
                or target not in roles):
            raise OutOfBounds(f"{described(procedure)}不能在战斗中计算累积概率", key=procedure)
        effect = next((e for e in spec.effects if e.kind == "track" and e.role == target), None)
        if effect is None or self.rules.accumulate is None:
            raise OutOfBounds(f"“{spec.name}”不给{target}累积负面点数", key=procedure)
        if type(track) is not str or track not in self.rules.tracks:
            raise OutOfBounds("没有这个累积槽", key="track")
        m = self.member(roles[target])
        start = m.track_points(track)
        needed = state_threshold(self.rules, self._effective(m, debuffs=False), track,
                                 capacity=capacity_kw(self.rules, m, track))  # the current capacity (TR-F13)
        if needed <= 0:
            raise OutOfBounds(f"“{self.rules.tracks.get(track, track)}”没有负面状态", key=track)
        others = {role: self.effective(name) for role, name in roles.items() if role != target}
        fields: Optional[Tuple[str, ...]] = None
        cache: Dict[Any, Dict[int, float]] = {}

        def gains(total: int) -> Mapping[int, float]:
            nonlocal fields
            seen = self._effective(m._replace(points=put(m.points, track, start + total)))
            if seen not in cache:
                try:
                    odds = spec.odds(**{target: seen}, **others, **options)  # type: ignore[misc]
                except TypeError:  # an option left out, or one the procedure does not take
                    raise bad_options(spec, procedure) from None
                fields = odds.fields
                at_track, at_points = fields.index(effect.key), fields.index(effect.field)
                dist: Dict[int, float] = {}
                for (on, points), p in odds.project((at_track, at_points)):
                    gained = int(points) if on == track else 0
                    dist[gained] = dist.get(gained, 0.0) + p
                cache[seen] = dist
            return cache[seen]

        return chain_until(gains, max(1, needed - start), max_attacks)



def state_threshold(rules: FightRules, creature: Any, track: str, limit: int = MAX_THRESHOLD,
                    capacity: Mapping[str, int] = {}) -> int:
    """The fewest points on `track` that put `creature` into the track's state (by the ruleset's own
    accumulation procedure), found by doubling and bisection; 0 when no total up to `limit` does."""
    accumulate = rules.accumulate
    if accumulate is None:
        return 0
    if type(track) is not str or track not in rules.tracks:
        raise OutOfBounds("没有这个累积槽", key="track")
    limit = min(limit, rules.points_max)  # the most points a track holds (and the procedure accepts)

    def reaches(points: int) -> bool:
        return bool(accumulate(creature, track, current=0, gained=points, dice=_NO_DICE, **capacity)[rules.state_index])

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
