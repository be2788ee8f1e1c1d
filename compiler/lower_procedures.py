"""Lowering procedures: YAML procedures -> `ir.Procedure`s.

Parameters are bound into a scope, then the steps are lowered in order through
the step registry (`steps.py`), each defining its local for the steps after it,
and finally the outcome fields. Formulas, trace sentences and error messages
are checked against the scope as it stands at their step.
"""

from __future__ import annotations

import builtins
import keyword
from typing import Any

from .diagnostics import did_you_mean
from .formula.check import BOOL, DICE, INT, LIST, Binding, Scope
from .ir import Dice, ErrorType, Formula, Output, Param, Procedure, Ruling, Stat, Step, Table
from .load import Document
from .lowering_context import Reporter, compile_formula, compile_template
from .scopes import TableDecls, add_entity, add_rulings, add_stats
from .steps import step_kind_of, target_binding

RESERVED_PARAMS = {"dice", "trace"} | set(dir(builtins))


def lower_procedures(docs: list[Document], stats: tuple[Stat, ...], rulings: tuple[Ruling, ...],
                     tables: tuple[Table, ...], decls: TableDecls, errors: tuple[ErrorType, ...],
                     rule_ids: set[str], dice: Dice, rep: Reporter) -> tuple[Procedure, ...]:
    out: list[Procedure] = []
    seen: dict[str, Any] = {}
    table_ids = {t.id: {e.id for e in t.entries} for t in tables}  # table id -> its entry ids
    error_map = {e.id: e for e in errors}
    for doc in docs:
        for i, raw in enumerate(doc.data["procedures"]):
            path = ("procedures", i)
            if raw["id"] in seen:
                rep.error(doc.span(path + ("id",)), "duplicate-id",
                          f"procedure '{raw['id']}' is defined twice (first at {seen[raw['id']]})")
                continue
            seen[raw["id"]] = doc.span(path)
            proc = _lower_one(raw, doc, path, stats, rulings, table_ids, decls, error_map, rule_ids,
                              dice, rep)
            if proc is not None:
                out.append(proc)
    return tuple(out)


def _rules(ids: list[str], known: set[str], doc: Document, path: tuple[Any, ...], rep: Reporter) -> tuple[str, ...]:
    for rid in ids:
        if rid not in known:
            rep.error(doc.span(path), "unknown-rule", f"rule id '{rid}' is not in the rule inventory",
                      did_you_mean(rid, known))
    return tuple(ids)


def _params(raw: dict[str, Any], doc: Document, path: tuple[Any, ...], stats: tuple[Stat, ...],
            table_ids: dict[str, set[str]], decls: TableDecls, scope: Scope, rep: Reporter) -> tuple[Param, ...]:
    params: list[Param] = []
    names: set[str] = set()
    subject = raw.get("subject")
    context = {p["id"]: p["type"] for p in raw["params"] if p["type"] in table_ids}
    for j, p in enumerate(raw["params"]):
        ppath = path + ("params", j)
        pid, ptype = p["id"], p["type"]
        if keyword.iskeyword(pid) or pid in RESERVED_PARAMS:
            rep.error(doc.span(ppath + ("id",)), "reserved-name", f"'{pid}' is reserved; choose another id")
        if pid in names or p["name"] in names:
            rep.error(doc.span(ppath), "duplicate-id", f"parameter '{pid}' is declared twice")
        names.update((pid, p["name"]))
        if ptype in ("int", "bool"):
            default = p.get("default")
            if default is None:
                pass
            elif ptype == "int" and (isinstance(default, bool) or not isinstance(default, int)):
                rep.error(doc.span(ppath + ("default",)), "bad-default", "an int parameter defaults to a whole number")
            elif ptype == "bool" and not isinstance(default, bool):
                rep.error(doc.span(ppath + ("default",)), "bad-default", "a bool parameter defaults to true or false")
            scope.add([(pid,), (p["name"],)], Binding(INT if ptype == "int" else BOOL, pid, p["name"]))
        elif ptype == "combatant":
            default = None
            add_stats(scope, stats, [(pid,), (p["name"],)], pid, p["name"])
        elif ptype in table_ids:
            default = p.get("default")
            if default is not None and default not in table_ids[ptype]:
                rep.error(doc.span(ppath + ("default",)), "unknown-ref",
                          f"the default '{default}' is not an entry of table '{ptype}'",
                          did_you_mean(str(default), table_ids[ptype]))
            add_entity(scope, [(pid,), (p["name"],)], pid, p["name"], ptype, decls,
                       subject=subject, context_params=context)
        else:
            rep.error(doc.span(ppath + ("type",)), "unknown-type",
                      f"'{ptype}' is not int, bool, combatant or a table",
                      did_you_mean(ptype, [*table_ids, "int", "bool", "combatant"]))
            continue
        params.append(Param(pid, p["name"], ptype, p.get("min", -1_000_000 if ptype == "int" else None),
                            p.get("max", 1_000_000 if ptype == "int" else None), default,
                            bool(p.get("optional", False)), p.get("description", ""), doc.span(ppath)))
    if subject is not None and not any(p.id == subject and p.type == "combatant" for p in params):
        rep.error(doc.span(path + ("subject",)), "bad-subject",
                  f"subject '{subject}' is not a combatant parameter")
    return tuple(params)


