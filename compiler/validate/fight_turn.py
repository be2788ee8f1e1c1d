"""Checking the turn a ruleset's fight declares (`fight: turn_structure:`): the pools a turn holds
and what each kind of action costs from them (runtime/fight_budget.py interprets it).

Every pool a cost names must be declared, each kind of action at most once, the ruling that
decides whether what does not fit is refused must be a true/false ruling, and every procedure
that declares a kind of action (`action:`) must name one the turn costs; `action_from:` (the kind
its result spends) must name one of its text outcomes, and `costs:` (what it spends of a pool,
decided by its result: d20's feet of movement) whole-number outcomes. A pool's `per_turn` is a
number or a whole-number stat (read at the runtime from the combatant, at most its declared
maximum and MAX_POOL). Each problem is a `file:line:col` diagnostic.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import did_you_mean
from ..ir import Ruling, Stat, TurnDecl
from ..ir import expr as ir
from ..ir.fight import Cost
from ..load import Document
from ..messages import say
from .context import Reporter
from .procedures import CheckedProcedure


MAX_POOL = 1000  # the most a pool holds in one turn (the schema's bound on a numeric per_turn)


def pool_most(per_turn: int | str, stats: tuple[Stat, ...]) -> int:
    """The most a pool holds in one turn: its number, or the declared maximum of the stat it is
    held in, within 1 and MAX_POOL (an unknown stat: MAX_POOL; check_turn reports it)."""
    if type(per_turn) is int:
        return per_turn
    top = next((s.max for s in stats if s.id == per_turn and s.type == "int"), MAX_POOL)
    return max(1, min(int(top), MAX_POOL))


def check_turn(m: Document, raw: dict[str, Any], procedures: list[CheckedProcedure], stats: tuple[Stat, ...],
               rulings: tuple[Ruling, ...], rep: Reporter) -> TurnDecl | None:
    turn = raw.get("turn_structure")
    if turn is None:
        return None
    path = ("fight", "turn_structure")
    pools: list[tuple[str, str, int, str, int, str]] = []
    int_stats = {s.id: s for s in stats if s.type == "int"}
    for i, p in enumerate(turn["pools"]):
        if p["id"] in {x[0] for x in pools}:
            rep.error(m.span(path + ("pools", i, "id")), "bad-turn", say("bad-turn.pool-twice", id=p["id"]))
        stat = p["per_turn"] if type(p["per_turn"]) is str else ""  # a whole-number stat of the combatant
        if stat and stat not in int_stats:
            rep.error(m.span(path + ("pools", i, "per_turn")), "unknown-stat",
                      say("bad-turn.pool-stat", pool=p["id"], stat=stat), did_you_mean(stat, int_stats))
        pools.append((p["id"], p.get("name", ""), pool_most(p["per_turn"], stats), p.get("unit", ""),
                      p.get("per_unit", 1), stat))
    ids = {p[0] for p in pools}

    def cost(value: dict[str, int], at: tuple[Any, ...]) -> Cost:
        for pool in value:
            if pool not in ids:
                rep.error(m.span(at + (pool,)), "bad-turn", say("bad-turn.no-pool", pool=pool), did_you_mean(pool, ids))
        return tuple(sorted(value.items()))

    def alternatives(value: list[dict[str, int]], at: tuple[Any, ...]) -> tuple[Cost, ...]:
        return tuple(cost(c, at + (j,)) for j, c in enumerate(value))

    kinds: list[tuple[str, tuple[Cost, ...], tuple[Cost, ...], Cost]] = []
    for i, k in enumerate(turn["actions"]):
        kp = path + ("actions", i)
        if k["action"] in {x[0] for x in kinds}:
            rep.error(m.span(kp + ("action",)), "bad-turn", say("bad-turn.kind-twice", kind=k["action"]))
        own = alternatives(k.get("own_turn", []), kp + ("own_turn",))
        off = alternatives(k.get("off_turn", []), kp + ("off_turn",))
        if not own and not off:
            rep.error(m.span(kp), "bad-turn", say("bad-turn.kind-never", kind=k["action"]))
        kinds.append((k["action"], own, off, cost(k.get("next", {}), kp + ("next",))))
    ready = turn.get("ready", {})
    ready_own = alternatives(ready.get("own_turn", []), path + ("ready", "own_turn"))
    refuse, key = True, turn.get("ruling", "")
    if key:
        ruling = next((r for r in rulings if r.key == key), None)
        if ruling is None or type(ruling.value) is not bool:
            rep.error(m.span(path + ("ruling",)), "bad-turn", say("bad-turn.ruling", key_=key),
                      did_you_mean(key, [r.key for r in rulings if type(r.value) is bool]))
        else:
            refuse = ruling.value
    declared = {k[0] for k in kinds}
    for p in procedures:
        kind = p.action[0]
        if kind and kind not in declared and p.effects_at is not None:
            doc, at = p.effects_at
            rep.error(doc.span(at[:-1] + ("action",)), "bad-turn", say("bad-turn.undeclared-kind", kind=kind, id=p.id),
                      did_you_mean(kind, declared))
        texts = [o.id for o in p.result if o.formula.type == ir.STR]
        if p.action_from and (not kind or p.action_from not in texts) and p.effects_at is not None:
            doc, at = p.effects_at
            rep.error(doc.span(at[:-1] + ("action_from",)), "bad-turn",
                      say("bad-turn.action-from", id=p.id, field=p.action_from), did_you_mean(p.action_from, texts))
        numbers = [o.id for o in p.result if o.formula.type == ir.INT]
        for pool, field in p.costs:
            if p.effects_at is None:
                continue
            doc, at = p.effects_at
            if not kind:
                rep.error(doc.span(at[:-1] + ("costs",)), "bad-turn", say("bad-turn.costs-need-action", id=p.id))
            if pool not in ids:
                rep.error(doc.span(at[:-1] + ("costs", pool)), "bad-turn", say("bad-turn.no-pool", pool=pool),
                          did_you_mean(pool, ids))
            if field not in numbers:
                rep.error(doc.span(at[:-1] + ("costs", pool)), "bad-turn",
                          say("bad-turn.costs-field", id=p.id, pool=pool, field=field), did_you_mean(field, numbers))
    names = tuple((k["action"], k["name"]) for k in turn["actions"] if k.get("name"))
    return TurnDecl(tuple(pools), tuple(kinds), key, refuse, ready_own, bool(ready.get("owes", False)),
                    tuple(turn.get("rules", [])), turn.get("description", ""), m.span(path), names)
