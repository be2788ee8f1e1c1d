"""`rulec diff`: compile two sides and say what changed, in entries, rulings and the balance.

The balance is measured as the reference pages measure it: each balancing preset of the
ruleset's manifest (`reference.odds`: the attacker, the options, the distance, the defender
spread and the damage the expected attacks count up to) is run with the pages' own evaluator
(emit/odds_tables.py, the freshly generated package's `<procedure>_odds`) for every entry of its
table, on each side; for the entries of the other tables the procedure chooses from (called
shots), with the preset's first entry common to both sides as the weapon; and an entry of a
table the preset's table refers to (an attack type) is measured through the entries that refer
to it. Beside the damage total, each entry's expected attacks until each state one attack can
lead to (emit/until_states.py: the track states of a called shot or part, the conditions the
procedure sets) are measured with the same package's fight (`until_plan`, one attack a turn, with
the real state feedback). The report is plain JSON (`report`); render.py prints it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...diagnostics import Diagnostic
from ...ir import Entry, OddsPreset, Ruleset, Table
from ...record import replace

MAX_ENTRIES = 100_000  # entries of one table compared field by field
MAX_REPORTED = 5_000  # changed, added and removed entries listed per ruleset (the count is exact)
MAX_CHOICE_ENTRIES = 200  # entries of a chosen table (called shots) measured per preset
EPSILON = 1e-12  # a difference of the odds smaller than this is rounding, not a change

Row = list[list[float | None]]  # hit chances, expected damage, expected attacks (per defender value)
States = dict[str, list[float | None]]  # state's label -> expected attacks until it (per defender value)
Key = tuple[int, str, str]  # (preset index, table id, entry id)


class DiffError(Exception):
    """A side that does not compile: its diagnostics."""

    def __init__(self, label: str, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{label} does not compile")
        self.label = label
        self.diagnostics = diagnostics


@dataclass
class Compiled:
    label: str
    rulesets: dict[str, Ruleset]
    shown: dict[str, str] = field(default_factory=dict)


def compile_side(label: str, paths: list[Path]) -> Compiled:
    from ...build.facade import compile_rules

    build = compile_rules(paths, stop_after="optimise", targets=("python",))
    if not build.ok:
        raise DiffError(label, build.diagnostics)
    return Compiled(label, {rs.id: rs for rs in build.rulesets}, build.shown)


# ---- values made comparable (no spans, no generated names) ----

def plain(value: Any) -> Any:
    """A field value as shown and compared: formulas and dice by their text, lists as lists."""
    from ...ir.model import DiceExpr, FormulaField

    if isinstance(value, FormulaField):
        return value.formula.text
    if isinstance(value, DiceExpr):
        return value.text
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


def _entry_values(entry: Entry) -> dict[str, Any]:
    return {"名称": entry.name, "说明": entry.description, **{k: plain(v) for k, v in entry.values.items()},
            "规则": list(entry.rules)}


def _field_names(table: Table) -> dict[str, str]:
    return {f.id: f.name for f in table.fields}


# ---- the balance of one side ----

def _procedure(rs: Ruleset, pid: str) -> Any:
    return next(p for p in rs.procedures if p.id == pid)


def _choices(rs: Ruleset, preset: OddsPreset) -> list[tuple[str, Table]]:
    """The other tables the preset's procedure takes an entry of (param id, table)."""
    tables = {t.id: t for t in rs.tables}
    return [(prm.id, tables[prm.type]) for prm in _procedure(rs, preset.procedure).params
            if prm.type in tables and prm.id != preset.param and prm.type != preset.table]


def measure(rs: Ruleset, references: dict[int, str]) -> tuple[dict[Key, Row], dict[Key, States]]:
    """{(preset index, table id, entry id): row} and {same key: states} for every preset of `rs`:
    its table's entries, and each chosen table's entries with the preset's entry `references[index]`."""
    from ...emit.odds_tables import _Evaluator
    from ...emit.python.package import emit_package
    from ...build.outputs import header
    from ...emit.until_states import preset_states

    head = header(rs, "")
    package = emit_package(rs, head)
    evaluator = _Evaluator(rs, package, head)  # outside a build: remembers nothing
    out: dict[Key, Row] = {}
    states: dict[Key, States] = {}
    try:
        for i, preset in enumerate(rs.odds_presets):
            table = rs.table(preset.table)
            for entry in table.entries[: preset.max_entries]:
                row = out[(i, table.id, entry.id)] = evaluator.run(preset, entry)
                states[(i, table.id, entry.id)] = preset_states(evaluator.module(), rs, preset, entry, row[2])
            ref = next((e for e in table.entries if e.id == references.get(i)), None)
            if ref is None:
                continue
            for param, chosen in _choices(rs, preset):
                for entry in chosen.entries[:MAX_CHOICE_ENTRIES]:
                    with_choice = replace(preset, args=preset.args + ((param, entry.id),))
                    row = out[(i, chosen.id, entry.id)] = evaluator.run(with_choice, ref)
                    states[(i, chosen.id, entry.id)] = preset_states(evaluator.module(), rs, with_choice, ref, row[2])
    finally:
        evaluator.close()
    return out, states


