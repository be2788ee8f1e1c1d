"""The view model of a generated Python package: IR -> plain dicts of ready-made strings.

Everything the templates print is computed here (identifiers, Python literals
through `repr`, argument lists, indentation of the odds loops), so the
templates in `templates/` only loop and interpolate.
"""

from __future__ import annotations

from typing import Any

from ..emit.specialise import Value, fold_value
from ..formula.hoist import Hoister
from ..ir import DiceExpr, Entry, EntryFormula, FieldDecl, Procedure, Ruleset, Step, Table
from ..scopes import class_name, ruling_constant
from ..steps import REGISTRY

PY_TYPES = {"int": "int", "bool": "bool", "text": "str", "enum": "str", "enum_list": "Tuple[str, ...]",
            "dice": "Optional[DiceValue]", "formula": "Callable[..., Any]"}
OUT_TYPES = {"int": "int", "bool": "bool", "str": "str", "frac": "Fraction"}
ROW_CHUNK = 2000  # table rows per generated data module
LOOP_KINDS = ("pool", "pool_count", "d20", "roll")  # step kinds that open a loop in the odds function


def camel(identifier: str) -> str:
    return "".join(p.capitalize() for p in identifier.split("_"))


def table_order(tables: tuple[Table, ...]) -> list[Table]:
    """Tables in dependency order: a table comes after the tables its ref fields point at."""
    by_id = {t.id: t for t in tables}
    done: list[Table] = []
    seen: set[str] = set()

    def visit(t: Table) -> None:
        if t.id in seen:
            return
        seen.add(t.id)
        for f in t.fields:
            if f.type == "ref" and f.table in by_id and f.table != t.id:
                visit(by_id[f.table])
        done.append(t)

    for t in tables:
        visit(t)
    return done


def _field_type(f: FieldDecl) -> str:
    if f.type == "ref":
        return class_name(f.table or "")
    if f.type in ("text", "enum") and f.default is None and not f.required:
        return "Optional[str]"
    return PY_TYPES[f.type]


def _row_value(value: object) -> object:
    """A field value as the plain Python value its row literal holds."""
    if isinstance(value, DiceExpr):
        return (value.text, value.terms, value.flat)
    if isinstance(value, EntryFormula):
        return value.function
    return value


def _row_literal(e: Entry) -> str:
    """One data row: `(id, name, description, rules, not_specified, *fields,)`, by a single repr."""
    text = repr((e.id, e.name, e.description, e.rules, e.not_specified, *map(_row_value, e.values.values())))
    return text[:-1] + ",)"


def _build_arg(f: FieldDecl, index: int) -> str:
    r = f"_r[{index}]"
    if f.type == "ref":
        target = (f.table or "").upper()
        return f"{target}.get({r}, _NO_{class_name(f.table or '').upper()}) if {r} is not None else _NO_{class_name(f.table or '').upper()}"
    if f.type == "dice":
        return f"DiceValue(*{r}) if {r} is not None else None"
    if f.type == "formula":
        return f"_FORMULAS[{r}]"
    return r


def _placeholder_arg(f: FieldDecl) -> str:
    if f.type == "ref":
        return f"_NO_{class_name(f.table or '').upper()}"
    if f.type == "dice":
        return "None"
    if f.type == "formula":
        return "_rt_not_given"
    if f.type == "int":
        return repr(f.default if f.default is not None else 0)
    if f.type == "enum_list":
        return repr(tuple(f.default) if isinstance(f.default, (list, tuple)) else ())
    if f.type == "enum" and f.default is None and f.required:
        return repr(f.values[0].id if f.values else "")
    if f.type == "text" and f.default is None:
        return repr("")
    return repr(f.default)


