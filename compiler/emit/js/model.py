"""The model part of a JavaScript module: rulings, error types, the combatant type, the tables.

The same IR as `emit/python/model.py` writes: tables are data rows (one array literal per entry,
through `code.literal`; for a table of more than ROW_CHUNK entries, the Python package's rows files
by column, through `code.data_text`), turned into frozen entry objects when the module loads; each table is a
`Map` by id, with `<TABLE>_BY_<FIELD>` for an indexed table and `get_<entry>(key)` to find an
entry by id or Chinese name.
"""

from __future__ import annotations

from functools import partial

from ...ir import FieldDecl, Ruleset, Table
from ...memo import Place, Stored, current
from ...validate.scopes import class_name
from ..shape import placed_text, shape
from ..python.model import by_columns, chunk_files, entry_id, formula_functions, row_keys, run_rows, table_order
from .code import Js, Writer, comment, comment_text, data_lines, data_text, join, js, literal, name, reread, string
from .expr import JsExpr, Names, prop, ruling_constant
from .procedures import getter


def error_name(error_id: str) -> Js:
    return name("".join(p.capitalize() for p in error_id.split("_")))


def exported(rs: Ruleset) -> list[str]:
    out = ["Combatant", "RULINGS", "STAT_NAMES"]
    for t in table_order(rs.tables):
        out += [class_name(t.id), t.id.upper(), getter(t.id)]
        if t.index:
            out.append(f"{t.id.upper()}_BY_{t.index.upper()}")
    return out + [str(error_name(e.id)) for e in rs.errors]


def write_model(rs: Ruleset, w: Writer) -> None:
    bare = shape(rs)
    w.splice(current().once("js-model-head", (bare,), partial(_head, bare)))
    _formulas(rs, w)
    for t in table_order(rs.tables):
        _table(t, w, rs.id)


def _head(rs: Ruleset) -> Writer:
    """The rulings, the error types and the combatant type: made from the ruleset's shape (no
    entry), so a resident build keeps their lines while it is the same (spliced, never changed)."""
    w = Writer()
    _rulings(rs, w)
    _errors(rs, w)
    _combatant(rs, w)
    return w


def _rulings(rs: Ruleset, w: Writer) -> None:
    w.line()
    w.line(comment(f"---- rulings in force ({len(rs.rulings)}): constants of the compiled rules; change them "
                   "in the rules (a pack) and rebuild ----"))
    for r in rs.rulings:
        w.line(js("const {} = {};  {}", ruling_constant(r.key), literal(r.value), comment(f"{r.ruling} {r.name}".strip())))
    w.line(js("const RULINGS = Object.freeze({{{}}});",
              join(", ", [js("{}: {}", string(r.key), ruling_constant(r.key)) for r in rs.rulings])))


def _errors(rs: Ruleset, w: Writer) -> None:
    w.line()
    w.line(comment("---- error types ----"))
    for e in rs.errors:
        cls = error_name(e.id)
        w.line(js("const {} = _rt_error_class({}, {});  {}", cls, string(str(cls)), string(e.id), comment(e.name)))


def _combatant(rs: Ruleset, w: Writer) -> None:
    w.line()
    w.line(comment("---- combatants ----"))
    w.line(js("const STAT_NAMES = Object.freeze({{{}}});",
              join(", ", [js("{}: {}", string(s.name), string(s.id)) for s in rs.stats])))
    w.line(js("const _STATS = [{}];", join(", ", [
        js("[{}, {}, {}, {}, {}, {}]", string(s.id), string(s.name), string(s.type), literal(s.default),
           literal(s.min if s.type == "int" else 0), literal(s.max if s.type == "int" else 0)) for s in rs.stats])))
    w.line(comment("A combatant's stats: new Combatant({strength: 5}) by ids, Combatant.fromDict({力量: 5}) by ids or"))
    w.line(comment("Chinese names; every stat has a range, and an unknown or out-of-range stat is refused (OutOfBounds)."))
    with w.block(Js("class Combatant")):
        with w.block(Js("constructor(stats)")):
            w.line(Js("_rt_combatant_init(this, _STATS, stats);"))
        with w.block(Js("static fromDict(data)")):
            w.line(Js("return new Combatant(_rt_stats_from_dict(data, STAT_NAMES, _STATS));"))
        with w.block(Js("toDict()")):
            w.line(Js("return _rt_combatant_dict(this, _STATS);"))
        w.line(Js("toJSON() { return this.toDict(); }"))


def _formulas(rs: Ruleset, w: Writer) -> None:
    w.line()
    w.line(comment("---- entry formulas (one function per distinct formula, named after the first entry) ----"))
    functions = formula_functions(rs)
    expr = JsExpr(Names(local=name))
    for fn, _t, f, v in functions:
        params = [Js("s"), Js("e")] + [name(p) for p, _tb in f.context]
        w.line(js("function {}({}) {{ return {}; }}", name(fn), join(", ", params), expr(v.formula.expr)))
    w.line(js("const _FORMULAS = {{{}}};", join(", ", [js("{}: {}", string(fn), name(fn)) for fn, *_ in functions])))
    w.line(js("const _FORMULA_TEXTS = {{{}}};",
              join(", ", [js("{}: {}", string(fn), string(v.formula.text)) for fn, _t, _f, v in functions])))


def _placeholder(f: FieldDecl) -> Js:
    if f.type == "ref":
        return name(f"_NO_{class_name(f.table or '').upper()}")
    if f.type == "dice":
        return Js("null")
    if f.type == "formula":
        return Js("_rt_not_given")
    if f.type == "int":
        return literal(f.default if f.default is not None else 0)
    if f.type == "enum_list":
        return literal(list(f.default) if isinstance(f.default, (list, tuple)) else [])
    if f.type == "enum" and f.default is None and f.required:
        return string(f.values[0].id if f.values else "")
    if f.type == "text" and f.default is None:
        return string("")
    return literal(f.default)


