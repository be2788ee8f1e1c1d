"""Declared gaps stay honest: a `not_modelled` entry says what the ruleset lacks, and is refused once it has it.

Each entry of a manifest's `not_modelled:` names, from a closed vocabulary (`ir.GAP_LACKS`), what the
ruleset lacks to compute the sub-rule:

* `no_number` — the source gives no number, table or formula; `referee` — the source leaves it to the
  game master; `limit` — a bound of the procedure's own inputs (whole meters, at most four blockers).
  Nothing the ruleset declares can fill these, so they are never stale.
* `relation`, `condition`, `track`, `geometry` — a fight relation, a state (an entry of the fight's
  states table, or a true/false stat a combatant carries), a condition track (an entry of the fight's
  tracks table) or a helper function, named by `needs:`.
* `state_across_actions` — a fight facility the fight section does not have yet (`needs:` is
  `turn_limits`, `resources` or `turn_structure`, each a key `fight:` would declare).

An entry whose `needs` the ruleset now declares is a `stale-gap` error at the entry: the rule can be
computed, so either compute it or say what else it lacks (`check_gaps`).
"""

from __future__ import annotations

from typing import Any

from ..ir import FightSpec, Helper, NotModelled, Stat, Table
from .context import Reporter
from ..messages import say


def has(gap: NotModelled, fight_raw: Any, fight: FightSpec | None, helpers: tuple[Helper, ...],
        stats: tuple[Stat, ...], tables: tuple[Table, ...]) -> str:
    """Where the ruleset already has what `gap` says it lacks (a phrase for the message), or ''."""
    need = gap.needs
    if gap.lacks == "relation" and fight is not None and need in {r for r, _ in fight.relations}:
        return say("gaps.fight-declares-relation", need=need)
    if gap.lacks == "condition":
        if fight is not None and fight.states is not None and _has_entry(tables, fight.states, need):
            return say("gaps.fight-states-table-has", states=fight.states, need=need)
        if any(s.id == need and s.type == "bool" for s in stats):
            return say("gaps.combatants-carry-true-false", need=need)
    if gap.lacks == "track" and fight is not None and fight.tracks is not None \
            and _has_entry(tables, fight.tracks, need):
        return say("gaps.fight-tracks-table-has", tracks=fight.tracks, need=need)
    if gap.lacks == "geometry" and any(h.id == need for h in helpers):
        return say("gaps.manifest-declares-helper", need=need)
    if gap.lacks == "state_across_actions" and isinstance(fight_raw, dict) and fight_raw.get(need):
        return say("gaps.fight-declares", need=need)
    return ""


def _has_entry(tables: tuple[Table, ...], table: str, eid: str) -> bool:
    """Whether `table` has an entry `eid` (only the table asked about is read: a gap is checked
    in every build, and a 10,000-weapon table is not one it can name)."""
    return any(e.id == eid for t in tables if t.id == table for e in t.entries)


def check_gaps(gaps: tuple[NotModelled, ...], fight_raw: Any, fight: FightSpec | None,
               helpers: tuple[Helper, ...], stats: tuple[Stat, ...], tables: tuple[Table, ...],
               rep: Reporter) -> None:
    """A `stale-gap` error at each declared gap whose lack the ruleset now has."""
    for g in gaps:
        where = has(g, fight_raw, fight, helpers, stats, tables)
        if where:
            rep.error(g.span, "stale-gap",
                      say("stale-gap.not-modelled-says-lacks", what=g.what, lacks=g.lacks, needs=g.needs, where=where),
                      say("stale-gap.compute-rule-with-say"))
