"""The fight data of a ruleset as both emitters write it (emit/python/fight.py, emit/js/fight.py):
what the IR's `fight:` and the procedures' `effects:` say, resolved into the plain values the
runtime interpreters read (the stats a state takes away, each track's state, the tops of the
points the accumulation and recovery procedures accept, where their outcomes hold what the fight
reads). Nothing here writes code."""

from __future__ import annotations

from ..ir import Procedure, Ruleset

MAX_VALUE = 1_000_000_000  # the runtimes' MAX_VALUE: a parameter without a declared max


def state_stats(rs: Ruleset) -> dict[str, tuple[str, ...]]:
    """Each state's stats taken away: the union over the flags it has set."""
    assert rs.fight is not None
    if rs.fight.states is None:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for entry in rs.table(rs.fight.states).entries:
        stats: list[str] = []
        for flag, taken in rs.fight.state_stats:
            if entry.get(flag) is True:
                stats += [s for s in taken if s not in stats]
        if stats:
            out[entry.id] = tuple(stats)
    return out


def track_states(rs: Ruleset) -> dict[str, str]:
    """Each track's state: the track table's reference into the fight's states table."""
    assert rs.fight is not None
    if rs.fight.tracks is None or rs.fight.states is None:
        return {}
    table = rs.table(rs.fight.tracks)
    ref = next((f for f in table.fields if f.type == "ref" and f.table == rs.fight.states), None)
    if ref is None:
        return {}
    return {e.id: str(e.get(ref.id)) for e in table.entries if e.get(ref.id)}


def points_range(rs: Ruleset) -> tuple[int, int]:
    """(points_max, taken_max): the tops of the ranges the accumulation procedure declares for the
    points it is given (`current`, `gained`) and the recovery procedure for its `current` and
    `taken`. The fight saturates a track's points at points_max, so both accept every total."""
    assert rs.fight is not None
    points, taken = MAX_VALUE, MAX_VALUE
    by_id = {p.id: p for p in rs.procedures}
    keys: list[tuple[str | None, tuple[str, ...], tuple[str, ...]]] = [(rs.fight.accumulate, ("current", "gained"), ())]
    if rs.fight.on_damage:
        keys.append((rs.fight.on_damage[1], ("current",), ("taken",)))
    for proc_id, point_params, taken_params in keys:
        proc = by_id.get(proc_id or "")
        for q in proc.params if proc else ():
            if q.max is not None and q.id in point_params:
                points = min(points, q.max)
            if q.max is not None and q.id in taken_params:
                taken = min(taken, q.max)
    return max(0, points), max(0, taken)


def procedure(rs: Ruleset, proc_id: str) -> Procedure:
    return next(p for p in rs.procedures if p.id == proc_id)


def outcome_index(rs: Ruleset, proc_id: str, field: str) -> int:
    """Where the outcome of procedure `proc_id` holds `field`."""
    return [o.id for o in procedure(rs, proc_id).result].index(field)


def state_index(rs: Ruleset) -> int:
    """Where the accumulation procedure's outcome holds `state` (0 without one)."""
    assert rs.fight is not None
    return outcome_index(rs, rs.fight.accumulate, "state") if rs.fight.accumulate else 0


def debuff_index(rs: Ruleset) -> int:
    """Where the accumulation procedure's outcome holds `debuff` (-1 without debuffs)."""
    assert rs.fight is not None
    return outcome_index(rs, rs.fight.accumulate, "debuff") if rs.fight.accumulate and rs.fight.debuffs else -1


def fight_actions(rs: Ruleset) -> list[tuple[Procedure, tuple[str, ...], int]]:
    """The procedures a fight can resolve (those with combatant parameters): each with its roles
    (the combatant parameters, in order) and the index of the role that acts."""
    out = []
    for p in rs.procedures:
        roles = tuple(q.id for q in p.params if q.type == "combatant")
        if roles:
            out.append((p, roles, roles.index(p.subject) if p.subject in roles else 0))
    return out


def check_uses(rs: Ruleset, p: Procedure) -> list[tuple[str, str, str, int | None, tuple[tuple[str, tuple[object, ...],
                                                                                         bool], ...]]]:
    """The checks `p` rolls, as `fight_checks.CheckUse` fields (check, role, lowers, top, when): an
    option's value matches by id or, for a table entry, by its Chinese name too."""
    by_id = {q.id: q for q in p.params}
    out = []
    for c in p.checks:
        when = []
        for param, value, default in c.when:
            q = by_id[param]
            values: tuple[object, ...] = (value,)
            if q.type not in ("int", "bool"):
                values = (value, next(e.name for e in rs.table(q.type).entries if e.id == value))
            when.append((param, values, default))
        out.append((c.check, c.role, c.lowers, by_id[c.lowers].max, tuple(when)))
    return out


def state_spared(rs: Ruleset) -> list[tuple[str, str]]:
    """(state, the true/false stat that spares what it takes away) for each state whose flag says so."""
    assert rs.fight is not None
    states = rs.table(rs.fight.states).entries if rs.fight.states else ()
    return [(e.id, stat) for e in states for flag, stat in rs.fight.state_spared if e.get(flag) is True]


def track_inputs(rs: Ruleset) -> dict[str, tuple[str, str, str, str]]:
    """Each fight action that takes a track (a parameter of the tracks table) and the parameters
    `fight: track_inputs:` names: (track parameter, points parameter or "", capacity parameter or "",
    the track parameter's default entry or "")."""
    assert rs.fight is not None
    points, capacity = rs.fight.track_inputs
    if rs.fight.tracks is None or not (points or capacity):
        return {}
    out = {}
    for p, _roles, _subject in fight_actions(rs):
        track = next((q for q in p.params if q.type == rs.fight.tracks), None)
        ids = {q.id for q in p.params if q.type == "int"}
        found = (points if points in ids else "", capacity if capacity in ids else "")
        if track is not None and any(found):
            out[p.id] = (track.id, *found, track.default if isinstance(track.default, str) else "")
    return out


def lowered_max(rs: Ruleset) -> int:
    """The most a track's capacity is lowered in the fight: the top every procedure the fight passes
    it to (the accumulation and recovery procedures, the actions that take it) accepts."""
    assert rs.fight is not None
    capacity = rs.fight.track_inputs[1]
    if not capacity:
        return 0
    tops = [q.max for p in rs.procedures for q in p.params if q.id == capacity and q.type == "int" and q.max is not None
            and (p.id in (rs.fight.accumulate, (rs.fight.on_damage or ("", ""))[1]) or p.id in track_inputs(rs))]
    return max(0, min(tops, default=0))