def table_view(t: Table) -> dict[str, Any]:
    cls = class_name(t.id)
    fields = [{"id": f.id, "type": _field_type(f), "kind": f.type} for f in t.fields]
    rows = []
    for e in t.entries:
        rows.append(_row_literal(e))
    build_args = ["_r[0]", "_r[1]", "_r[2]", "_r[3]", "_r[4]", "True"]
    build_args += [_build_arg(f, 5 + i) for i, f in enumerate(t.fields)]
    placeholder = ["''", repr(f"（无{t.name}）"), "''", "()", "None", "False"]
    placeholder += [_placeholder_arg(f) for f in t.fields]
    return {
        "id": t.id,
        "name": t.name,
        "cls": cls,
        "const": t.id.upper(),
        "none": f"_NO_{cls.upper()}",
        "fields": fields,
        "rows": rows if len(rows) <= ROW_CHUNK else [],
        # Big tables keep their rows in _rows/<table>_<k>.py modules of ROW_CHUNK rows each, so that
        # compiling them (before writing) never holds the syntax tree of 50,000 rows at once.
        "chunks": [{"module": f"{t.id}_{k}", "alias": f"_{t.id.upper()}_ROWS_{k}",
                    "rows": rows[i:i + ROW_CHUNK]}
                   for k, i in enumerate(range(0, len(rows), ROW_CHUNK))] if len(rows) > ROW_CHUNK else [],
        "build_args": ", ".join(build_args),
        "placeholder_args": ", ".join(placeholder),
        "refs": [f.id for f in t.fields if f.type == "ref"],
        "dice": [f.id for f in t.fields if f.type == "dice"],
        "formulas": [f.id for f in t.fields if f.type == "formula"],
        "getter": f"get_{cls_snake(cls)}",
    }


def cls_snake(cls: str) -> str:
    out = ""
    for i, ch in enumerate(cls):
        if ch.isupper() and i:
            out += "_"
        out += ch.lower()
    return out


def formulas_view(rs: Ruleset) -> list[dict[str, str]]:
    """One function per distinct entry formula: def f(s, e, *context)."""
    seen: dict[str, dict[str, str]] = {}
    for t in rs.tables:
        for f in t.fields:
            if f.type != "formula":
                continue
            for e in t.entries:
                v = e.get(f.id)
                if isinstance(v, EntryFormula) and v.function not in seen:
                    ctx = "".join(f", {p}: {class_name(tb)}" for p, tb in f.context)
                    seen[v.function] = {
                        "name": v.function,
                        "params": f"s: Combatant, e: {class_name(t.id)}{ctx}",
                        "returns": "bool" if f.result == "bool" else "int",
                        "body": v.formula.python,
                        "text": v.formula.text,
                    }
    return [seen[k] for k in sorted(seen, key=lambda n: int(n.rsplit("_", 1)[1]))]


def _step_view(step: Step, indent: int, counter: list[int]) -> dict[str, Any]:
    counter[0] += 1
    args: dict[str, str | None] = {name: None for name, _want, _default in REGISTRY[step.kind].args}
    args.update({name: f.python for name, f in step.args})
    for name, fallback in (("extras", "0"), ("crit", "False"), ("advantage", "0"), ("disadvantage", "0"),
                           ("at_least", "1")):
        if name in args and args[name] is None:
            args[name] = fallback
    return {
        "kind": step.kind,
        "var": f"v_{step.target}" if step.target else "",
        "target": step.target or "",
        "label": step.name,
        "args": args,
        "when": step.when.python if step.when else None,
        "say": step.say.python if step.say else None,
        "error_cls": camel(step.error) if step.error else "",
        "error_msg": step.error_message.python if step.error_message else "''",
        "n": counter[0],
        "indent": indent,
    }