def _reference(old: Ruleset, new: Ruleset, i: int) -> str | None:
    """The preset's entry both sides have, first in the new side's order (the chosen tables' weapon)."""
    if i >= len(old.odds_presets) or old.odds_presets[i].table != new.odds_presets[i].table:
        return None
    ids = {e.id for e in old.table(old.odds_presets[i].table).entries}
    return next((e.id for e in new.table(new.odds_presets[i].table).entries if e.id in ids), None)


# ---- the report ----

def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=EPSILON, abs_tol=EPSILON)


def _delta(old: list[float | None], new: list[float | None]) -> list[float | None]:
    return [None if a is None or b is None else b - a for a, b in zip(old, new)]


def _states_change(old: States | None, new: States | None) -> dict[str, Any]:
    """{label: {old, new, delta}} for every state either side can list (a side without it: None)."""
    out: dict[str, Any] = {}
    for label in dict.fromkeys(list(new or {}) + list(old or {})):
        o = (old or {}).get(label)
        n = (new or {}).get(label)
        out[label] = {"old": o, "new": n, "delta": _delta(o, n) if o is not None and n is not None else None}
    return out


def _states_same(old: States | None, new: States | None) -> bool:
    return (old or {}).keys() == (new or {}).keys() and all(
        _same(a, b) for k, o in (old or {}).items() for a, b in zip(o, (new or {})[k]))


def _odds_change(i: int, old: Row | None, new: Row | None, via: list[str] | None = None,
                 old_states: States | None = None, new_states: States | None = None) -> dict[str, Any] | None:
    if old is None and new is None:
        return None
    if old is not None and new is not None and all(_same(a, b) for o, n in zip(old, new) for a, b in zip(o, n)) \
            and _states_same(old_states, new_states):
        return None
    out: dict[str, Any] = {"preset": i}
    for k, name in enumerate(("hit", "damage", "until")):
        o = old[k] if old is not None else None
        n = new[k] if new is not None else None
        out[name] = {"old": o, "new": n, "delta": _delta(o, n) if o is not None and n is not None else None}
    out["states"] = _states_change(old_states, new_states)
    if via is not None:
        out["via"] = via
    return out


def _preset_view(rs: Ruleset, p: OddsPreset, reference: str | None) -> dict[str, Any]:
    names = {prm.id: prm.name for prm in _procedure(rs, p.procedure).params}
    ref_name = next((e.name for e in rs.table(p.table).entries if e.id == reference), reference)
    return {"title": p.title, "procedure": p.procedure, "table": p.table, "vary": p.vary_name,
            "values": list(p.vary_values), "until": p.until_name if p.until_at else None, "until_at": p.until_at,
            "combatants": {names.get(cid, cid): dict(stats) for cid, stats in p.combatants},
            "args": dict(p.args), "reference": ref_name}


def _mean_states(states: list[States]) -> States:
    """The mean over several entries' states, value by value (a state one of them lacks: None)."""
    width = max((len(v) for s in states for v in s.values()), default=0)
    out: States = {}
    for label in dict.fromkeys(k for s in states for k in s):
        cols = list(zip(*(s.get(label) or [None] * width for s in states)))
        out[label] = [None if any(v is None for v in col) else sum(v for v in col if v is not None) / len(col)
                      for col in cols]
    return out


def _mean_row(rows: list[Row]) -> Row:
    """The mean over several rows (the weapons of an attack type), value by value."""
    out: Row = []
    for k in range(3):
        cols = list(zip(*(r[k] for r in rows)))
        out.append([None if any(v is None for v in col) else sum(v for v in col if v is not None) / len(col)
                    for col in cols])
    return out


