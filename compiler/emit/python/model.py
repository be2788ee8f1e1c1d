"""The model module of a Python package: rulings, error types, the combatant type, the tables.

Tables are data rows (one tuple literal per entry, by a single `repr` of plain data), turned into
typed NamedTuple entries at import; a table of more than ROW_CHUNK rows keeps them as JSON in
`_rows/<table>_<k>.json` (by column), from which the runtime's `load_entries` makes the entries
column by column: a homebrew pack of 50,000 weapons is data to dump and load, not Python to lay
out, compile and check.
A table with an `index` also gets `<TABLE>_BY_<FIELD>`, for formulas like `sizes[attacker.size]`.
"""

from __future__ import annotations

import json
from functools import partial
from collections.abc import Callable, Sequence
from operator import attrgetter, itemgetter

from ...ir import DiceExpr, Entry, FieldDecl, FormulaField, Ruleset, Table, entry_id
from ...memo import current
from ..shape import shape
from ...record import encoded
from ...validate.scopes import class_name
from ..js.code import MAX_SAFE
from .code import (Code, UnquotedValue, Writer, code, comment, docstring, fields_class, is_plain, join, literal,
                   name, string)
from .expr import Names, PyExpr, ruling_constant
from .procedures import getter

ROW_CHUNK = 500
PY_TYPES = {"int": "int", "bool": "bool", "text": "str", "enum": "str", "enum_list": "Tuple[str, ...]",
            "dice": "Optional[DiceValue]", "formula": "Callable[..., Any]"}


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


def _field_type(f: FieldDecl) -> Code:
    if f.type == "ref":
        return name(class_name(f.table or ""))
    if f.type in ("text", "enum") and f.default is None and not f.required:
        return Code("Optional[str]")
    return Code(PY_TYPES[f.type])


def _row_value(value: object) -> object:
    if type(value) in _PLAIN_KINDS:  # most values: text, whole numbers, booleans, absent
        return value
    if isinstance(value, DiceExpr):
        return (value.text, value.terms, value.flat)
    if isinstance(value, FormulaField):
        return value.function
    return value


_PLAIN_KINDS = frozenset({str, int, bool, type(None)})  # values a row holds as they are


def table_rows(t: Table) -> list[tuple[object, ...]]:
    """The data rows of a table, made once a build for both targets (`current().once`); a resident
    build keeps them while the table is the same, and each run of entries' rows from the build
    before when it is not."""
    return current().once("table-rows", (t,), lambda: [
        row for run in current().each_run("rows", t.entries, _row_values, entry_id) for row in run])


def run_rows(t: Table, run: Sequence[Entry]) -> list[tuple[object, ...]]:
    """The data rows of some of a table's entries (a run, a chunk), each row made once a build for
    both targets: a one-shot build that takes the rows of unchanged runs from the output folder
    makes the rows of the others only."""
    made: dict[int, tuple[object, ...]] = current().once("row-values", (t,), dict)  # by entry (t holds them)
    out = []
    for e in run:
        row = made.get(id(e))
        if row is None:
            row = made[id(e)] = row_value(e)
        out.append(row)
    return out


def row_key(e: Entry) -> bytes:
    """What an entry's data row is made from, as bytes for a digest (`record.encoded`): the row's
    fields as the IR holds them, not the entry's place in its file."""
    return encoded((e.id, e.name, e.description, e.rules, e.not_specified, e.values))


def row_keys(t: Table) -> Callable[[Entry], bytes]:
    """`row_key` of the entries of `t`, each made once a build (the Python rows files, their array
    columns and the JavaScript rows are all named by them)."""
    made: dict[int, bytes] = current().once("row-keys", (t,), dict)  # by entry (t holds them)

    def key(e: Entry) -> bytes:
        found = made.get(id(e))
        if found is None:
            found = made[id(e)] = row_key(e)
        return found

    return key


def _row_values(entries: Sequence[Entry]) -> list[tuple[object, ...]]:
    return [row_value(e) for e in entries]


def row_value(e: Entry) -> tuple[object, ...]:
    """One data row: `(id, name, description, rules, not_specified, *fields)` (written by Writer.row)."""
    return (e.id, e.name, e.description, e.rules, e.not_specified, *map(_row_value, e.values.values()))


def _none(t: Table) -> Code:
    return name(f"_NO_{class_name(t.id).upper()}")


