"""The fight's runtime (issues 18 and 34): `Fight.apply` and `Fight.act` against the same work written
by hand on plain dicts, per-action cost against the length of a fight, and the exact attacks until
a track's state.

* `apply`: the effects of one tracks attack (damage counter, track points, the accumulation rule's
  state check) on the fight they were resolved in, against `baselines.tracks_fight_update` doing
  the same on dicts (checked to give the same counters, points, states and log lines);
* `act` (resolve and apply) against the generated `attack(...)` plus that update;
* a fight of 10 to 3,000 actions (甲 attacks 乙, turns pass; 乙 passes its 眩晕 capacity within
  the first actions and stays past it): the exponent of its CPU time in the number of actions,
  ≤ 1.1 meaning the per-action cost is flat;
* `until` and `resolve` on their own (issue 18's rows).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from bench import baselines

Row = tuple[str, str, str, str, str]
ROLES = {"attacker": "甲", "defender": "乙"}


def _pair(tracks: ModuleType) -> tuple[Any, Any]:
    attacker = tracks.Combatant(strength=6, fighting=5)
    defender = tracks.Combatant(dexterity=4, perception=2)  # 眩晕 capacity 2×4+2 = 10: 昏迷 at 31 points
    return attacker, defender


def _dicts(fight: Any) -> dict[str, Any]:
    """The fight as the hand-written update keeps it."""
    return {"turn": fight.turn, "log": list(fight.log),
            "members": {m.name: {"base": m.base, "counters": dict(m.counters), "points": dict(m.points),
                                 "states": list(m.states)} for m in fight.members}}


def _same(fight: Any, hand: dict[str, Any]) -> None:
    """The hand-written update did what `Fight.apply` did (the baseline is the same work)."""
    assert list(fight.log) == hand["log"], (fight.log, hand["log"])
    for m in fight.members:
        h = hand["members"][m.name]
        assert (dict(m.counters), dict(m.points), list(m.states)) == (h["counters"], h["points"], h["states"])


def _ratios(named: dict[str, Callable[[], object]], repeats: int, number: int) -> dict[str, list[float]]:
    """CPU seconds per call of each function, interleaved repeats."""
    out: dict[str, list[float]] = {k: [] for k in named}
    for _ in range(repeats):
        for name, fn in named.items():
            start = time.process_time()
            for _ in range(number):
                fn()
            out[name].append((time.process_time() - start) / number)
    return out


def _per_ratio(xs: list[float], ys: list[float]) -> float:
    return statistics.median(x / y for x, y in zip(xs, ys))


def bench_apply_act(tracks: ModuleType, repeats: int) -> list[Row]:
    attack = tracks.attack
    accumulate, recover = tracks.procedures.add_points_fast, tracks.procedures.unconscious_hit_fast
    attacker, defender = _pair(tracks)
    fight = tracks.start_fight({"甲": attacker, "乙": defender})
    action = fight.resolve("attack", ROLES, weapon="fist", part="jaw", dice=tracks.FixedDice([9] * 30))
    state = _dicts(fight)
    no_dice = tracks.FixedDice(())
    _same(fight.apply(action), baselines.tracks_fight_update(state, "乙", action.result, accumulate, recover,
                                                            no_dice))
    seeded = tracks.SeededDice(1)

    def hand_act() -> object:
        result = attack(attacker, defender, "fist", part="jaw", dice=seeded)
        return baselines.tracks_fight_update(state, "乙", result, accumulate, recover, no_dice)

    named: dict[str, Callable[[], object]] = {
        "apply": lambda: fight.apply(action),
        "hand": lambda: baselines.tracks_fight_update(state, "乙", action.result, accumulate, recover, no_dice),
        "act": lambda: fight.act("attack", ROLES, weapon="fist", part="jaw", dice=seeded),
        "hand act": hand_act,
    }
    t = _ratios(named, max(7, repeats), 300)
    med = {k: statistics.median(v) for k, v in t.items()}
    return [
        ("fight: apply an attack's effects", "`fight.apply(action)` (damage, track points, state check)",
         f"{med['apply'] * 1e6:.1f} µs",
         f"{_per_ratio(t['apply'], t['hand']):.2f}× of the same update by hand on dicts "
         f"({med['hand'] * 1e6:.1f} µs)", "≤ 2×, ≤ 10 µs"),
        ("fight: resolve and apply", "`fight.act(...)` with effective stats",
         f"{med['act'] * 1e6:.1f} µs",
         f"{_per_ratio(t['act'], t['hand act']):.2f}× of `attack()` plus the update by hand "
         f"({med['hand act'] * 1e6:.1f} µs)", "≤ 1.3×"),
    ]


def _fight_seconds(tracks: ModuleType, actions: int) -> float:
    attacker, defender = _pair(tracks)
    fight = tracks.start_fight({"甲": attacker, "乙": defender})
    dice = tracks.SeededDice(7)
    start = time.process_time()
    for _ in range(actions):
        fight = fight.act("attack", ROLES, weapon="fist", part="jaw", dice=dice)[1].next_turn().next_turn()
    return time.process_time() - start


def bench_long_fight(tracks: ModuleType, repeats: int) -> list[Row]:
    lengths = (10, 30, 100, 300, 1000, 3000)
    samples: dict[int, list[float]] = {n: [] for n in lengths}
    for _ in range(max(3, repeats // 2)):
        for n in lengths:
            runs = max(1, 3000 // n)  # about the same work for every length
            samples[n].append(sum(_fight_seconds(tracks, n) for _ in range(runs)) / runs)
    secs = [statistics.median(samples[n]) for n in lengths]
    slope = _slope([math.log(n) for n in lengths], [math.log(s) for s in secs])
    per = " / ".join(f"{s / n * 1e6:.0f}" for n, s in zip(lengths, secs))
    return [("fight: per-action cost against its length",
             f"`act` + two `next_turn`, {', '.join(f'{n:,}' for n in lengths)} actions (µs per action; "
             "乙 past its 眩晕 capacity from the 4th)", per, f"total time grows as actions^{slope:.2f}", "≤ 1.1")]


def _slope(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def bench_resolve_until(tracks: ModuleType, repeats: int) -> list[Row]:
    attacker, defender = _pair(tracks)
    fight = tracks.start_fight({"甲": attacker, "乙": defender})
    threshold = tracks.state_threshold(defender, "dizzy")
    assert threshold == 31
    seeded = tracks.SeededDice(1)
    t = _ratios({"resolve": lambda: fight.resolve("attack", ROLES, weapon="fist", part="jaw", dice=seeded)},
                max(5, repeats), 300)
    u = _ratios({"until": lambda: tracks.until("attack", "points", threshold, attacker, defender, "fist",
                                               part="jaw")}, max(3, repeats // 2), 5)
    return [
        ("fight: resolve an attack", "`fight.resolve(...)` with effective stats",
         f"{statistics.median(t['resolve']) * 1e6:.1f} µs", "", ""),
        ("fight: exact attacks until 昏迷", f"`until(...)`, capacity 10, state at {threshold} points",
         f"{statistics.median(u['until']) * 1e3:.2f} ms", "", "≤ 50 ms"),
    ]


def bench_fight(load: Callable[[str], ModuleType], repeats: int) -> list[Row]:
    tracks = load("tracks")
    return bench_apply_act(tracks, repeats) + bench_resolve_until(tracks, repeats) + bench_long_fight(tracks, repeats)