def compare_rulesets(old: Ruleset, new: Ruleset, old_odds: dict[Key, Row], new_odds: dict[Key, Row],
                     old_states: dict[Key, States] | None = None,
                     new_states: dict[Key, States] | None = None) -> dict[str, Any]:
    old_states = old_states or {}
    new_states = new_states or {}
    presets_same = [i < len(old.odds_presets) and replace(old.odds_presets[i], span=None)  # type: ignore[arg-type]
                    == replace(p, span=None) for i, p in enumerate(new.odds_presets)]  # type: ignore[arg-type]
    references = {i: _reference(old, new, i) for i in range(len(new.odds_presets))}
    entries: list[dict[str, Any]] = []
    counts = {"added": 0, "removed": 0, "changed": 0}
    old_tables = {t.id: t for t in old.tables}
    # what refers to what: (table of the preset, field) -> referred table
    refs = [(i, p.table, f.id, f.table) for i, p in enumerate(new.odds_presets)
            for f in new.table(p.table).fields if f.type == "ref" and f.table]
    for table in new.tables:
        before = old_tables.get(table.id)
        old_entries = {e.id: e for e in (before.entries[:MAX_ENTRIES] if before else ())}
        new_entries = {e.id: e for e in table.entries[:MAX_ENTRIES]}
        names = _field_names(table)
        for eid in list(new_entries) + [e for e in old_entries if e not in new_entries]:
            o, n = old_entries.get(eid), new_entries.get(eid)
            change = "added" if o is None else "removed" if n is None else "changed"
            fields = []
            if o is not None and n is not None:
                ov, nv = _entry_values(o), _entry_values(n)
                fields = [{"field": k, "name": names.get(k, k), "old": ov.get(k), "new": nv.get(k)}
                          for k in dict.fromkeys(list(ov) + list(nv)) if ov.get(k) != nv.get(k)]
            odds = []
            for i in range(len(new.odds_presets)):
                key = (i, table.id, eid)
                if key in old_odds or key in new_odds:
                    moved = _odds_change(i, old_odds.get(key), new_odds.get(key), None, old_states.get(key),
                                         new_states.get(key))
                    if moved is not None:
                        odds.append(moved)
            for i, ptable, fid, target in refs:
                if target != table.id or o is None or n is None:
                    continue
                users = [e for e in new.table(ptable).entries[:MAX_ENTRIES] if e.values.get(fid) == eid
                         and (i, ptable, e.id) in old_odds and (i, ptable, e.id) in new_odds]
                moved_users = [e for e in users if _odds_change(
                    i, old_odds[(i, ptable, e.id)], new_odds[(i, ptable, e.id)], None,
                    old_states.get((i, ptable, e.id)), new_states.get((i, ptable, e.id))) is not None]
                if fields and moved_users:
                    keys = [(i, ptable, e.id) for e in moved_users]
                    moved = _odds_change(i, _mean_row([old_odds[k] for k in keys]), _mean_row([new_odds[k] for k in keys]),
                                         [e.name for e in moved_users],
                                         _mean_states([old_states.get(k) or {} for k in keys]),
                                         _mean_states([new_states.get(k) or {} for k in keys]))
                    if moved is not None:
                        odds.append(moved)
            if change == "changed" and not fields and not odds:
                continue
            counts[change] += 1
            if len(entries) < MAX_REPORTED:
                entries.append({"table": table.id, "table_name": table.name, "id": eid,
                                "name": (n or o).name if (n or o) else eid,  # type: ignore[union-attr]
                                "change": change, "fields": fields, "odds": odds})
    for table in old.tables:
        if table.id not in {t.id for t in new.tables}:
            for e in table.entries[:MAX_ENTRIES]:
                counts["removed"] += 1
                if len(entries) < MAX_REPORTED:
                    entries.append({"table": table.id, "table_name": table.name, "id": e.id, "name": e.name,
                                    "change": "removed", "fields": [], "odds": []})
    rulings = _rulings(old, new)
    return {"id": new.id, "name": new.name, "status": "changed" if entries or rulings else "same",
            "old_version": old.version, "new_version": new.version,
            "presets": [_preset_view(new, p, references[i]) | {"changed": not presets_same[i]}
                        for i, p in enumerate(new.odds_presets)],
            "counts": counts, "entries": entries, "rulings": rulings, "truncated": sum(counts.values()) > len(entries)}


def _rulings(old: Ruleset, new: Ruleset) -> list[dict[str, Any]]:
    before = {r.key: r for r in old.rulings}
    after = {r.key: r for r in new.rulings}
    out = []
    for key in list(after) + [k for k in before if k not in after]:
        o, n = before.get(key), after.get(key)
        if o is not None and n is not None and (o.value, o.text) == (n.value, n.text):
            continue
        r = n or o
        assert r is not None
        out.append({"key": key, "ruling": r.ruling, "name": r.name,
                    "change": "added" if o is None else "removed" if n is None else "changed",
                    "old": o.value if o else None, "new": n.value if n else None,
                    "old_text": o.text if o else None, "new_text": n.text if n else None})
    return out


def report(old: Compiled, new: Compiled) -> dict[str, Any]:
    """The whole comparison, as plain JSON."""
    from ...emit.python.loader import forget

    rulesets: list[dict[str, Any]] = []
    for rid in list(new.rulesets) + [r for r in old.rulesets if r not in new.rulesets]:
        o, n = old.rulesets.get(rid), new.rulesets.get(rid)
        if o is None or n is None:
            rs = n or o
            assert rs is not None
            rulesets.append({"id": rid, "name": rs.name, "status": "added" if o is None else "removed",
                             "presets": [], "counts": {}, "entries": [], "rulings": [], "truncated": False})
            continue
        references = {i: r for i in range(len(n.odds_presets)) if (r := _reference(o, n, i)) is not None}
        old_odds, old_states = measure(o, references)
        forget(rid)
        new_odds, new_states = measure(n, references)
        forget(rid)
        rulesets.append(compare_rulesets(o, n, old_odds, new_odds, old_states, new_states))
    changed = any(r["status"] != "same" for r in rulesets)
    return {"old": old.label, "new": new.label, "changed": changed, "rulesets": rulesets}