def _build_arg(f: FieldDecl, index: int) -> Code:
    r = Code(f"_r[{index}]")
    if f.type == "ref":
        target = f.table or ""
        return code("{0}.get({1}, {2}) if {1} is not None else {2}", name(target.upper()), r,
                    name(f"_NO_{class_name(target).upper()}"))
    if f.type == "dice":
        return code("DiceValue(*{0}) if {0} is not None else None", r)
    if f.type == "formula":
        return code("_FORMULAS[{}]", r)
    return r


def _converter(f: FieldDecl) -> Code | None:
    """How `load_entries` makes a field's value from its column, as `_build_arg` does from a row's
    (None: as it is)."""
    if f.type == "ref":
        target = f.table or ""
        return code("({}, {})", name(target.upper()), name(f"_NO_{class_name(target).upper()}"))
    if f.type == "dice":
        return Code("lambda v: DiceValue(*v) if v is not None else None")
    if f.type == "formula":
        return Code("_FORMULAS.__getitem__")
    return None


def _placeholder_arg(f: FieldDecl) -> Code:
    if f.type == "ref":
        return name(f"_NO_{class_name(f.table or '').upper()}")
    if f.type == "dice":
        return Code("None")
    if f.type == "formula":
        return Code("_rt_not_given")
    if f.type == "int":
        return literal(f.default if f.default is not None else 0)
    if f.type == "enum_list":
        return literal(tuple(f.default) if isinstance(f.default, (list, tuple)) else ())
    if f.type == "enum" and f.default is None and f.required:
        return string(f.values[0].id if f.values else "")
    if f.type == "text" and f.default is None:
        return string("")
    return literal(f.default)


def formula_functions(rs: Ruleset) -> list[tuple[str, Table, FieldDecl, FormulaField]]:
    """One function per distinct entry formula, named after the first entry that has it."""
    seen: dict[str, tuple[str, Table, FieldDecl, FormulaField]] = {}
    for t in rs.tables:
        for f in t.fields:
            if f.type != "formula":
                continue
            for e in t.entries:
                v = e.get(f.id)
                if isinstance(v, FormulaField) and v.function not in seen:
                    seen[v.function] = (v.function, t, f, v)
    return list(seen.values())


def write_model(rs: Ruleset, header: str) -> tuple[str, dict[str, str]]:
    """The text of model.py and of its data-row modules ({relative path: text})."""
    w = Writer()
    for line in header.splitlines():
        w.line(comment(line[2:]) if line.startswith("# ") else comment(line.lstrip("# ")))
    bare = shape(rs)
    w.lines += current().once("py-model-head", (bare,), partial(_head, bare))
    _formulas(rs, w)
    rows: dict[str, str] = {}
    for t in table_order(rs.tables):
        rows.update(_table_data(t, w, header))
    return w.text(), rows


def _head(rs: Ruleset) -> list[str]:
    """The lines of model.py from its docstring to the table classes: made from the ruleset's
    shape (no entry), so a resident build keeps them while it is the same."""
    w = Writer()
    w.line(docstring(f"{rs.name}：数据模型 (rulings, error types, stats, tables) of ruleset `{rs.id}`."))
    w.line()
    w.line(Code("from __future__ import annotations"))
    w.line()
    w.line(Code("# @@rulec-imports@@"))
    w.line()
    tables = table_order(rs.tables)
    exported = ["Combatant", "DiceValue", "RULINGS", "STAT_NAMES"]
    for t in tables:
        exported += [class_name(t.id), t.id.upper(), getter(t.id)]
        if t.index:
            exported.append(f"{t.id.upper()}_BY_{t.index.upper()}")
    exported += ["".join(p.capitalize() for p in e.id.split("_")) for e in rs.errors]
    w.line(code("__all__ = [{}]", join(", ", [string(x) for x in exported])))
    w.line()
    _rulings(rs, w)
    _errors(rs, w)
    _combatant(rs, w)
    for t in tables:
        _table_class(t, w)
    return w.lines


def _rulings(rs: Ruleset, w: Writer) -> None:
    w.line(comment(f"---- rulings in force ({len(rs.rulings)}): constants of the compiled rules; change them "
                   "in the rules (a pack) and rebuild ----"))
    for r in rs.rulings:
        w.line(code("{}: Final = {}  {}", ruling_constant(r.key), literal(r.value),
                    comment(f"{r.ruling} {r.name}".strip())))
    w.line(code("RULINGS: Mapping[str, Union[int, bool]] = MappingProxyType({{{}}})",
                join(", ", [code("{}: {}", string(r.key), ruling_constant(r.key)) for r in rs.rulings])))
    w.line()


