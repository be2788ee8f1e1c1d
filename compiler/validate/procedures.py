"""Checking procedures: parameters bound into a scope, then each step checked in order by its kind
(compiler/steps/), each defining its local for the steps after it, then the outcome fields and
the odds summary. Formulas, trace sentences and error messages are checked against the scope as
it stands at their step. The result is a `CheckedProcedure` per procedure, for lowering."""

from __future__ import annotations

import builtins
from typing import Any

from ..diagnostics import Span, did_you_mean
from ..formula.check import Binding, Scope
from ..ir import CheckUse, Dice, Effect, ErrorType, Output, Param, Stat, Summary
from ..ir import expr as ir
from ..load import Document
from ..record import MutableRecord, field
from ..steps import CheckedStep, kind_of
from .literals import check_literals
from .context import Reporter, StepContext, compile_formula
from .reserved import reserved
from .scopes import TableDecls, add_entity, add_stats
from ..messages import say

RESERVED_PARAMS = reserved("param") | set(dir(builtins))


class CheckedProcedure(MutableRecord):
    id: str
    name: str
    description: str
    rules: tuple[str, ...]
    subject: str | None
    params: tuple[Param, ...]
    steps: list[CheckedStep]
    result: tuple[Output, ...]
    summary: Summary
    span: Span
    raw_effects: list[dict[str, Any]] = field(default_factory=list)  # checked with the fight section
    effects_at: tuple[Document, tuple[Any, ...]] | None = None
    effects: tuple[Effect, ...] = ()
    action: tuple[str, str] = ("", "")  # (kind of action, nature)
    action_from: str = ""  # the text outcome naming the kind of action it spends ("": `action` itself)
    costs: tuple[tuple[str, str], ...] = ()  # turn pool -> the whole-number outcome holding what it spends of it
    raw_checks: list[dict[str, Any]] = field(default_factory=list)  # checked with the fight section
    checks: tuple[CheckUse, ...] = ()


def check_procedures(docs: list[Document], stats: tuple[Stat, ...], base: Scope, table_ids: dict[str, set[str]],
                     decls: TableDecls, errors: tuple[ErrorType, ...], rule_ids: set[str], dice: Dice,
                     rep: Reporter) -> list[CheckedProcedure]:
    out: list[CheckedProcedure] = []
    seen: dict[str, Span] = {}
    error_map = {e.id: e for e in errors}
    for doc in docs:
        for i, raw in enumerate(doc.data["procedures"]):
            path = ("procedures", i)
            if raw["id"] in seen:
                rep.error(doc.span(path + ("id",)), "duplicate-id",
                          say("duplicate-id.procedure-defined-twice-first", id=raw['id'], value=seen[raw['id']]))
                continue
            seen[raw["id"]] = doc.span(path)
            proc = _check_one(raw, doc, path, stats, base, table_ids, decls, error_map, rule_ids, dice, rep)
            if proc is not None:
                out.append(proc)
    return out


def _rules(ids: list[str], known: set[str], doc: Document, path: tuple[Any, ...], rep: Reporter) -> tuple[str, ...]:
    for rid in ids:
        if rid not in known:
            rep.error(doc.span(path), "unknown-rule", say("unknown-rule.rule-id-not-rule-4", rid=rid),
                      did_you_mean(rid, known))
    return tuple(ids)


def _params(raw: dict[str, Any], doc: Document, path: tuple[Any, ...], stats: tuple[Stat, ...],
            table_ids: dict[str, set[str]], decls: TableDecls, scope: Scope, rep: Reporter) -> tuple[Param, ...]:
    params: list[Param] = []
    names: set[str] = set()
    subject_id = raw.get("subject")
    subject_raw = next((p for p in raw["params"] if p["id"] == subject_id), None)
    subject = ir.Param(ir.COMBATANT, str(subject_id), str(subject_raw["name"])) if subject_raw else None
    context = {p["id"]: (p["type"], ir.Param(ir.entry_type(p["type"]), p["id"], p["name"]))
               for p in raw["params"] if p["type"] in table_ids}
    for j, p in enumerate(raw["params"]):
        ppath = path + ("params", j)
        pid, ptype = p["id"], p["type"]
        if pid in RESERVED_PARAMS:
            rep.error(doc.span(ppath + ("id",)), "reserved-name", say("reserved-name.reserved-choose-another-id", pid=pid))
        if pid in names or p["name"] in names:
            rep.error(doc.span(ppath), "duplicate-id", say("duplicate-id.parameter-declared-twice", pid=pid))
        names.update((pid, p["name"]))
        default = p.get("default")
        if ptype in ("int", "bool"):
            if default is None:
                pass
            elif ptype == "int" and (isinstance(default, bool) or not isinstance(default, int)):
                rep.error(doc.span(ppath + ("default",)), "bad-default", say("bad-default.int-parameter-defaults-whole"))
            elif ptype == "bool" and not isinstance(default, bool):
                rep.error(doc.span(ppath + ("default",)), "bad-default", say("bad-default.bool-parameter-defaults-true"))
            elif ptype == "int" and not p.get("min", -1_000_000) <= default <= p.get("max", 1_000_000):
                rep.error(doc.span(ppath + ("default",)), "bad-default",
                          say("bad-default.default-outside-2", default=default, get=p.get('min'), get2=p.get('max')))
            scope.add([(pid,), (p["name"],)], Binding(ir.Param(ptype, pid, p["name"])))
        elif ptype == "combatant":
            default = None
            add_stats(scope, stats, [(pid,), (p["name"],)], ir.Param(ir.COMBATANT, pid, p["name"]), p["name"])
        elif ptype in table_ids:
            if default is not None and default not in table_ids[ptype]:
                rep.error(doc.span(ppath + ("default",)), "unknown-ref",
                          say("unknown-ref.default-not-entry-table", default=default, ptype=ptype),
                          did_you_mean(str(default), table_ids[ptype]))
            add_entity(scope, [(pid,), (p["name"],)], ir.Param(ir.entry_type(ptype), pid, p["name"]), p["name"],
                       ptype, decls, subject=subject, context_params=context)
        else:
            rep.error(doc.span(ppath + ("type",)), "unknown-type",
                      say("unknown-type.not-int-bool-combatant", ptype=ptype),
                      did_you_mean(ptype, [*table_ids, "int", "bool", "combatant"]))
            continue
        params.append(Param(pid, p["name"], ptype, p.get("min", -1_000_000 if ptype == "int" else None),
                            p.get("max", 1_000_000 if ptype == "int" else None), default,
                            bool(p.get("optional", False)), p.get("description", ""), doc.span(ppath)))
    if subject_id is not None and not any(p.id == subject_id and p.type == "combatant" for p in params):
        rep.error(doc.span(path + ("subject",)), "bad-subject", say("bad-subject.subject-not-combatant-parameter", subject_id=subject_id))
    return tuple(params)


