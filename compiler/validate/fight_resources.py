"""Checking the resources a ruleset's fight declares (`fight: resources:`), the parameters the fight
supplies to procedures that read a track (`fight: track_inputs:`), and the effects that spend,
restore or lower them (runtime/fight_resources.py interprets them).

A resource's starting amount and top are a whole number from 0 or a whole-number stat; the stat
the procedures read as what is left must be a whole-number stat; `on_empty` names a declared
condition and its ruling a true/false ruling. A resource effect names a declared resource and
spends or restores a whole-number outcome or a number; a capacity effect reads a text outcome
naming the track and lowers or raises it by a whole-number outcome, and needs `track_inputs:
capacity:` (the accumulation and recovery procedures' parameter the fight passes the loss to).
Each problem is a `file:line:col` diagnostic.
"""

from __future__ import annotations

from typing import Any, Callable

from ..diagnostics import did_you_mean
from ..ir import ResourceDecl, Ruling, Stat
from ..ir import expr as ir
from ..load import Document
from ..messages import say
from .context import Reporter
from .procedures import CheckedProcedure

MAX_AMOUNT = 1_000_000_000  # the runtimes' MAX_VALUE


def check_resources(m: Document, raw: dict[str, Any], stats: tuple[Stat, ...], conditions: set[str],
                    rulings: tuple[Ruling, ...], rep: Reporter) -> tuple[ResourceDecl, ...]:
    """The declared resources, each amount, stat, condition and ruling checked."""
    int_stats = {s.id: s for s in stats if s.type == "int"}
    out: list[ResourceDecl] = []
    for i, r in enumerate(raw.get("resources", [])):
        path = ("fight", "resources", i)
        if r["id"] in {x.id for x in out}:
            rep.error(m.span(path + ("id",)), "bad-resource", say("bad-resource.declared-twice", id=r["id"]))

        def amount(key: str, r: dict[str, Any] = r, path: tuple[Any, ...] = path) -> int | str:
            value = r.get(key, r.get("start") if key == "max" else None)
            if type(value) is int:
                if not 0 <= value <= MAX_AMOUNT:
                    rep.error(m.span(path + (key,)), "bad-resource", say("bad-resource.bad-amount", key_=key,
                                                                         value=value, top=MAX_AMOUNT))
                return value
            if type(value) is not str or value not in int_stats:
                rep.error(m.span(path + (key,)), "unknown-stat", say("bad-resource.unknown-stat", key_=key,
                                                                     stat=value), did_you_mean(str(value), int_stats))
                return 0
            if (int_stats[value].min or 0) < 0:
                rep.error(m.span(path + (key,)), "bad-resource", say("bad-resource.negative-stat", stat=value))
            return str(value)

        start, top = amount("start"), amount("max")
        stat = r.get("stat", "")
        if stat and stat not in int_stats:
            rep.error(m.span(path + ("stat",)), "unknown-stat", say("bad-resource.unknown-stat", key_="stat", stat=stat),
                      did_you_mean(stat, int_stats))
        empty = r.get("on_empty", {})
        cond = empty.get("condition", "")
        if cond and cond not in conditions:
            rep.error(m.span(path + ("on_empty", "condition")), "bad-resource",
                      say("bad-condition.no-condition", id=cond), did_you_mean(cond, conditions))
        key, knocks = empty.get("ruling", ""), True
        if key:
            ruling = next((x for x in rulings if x.key == key), None)
            if ruling is None or type(ruling.value) is not bool:
                rep.error(m.span(path + ("on_empty", "ruling")), "bad-resource", say("bad-turn.ruling", key_=key),
                          did_you_mean(key, [x.key for x in rulings if type(x.value) is bool]))
            else:
                knocks = ruling.value
        out.append(ResourceDecl(r["id"], r["name"], r.get("description", ""), start, top, stat, cond, key, knocks,
                                bool(empty.get("lifts", False)), tuple(r.get("rules", [])), m.span(path)))
    return tuple(out)


def check_track_inputs(m: Document, raw: dict[str, Any], procedures: list[CheckedProcedure],
                       accumulate: str | None, on_damage: tuple[str, str] | None, rep: Reporter) -> tuple[str, str]:
    """(points, capacity) of `fight: track_inputs:`: the accumulation procedure (and the recovery
    rule's) must take the capacity parameter as a whole number from 0 with a declared max."""
    given = raw.get("track_inputs")
    if given is None:
        return ("", "")
    points, capacity = given.get("points", ""), given.get("capacity", "")
    if capacity:
        for proc_id in (accumulate, on_damage[1] if on_damage else None):
            proc = next((p for p in procedures if p.id == proc_id), None)
            q = next((q for q in proc.params if q.id == capacity), None) if proc else None
            if proc is None or q is None or q.type != "int" or q.max is None or (q.min or 0) != 0:
                rep.error(m.span(("fight", "track_inputs", "capacity")), "bad-resource",
                          say("bad-resource.capacity-param", param=capacity, id=proc_id or "accumulate"))
    return (points, capacity)


def check_resource_effect(e: dict[str, Any], kind: str, outcomes: dict[str, str], resources: set[str],
                          capacity: bool, bad: Callable[..., None]) -> tuple[str, str, int, str, str]:
    """(key, field, sign, constant, spares) of a resource or capacity effect."""
    verbs = ("spend", "restore") if kind == "resource" else ("lower", "raise")
    given = [v for v in verbs if v in e]
    if len(given) != 1:
        bad(kind, say("bad-resource.effect-verb", kind=kind, verbs=" / ".join(verbs)))
        return ("", "", 1, "", "")
    verb = given[0]
    sign = -1 if verb in ("spend", "lower") else 1
    value = e[verb]
    field, constant = "", ""
    if type(value) is int:
        if not 1 <= value <= MAX_AMOUNT:
            bad(verb, say("bad-resource.bad-amount", key_=verb, value=value, top=MAX_AMOUNT))
        constant = str(value)
    elif outcomes.get(str(value)) != ir.INT:
        bad(verb, say("bad-effect.not-outcome-procedure", name=value, word="a whole-number", id=e["target"]),
            did_you_mean(str(value), [k for k, t in outcomes.items() if t == ir.INT]))
    else:
        field = str(value)
    spares = e.get("spares", "")
    if spares and (kind != "resource" or outcomes.get(spares) != ir.BOOL):
        bad("spares", say("bad-resource.spares", name=spares),
            did_you_mean(spares, [k for k, t in outcomes.items() if t == ir.BOOL]))
    if kind == "resource":
        if e["resource"] not in resources:
            bad("resource", say("bad-resource.no-resource", id=e["resource"]), did_you_mean(e["resource"], resources))
        return (e["resource"], field, sign, constant, spares)
    if not capacity:
        bad("capacity", say("bad-resource.no-capacity-param"))
    if outcomes.get(e["capacity"]) != ir.STR:
        bad("capacity", say("bad-effect.not-outcome-procedure", name=e["capacity"], word="a text", id=e["target"]),
            did_you_mean(e["capacity"], [k for k, t in outcomes.items() if t == ir.STR]))
    return (e["capacity"], field, sign, constant, "")