def _param_views(p: Procedure) -> tuple[list[dict[str, str]], list[str], list[str], list[str]]:
    """Per parameter: its view, its inline input check, and its piece of the full and fast signatures."""
    params, checks, sig, fast_sig = [], [], [], []
    for prm in p.params:
        # Inline fast checks; the runtime checker runs (and raises its message) only on failure.
        if prm.type == "int":
            ann, default = "int", None if prm.default is None else repr(prm.default)
            checks.append(f"if type({prm.id}) is not int or not {prm.min} <= {prm.id} <= {prm.max}:\n"
                          f"        _rt_check_int({prm.name!r}, {prm.id}, {prm.min}, {prm.max})")
        elif prm.type == "bool":
            ann, default = "bool", None if prm.default is None else repr(prm.default)
            checks.append(f"if type({prm.id}) is not bool:\n        _rt_check_bool({prm.name!r}, {prm.id})")
        elif prm.type == "combatant":
            ann, default = "Combatant", None
            checks.append(f"if type({prm.id}) is not Combatant:\n"
                          f"        _rt_check_type({prm.name!r}, {prm.id}, Combatant)")
        else:
            cls = class_name(prm.type)
            getter = f"get_{cls_snake(cls)}"
            if prm.optional:
                ann = f"Union[{cls}, str, None]"
                default = "None"
                checks.append(f"{prm.id} = _NO_{cls.upper()} if {prm.id} is None else {prm.id} "
                              f"if type({prm.id}) is {cls} else {getter}({prm.id})")
            else:
                ann = f"Union[{cls}, str]"
                default = repr(prm.default) if prm.default is not None else None
                checks.append(f"if type({prm.id}) is not {cls}:\n        {prm.id} = {getter}({prm.id})")
            checks.append(f"if {prm.id}.not_specified is not None:\n"
                          f"        _rt_require_specified({prm.id}, {prm.name!r})")
        params.append({"id": prm.id, "name": prm.name, "ann": ann, "type": prm.type})
        sig.append(f"{prm.id}: {ann}" + (f" = {default}" if default is not None else ""))
        fast_ann = ann if prm.type in ("int", "bool", "combatant") else class_name(prm.type)
        fast_default = default if prm.type in ("int", "bool") else None
        if prm.type not in ("int", "bool", "combatant"):
            if prm.optional:
                fast_default = f"_NO_{class_name(prm.type).upper()}"
            elif prm.default is not None:
                fast_default = f"{prm.type.upper()}[{prm.default!r}]"
        fast_sig.append(f"{prm.id}: {fast_ann}" + (f" = {fast_default}" if fast_default else ""))
    return params, checks, sig, fast_sig


def _signature(p: Procedure, parts: list[str]) -> str:
    """Leading required and entity (combatant/table) parameters are positional; options are
    keyword-only, so call sites read like attack(attacker, target, "longsword", distance=30)."""
    out: list[str] = []
    star = False
    defaulted = False
    for part, prm in zip(parts, [*p.params, None]):
        is_entity = prm is not None and prm.type not in ("int", "bool")
        has_default = "=" in part
        if not star and (has_default and not is_entity or (not has_default and defaulted)
                         or prm is None and has_default):
            out.append("*")
            star = True
        defaulted = defaulted or has_default
        out.append(part)
    return ", ".join(out)


def _odds_views(p: Procedure) -> tuple[list[dict[str, Any]], int]:
    """The steps of the odds function: each roll opens a loop, so later steps indent further."""
    counter = [0]
    views, indent = [], 4
    for s in p.steps:
        views.append(_step_view(s, indent, counter))
        if s.kind in LOOP_KINDS:
            indent += 4
    return views, indent


def _prepare_views(p: Procedure) -> dict[str, Any]:
    """Split the steps for NAME_prepare(): those that neither roll nor read a rolled value run once;
    the rest run per roll, with their roll-independent parts hoisted into prepared locals."""
    rolled: set[str] = set()
    counter = [0]
    hoisted, per_roll, per_roll_steps = [], [], []
    for s in p.steps:
        reads = set().union(*(f.reads for _, f in s.args), s.when.reads if s.when else set(),
                            s.error_message.reads if s.error_message else set())
        view = _step_view(s, 4, counter)
        if s.kind in LOOP_KINDS or reads & rolled:
            # The roll's own arguments may still be roll-independent: prepare them once.
            prepared_args = {"roll": ("dice",), "d20": ("advantage", "disadvantage")}.get(s.kind, ())
            arg_reads = set().union(*(f.reads for name, f in s.args if name in prepared_args))
            view["args_hoisted"] = bool(prepared_args) and not (arg_reads & rolled)
            if s.target:
                rolled.add(s.target)
            per_roll.append(view)
            per_roll_steps.append(s)
        else:
            hoisted.append(view)
    # A leading unconditional d20 roll gets a face table: the decision tree below each face,
    # tabulated the first time that face comes up (runtime face_table / face_tree).
    out_types = ", ".join(OUT_TYPES[o.formula.type] for o in p.result)
    for i, (view, s) in enumerate(zip(per_roll, per_roll_steps)):
        view["face_table"] = i == 0 and s.kind == "d20" and view["args_hoisted"] and s.when is None
        view["out_types"] = out_types
    # Entries and combatants are frozen and options fixed, so these parts never change per roll.
    hoister = Hoister(rolled)
    for view, s in zip(per_roll, per_roll_steps):
        view["args"].update({name: hoister.python(f) for name, f in s.args})
        view["when"] = hoister.python(s.when)
    outputs = []
    for i, o in enumerate(p.result):
        fixed = not (o.formula.reads & rolled)
        outputs.append({"python": o.formula.python if fixed else hoister.python(o.formula),
                        "hoisted": fixed, "name": f"_o{i}"})
    return {"hoisted": hoisted, "per_roll": per_roll, "prepared_outputs": outputs,
            "invariants": hoister.definitions, "common": _common_case(p, per_roll, hoister.definitions)}