def _lower_one(raw: dict[str, Any], doc: Document, path: tuple[Any, ...], stats: tuple[Stat, ...],
               rulings: tuple[Ruling, ...], table_ids: dict[str, set[str]], decls: TableDecls,
               errors: dict[str, ErrorType], rule_ids: set[str], dice: Dice,
               rep: Reporter) -> Procedure | None:
    before = len(rep.diags)
    scope = Scope()
    add_rulings(scope, rulings)
    params = _params(raw, doc, path, stats, table_ids, decls, scope, rep)
    steps: list[Step] = []
    locals_: dict[tuple[str, ...], bool] = {}
    for k, sraw in enumerate(raw["steps"]):
        spath = path + ("steps", k)
        step = _lower_step(sraw, doc, spath, scope, errors, rule_ids, dice, locals_, rep)
        if step is not None:
            steps.append(step)
    result: list[Output] = []
    out_ids: set[str] = set()
    for k, o in enumerate(raw["result"]):
        opath = path + ("result", k)
        if o["id"] in out_ids:
            rep.error(doc.span(opath + ("id",)), "duplicate-id", f"outcome '{o['id']}' is listed twice")
        out_ids.add(o["id"])
        f = compile_formula(o["value"], scope, ("int", "bool", "str", "frac"), doc, opath + ("value",), rep)
        if f is not None:
            result.append(Output(o["id"], o["name"], f))
    if len(rep.diags) > before:
        return None
    return Procedure(raw["id"], raw["name"], raw.get("description", ""),
                     _rules(raw.get("rules", []), rule_ids, doc, path + ("rules",), rep),
                     raw.get("subject"), params, tuple(steps), tuple(result), doc.span(path))


def _lower_step(sraw: dict[str, Any], doc: Document, spath: tuple[Any, ...], scope: Scope,
                errors: dict[str, ErrorType], rule_ids: set[str], dice: Dice,
                locals_: dict[tuple[str, ...], bool], rep: Reporter) -> Step | None:
    kind = step_kind_of(sraw)
    engine = {"pool": "pool", "pool_count": "pool", "d20": "d20"}.get(kind.key)
    if engine is not None and engine != dice.engine:
        rep.error(doc.span(spath + (kind.key,), key=True), "wrong-engine",
                  f"a '{kind.key}' step needs the {engine} dice engine; this ruleset uses {dice.engine}")
        return None
    when = None
    if "when" in sraw:
        when = compile_formula(sraw["when"], scope, (BOOL,), doc, spath + ("when",), rep)
    args: list[tuple[str, Formula]] = []
    for arg, want, default in kind.args:
        text = sraw.get(arg, default)
        if text is None:
            continue
        f = compile_formula(str(text), scope, want, doc, spath + (arg,), rep)
        if f is not None:
            args.append((arg, f))
    target = sraw.get(kind.key) if kind.defines else None
    name = sraw.get("name", target or kind.name)
    if target is not None:
        for key in ((target,), (name,)):
            if key in locals_:
                rep.error(doc.span(spath + (kind.key,)), "duplicate-id", f"'{key[0]}' is already defined")
            elif scope.lookup(key) is not None:
                rep.error(doc.span(spath + (kind.key,)), "shadowing",
                          f"'{key[0]}' already names a parameter or ruling; choose another name")
        value = dict(args).get("value")
        if kind.key == "let" and value is not None and value.type in (DICE, LIST):
            rep.error(doc.span(spath + ("value",)), "wrong-type", "a let step holds a number, true/false or text")
        scope.add([(target,), (name,)], target_binding(kind, target, name, value))
        locals_[(target,)] = locals_[(name,)] = True
    error = error_message = None
    if kind.key == "require":
        error = sraw["error"]
        if error not in errors:
            rep.error(doc.span(spath + ("error",)), "unknown-error", f"no error type '{error}'",
                      did_you_mean(error, errors))
        else:
            error_message = compile_template(errors[error].message, scope, doc, spath + ("error",), rep)
    say_text = sraw.get("note") if kind.key == "note" else sraw.get("say")
    say = None
    if say_text is not None:
        say = compile_template(say_text, scope, doc, spath + ("note" if kind.key == "note" else "say",), rep)
    return Step(kind.key, target, name, tuple(args), say, when, error, error_message,
                _rules(sraw.get("rules", []), rule_ids, doc, spath, rep), doc.span(spath))