def _errors(rs: Ruleset, w: Writer) -> None:
    w.line()
    w.line(comment("---- error types ----"))
    for e in rs.errors:
        with w.block(code("class {}(RuleError)", name("".join(p.capitalize() for p in e.id.split("_"))))):
            w.line(docstring(e.name))
            w.line()
            w.line(code("code = {}", string(e.id)))
        w.line()
        w.line()


def _combatant(rs: Ruleset, w: Writer) -> None:
    w.line(comment("---- combatants ----"))
    w.line(code("STAT_NAMES: Dict[str, str] = {{{}}}", join(", ", [code("{}: {}", string(s.name), string(s.id))
                                                                   for s in rs.stats])))
    w.line()
    w.line()
    w.line(Code("@dataclass(frozen=True)"))
    with w.block(Code("class Combatant")):
        w.line(docstring("A combatant's stats. Every field has a Chinese name (see STAT_NAMES) and a range."))
        w.line()
        for s in rs.stats:
            w.line(code("{}: {} = {}  {}", name(s.id), Code(s.type), literal(s.default), comment(s.name)))
        w.line()
        with w.block(Code("def __post_init__(self) -> None")):
            for s in rs.stats:
                if s.type == "int":
                    w.line(code("_rt_check_int({}, self.{}, {}, {})", string(s.name), name(s.id), literal(s.min),
                                literal(s.max)))
                else:
                    w.line(code("_rt_check_bool({}, self.{})", string(s.name), name(s.id)))
        w.line()
        w.line(Code("@classmethod"))
        with w.block(Code('def from_dict(cls, data: Mapping[str, Any]) -> "Combatant"')):
            w.line(docstring("Build from a mapping keyed by stat ids or Chinese names (not both for one stat)."))
            with w.block(Code("if not isinstance(data, Mapping)")):
                w.line(Code('raise OutOfBounds(f"属性必须是一个映射（名称: 数值），得到{_rt_kind(data)}")'))
            w.line(Code("values: Dict[str, Any] = {}"))
            with w.block(Code("for key, value in data.items()")):
                w.line(Code("stat = STAT_NAMES.get(key, key) if isinstance(key, str) else key"))
                with w.block(Code("if stat not in cls.__dataclass_fields__")):
                    w.line(Code('raise OutOfBounds(f"未知的属性“{key}”", key=key)'))
                with w.block(Code("if stat in values")):
                    w.line(Code('raise OutOfBounds(f"属性“{key}”给出了两次（编号与名称各一次）", key=key)'))
                w.line(Code("values[stat] = value"))
            w.line(Code("return cls(**values)"))
        w.line()
        with w.block(Code("def to_dict(self) -> Dict[str, Any]")):
            w.line(Code("return asdict(self)"))
    w.line()
    w.line()
    w.line(comment("---- tables ----"))


_BUILTIN_FIELDS = (("id", "str"), ("name", "str"), ("description", "str"), ("rules", "Tuple[str, ...]"),
                   ("not_specified", "Optional[str]"), ("given", "bool"))


def _table_class(t: Table, w: Writer) -> None:
    cls = name(class_name(t.id))
    fields = name(f"_{class_name(t.id)}Fields")
    typed = [(Code(k), Code(v), None) for k, v in _BUILTIN_FIELDS] + [(name(f.id), _field_type(f), None) for f in t.fields]
    fields_class(w, fields, typed, literal(tuple(str(f[0]) for f in typed)))
    w.line()
    w.line()
    with w.block(code("class {}({})", cls, fields)):
        w.line(docstring(f"{t.name} ({t.id})."))
        w.line()
        w.line(Code("__slots__ = ()"))
        w.line()
        with w.block(Code("def to_dict(self) -> Dict[str, Any]")):
            w.line(Code('out: Dict[str, Any] = {"id": self.id, "name": self.name}'))
            for f in t.fields:
                fid = name(f.id)
                value = {"ref": code("self.{0}.id if self.{0}.given else None", fid),
                         "dice": code("self.{0}.text if self.{0} is not None else None", fid),
                         "formula": code('_FORMULA_TEXTS.get(getattr(self.{}, "__name__", ""))', fid),
                         "enum_list": code("list(self.{})", fid)}.get(f.type, code("self.{}", fid))
                w.line(code("out[{}] = {}", string(f.id), value))
            w.line(Code("return out"))
    w.line()
    w.line()