def _common_case(p: Procedure, per_roll: list[dict[str, Any]], invariants: list[dict[str, str]]
                 ) -> dict[str, Any] | None:
    """The assumptions of the prepared closure's common-case variant (see emit/specialise.py):
    a plain d20 (no advantage layers) where there is a face table, one damage die where a roll
    is prepared, true/false options at their defaults, and every prepared switch that reads only
    options at the value the defaults give it. None when there is nothing to assume."""
    known: dict[str, Value] = {}
    truthy: list[str] = []
    for view in per_roll:
        if view.get("face_table"):
            known[f"_l{view['n']}"] = 0
        elif view["kind"] == "roll" and view.get("args_hoisted"):
            truthy.append(f"_ds{view['n']}")
    defaults = {prm.id: prm.default for prm in p.params if prm.type in ("int", "bool") and prm.default is not None}
    known.update((name, value) for name, value in defaults.items() if type(value) is bool)
    for h in invariants:
        value = fold_value(h["python"], defaults)
        if type(value) is bool:
            known[h["name"]] = value
    if not known and not truthy:
        return None
    return {"known": known, "truthy": truthy}


def procedure_view(p: Procedure, rs: Ruleset) -> dict[str, Any]:
    params, checks, sig, fast_sig = _param_views(p)
    counter = [0]
    traced = [_step_view(s, 4, counter) for s in p.steps]
    odds_steps, indent = _odds_views(p)
    outputs = [{"id": o.id, "name": o.name, "python": o.formula.python, "type": OUT_TYPES[o.formula.type]}
               for o in p.result]
    return {
        "id": p.id,
        "name": p.name,
        "cls": camel(p.id) + "Result",
        "doc": p.name + (f"（{'、'.join(p.rules)}）" if p.rules else ""),
        "description": p.description,
        "sig": _signature(p, sig + ["dice: Optional[DiceSource] = None"]),
        "fast_sig": _signature(p, fast_sig + ["dice: DiceSource"]),
        "odds_sig": _signature(p, sig),
        "checks": checks,
        "params": params,
        "steps": traced,
        "odds_steps": odds_steps,
        "inner_indent": " " * indent,
        "outputs": outputs,
        "out_tuple": "(" + "".join(f"{o['python']}, " for o in outputs).rstrip() + ")",
        "out_ids": repr(tuple(o.id for o in p.result)),
        "out_types": ", ".join(o["type"] for o in outputs),
        "has_pool": any(s.kind in ("pool", "pool_count") for s in p.steps),
        **_prepare_views(p),
    }


def _p_names(odds_steps: list[dict[str, Any]]) -> None:
    """Number the probability variables of the odds loops (p0 outside any loop)."""
    level = 0
    for s in odds_steps:
        s["p_in"] = f"_p{level}"
        if s["kind"] in LOOP_KINDS:
            level += 1
            s["p_out"] = f"_p{level}"


def package_view(rs: Ruleset, header: str) -> dict[str, Any]:
    procs = [procedure_view(p, rs) for p in rs.procedures]
    for pv in procs:
        _p_names(pv["odds_steps"])
        levels = sum(1 for s in pv["odds_steps"] if s["kind"] in LOOP_KINDS)
        pv["inner_p"] = f"_p{levels}"
    return {
        "id": rs.id,
        "name": rs.name,
        "version": rs.version,
        "header": header,
        "dice": rs.dice,
        "stacking": rs.dice.layers == "stack",
        "initiative": rs.initiative,
        "stats": rs.stats,
        "rulings": [{"const": ruling_constant(r.key), "value": repr(r.value), "name": r.name,
                     "ruling": r.ruling} for r in rs.rulings],
        "errors": [{"cls": camel(e.id), "code": e.id, "name": e.name} for e in rs.errors],
        "tables": [table_view(t) for t in table_order(rs.tables)],
        "formulas": formulas_view(rs),
        "procedures": procs,
    }
