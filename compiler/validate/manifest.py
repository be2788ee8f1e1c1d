"""What a ruleset's manifest declares for the rest to be checked against: its dice engine and
settings, its tables' typed fields (with their defaults and labels), its helpers and its features.
Part of pass 2, validate (declarations.py calls these first)."""

from __future__ import annotations

from typing import Any

from ..diagnostics import did_you_mean
from ..engines import ENGINES
from ..ir import (
    Dice,
    EnumValue,
    FieldDecl,
    Helper,
    Ruling,
)
from ..load import Document
from ..runtime.sources import parse_dice
from .context import Reporter
from .reserved import reserved
from .scopes import TableDecls
from ..messages import say


def check_dice(doc: Document, rep: Reporter) -> Dice:
    raw = doc.data["dice"]

    def report(sub: tuple[str, ...], code: str, message: str) -> None:
        rep.error(doc.span(("dice", *sub)), code, message)

    return ENGINES[raw["engine"]].lower(raw, doc.span(("dice",)), report)  # type: ignore[no-any-return]


def _field_decl(table_id: str, raw: dict[str, Any], doc: Document, path: tuple[Any, ...],
                tables: set[str], rep: Reporter) -> FieldDecl:
    span = doc.span(path)
    ftype = raw["type"]
    values = tuple(EnumValue(v["id"], v["name"], v.get("description", "")) for v in raw.get("values", []))
    default = raw.get("default", _MISSING)
    required = bool(raw.get("required", False))
    if ftype in ("enum", "enum_list") and not values:
        rep.error(span, "bad-field", say("bad-field.field-type-needs-values", id=raw['id'], ftype=ftype))
    if ftype == "ref":
        target = raw.get("table")
        if target is None:
            rep.error(span, "bad-field", say("bad-field.field-type-ref-needs", id=raw['id']))
        elif target not in tables:
            rep.error(doc.span(path + ("table",)), "unknown-table", say("unknown-table.no-table-2", target=target),
                      did_you_mean(target, tables))
    for key in ("min", "max"):
        if key in raw and ftype != "int":
            rep.error(doc.span(path + (key,)), "bad-field", say("bad-field.only-applies-int-fields", key_=key))
    if "min" in raw and "max" in raw and raw["min"] > raw["max"]:
        rep.error(span, "bad-field", say("bad-field.min-more-than-max", min=raw['min'], max=raw['max']))
    for ctx in raw.get("context", []):
        if ctx["table"] not in tables:
            rep.error(span, "unknown-table", say("unknown-table.no-table", table=ctx['table']), did_you_mean(ctx["table"], tables))
    if default is _MISSING:
        implicit = {"bool": False, "text": "", "enum_list": []}
        if ftype in implicit:
            default = implicit[ftype]
        else:
            default = None
            required = required or ftype not in ("ref", "dice")
    else:
        problem = _default_problem(ftype, default, raw, values)
        if problem:
            rep.error(doc.span(path + ("default",)), "bad-default", problem)
    if ftype == "dice" and isinstance(default, str):
        try:
            parse_dice(default)
        except ValueError as exc:
            rep.error(doc.span(path + ("default",)), "bad-dice", str(exc))
    return FieldDecl(raw["id"], raw["name"], ftype, raw.get("description", ""), required,
                     raw.get("min"), raw.get("max"),
                     tuple(default) if isinstance(default, list) else default, values,
                     raw.get("table"), raw.get("result", "int") if ftype == "formula" else None,
                     tuple((c["param"], c["table"]) for c in raw.get("context", [])), span,
                     _labels(raw, ftype, doc, path, rep), raw.get("not_modelled", ""))


def _labels(raw: dict[str, Any], ftype: str, doc: Document, path: tuple[Any, ...],
            rep: Reporter) -> tuple[tuple[int, str], ...]:
    labels = raw.get("labels", [])
    if labels and ftype != "int":
        rep.error(doc.span(path + ("labels",)), "bad-labels", say("bad-labels.only-int-field-may"))
    for i, label in enumerate(labels):
        if ("min" in raw and label["value"] < raw["min"]) or ("max" in raw and label["value"] > raw["max"]):
            rep.error(doc.span(path + ("labels", i, "value")), "bad-labels",
                      say("bad-labels.outside-field-range-so", value=label['value']))
    return tuple((label["value"], label["name"]) for label in labels)


_MISSING = object()


def _default_problem(ftype: str, default: Any, raw: dict[str, Any], values: tuple[EnumValue, ...]) -> str | None:
    ids = [v.id for v in values]
    if ftype == "int":
        if not isinstance(default, int) or isinstance(default, bool):
            return say("declarations.default-int-field-whole")
        if ("min" in raw and default < raw["min"]) or ("max" in raw and default > raw["max"]):
            return say("declarations.default-outside", default=default, get=raw.get('min'), get2=raw.get('max'))
    elif ftype == "bool" and not isinstance(default, bool):
        return say("declarations.default-bool-field-true")
    elif ftype == "enum" and default is not None and default not in ids:
        return say("declarations.default-not-one", default=default, ids=ids)
    elif ftype == "enum_list" and (not isinstance(default, list) or any(d not in ids for d in default)):
        return say("declarations.default-list", ids=ids)
    elif ftype in ("text", "dice", "ref") and default is not None and not isinstance(default, str):
        return say("declarations.default-field-text-null", ftype=ftype)
    elif ftype == "formula" and not isinstance(default, str):
        return say("declarations.default-formula-field-formula")
    return None