def _check_one(raw: dict[str, Any], doc: Document, path: tuple[Any, ...], stats: tuple[Stat, ...], base: Scope,
               table_ids: dict[str, set[str]], decls: TableDecls, errors: dict[str, ErrorType], rule_ids: set[str],
               dice: Dice, rep: Reporter) -> CheckedProcedure | None:
    before = len(rep.diags)
    scope = base.child()
    params = _params(raw, doc, path, stats, table_ids, decls, scope, rep)
    steps: list[CheckedStep] = []
    defined: dict[tuple[str, ...], bool] = {}
    for k, sraw in enumerate(raw["steps"]):
        ctx = StepContext(doc=doc, path=path + ("steps", k), scope=scope, errors=errors, rule_ids=rule_ids,
                          dice=dice, rep=rep, defined=defined)
        step = kind_of(sraw).check(sraw, ctx)
        if step is not None:
            check_literals(sraw, {**step.args, "when": step.when}, doc, ctx.path, rep)  # rule numbers are rulings
            steps.append(step)
    result: list[Output] = []
    out_ids: dict[str, str] = {}
    for k, o in enumerate(raw["result"]):
        opath = path + ("result", k)
        if o["id"] in out_ids:
            rep.error(doc.span(opath + ("id",)), "duplicate-id", say("duplicate-id.outcome-listed-twice", id=o['id']))
        if o["id"] in reserved("outcome"):
            rep.error(doc.span(opath + ("id",)), "reserved-name", say("reserved-name.reserved-choose-another-id", pid=o["id"]))
        f = compile_formula(o["value"], scope, (ir.INT, ir.BOOL, ir.STR), doc, opath + ("value",), rep)
        if f is not None:
            check_literals(o, {"value": f}, doc, opath, rep)
            out_ids[o["id"]] = f.type
            result.append(Output(o["id"], o["name"], f))
    summary = _summary(raw, doc, path, out_ids, rep)
    if len(rep.diags) > before:
        return None
    return CheckedProcedure(raw["id"], raw["name"], raw.get("description", ""),
                            _rules(raw.get("rules", []), rule_ids, doc, path + ("rules",), rep),
                            raw.get("subject"), params, steps, tuple(result), summary, doc.span(path),
                            list(raw.get("effects", [])), (doc, path + ("effects",)),
                            action=(raw.get("action", ""), raw.get("nature", "")), action_from=raw.get("action_from", ""),
                            costs=tuple(raw.get("costs", {}).items()),
                            raw_checks=list(raw.get("checks", [])))


def _summary(raw: dict[str, Any], doc: Document, path: tuple[Any, ...], outputs: dict[str, str],
             rep: Reporter) -> Summary:
    """Which outcome fields the odds summary reads as the hit (true/false) and the damage (a number)."""
    given = raw.get("summary", {})
    picked: dict[str, str | None] = {}
    for key, want in (("hit", ir.BOOL), ("damage", ir.INT)):
        field_id = given.get(key)
        if field_id is not None and outputs.get(field_id) != want:
            rep.error(doc.span(path + ("summary", key)), "bad-summary",
                      say("bad-summary.not-outcome", field_id=field_id, value='true/false' if want == ir.BOOL else 'number', id=raw['id']),
                      did_you_mean(field_id, [k for k, t in outputs.items() if t == want]))
            field_id = None
        picked[key] = field_id
    return Summary(picked["hit"], picked["damage"])
