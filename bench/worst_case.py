"""The slowest single call of every public function of the bundled packages, over the argument
ranges the rules declare (safety: a chat line can only choose arguments inside them).

For each procedure, each of its four forms (`NAME`, `NAME_fast`, `NAME_prepare` and one roll of
its closure, `NAME_odds`) is called with the corners of its ranges (every int at its min, then at
its max; combatants with every stat at its min, then at its max) and with random picks among the
corners, defaults and entries. A call that raises a rule error (an out-of-reach target, say)
counts too: it is what a bot would run. Reported: the slowest call of each ruleset, and the
procedure and form it was.

A ruleset with a fight also gets rows for `until` and `Fight.until_state` (`until_calls`): each
procedure's whole-number outcomes, at the edges of `threshold` and `max_attacks` that the chain's
declared work limit admits (`MAX_CHAIN_WORK`), with the arguments whose single-action odds leave
the most mass unabsorbed or have the most outcomes; every track's state from every body part that
feeds it, with the defender's stats at their corners; and the chain itself at its limit on the
marginal that costs it most (one outcome, almost always nothing).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _combatants(g: ModuleType, stats: list[Any], rng: random.Random, n: int) -> list[Any]:
    def make(pick: Callable[[Any], Any]) -> Any:
        return g.Combatant(**{s.id: pick(s) for s in stats})

    out = [make(lambda s: s.max if s.type == "int" else True), make(lambda s: s.min if s.type == "int" else False),
           g.Combatant()]
    for _ in range(n):
        out.append(make(lambda s: rng.choice((s.min, s.max, s.default)) if s.type == "int" else rng.random() < 0.5))
    return out


def _arguments(p: Any, rs: Any, people: list[Any], rng: random.Random, n: int) -> list[dict[str, Any]]:
    tables = {t.id: [e.id for e in t.entries] for t in rs.tables}

    def corner(high: bool) -> dict[str, Any]:
        args: dict[str, Any] = {}
        for prm in p.params:
            if prm.type == "int":
                args[prm.id] = prm.max if high else prm.min
            elif prm.type == "bool":
                args[prm.id] = high
            elif prm.type == "combatant":
                args[prm.id] = people[0 if high else 1]
            elif prm.type in tables:
                args[prm.id] = tables[prm.type][0]
        return args

    out = [corner(True), corner(False)]
    for _ in range(n):
        args = {}
        for prm in p.params:
            if prm.type == "int":
                args[prm.id] = rng.choice([prm.min, prm.max] + ([prm.default] if isinstance(prm.default, int) else []))
            elif prm.type == "bool":
                args[prm.id] = rng.random() < 0.5
            elif prm.type == "combatant":
                args[prm.id] = rng.choice(people)
            elif prm.type in tables:
                args[prm.id] = rng.choice(tables[prm.type] + ([None] if prm.optional else []))
        out.append(args)
    return out


def _call(fn: Callable[..., Any], p: Any, args: dict[str, Any], extra: dict[str, Any]) -> None:
    fn(**args, **extra)


def worst_calls(load: Callable[[str], ModuleType], samples: int = 40, seed: int = 7) -> list[tuple[str, float, str]]:
    """(ruleset, seconds of its slowest call, which call) for each bundled ruleset."""
    from rulec.build.facade import compile_rules

    build = compile_rules([ROOT / "rules"], stop_after="lower")
    rng = random.Random(seed)
    out = []
    for rs in build.rulesets:
        g = load(rs.id)
        people = _combatants(g, list(rs.stats), rng, 6)
        slowest, which = 0.0, ""
        for p in rs.procedures:
            for args in _arguments(p, rs, people, rng, samples):
                for label, run in _forms(g, p, args):
                    start = time.perf_counter()
                    try:
                        run()
                    except g.RuleError:
                        pass
                    elapsed = time.perf_counter() - start
                    if elapsed > slowest:
                        slowest, which = elapsed, label
        if "initiative" in rs.features:
            many = [(f"战士{i}", 200, 0) for i in range(1000)]
            start = time.perf_counter()
            g.initiative_order(many, g.SeededDice(1))
            elapsed = time.perf_counter() - start
            if elapsed > slowest:
                slowest, which = elapsed, "initiative_order (1000 × 200 dice)"
        out.append((rs.id, slowest, which))
        if hasattr(g, "until"):
            out += until_calls(g, rs, people, rng)
    return out


def _timed(run: Callable[..., Any], errors: Any, *args: Any, **kwargs: Any) -> float:
    start = time.perf_counter()
    try:
        run(*args, **kwargs)
    except errors:
        pass
    return time.perf_counter() - start


def _edges(odds_mod: ModuleType, outcomes: int) -> list[tuple[int, int]]:
    """(threshold, max_attacks) pairs at the edge of what the chain's work limit admits for a
    marginal of `outcomes` values that add something (every total in one run)."""
    most, cap_t, cap_k = odds_mod.MAX_CHAIN_WORK, odds_mod.MAX_THRESHOLD, odds_mod.MAX_ATTACKS
    out = []
    for k in (1, 200, cap_k):
        t = min(cap_t, most // (k * (outcomes + 1)) - 16, most // k)
        if t >= 1:
            out.append((t, k))
    return out


def until_calls(g: ModuleType, rs: Any, people: list[Any], rng: random.Random,
                samples: int = 6) -> list[tuple[str, float, str]]:
    """The slowest `until` and `until_state` calls of a ruleset with a fight (see the module doc)."""
    import importlib

    odds_mod = importlib.import_module(g.__name__ + "._runtime.fight_odds")
    candidates = []  # (stay, outcomes, procedure, args, field)
    for p in rs.procedures:
        spec = g.FIGHT_RULES.actions.get(p.id)
        if spec is None or spec.odds is None:
            continue
        for args in _arguments(p, rs, people, rng, samples):
            try:
                odds = spec.odds(**args)
            except g.RuleError:
                continue
            for o in p.result:
                marginal = odds.marginal(o.id) if o.id in odds.fields else {}
                if not marginal or not all(type(v) is int and v >= 0 for v in marginal):
                    continue
                moves = [v for v, q in marginal.items() if v > 0 and q > 0]
                if moves:
                    candidates.append((marginal.get(0, 0.0), len(moves), p.id, args, o.id))
    picked = sorted(candidates, key=lambda c: -c[0])[:3] + sorted(candidates, key=lambda c: -c[1])[:3]
    slowest, which = 0.0, ""
    for stay, outcomes, proc, args, field in picked:
        for threshold, attacks in _edges(odds_mod, outcomes):
            elapsed = _timed(g.until, g.RuleError, proc, field, threshold, max_attacks=attacks, **args)
            if elapsed > slowest:
                slowest = elapsed
                which = f"until({proc}, {field}, {threshold}, max_attacks={attacks}): {outcomes} outcomes, " \
                        f"P(0) {stay:.3f}"
    worst = {0: 0.999, 1: 0.001}
    for threshold, attacks in _edges(odds_mod, 1):
        elapsed = _timed(odds_mod.attacks_until, g.RuleError, worst, threshold, attacks)
        if elapsed > slowest:
            slowest, which = elapsed, f"the chain at its work limit: threshold {threshold}, {attacks} actions"
    rows = [(f"{rs.id}: until", slowest, which)]
    if g.FIGHT_RULES.accumulate is not None and "attack" in g.FIGHT_RULES.actions:
        rows.append((f"{rs.id}: until_state", *_until_state(g, rs, people)))
    return rows


def _until_state(g: ModuleType, rs: Any, people: list[Any]) -> tuple[float, str]:
    parts = next((t for t in rs.tables if t.id == "body_parts"), None)
    weapons = next(t for t in rs.tables if t.id == "weapons").entries
    feeding = [(e.id, str(e.get("track"))) for e in (parts.entries if parts else ()) if e.get("track")]
    slowest, which = 0.0, ""
    for part, track in feeding:
        for defender in people[:3]:
            for attacker in people[:2]:
                for weapon in (weapons[0].id, "fist"):
                    fight = g.start_fight({"甲": attacker, "乙": defender})
                    for attacks in (200, 1000, 10_000):
                        elapsed = _timed(fight.until_state, g.RuleError, "attack", {"attacker": "甲", "defender": "乙"},
                                         "defender", track, max_attacks=attacks, weapon=weapon, part=part)
                        if elapsed > slowest:
                            slowest, which = elapsed, f"until_state(attack, {track} via {part}, {weapon}, " \
                                                      f"max_attacks={attacks})"
    return slowest, which


def _forms(g: ModuleType, p: Any, args: dict[str, Any]) -> list[tuple[str, Callable[[], Any]]]:
    """The four public forms of procedure `p`, each as a call with `args`."""
    return [
        (p.id, lambda: _call(getattr(g, p.id), p, args, {"dice": g.SeededDice(1)})),
        (p.id + "_fast", lambda: _call(getattr(g, p.id + "_fast"), p, args, {"dice": g.SeededDice(1)})),
        (p.id + "_prepare", lambda: _prepare_and_roll(g, p, args)),
        (p.id + "_odds", lambda: _call(getattr(g, p.id + "_odds"), p, args, {})),
    ]


def _prepare_and_roll(g: ModuleType, p: Any, args: dict[str, Any]) -> None:
    holder: list[Any] = []
    _call(lambda *a, **k: holder.append(getattr(g, p.id + "_prepare")(*a, **k)), p, args, {})
    holder[0](g.SeededDice(1))