def check_table_decls(m: Document, rep: Reporter) -> tuple[TableDecls, dict[str, dict[str, Any]]]:
    raw = m.data
    table_ids = {t["id"] for t in raw.get("tables", [])}
    decl_fields: dict[str, tuple[FieldDecl, ...]] = {}
    table_meta: dict[str, dict[str, Any]] = {}
    for ti, t in enumerate(raw.get("tables", [])):
        if t["id"] in decl_fields:
            rep.error(m.span(("tables", ti)), "duplicate-id", say("duplicate-id.table-declared-twice", id=t['id']))
            continue
        fields = []
        seen_fields: set[str] = set()
        for fi, f in enumerate(t["fields"]):
            path = ("tables", ti, "fields", fi)
            if f["id"] in seen_fields or f["id"] in ("id", "name", "description", "rules", "override",
                                                      "not_specified", "given"):
                rep.error(m.span(path), "duplicate-id", say("duplicate-id.field-declared-twice-reserved", id=f['id']))
                continue
            if f["id"] in reserved("field"):
                rep.error(m.span(path + ("id",)), "reserved-name", say("reserved-name.reserved-choose-another-id", pid=f["id"]))
                continue
            seen_fields.add(f["id"])
            fields.append(_field_decl(t["id"], f, m, path, table_ids, rep))
        decl_fields[t["id"]] = tuple(fields)
        table_meta[t["id"]] = {**t, "span": m.span(("tables", ti))}
        if t.get("group_by") and t["group_by"] not in seen_fields:
            rep.error(m.span(("tables", ti, "group_by")), "unknown-field",
                      say("unknown-field.group-by-names-no", id=t['id']), did_you_mean(t["group_by"], seen_fields))
        index = t.get("index")
        if index is not None:
            decl = next((f for f in fields if f.id == index), None)
            if decl is None or decl.type not in ("int", "text", "enum"):
                rep.error(m.span(("tables", ti, "index")), "bad-index",
                          say("bad-index.index-names-no-int", id=t['id']), did_you_mean(index, seen_fields))
            elif not decl.required and decl.default is None:
                rep.error(m.span(("tables", ti, "index")), "bad-index",
                          say("bad-index.index-field-must-required", index=index))
    indexes = {tid: meta["index"] for tid, meta in table_meta.items() if meta.get("index")}
    return TableDecls(decl_fields, {t: meta["name"] for t, meta in table_meta.items()}, indexes), table_meta


def check_helpers(m: Document, rep: Reporter) -> tuple[Helper, ...]:
    """The manifest's helper functions: each must be a function of one of rulec's helper modules
    (compiler/runtime/), taking as many arguments as it declares."""
    import importlib
    import inspect

    out = []
    for i, h in enumerate(m.data.get("helpers", [])):
        path = ("helpers", i)
        try:
            module = importlib.import_module(f"..runtime.{h['module']}", __package__)
        except ImportError:
            rep.error(m.span(path + ("module",)), "unknown-module", say("unknown-module.rulec-has-no-runtime", module=h['module']),
                      did_you_mean(h["module"], HELPER_MODULES) or say("unknown-module.helper-modules", helper_modules=', '.join(HELPER_MODULES)))
            continue
        fn = getattr(module, h["id"], None) if h["module"] in HELPER_MODULES else None
        if not callable(fn) or h["id"].startswith("_"):
            rep.error(m.span(path + ("id",)), "unknown-helper", say("unknown-helper.runtime-module-has-no", module=h['module'], id=h['id']), did_you_mean(h["id"], [n for n in dir(module) if not n.startswith("_")]))
            continue
        arity = len(inspect.signature(fn).parameters)
        if arity != len(h["params"]):
            rep.error(m.span(path + ("params",)), "bad-helper",
                      say("bad-helper.takes-argument-are-declared", module=h['module'], id=h['id'], arity=arity, n_params=len(h['params'])))
            continue
        out.append(Helper(h["id"], h["name"], h["module"], tuple(h["params"]), h["returns"],
                          h.get("description", ""), m.span(path)))
    return tuple(out)


HELPER_MODULES = ("geometry",)


def check_features(m: Document, dice: Dice, rulings: tuple[Ruling, ...], rep: Reporter) -> tuple[str, ...]:
    from ..features import FEATURES

    out = []
    keys = {r.key for r in rulings}
    for i, fid in enumerate(m.data.get("features", [])):
        path = ("features", i)
        feature = FEATURES.get(fid)
        if feature is None:
            rep.error(m.span(path), "unknown-feature", say("unknown-feature.no-feature", fid=fid), did_you_mean(fid, FEATURES))
            continue
        if feature.engine != dice.engine:
            rep.error(m.span(path), "wrong-engine", say("wrong-engine.needs-dice-engine", fid=fid, engine=feature.engine))
        for key in feature.rulings:
            if key not in keys:
                rep.error(m.span(path), "missing-ruling",
                          say("missing-ruling.feature-reads-ruling-which", fid=fid, key_=key),
                          say("missing-ruling.add-rulings-yaml-name", key_=key))
        out.append(fid)
    return tuple(out)
