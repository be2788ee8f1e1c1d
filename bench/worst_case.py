"""The slowest single call of every public function of the bundled packages, over the argument
ranges the rules declare (safety: a chat line can only choose arguments inside them).

For each procedure, each of its four forms (`NAME`, `NAME_fast`, `NAME_prepare` and one roll of
its closure, `NAME_odds`) is called with the corners of its ranges (every int at its min, then at
its max; combatants with every stat at its min, then at its max) and with random picks among the
corners, defaults and entries. A call that raises a rule error (an out-of-reach target, say)
counts too: it is what a bot would run. Reported: the slowest call of each ruleset, and the
procedure and form it was.
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
    from rulec.facade import compile_rules

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
    return out


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
