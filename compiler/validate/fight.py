"""Checking the fight state a ruleset declares (`fight:`) and the effects procedures declare on it.

Everything is checked ahead of time, as Foundry's Active Effects and Avrae's trackers do not: a
counter, stat, state, relation, role or outcome an effect names must exist and have the right type
(a counter adds a whole-number outcome, a track effect reads a text outcome naming the track, a
`when` is a true/false outcome), the accumulation procedure must take (combatant, track, current,
gained) and give a `state`, and a state's flags must be true/false fields that take away
whole-number stats. Each problem is a `file:line:col` diagnostic.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import did_you_mean
from ..ir import Effect, FightSpec, Ruling, Stat, Table
from ..ir import expr as ir
from ..load import Document
from .context import Reporter
from .checks import check_debuff_kinds, check_kinds
from .fight_conditions import check_condition_effect, check_conditions
from .fight_resources import check_resource_effect, check_resources, check_track_inputs
from .fight_turn import check_turn
from .procedures import CheckedProcedure
from ..messages import say

KINDS = ("counter", "track", "stat", "state", "relation", "condition", "clear", "resource", "capacity")


def check_fight(m: Document, tables: tuple[Table, ...], procedures: list[CheckedProcedure], stats: tuple[Stat, ...],
                rep: Reporter, rulings: tuple[Ruling, ...] = ()) -> FightSpec | None:
    raw = m.data.get("fight")
    if raw is None:
        return None
    path = ("fight",)
    by_id = {t.id: t for t in tables}
    int_stats = {s.id for s in stats if s.type == "int"}

    def table(key: str) -> str | None:
        tid = raw.get(key)
        if tid is not None and tid not in by_id:
            rep.error(m.span(path + (key,)), "unknown-table", say("unknown-table.no-table-3", tid=tid), did_you_mean(tid, by_id))
            return None
        return tid

    tracks, states = table("tracks"), table("states")
    accumulate = raw.get("accumulate")
    if accumulate is not None:
        proc = next((p for p in procedures if p.id == accumulate), None)
        if proc is None:
            rep.error(m.span(path + ("accumulate",)), "unknown-procedure", say("unknown-procedure.no-procedure-2", accumulate=accumulate),
                      did_you_mean(accumulate, [p.id for p in procedures]))
        else:
            params = [p.id for p in proc.params]
            kinds = [p.type for p in proc.params]
            ok = (len(params) >= 4 and kinds[0] == "combatant" and kinds[1] == tracks and
                  {"current", "gained"} <= set(params) and any(o.id == "state" and o.formula.type == ir.STR
                                                                for o in proc.result))
            if not ok:
                rep.error(m.span(path + ("accumulate",)), "bad-accumulate",
                          say("bad-accumulate.procedure-must-take-combatant", accumulate=accumulate, value=tracks or 'tracks'))
            _points_range(proc, ("current", "gained"), m, path + ("accumulate",), "bad-accumulate", rep)
        if tracks is None:
            rep.error(m.span(path + ("accumulate",)), "bad-accumulate", say("bad-accumulate.accumulate-needs-tracks-track"))
    state_stats = []
    for i, s in enumerate(raw.get("state_stats", [])):
        sp = path + ("state_stats", i)
        if states is None:
            rep.error(m.span(sp), "bad-state-stats", say("bad-state-stats.state-stats-needs-states"))
            break
        field = next((f for f in by_id[states].fields if f.id == s["flag"]), None)
        if field is None or field.type != "bool":
            rep.error(m.span(sp + ("flag",)), "bad-state-stats",
                      say("bad-state-stats.not-true-false-field", flag=s['flag'], states=states),
                      did_you_mean(s["flag"], [f.id for f in by_id[states].fields if f.type == "bool"]))
            continue
        for j, stat in enumerate(s["stats"]):
            if stat not in int_stats:
                rep.error(m.span(sp + ("stats", j)), "unknown-stat", say("unknown-stat.no-whole-number-stat", stat=stat),
                          did_you_mean(stat, int_stats))
        state_stats.append((s["flag"], tuple(s["stats"])))
    spared = []
    flags = {st.id for st in stats if st.type == "bool"}
    for i, s in enumerate(raw.get("state_spared", [])):
        sp = path + ("state_spared", i)
        field = next((f for f in by_id[states].fields if f.id == s["flag"]), None) if states else None
        if field is None or field.type != "bool":
            rep.error(m.span(sp + ("flag",)), "bad-state-stats", say("bad-state-stats.not-true-false-field", flag=s["flag"],
                                                                     states=states or "states"))
        if s["stat"] not in flags:
            rep.error(m.span(sp + ("stat",)), "bad-condition", say("bad-condition.not-bool-stat", stat=s["stat"]),
                      did_you_mean(s["stat"], flags))
        spared.append((s["flag"], s["stat"]))
    on_damage = None
    wake_tracks: tuple[str, ...] = ()
    if "on_damage" in raw:
        od = raw["on_damage"]
        op = path + ("on_damage",)
        if od["counter"] not in {c["id"] for c in raw.get("counters", [])}:
            rep.error(m.span(op + ("counter",)), "unknown-counter", say("unknown-counter.no-counter-fight-section", counter=od['counter']))
        proc = next((p for p in procedures if p.id == od["procedure"]), None)
        outs = {o.id: o.formula.type for o in proc.result} if proc else {}
        ok = (proc is not None and tracks is not None and len(proc.params) >= 4 and proc.params[0].type == "combatant"
              and proc.params[1].type == tracks and {"current", "taken"} <= {q.id for q in proc.params}
              and outs.get("points") == ir.INT and outs.get("awake") == ir.BOOL)
        if not ok:
            rep.error(m.span(op + ("procedure",)), "bad-on-damage",
                      say("bad-on-damage.on-damage-needs-procedure", value=tracks or 'tracks'),
                      did_you_mean(od["procedure"], [p.id for p in procedures]))
        else:
            assert proc is not None
            _points_range(proc, ("current", "taken"), m, op + ("procedure",), "bad-on-damage", rep)
            on_damage = (od["counter"], od["procedure"])
        track_ids = {e.id for t in tables if t.id == tracks for e in t.entries}
        for j, track in enumerate(od.get("tracks", [])):
            if track not in track_ids:
                rep.error(m.span(op + ("tracks", j)), "unknown-entry",
                          say("unknown-entry.no-track-table", track=track, tracks=tracks), did_you_mean(track, track_ids))
        wake_tracks = tuple(od.get("tracks", []))
    debuffs, debuff_checks = [], []
    check_ids = check_kinds(m, raw, rep)
    acc = next((p for p in procedures if p.id == accumulate), None)
    for i, d in enumerate(raw.get("debuffs", [])):
        dp_ = path + ("debuffs", i)
        if acc is None or not any(o.id == "debuff" and o.formula.type == ir.INT for o in acc.result):
            rep.error(m.span(dp_), "bad-debuff", say("bad-debuff.debuffs-need-accumulate-procedure"))
            break
        ids = {e.id for t in tables if t.id == tracks for e in t.entries}
        if d["track"] not in ids:
            rep.error(m.span(dp_ + ("track",)), "unknown-entry", say("unknown-entry.no-track-table", track=d['track'], tracks=tracks),
                      did_you_mean(d["track"], ids))
        for j, stat in enumerate(d.get("stats", [])):
            if stat not in int_stats:
                rep.error(m.span(dp_ + ("stats", j)), "unknown-stat", say("unknown-stat.no-whole-number-stat-2", stat=stat),
                          did_you_mean(stat, int_stats))
        debuffs.append((d["track"], tuple(d.get("stats", []))))
        debuff_checks.append((d["track"], check_debuff_kinds(m, d, dp_, check_ids, rep)))
    state_ids = {e.id for t in tables if t.id == states for e in t.entries}
    track_ids = {e.id for t in tables if t.id == tracks for e in t.entries}
    conditions, relation_rules = check_conditions(m, raw, procedures, stats, state_ids, rep, track_ids)
    resources = check_resources(m, raw, stats, {c.id for c in conditions}, rulings, rep)
    track_inputs = check_track_inputs(m, raw, procedures, accumulate, on_damage, rep)
    return FightSpec(tuple((c["id"], c["name"]) for c in raw.get("counters", [])), tracks, accumulate, states,
                     tuple(state_stats), tuple((r["id"], r["name"]) for r in raw.get("relations", [])), m.span(path),
                     on_damage, tuple(debuffs), conditions, relation_rules, check_ids,
                     tuple(debuff_checks), check_turn(m, raw, procedures, stats, rulings, rep), wake_tracks, tuple(spared),
                     resources, track_inputs)


def _points_range(proc: CheckedProcedure, params: tuple[str, ...], m: Document, path: tuple[Any, ...], code: str,
                  rep: Reporter) -> None:
    """The fight saturates a track's points at the top of these parameters' declared ranges (so the
    procedure accepts every total the fight can hold): each must be a whole number from 0 with a
    declared max."""
    for q in proc.params:
        if q.id in params and (q.type != "int" or q.max is None or q.max < 1 or (q.min or 0) > 0):
            rep.error(m.span(path), code, say("fight.parameter-procedure-must-whole", id=q.id, id2=proc.id))


def check_effects(p: CheckedProcedure, raw: list[dict[str, Any]], doc: Document, path: tuple[Any, ...],
                  spec: FightSpec | None, stats: tuple[Stat, ...], tables: tuple[Table, ...],
                  rep: Reporter) -> tuple[Effect, ...]:
    """The procedure's effects, each checked against the fight section and its outcome fields."""
    if raw and spec is None:
        rep.error(doc.span(path), "no-fight", say("no-fight.effects-need-ruleset-fight"))
        return ()
    assert spec is not None or not raw
    roles = [q.id for q in p.params if q.type == "combatant"]
    outcomes = {o.id: o.formula.type for o in p.result}
    int_stats = {s.id for s in stats if s.type == "int"}
    out: list[Effect] = []
    for i, e in enumerate(raw):
        ep = path + (i,)

        def bad(key: str, message: str, hint: str | None = None, ep: tuple[Any, ...] = ep) -> None:
            rep.error(doc.span(ep + (key,)), "bad-effect", message, hint)

        def outcome(key: str, want: str, e: dict[str, Any] = e) -> str:
            name = e.get(key, "")
            if name and outcomes.get(name) != want:
                word = {ir.INT: "a whole-number", ir.BOOL: "a true/false", ir.STR: "a text"}[want]
                bad(key, say("bad-effect.not-outcome-procedure", name=name, word=word, id=p.id),
                    did_you_mean(name, [k for k, t in outcomes.items() if t == want]))
            return str(name)

        kinds = [k for k in KINDS if k in e]
        if len(kinds) != 1:
            rep.error(doc.span(ep), "bad-effect", say("bad-effect.effect-names-exactly-one"))
            continue
        kind = kinds[0]
        if e["target"] not in roles:
            bad("target", say("bad-effect.not-combatant-parameter", target=e['target'], id=p.id), did_you_mean(e["target"], roles))
        when = outcome("when", ir.BOOL)
        assert spec is not None
        if kind in ("counter", "stat"):
            if ("add" in e) == ("subtract" in e):
                rep.error(doc.span(ep), "bad-effect", say("bad-effect.effect-has-exactly-one", kind=kind))
                continue
            amount_key = "add" if "add" in e else "subtract"
            field, sign = outcome(amount_key, ir.INT), 1 if amount_key == "add" else -1
            if kind == "counter":
                if e["counter"] not in dict(spec.counters):
                    bad("counter", say("bad-effect.no-counter-fight-section", counter=e['counter']),
                        did_you_mean(e["counter"], dict(spec.counters)))
                out.append(Effect("counter", e["target"], e["counter"], field, sign, "", when, "", doc.span(ep)))
            else:
                if e["stat"] not in int_stats:
                    bad("stat", say("bad-effect.no-whole-number-stat", stat=e['stat']), did_you_mean(e["stat"], int_stats))
                duration = f"rounds:{e['rounds']}" if "rounds" in e else e.get("until", "next_turn")
                out.append(Effect("modifier", e["target"], e["stat"], field, sign, duration, when, "", doc.span(ep)))
        elif kind == "track":
            if spec.tracks is None:
                bad("track", say("bad-effect.fight-section-declares-no"))
            track = outcome("track", ir.STR)
            if ("points" in e) == ("recover" in e):
                bad("track", say("bad-effect.track-effect-needs-points"))
                continue
            verb = "points" if "points" in e else "recover"  # recover: points taken off (TR-F14)
            out.append(Effect("track", e["target"], track, outcome(verb, ir.INT), 1 if verb == "points" else -1, "",
                              when, "", doc.span(ep)))
        elif kind in ("resource", "capacity"):
            key, field, sign, constant, spares = check_resource_effect(
                e, kind, outcomes, {r.id for r in spec.resources}, bool(spec.track_inputs[1]), bad)
            out.append(Effect(kind, e["target"], key, field, sign, constant, when, spares, doc.span(ep)))
        elif kind in ("condition", "clear"):
            key, value, source = check_condition_effect(e, kind, roles, outcomes, {c.id for c in spec.conditions},
                                                        bad)
            everyone = "everyone" if kind == "clear" and e.get("everyone") is True else ""  # in the duration slot
            out.append(Effect(kind, e["target"], key, value, 1, everyone, when, source, doc.span(ep)))
        elif kind == "state":
            ids = {x.id for t in tables if t.id == spec.states for x in t.entries}
            if e["state"] not in ids:
                bad("state", say("bad-effect.no-state-table", state=e['state'], states=spec.states), did_you_mean(e["state"], ids))
            out.append(Effect("state", e["target"], e["state"], "", 1, "", when, "", doc.span(ep)))
        else:
            if e["relation"] not in dict(spec.relations):
                bad("relation", say("bad-effect.no-relation-fight-section", relation=e['relation']),
                    did_you_mean(e["relation"], dict(spec.relations)))
            other = e.get("with", "")
            if other not in roles or other == e["target"]:
                bad("relation", say("bad-effect.relation-needs-with-other"), did_you_mean(other, roles))
            out.append(Effect("relation", e["target"], e["relation"], "", 1, "end" if e.get("end") else "start",
                              when, other, doc.span(ep)))
    return tuple(out)
