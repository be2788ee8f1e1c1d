"""Balancing odds for the reference pages, computed by the very resolvers being generated.

For each odds preset of a ruleset (manifest `reference.odds`), the freshly
emitted package is imported from a temporary folder and its `<procedure>_odds`
function is called for every entry of the table against every value of the
varied stat or parameter. The page therefore shows exactly what the shipped
code computes. (The package is rulec's own output: every string in it went
through `repr`, every formula through the whitelist; no rule text is run.)
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
from collections.abc import Mapping
from types import CodeType, ModuleType
from typing import Any

from ..memo import current
from ..ir import Entry, OddsPreset, Ruleset
from .python.loader import forget, import_package
from .svg import line_chart, merge_identical
from .until_states import one_attack_a_turn


def _fmt(value: float | None, percent: bool = False) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value * 100:.1f}%" if percent else f"{value:.2f}"


class _Evaluator:
    """Runs `<procedure>_odds` for one entry over the varied values, memoised across builds.

    The generated package is imported only on the first miss; results are cached (compiler/build/cache.py)
    by the package's code (without the rows of big tables), the preset and the entry, so editing one
    entry of a big pack recomputes only that entry's odds.
    """

    def __init__(self, rs: Ruleset, package: dict[str, str], header: str) -> None:
        self.rs = rs
        self.memo = memo = current()
        self.package = package
        self.header = header
        self._digests: dict[str, str] = {}
        self._others: dict[OddsPreset, tuple[tuple[str, list[tuple[str, Any]]], ...]] = {}
        self._prose: dict[str, frozenset[str]] = {}
        self.name = memo.key("odds", rs.id)
        self._saved: dict[str, Row] | None = None  # read when a row is first asked for (`saved`):
        # a resident build that keeps every section reads and checks none of them
        self.used: dict[str, Row] = {}
        self._module: ModuleType | None = None
        self._tmp: Any = None
        self._rules: tuple[Any] | None = None  # (the fight rules the chains run with,), made when first asked
        self._bases: dict[OddsPreset, list[dict[str, Any]]] = {}
        self._fights: dict[Any, Any] = {}  # the chains' starting fights (`one_attack_a_turn`)

    @property
    def saved(self) -> dict[str, Row]:
        """The rows the last build computed with this ruleset's odds (checked: a hint)."""
        if self._saved is None:
            found = self.memo.load(self.name)
            self._saved = {k: v for k, v in found.items() if _odds_row(v)} if isinstance(found, dict) else {}
        return self._saved

    def module(self) -> ModuleType:
        if self._module is None:
            from .python.package import compiled

            def code(rel: str, text: str) -> CodeType:
                return compiled(self.rs, rel, text)  # compiled once by the build's check

            self._module, self._tmp = import_package(self.rs.id, self.package, code, share_runtime=True)
        return self._module

    def _code_digest(self, table: str) -> str:
        """All generated code, minus the headers (their content hash changes with any input file)
        and, when an odds call can reach the other entries of `table` only by their ids (`_apart`),
        minus that table's data rows: its JSON rows files, or the rows written into the model
        module (the entry and the entries those ids name go into the key: `_named`)."""
        if table not in self._digests:
            apart = _apart(self.rs, table)
            own = re.compile(rf"(?:.*/)?_rows/{re.escape(table)}_\d+\.json")
            inline = re.compile(rf"^_{re.escape(table.upper())}_ROWS: [^\n]*= \(\n.*?^\)\n", re.S | re.M)
            label = self.rs.pack_label  # in __version__: it changes with every edit of a pack, the odds never
            code = "".join(
                _without(inline.sub("", text, 1) if apart and rel.endswith("/model.py") else text, self.header, label)
                for rel, text in sorted(self.package.items())
                if not (apart and own.fullmatch(rel)) and rel.endswith((".py", ".json")))
            self._digests[table] = hashlib.sha256(code.encode()).hexdigest()
        return self._digests[table]

    def run(self, preset: OddsPreset, entry: Entry) -> Row:
        key = hashlib.sha256(repr((ROWS_VERSION, self._code_digest(preset.table), preset, entry.id,
                                   self._values(preset.table, entry.values), self._named(preset))).encode()).hexdigest()
        found = self.saved.get(key)
        if found is None:
            found = self._compute(preset, entry)
        self.used[key] = found
        return found

    def _values(self, table: str, values: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """The values of an entry of `table` that odds can depend on, for a row's key: all but its
        prose (`Ruleset.prose`: a `text` field that no formula, step or fight rule reads, such as a
        weapon's 说明), so that editing it keeps the entry's cached odds and imports no package.
        Read only when `table`'s rows are left out of the code digest (`_apart`); else they are in it."""
        prose = self._prose.get(table)
        if prose is None:
            prose = self._prose[table] = frozenset(f for t, f in self.rs.prose if t == table)
        return sorted((k, v) for k, v in values.items() if k not in prose)

    def _named(self, preset: OddsPreset) -> tuple[tuple[str, list[tuple[str, Any]]], ...]:
        """When the preset's table's rows are left out of the code digest (`_apart`): the entries
        of it an odds call may read besides the one it is given, with their values — those the
        preset's arguments name, and every default a procedure's parameter of that table has (any
        procedure: a fight's chain may run others)."""
        if preset not in self._others:
            if not _apart(self.rs, preset.table):
                self._others[preset] = ()
                return ()
            table = self.rs.table(preset.table)
            proc = next(p for p in self.rs.procedures if p.id == preset.procedure)
            args = dict(preset.args)
            ids = {str(args[prm.id]) for prm in proc.params if prm.type == preset.table and prm.id in args}
            ids |= {str(prm.default) for p in self.rs.procedures for prm in p.params
                    if prm.type == preset.table and prm.default is not None
                    and not (p.id == preset.procedure and prm.id == preset.param)}
            by_id = {e.id: e for e in table.entries}
            self._others[preset] = tuple((i, self._values(table.id, by_id[i].values) if i in by_id else [])
                                         for i in sorted(ids))
        return self._others[preset]

    def fight_rules(self) -> Any:
        """The package's fight rules (None: it has no fight), each action's odds function wrapped in
        a `_Reuse`, which the page's own call of it primes."""
        if self._rules is None:
            rules = getattr(getattr(self.module(), "fight", None), "FIGHT_RULES", None)
            if rules is not None:
                rules = rules._replace(actions={proc: spec._replace(odds=_Reuse(spec.odds)) if spec.odds else spec
                                                for proc, spec in rules.actions.items()})
            self._rules = (rules,)
        return self._rules[0]

    def _varied(self, preset: OddsPreset) -> list[dict[str, Any]]:
        """The arguments of the preset's odds calls, one set for each varied value, but for the
        entry: the same for every entry of the table, so made once (a combatant made and varied
        once per value, not once per entry: a 1,000-weapon pack calls the odds 8,000 times)."""
        found = self._bases.get(preset)
        if found is None:
            mod = self.module()
            proc = next(p for p in self.rs.procedures if p.id == preset.procedure)
            given = dict(preset.combatants)
            base: dict[str, Any] = {}
            for prm in proc.params:
                if prm.type == "combatant":
                    base[prm.id] = mod.Combatant.from_dict(dict(given.get(prm.id, ())))
            base.update(dict(preset.args))
            head, _, stat = preset.vary_target.partition(".")
            stat_id = mod.STAT_NAMES.get(stat, stat)
            found = self._bases[preset] = [
                {**base, head: dataclasses.replace(base[head], **{stat_id: value}) if stat else value}
                for value in preset.vary_values]
        return found

    def _compute(self, preset: OddsPreset, entry: Entry) -> Row:
        mod = self.module()
        odds_fn = getattr(mod, f"{preset.procedure}_odds")
        rules = self.fight_rules()
        spec = rules.actions.get(preset.procedure) if rules is not None else None
        reuse = spec.odds if spec is not None and isinstance(spec.odds, _Reuse) else None
        hits: list[float | None] = []
        damage: list[float | None] = []
        until: list[float | None] = []
        for varied in self._varied(preset):
            kwargs = dict(varied)
            kwargs[preset.param] = entry.id
            try:
                odds = odds_fn(**kwargs)
                if reuse is not None:
                    reuse.kwargs, reuse.odds = kwargs, odds
            except mod.RuleError:
                hits.append(None)
                damage.append(None)
                until.append(None)
                continue
            hit = odds.hit_probability if odds.hit is not None else None
            hits.append(None if hit is None or math.isnan(hit) else hit)
            damage.append(odds.expected_damage if odds.damage is not None else None)
            until.append(_expected_attacks(mod, rules, preset, kwargs, odds, self._fights)
                         if preset.until_at and odds.damage else None)
        return [hits, damage, until]

    def close(self) -> None:
        # (no row asked for: nothing was read, nothing to save)
        if self._saved is not None and self.used.keys() != self._saved.keys():
            self.memo.save(self.name, self.used)
        if self._tmp is not None:
            self._tmp.cleanup()
            self._module = self._tmp = self._rules = None
            self._bases.clear()
            self._fights.clear()
            forget(self.rs.id, empty=True)  # nothing computed from it holds any of it


# How a row is computed, beside the package it is computed with: bump it when _compute changes so
# that rows kept on disk by an older rulec are not reused.
ROWS_VERSION = 3
Row = list[list[float | None]]  # hit chances, expected damage, expected attacks until (per varied value)

MAX_UNTIL = 1000  # attacks: past this the page shows "—" (the damage per attack is too small to say)


class _Reuse:
    """An action's odds function, for the chains of the pages: called with the very arguments the
    page last computed the odds for (a chain's first state is the page's own attacker and
    defender), it gives those odds back instead of computing them again."""

    __slots__ = ("fn", "kwargs", "odds")

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.kwargs: dict[str, Any] | None = None
        self.odds: Any = None

    def __call__(self, **kwargs: Any) -> Any:
        last = self.kwargs
        if last is not None and kwargs.keys() == last.keys() and all(kwargs[k] is last[k] for k in kwargs):
            return self.odds
        return self.fn(**kwargs)


def _expected_attacks(mod: Any, rules: Any, preset: OddsPreset, kwargs: dict[str, Any], odds: Any,
                      started: dict[Any, Any]) -> float | None:
    """The exact expected number of attacks, one a turn, until the damage totals `preset.until_at`:
    in a fight (the package's `until_plan`, so whatever the attack leaves on either side — a
    condition, a track's debuff, a modifier — acts on the attacks after it) where the ruleset's
    fight counts the damage; else, and where the fight's chain does not end within MAX_UNTIL
    attacks, the chain over the damage alone solved for its mean. None when the damage can never
    grow or the mean passes MAX_UNTIL."""
    from ..runtime.fight import expected_attacks

    at = preset.until_at
    marginal = odds.marginal(odds.damage)
    if not any(p > 0 and int(v) > 0 for v, p in marginal.items()):
        return None  # no attack deals damage (a disarm, a sunder): the total never grows, no chain to run
    spec = rules.actions.get(preset.procedure) if rules is not None else None
    counter = next((e for e in spec.effects if e.kind == "counter" and e.field == odds.damage), None) if spec else None
    if spec is not None and counter is not None:
        fight, step = one_attack_a_turn(mod, spec, preset.procedure, kwargs, rules, started)
        try:
            mean = fight.expected_until([step], {"who": step["roles"][counter.role], "counter": counter.key,
                                                 "at_least": at}, max_actions=MAX_UNTIL)
        except mod.RuleError:
            mean = None
        if mean is not None:
            return None if mean > MAX_UNTIL else mean
    mean = expected_attacks({int(v): p for v, p in marginal.items()}, at)
    return None if mean is None or mean > MAX_UNTIL else mean


def _odds_row(value: Any) -> bool:
    """A cached odds row: three lists of numbers or nulls."""
    return (isinstance(value, list) and len(value) == 3 and all(isinstance(v, list) for v in value)
            and all(x is None or type(x) in (int, float) for v in value for x in v))


def _preset(rs: Ruleset, evaluator: _Evaluator, index: int, preset: OddsPreset) -> dict[str, Any]:
    table = rs.table(preset.table)
    entries = table.entries[: preset.max_entries]
    group_field = next((f for f in table.fields if f.id == table.group_by), None)
    groups: dict[str, dict[str, Any]] = {}
    for entry in entries:
        key = str(entry.get(group_field.id)) if group_field else "all"
        label = key
        if group_field is not None and group_field.type == "ref":
            target = rs.table(group_field.table or "")
            label = next((e.name for e in target.entries if e.id == key), key)
        elif group_field is not None and group_field.type == "enum":
            label = next((v.name for v in group_field.values if v.id == key), key)
        group = groups.setdefault(key, {"key": key, "name": label if group_field else "", "rows": []})
        hits, damage, until = evaluator.run(preset, entry)
        group["rows"].append({"name": entry.name, "anchor": f"{table.id}-{entry.id}".replace("_", "-"),
                              "cells": [{"hit": _fmt(h, True), "damage": _fmt(d), "until": _fmt(u)}
                                        for h, d, u in zip(hits, damage, until)],
                              "series": damage, "until": until})
    out_groups = []
    for key, group in groups.items():
        group["rows"] = [r for r in group["rows"] if any(v is not None for v in r["series"])]
        if not group["rows"]:
            continue  # the procedure refuses every entry of this group (e.g. firearms in `attack`)
        series = [(row["name"], row["series"]) for row in group["rows"]]
        chart_title = f"{preset.title}" + (f"：{group['name']}" if group["name"] else "")
        svg = line_chart(chart_title, preset.vary_name, "期望伤害", list(preset.vary_values), series)
        slug = f"{rs.id}-{index + 1}-{key}".replace("_", "-")
        same = ["、".join(names) for names, _ in merge_identical(series) if len(names) > 1]
        extra: dict[str, Any] = {}
        if preset.until_at:
            extra = {"until_svg": line_chart(f"{preset.until_name}所需的期望攻击次数" + (f"：{group['name']}" if group["name"]
                                                                                  else ""),
                                             preset.vary_name, "期望攻击次数", list(preset.vary_values),
                                             [(row["name"], row["until"]) for row in group["rows"]]),
                     "until_chart_file": f"charts/{slug}-until.svg"}
        out_groups.append({**group, "svg": svg, "chart_file": f"charts/{slug}.svg", "same": same, **extra})
    return {"title": preset.title, "vary_name": preset.vary_name, "xs": list(preset.vary_values),
            "until_at": preset.until_at, "until_name": preset.until_name,
            "procedure": preset.procedure, "table_name": table.name, "anchor": f"odds-{index + 1}",
            "truncated": len(table.entries) > len(entries), "shown": len(entries), "total": len(table.entries),
            "groups": out_groups}


def compute_odds(rs: Ruleset, package: dict[str, str], header: str) -> list[dict[str, Any]]:
    """The odds sections of one ruleset's reference page (empty when it declares no presets). A
    resident build keeps them while the code, the entries they are computed from and the number
    of entries the section states stay the same (an edited weapon past the ones the tables show
    changes none of them; one added or removed changes the number)."""
    if not rs.odds_presets:
        return []
    evaluator = _Evaluator(rs, package, header)
    memo = evaluator.memo
    inputs: tuple[Any, ...] = ()
    if memo.resident:
        inputs = tuple(x for i, p in enumerate(rs.odds_presets) for x in (
            memo.intern(("odds-code", rs.id, p.table), evaluator._code_digest(p.table)),
            memo.intern(("odds-preset", rs.id, i), p),
            memo.intern(("odds-count", rs.id, i), len(rs.table(p.table).entries)),  # the section says it
            *rs.table(p.table).entries[: p.max_entries]))
        found = memo.get("odds", *inputs)
        if found is not None:
            return found  # type: ignore[no-any-return]
    try:
        return memo.put("odds", inputs, [_preset(rs, evaluator, i, p) for i, p in enumerate(rs.odds_presets)])
    finally:
        evaluator.close()


def _without(text: str, header: str, label: str) -> str:
    text = text.replace(header, "", 1)
    return text.replace(label, "") if label else text


def _apart(rs: Ruleset, table: str) -> bool:
    """Whether an odds call can reach an entry of `table` only by its id — the one it is given,
    or one an argument or a parameter's default names (`_Evaluator._named`): no table refers to
    its entries (a `ref` field), no formula looks one up (it has no index field) and the fight does
    not read it as its table of states. (A formula
    field whose context is this table reads the entry a procedure passes it: one of those.)"""
    t = next((t for t in rs.tables if t.id == table), None)
    return t is not None and t.index is None and (rs.fight is None or rs.fight.states != table) and not any(
        f.type == "ref" and f.table == table for other in rs.tables for f in other.fields)

