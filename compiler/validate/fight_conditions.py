"""Checking the conditions and relation rules a ruleset's fight declares (`fight: conditions:`,
`fight: relations:`), and the condition effects procedures declare.

Everything a condition names is checked ahead of time, so the runtime interpreter
(runtime/fight_conditions.py) never meets an unknown name: a stat it sets must be a true/false
stat, a stat it adds to a whole-number one, an option a parameter of some procedure with a value
of that parameter's type, every procedure, role and outcome of a scope or an ending must exist
(an outcome in every procedure the scope names), and each ending says exactly one way it ends:
what a `takes:` ending names is a counter, a track or `any_track`, what `then:` sets a declared
condition or state, and `turn_pools:` lowers pools the turn structure declares, to at most what
they hold.
Each problem is a `file:line:col` diagnostic.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import did_you_mean
from ..ir import ConditionDecl, RelationDecl, Stat
from ..ir import expr as ir
from ..load import Document
from ..messages import say
from .context import Reporter
from .fight_turn import pool_most
from .procedures import CheckedProcedure

ENDINGS = ("turn_start", "turn_end", "next_turn_end", "rounds", "round_end", "used", "acts", "stat", "state", "takes")
TURNS = ("turn_start", "turn_end", "next_turn_end")  # of the holder or the source, the nth one
ANY_TRACK = "any_track"  # `takes:` points on any track (runtime/fight_events.py)


def check_conditions(m: Document, raw: dict[str, Any], procedures: list[CheckedProcedure], stats: tuple[Stat, ...],
                     states: set[str], rep: Reporter, track_ids: set[str] | None = None
                     ) -> tuple[tuple[ConditionDecl, ...], tuple[RelationDecl, ...]]:
    flags = {s.id for s in stats if s.type == "bool"}
    counters = {c["id"] for c in raw.get("counters", [])}
    takeable = counters | set(track_ids or ()) | ({ANY_TRACK} if track_ids else set())
    pools = {p["id"]: pool_most(p["per_turn"], stats) for p in raw.get("turn_structure", {}).get("pools", [])}
    declared = {c["id"] for c in raw.get("conditions", [])}
    ints = {s.id for s in stats if s.type == "int"}
    by_id = {p.id: p for p in procedures}
    out: list[ConditionDecl] = []
    seen: set[str] = set()
    for i, c in enumerate(raw.get("conditions", [])):
        cp = ("fight", "conditions", i)

        def bad(path: tuple[Any, ...], message: str, hint: str | None = None, cp: tuple[Any, ...] = cp) -> None:
            rep.error(m.span(cp + path), "bad-condition", message, hint)

        if c["id"] in seen:
            bad(("id",), say("bad-condition.declared-twice", id=c["id"]))
        seen.add(c["id"])
        for stat in c.get("sets", {}):
            if stat not in flags:
                bad(("sets", stat), say("bad-condition.not-bool-stat", stat=stat), did_you_mean(stat, flags))
        for stat in c.get("adds", {}):
            if stat not in ints:
                bad(("adds", stat), say("bad-condition.not-int-stat", stat=stat), did_you_mean(stat, ints))
        params = {q.id: q.type for p in procedures for q in p.params if q.type in ("int", "bool")}
        for key, value in c.get("options", {}).items():
            want = "bool" if type(value) is bool else "int"
            if params.get(key) != want:
                bad(("options", key), say("bad-condition.no-option-param", param=key,
                                          kind=say("bad-condition.kind-bool" if want == "bool" else "bad-condition.kind-int")),
                    did_you_mean(key, params))
        for j, state in enumerate(c.get("as_states", [])):
            if state not in states:
                bad(("as_states", j), say("bad-condition.no-state", id=state), did_you_mean(state, states))
        applies = _scope(c.get("applies", {}), cp + ("applies",), by_id, m, rep, events=False)
        for j, pid in enumerate(c.get("forbids", [])):
            if pid not in by_id:
                bad(("forbids", j), say("bad-condition.no-procedure", id=pid), did_you_mean(pid, by_id))
        ends = []
        for j, e in enumerate(c.get("ends", [])):
            ep = cp + ("ends", j)
            kinds = [k for k in ENDINGS if k in e]
            if len(kinds) != 1 or ("nth" in e and kinds[0] not in TURNS):
                rep.error(m.span(ep), "bad-condition", say("bad-condition.ending-kinds", kinds=", ".join(ENDINGS)))
                continue
            kind = kinds[0]
            if kind == "stat" and e["stat"] not in flags:
                rep.error(m.span(ep + ("stat",)), "bad-condition", say("bad-condition.not-bool-stat", stat=e["stat"]),
                          did_you_mean(e["stat"], flags))
            if kind == "state" and e["state"] not in states:
                rep.error(m.span(ep + ("state",)), "bad-condition", say("bad-condition.no-state", id=e["state"]),
                          did_you_mean(e["state"], states))
            if kind == "takes" and e["takes"] not in takeable:
                rep.error(m.span(ep + ("takes",)), "bad-condition", say("bad-condition.not-takeable", what=e["takes"]),
                          did_you_mean(e["takes"], takeable))
            scope = _scope(e["acts"], ep + ("acts",), by_id, m, rep, events=True) if kind == "acts" else ((), "", "", "")
            of = e[kind] if kind in TURNS else "holder"
            nth = e[kind] if kind in ("rounds", "round_end") else e.get("nth", 1)
            ends.append((kind, of, nth, scope, e[kind] if kind in ("takes", "state") else e.get("stat", "")))
        then = []
        for key, value in c.get("then", {}).items():
            if key == "condition" and value not in declared:
                bad(("then", key), say("bad-condition.no-condition", id=value), did_you_mean(value, declared))
            if key == "state" and value not in states:
                bad(("then", key), say("bad-condition.no-state", id=value), did_you_mean(value, states))
            then.append((key, value))
        for pool, most in c.get("turn_pools", {}).items():
            if pool not in pools:
                bad(("turn_pools", pool), say("bad-turn.no-pool", pool=pool), did_you_mean(pool, pools))
            elif most > pools[pool]:
                bad(("turn_pools", pool), say("bad-condition.pool-above-turn", pool=pool, most=most, per_turn=pools[pool]))
        actions = tuple((x.get("action", ""), x.get("nature", "")) for x in c.get("forbids_actions", []))
        out.append(ConditionDecl(c["id"], c["name"], c.get("description", ""), tuple(c.get("rules", [])),
                                 tuple(c.get("sets", {}).items()), tuple(c.get("adds", {}).items()),
                                 tuple(c.get("options", {}).items()), applies, tuple(c.get("forbids", [])), actions,
                                 tuple(ends), c.get("max", 1_000_000), c.get("stack", "replace"), m.span(cp),
                                 tuple(c.get("as_states", [])), tuple(then),
                                 tuple(sorted(c.get("turn_pools", {}).items()))))
    relations = []
    relation_ids = [r["id"] for r in raw.get("relations", [])]
    for i, r in enumerate(raw.get("relations", [])):
        rp = ("fight", "relations", i)
        for key in ("held", "holder"):
            if key in r and r[key] not in seen:
                rep.error(m.span(rp + (key,)), "bad-condition", say("bad-condition.no-condition", id=r[key]),
                          did_you_mean(r[key], seen))
        for key in ("ends_holder", "ends_held"):
            for j, stat in enumerate(r.get(key, [])):
                if stat not in flags:
                    rep.error(m.span(rp + (key, j)), "bad-condition", say("bad-condition.not-bool-stat", stat=stat),
                              did_you_mean(stat, flags))
        for j, rid in enumerate(r.get("ends_if_held_by", [])):
            if rid not in relation_ids:
                rep.error(m.span(rp + ("ends_if_held_by", j)), "bad-condition",
                          say("bad-condition.no-relation", id=rid), did_you_mean(rid, relation_ids))
        for j, cid in enumerate(r.get("clears", [])):
            if cid not in seen:
                rep.error(m.span(rp + ("clears", j)), "bad-condition", say("bad-condition.no-condition", id=cid),
                          did_you_mean(cid, seen))
        relations.append(RelationDecl(r["id"], r.get("held", ""), r.get("holder", ""), tuple(r.get("ends_holder", [])),
                                      tuple(r.get("ends_held", [])), tuple(r.get("rules", [])),
                                      tuple(r.get("clears", [])), tuple(r.get("ends_if_held_by", []))))
    return tuple(out), tuple(relations)


def _scope(raw: dict[str, Any], path: tuple[Any, ...], by_id: dict[str, CheckedProcedure], m: Document,
           rep: Reporter, events: bool) -> tuple[tuple[str, ...], str, str, str]:
    procs = list(raw.get("procedures", []))
    for j, pid in enumerate(procs):
        if pid not in by_id:
            rep.error(m.span(path + ("procedures", j)), "bad-condition", say("bad-condition.no-procedure", id=pid),
                      did_you_mean(pid, by_id))
    named = [by_id[p] for p in procs if p in by_id] or list(by_id.values())
    for key in ("role", "source_role"):
        role = raw.get(key, "")
        roles = {q.id for p in named for q in p.params if q.type == "combatant"}
        if role and role not in roles:
            rep.error(m.span(path + (key,)), "bad-condition",
                      say("bad-condition.not-role", role=role,
                          where=", ".join(procs) if procs else say("bad-condition.any-procedure")),
                      did_you_mean(role, roles))
    when = raw.get("when", "")
    if when and (not procs or any(not any(o.id == when and o.formula.type == ir.BOOL for o in p.result)
                                  for p in named)):
        rep.error(m.span(path + ("when",)), "bad-condition", say("bad-condition.when-outcome", when=when))
    del events
    return tuple(procs), raw.get("role", ""), raw.get("source_role", ""), when


def check_condition_effect(e: dict[str, Any], kind: str, roles: list[str], outcomes: dict[str, str],
                           conditions: set[str], bad: Any) -> tuple[str, str, str]:
    """(condition id, value outcome, source role) of a `condition:` or `clear:` effect."""
    key = e[kind]
    if key not in conditions:
        bad(kind, say("bad-condition.no-condition", id=key), did_you_mean(key, conditions))
    value = e.get("value", "")
    if value and outcomes.get(value) != ir.INT:
        bad("value", say("bad-condition.not-int-outcome", value=value),
            did_you_mean(value, [k for k, t in outcomes.items() if t == ir.INT]))
    source = e.get("source", "")
    if source and (source not in roles or source == e["target"]):
        bad("source", say("bad-condition.not-other-role", source=source), did_you_mean(source, roles))
    if kind == "clear" and (value or source):
        bad("clear", say("bad-condition.clear-takes-nothing"))
    if kind != "clear" and "everyone" in e:
        bad("everyone", say("bad-condition.everyone-clear-only"))
    return key, value, source