def _formulas(rs: Ruleset, w: Writer) -> None:
    w.line(comment("---- entry formulas (one function per distinct formula, named after the first entry) ----"))
    functions = formula_functions(rs)
    py = PyExpr(Names(local=name))
    for fn, t, f, v in functions:
        ctx = "".join(f", {p}: {class_name(tb)}" for p, tb in f.context)
        returns = "bool" if f.result == "bool" else "int"
        with w.block(code("def {}(s: Combatant, e: {}{}) -> {}", name(fn), name(class_name(t.id)), Code(ctx),
                          Code(returns))):
            w.line(code("return {}", py(v.formula.expr)))
        w.line()
        w.line()
    w.line(code("_FORMULAS: Dict[str, Callable[..., Any]] = {{{}}}",
                join(", ", [code("{}: {}", string(fn), name(fn)) for fn, *_ in functions])))
    w.line(comment("The formula text of each function, as the rules wrote it (for to_dict)."))
    w.line(code("_FORMULA_TEXTS: Dict[str, str] = {{{}}}",
                join(", ", [code("{}: {}", string(fn), string(v.formula.text)) for fn, _t, _f, v in functions])))


_ROW_HEAD = tuple(map(attrgetter, ("id", "name", "description", "rules", "not_specified")))
_VALUES = attrgetter("values")


def _array_columns(entries: Sequence[Entry]) -> set[int]:
    """The columns of the entries' data rows (`row_value`) where some row holds a list or tuple,
    read from the entries without making their rows: the types of each column gathered at C speed,
    then asked (a dice value is a tuple in its row)."""
    if not entries:
        return set()
    columns = [map(get, entries) for get in _ROW_HEAD]
    columns += [map(itemgetter(fid), map(_VALUES, entries)) for fid in entries[0].values]
    return {i for i, column in enumerate(columns)
            if any(t is DiceExpr or issubclass(t, (list, tuple)) for t in set(map(type, column)))}


def _table_data(t: Table, w: Writer, header: str) -> dict[str, str]:
    cls, const = name(class_name(t.id)), name(t.id.upper())
    placeholder = [string(""), string(f"（无{t.name}）"), string(""), Code("()"), Code("None"), Code("False")]
    placeholder += [_placeholder_arg(f) for f in t.fields]
    w.line()
    w.line(code("{} = {}({})", _none(t), cls, join(", ", placeholder)))
    files: dict[str, str] = {}
    rows_name = name(f"_{t.id.upper()}_ROWS")
    if by_columns(t):
        names = []
        for file_name, text in chunk_files(t):
            names.append(file_name)
            files[f"_rows/{file_name}"] = text
        arrays = tuple(sorted(set().union(*current().each_run("row-arrays", t.entries, _array_columns, entry_id))))
        # the entries made column by column (the runtime's load_entries), not row by row as below
        converters = [(5 + i, _converter(f)) for i, f in enumerate(t.fields)]
        w.line(code("{}: Dict[str, {}] = _rt_load_entries({}, __file__, {}, {}, {{{}}})", const, cls, cls,
                    literal(tuple(names)), literal(arrays),
                    join(", ", [code("{}: {}", literal(at), how) for at, how in converters if how is not None])))
    else:
        w.line(code("{}: Tuple[Tuple[Any, ...], ...] = (", rows_name))
        w.indent()
        for row in table_rows(t):
            w.row(row)
        w.dedent()
        w.line(Code(")"))
        build = [Code(f"_r[{i}]") for i in range(5)] + [Code("True")] + [_build_arg(f, 5 + i) for i, f in enumerate(t.fields)]
        w.line(code("{}: Dict[str, {}] = {{}}", const, cls))
        with w.block(code("for _r in {}", rows_name)):  # tuple.__new__: the NamedTuple's own __new__ without its call
            w.line(code("{}[_r[0]] = tuple.__new__({}, ({},))", const, cls, join(", ", build)))
    if t.index:
        index = name(t.index)
        w.line(code("{}: Dict[Any, {}] = {{e.{}: e for e in {}.values()}}", name(f"{t.id.upper()}_BY_{t.index.upper()}"),
                    cls, index, const))
    w.line()
    w.line()
    with w.block(code("def {}(key: Any) -> {}", getter(t.id), cls)):
        w.line(docstring(f"The {t.name} entry with this id or Chinese name."))
        w.line(code("entry: {} = _rt_lookup({}, key, {}, {})", cls, const, string(t.name), cls))
        w.line(Code("return entry"))
    return files


