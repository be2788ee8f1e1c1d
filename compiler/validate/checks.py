"""Checking the kinds of check a fight's debuffs lower (`fight: checks:`, `debuffs: checks:`) and
the checks each procedure declares it rolls (`checks:` of a procedure).

A debuff of the seed lowers *checks* (「对应部位进行的感知检定」, 「意志与智力检定」), not the stat
they use: a procedure that rolls such a check says which kind it is (for which values of an
option, when the kind depends on one: a detection by sight is a 视觉感知检定), which combatant
role rolls it, and which whole-number parameter (from 0, with a top) takes the penalty. The fight
(runtime/fight_checks.py) passes the penalty to exactly those procedures. Every id is checked
here, each problem a `file:line:col` diagnostic with did-you-mean.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import did_you_mean
from ..ir import CheckUse, FightSpec, Table
from ..load import Document
from ..messages import say
from .context import Reporter
from .procedures import CheckedProcedure


def check_kinds(m: Document, raw: dict[str, Any], rep: Reporter) -> tuple[tuple[str, str], ...]:
    """The fight's kinds of check: (id, name), ids unique."""
    out: list[tuple[str, str]] = []
    for i, c in enumerate(raw.get("checks", [])):
        if any(c["id"] == k for k, _ in out):
            rep.error(m.span(("fight", "checks", i, "id")), "duplicate-id", say("checks.kind-twice", id=c["id"]))
            continue
        out.append((c["id"], c["name"]))
    return tuple(out)


def check_debuff_kinds(m: Document, d: dict[str, Any], path: tuple[Any, ...], kinds: tuple[tuple[str, str], ...],
                       rep: Reporter) -> tuple[str, ...]:
    """The kinds of check one `debuffs:` entry lowers, each declared in `fight: checks:`."""
    ids = [k for k, _ in kinds]
    for j, check in enumerate(d.get("checks", [])):
        if check not in ids:
            rep.error(m.span(path + ("checks", j)), "unknown-check", say("checks.no-kind", check=check),
                      did_you_mean(check, ids))
    return tuple(d.get("checks", []))


def check_uses(p: CheckedProcedure, raw: list[dict[str, Any]], doc: Document, path: tuple[Any, ...],
               spec: FightSpec | None, tables: tuple[Table, ...], rep: Reporter) -> tuple[CheckUse, ...]:
    """The checks procedure `p` declares it rolls: a known kind, a combatant role, a whole-number
    parameter from 0 with a top and a default of 0 for the penalty, and `when` options that are
    parameters of `p` with a value of their type (an entry id for a table)."""
    if raw and (spec is None or not spec.checks):
        rep.error(doc.span(path), "no-fight", say("checks.need-kinds"))
        return ()
    assert spec is not None or not raw
    kinds = [k for k, _ in spec.checks] if spec is not None else []
    params = {q.id: q for q in p.params}
    roles = [q.id for q in p.params if q.type == "combatant"]
    ids: dict[str, set[str]] = {}

    def entries(table: str) -> set[str]:
        """The ids of `table`'s entries, gathered the first time a `when` names an entry of it."""
        if table not in ids:
            ids[table] = {e.id for t in tables if t.id == table for e in t.entries}
        return ids[table]
    out: list[CheckUse] = []
    for i, c in enumerate(raw):
        cp = path + (i,)
        before = len(rep.diags)
        if c["check"] not in kinds:
            rep.error(doc.span(cp + ("check",)), "unknown-check", say("checks.no-kind", check=c["check"]),
                      did_you_mean(c["check"], kinds))
        if c["role"] not in roles:
            rep.error(doc.span(cp + ("role",)), "bad-check", say("checks.not-role", role=c["role"], id=p.id),
                      did_you_mean(c["role"], roles))
        q = params.get(c["lowers"])
        if q is None or q.type != "int" or q.min != 0 or q.max is None or q.default != 0:
            rep.error(doc.span(cp + ("lowers",)), "bad-check", say("checks.bad-penalty", param=c["lowers"], id=p.id),
                      did_you_mean(c["lowers"], [x.id for x in p.params if x.type == "int"]))
        when: list[tuple[str, str | int | bool, bool]] = []
        for key, value in c.get("when", {}).items():
            w = params.get(key)
            ok = w is not None and w.type != "combatant" and (
                type(value) is bool if w.type == "bool" else type(value) is int if w.type == "int"
                else type(value) is str and value in entries(w.type))
            if not ok:
                rep.error(doc.span(cp + ("when", key)), "bad-check", say("checks.bad-when", option=key, value=value, id=p.id),
                          did_you_mean(key, [x.id for x in p.params if x.type != "combatant"]) if w is None
                          else did_you_mean(str(value), sorted(entries(w.type))))
                continue
            assert w is not None
            when.append((key, value, w.default == value))
        if len(rep.diags) == before:
            out.append(CheckUse(c["check"], c["role"], c["lowers"], tuple(when)))
    return tuple(out)