def _build(f: FieldDecl, i: int) -> Js:
    r = js("r[{}]", literal(i))
    if f.type == "ref":
        target = f.table or ""
        none = name(f"_NO_{class_name(target).upper()}")
        return js("{0} !== null && {1}.has({0}) ? {1}.get({0}) : {2}", r, name(target.upper()), none)
    if f.type == "dice":
        return js("_rt_dice_value({})", r)
    if f.type == "formula":
        return js("_FORMULAS[{}]", r)
    if f.type == "enum_list":
        return js("Object.freeze({})", r)
    return r


def _to_dict(f: FieldDecl) -> Js:
    fid = prop(f.id)
    if f.type == "ref":
        return js("this.{0}.given ? this.{0}.id : null", fid)
    if f.type == "dice":
        return js("this.{0} !== null ? this.{0}.text : null", fid)
    if f.type == "formula":
        return js("_FORMULA_TEXTS[this.{}.name]", fid)
    if f.type == "enum_list":
        return js("this.{}.slice()", fid)
    return js("this.{}", fid)


def module_file(rid: str) -> str:
    """Where a ruleset's JavaScript module is in the output folder (build/outputs.py writes it)."""
    return f"js/{rid}/index.js"


def _text_parts(text: Js) -> tuple[bytes]:
    return (text.encode("utf-8"),)


def _nothing(found: object) -> None:  # pragma: no cover - a run of code text is never in the store
    return None


def _chunk_text(text: str) -> Js:
    return js("{},", data_text(text))


def _table(t: Table, w: Writer, rid: str) -> None:
    cls, const = name(class_name(t.id)), name(t.id.upper())
    w.line()
    w.line(js("// {} ({}).", comment_text(t.name), prop(t.id)))
    with w.block(js("class {}", cls)):
        with w.block(Js("constructor(r, given)")):
            w.line(Js("this.id = r[0]; this.name = r[1]; this.description = r[2]; this.rules = Object.freeze(r[3]);"))
            w.line(Js("this.not_specified = r[4]; this.given = given;"))
            for i, f in enumerate(t.fields):
                w.line(js("this.{} = {};", prop(f.id), _build(f, 5 + i)))
            w.line(Js("Object.freeze(this);"))
        with w.block(Js("toDict()")):
            w.line(Js("const out = {id: this.id, name: this.name};"))
            for f in t.fields:
                w.line(js("out.{} = {};", prop(f.id), _to_dict(f)))
            w.line(Js("return out;"))
        w.line(Js("toJSON() { return this.toDict(); }"))
    placeholder = [string(""), string(f"（无{t.name}）"), string(""), Js("[]"), Js("null")]
    placeholder += [_placeholder(f) for f in t.fields]
    w.line(js("const {} = new {}([{}], false);", name(f"_NO_{class_name(t.id).upper()}"), cls, join(", ", placeholder)))
    if by_columns(t) and not any(f.type == "ref" and f.table == t.id for f in t.fields):
        # Each entry, and its row, is made when first read (columns.js `_rt_LazyMap`).
        w.line(js("const {} = new _rt_LazyMap([", const))
        _chunks(t, w)
        w.line(js("], r => new {}(r, true));", cls))
        _index(t, w, const)
        return
    rows = name(f"_{t.id.upper()}_ROWS")
    w.line(js("const {} = new Map();", rows))
    if by_columns(t):  # (a table whose entries refer to each other: made whole, as a smaller one is)
        w.line(Js("for (const r of _rt_columns(["))
        _chunks(t, w)
        w.line(js("])) {}.set(r[0], new {}(r, true));", rows, cls))
    else:
        w.line(Js("for (const r of ["))
        indent = "  " * (w.level + 1)
        # A run's rows are code: never in the store; a one-shot build takes an unchanged run's from the module it replaces.
        place = Place(f"js-rows {rid}", (module_file(rid),), _text_parts, placed_text(reread))
        stored: Stored[Js] = Stored(indent, row_keys(t), None, _nothing, place)
        for run in current().each_run("js-rows", t.entries, lambda run: join("\n", data_lines(run_rows(t, run), indent)),
                                      entry_id, (current().intern("js-row-indent", indent),), stored=stored):
            w.extend([run])
        w.line(js("]) {}.set(r[0], new {}(r, true));", rows, cls))
    w.line(js("const {} = new FrozenMap({});", const, rows))
    _index(t, w, const)


def _chunks(t: Table, w: Writer) -> None:
    """A big table's rows files, as they are (JSON is a JavaScript expression once `data_text` has
    escaped what a script may not hold): one text made for both packages."""
    w.extend(current().once("js-rows-text", (text,), partial(_chunk_text, text)) for _, text in chunk_files(t))


def _index(t: Table, w: Writer, const: Js) -> None:
    """A table's index by its index field, and its getter."""
    cls = name(class_name(t.id))
    if t.index:
        w.line(js("const {} = new FrozenMap(Array.from({}.values()).map(e => [e.{}, e]));",
                  name(f"{t.id.upper()}_BY_{t.index.upper()}"), const, prop(t.index)))
    w.line(js("// The {} entry with this id or Chinese name.", comment_text(t.name)))
    w.line(js("function {}(key) {{ return _rt_lookup({}, key, {}, {}); }}", getter(t.id), const, string(t.name), cls))