def by_columns(t: Table) -> bool:
    """Whether a table's rows are kept by column, in rows files (`chunk_files`): more than
    ROW_CHUNK of them."""
    return len(t.entries) > ROW_CHUNK


def chunk_files(t: Table) -> list[tuple[str, str]]:
    """The rows files of a table of more than ROW_CHUNK entries, one for each ROW_CHUNK of its
    entries: (file name, text), made once a build for both packages (the Python package writes
    them under `_rows/`; the JavaScript module holds the same text, emit/js/model.py)."""
    return current().once("rows-chunks", (t,), lambda: [
        (f"{t.id}_{k}.json", _chunk_file(t, t.entries[i:i + ROW_CHUNK], f"_rows/{t.id}_{k}.json"))
        for k, i in enumerate(range(0, len(t.entries), ROW_CHUNK))])


def _chunk_file(t: Table, chunk: Sequence[Entry], rel: str) -> str:
    """A rows file of a chunk of a big table's entries: kept by a resident build while they are the
    same objects; taken by a one-shot build from the output folder when it holds the file a build
    wrote for the same rows (`Memo.text`: checked against the digest recorded then)."""
    memo = current()
    found: str | None = memo.get("rows-json", *chunk)
    if found is None:
        found = memo.put("rows-json", tuple(chunk), memo.text(
            "rows-json", lambda: memo.key(*map(row_keys(t), chunk)), lambda: rows_file(run_rows(t, chunk)), str, rel))
    return found


# A column of at most PICKS distinct values is kept as those values and one character a row: the
# character of code PICK_BASE + the value's index. From PICK_BASE on, the first 92 are printable
# ASCII (one byte in the file: only the backslash is escaped), and every code stays a latin-1 byte
# (the runtimes' `load_rows` and `_rt_columns` read them back).
PICK_BASE = 35
PICKS = 256 - PICK_BASE


def rows_file(rows: Sequence[tuple[object, ...]]) -> str:
    """A rows file (read by the runtime's `load_rows`): the rows by column — a column with one
    value as {"all": value}, with at most PICKS distinct values as {"values": [...], "pick":
    "<one character per row: PICK_BASE + its value's index>"}, any other as {"list": [...]} — one
    column a line. Plain data only
    (`code.is_plain` checks each row), dumped by `json.dumps`, the one quoting path of a rows file;
    values are told apart by type as well (1, True and 1.0 are three values). The JavaScript
    module holds the same text (emit/js/model.py), so every whole number in it must be one a
    JavaScript number holds exactly (within ±MAX_SAFE), as in a row the JavaScript writer writes."""
    if any(type(row) is not tuple for row in rows):
        raise UnquotedValue(f"not plain data: {next(r for r in rows if type(r) is not tuple)!r:.80}")
    lines = []
    for column in zip(*rows):
        kinds = set(map(type, column))
        if not kinds <= _PLAIN_KINDS:  # each value checked, as a row is (`is_plain`)
            for v in column:
                if not is_plain(v):
                    raise UnquotedValue(f"not plain data: {v!r:.80}")
        # the distinct values in order of first use, told apart by type as well (1, True, 1.0)
        keyed = column if len(kinds) == 1 else list(zip(map(type, column), column))
        at = {k: i for i, k in enumerate(dict.fromkeys(keyed))}
        values = list(at) if len(kinds) == 1 else [v for _, v in at]
        for v in values:
            if not _exact_in_js(v):
                raise UnquotedValue(f"a whole number JavaScript cannot hold exactly: {v!r:.80}")
        if len(at) == 1:
            lines.append('{"all": ' + _dump(column[0]) + "}")
        elif len(at) <= PICKS:
            picks = "".join(map(_PICK_CHARS.__getitem__, map(at.__getitem__, keyed)))
            lines.append('{"values": [' + ", ".join(map(_dump, values)) + '], "pick": ' + _dump(picks) + "}")
        else:
            lines.append('{"list": ' + _dump(list(column)) + "}")
    return '{"rows": ' + str(len(rows)) + ', "columns": [\n' + ",\n".join(lines) + "\n]}\n"


_PICK_CHARS = [chr(PICK_BASE + k) for k in range(PICKS)]


def _exact_in_js(value: object) -> bool:
    if isinstance(value, tuple):
        return all(map(_exact_in_js, value))
    return not isinstance(value, int) or isinstance(value, bool) or -MAX_SAFE <= value <= MAX_SAFE


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)
