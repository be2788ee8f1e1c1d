"""Errors, arithmetic helpers and trace records shared by every generated resolver."""

from __future__ import annotations

import collections
from operator import itemgetter
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple


# The runtime's module-level caches of what it worked out of a package's objects (an action's
# facts, a combatant's effective stats): each entry holds the objects it was made from, and so the
# package they belong to. A process that imports packages and lets them go (the compiler, which
# imports each ruleset's to compute its pages' odds) clears them all with `clear_caches`; a cache
# that may hold a package's object is made with `cache()`. tests/test_loader_memory.py checks
# that no object of a package outlives the build that imported it.
_CACHES: List[Dict[Any, Any]] = []


def cache() -> Dict[Any, Any]:
    """A new module-level cache, cleared by `clear_caches`."""
    made: Dict[Any, Any] = {}
    _CACHES.append(made)
    return made


def clear_caches() -> None:
    """Empty every cache made by `cache()`."""
    for made in _CACHES:
        made.clear()



class RuleError(Exception):
    """A request the rules cannot resolve. `code` is stable; `message` is in the rules' language."""

    code = "rule-error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> Dict[str, Any]:
        return {"error": self.code, "message": self.message, "details": dict(self.details)}


class DiceExhausted(RuleError):
    """A fixed dice source ran out of faces."""

    code = "dice-exhausted"


class BadFace(RuleError):
    """A fixed dice source holds a face that the die cannot show."""

    code = "bad-face"


class NotSpecifiedBySource(RuleError):
    """The source text names this rule but gives no numbers for it."""

    code = "not-specified-by-source"


class OutOfBounds(RuleError):
    """An input is outside the range the rules allow."""

    code = "out-of-bounds"


class LimitExceeded(RuleError):
    """A quantity that drives work (dice in a pool, advantage layers, repeated rolls) is over the
    limit the ruleset declares; the compiler proves its own formulas stay within it."""

    code = "limit-exceeded"


NUMBERS = (int, bool, float)  # the classes of a number a caller may give (checked with `x.__class__ in NUMBERS`)


def bounded_list(what: str, items: Any, limit: int) -> List[Any]:
    """`items` (a list, tuple or other iterable, but not text or a mapping) as a list of at most
    `limit` items: OutOfBounds for anything else, LimitExceeded past the limit, found before more
    is read (an endless generator stops there)."""
    if items.__class__ is list or items.__class__ is tuple:
        if len(items) > limit:
            raise LimitExceeded(f"{what}最多{limit}个，得到{len(items)}个")
        return list(items)
    if isinstance(items, (str, bytes, dict)) or not hasattr(items, "__iter__"):
        raise OutOfBounds(f"{what}必须是列表，得到{described(items)}")
    from itertools import islice

    out = list(islice(items, limit + 1))
    if len(out) > limit:
        raise LimitExceeded(f"{what}最多{limit}个")
    return out


def within(what: str, value: int, limit: int) -> None:
    """Raise LimitExceeded when `what` (in the rules' Chinese) is `value`, over the ruleset's `limit`."""
    if value > limit:
        raise LimitExceeded(f"{what}{value}，超过规则集的上限{limit}")


def floordiv(a: int, b: int) -> int:
    if b == 0:
        raise RuleError("除数为0，无法计算")
    return a // b


def ceildiv(a: int, b: int) -> int:
    if b == 0:
        raise RuleError("除数为0，无法计算")
    return -(-a // b)


def clamp(x: int, lo: int, hi: int) -> int:
    return lo if x < lo else hi if x > hi else x


def kind(value: Any) -> str:
    """What sort of value this is, in the rules' words (the JavaScript twin gives the same words
    for the same JSON values): no Python type names reach a message."""
    if value is None:
        return "空值"
    if isinstance(value, bool):
        return "真假值"
    if isinstance(value, int):
        return "整数"
    if isinstance(value, float):
        return "小数"
    if isinstance(value, str):
        return "文本"
    if isinstance(value, (list, tuple)):
        return "列表"
    if isinstance(value, dict):
        return "映射"
    if callable(value) and not isinstance(value, type):
        return "函数"
    return type(value).__name__


def described(value: Any) -> str:
    """A value a caller gave, as a message shows it: short, in the rules' words, the same in both
    languages (“text” in Chinese quotes, 真/假, 空值, a number; anything else by its kind)."""
    if value is None:
        return "空值"
    if value is True:
        return "真"
    if value is False:
        return "假"
    if value.__class__ is int:
        return str(value) if -10**12 < value < 10**12 else "超出范围的整数"
    if value.__class__ is float:
        return "nan" if value != value else repr(value)
    if value.__class__ is str:
        return "“" + value[:20] + ("…" if len(value) > 20 else "") + "”"
    return f"{kind(value)}类型的值"


def check_int(name: str, value: Any, lo: int, hi: int) -> int:
    """Validate a resolver input: a whole number inside the range the rules declare."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OutOfBounds(f"{name}必须是整数，得到{described(value)}", name=name)
    if value < lo or value > hi:
        raise OutOfBounds(f"{name}必须在{lo}到{hi}之间，得到{value}", name=name, value=value)
    return value


def _field_getter(index: int, doc: Optional[str]) -> Any:
    return property(itemgetter(index), doc=doc)


# The C accessor of a field that collections.namedtuple uses (CPython 3.8 and later), else a property.
_tuplegetter: Any = getattr(collections, "_tuplegetter", None) or _field_getter
_tuple_new = tuple.__new__


class FieldsTuple(Tuple[Any, ...]):
    """The methods `collections.namedtuple` gives a class, for the classes `fields_tuple` makes."""

    __slots__ = ()
    _fields: Tuple[str, ...] = ()
    _field_defaults: Dict[str, Any] = {}

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            args = cls._keywords(args, kwargs)
        if len(args) != len(cls._fields):
            raise TypeError(f"{cls.__name__}() takes {len(cls._fields)} arguments ({len(args)} given)")
        return _tuple_new(cls, args)

    @classmethod
    def _keywords(cls, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Tuple[Any, ...]:
        fields, values = cls._fields, list(args)
        for name in fields[len(args):]:
            if name not in kwargs:
                raise TypeError(f"{cls.__name__}() missing argument {name!r}")
            values.append(kwargs.pop(name))
        if kwargs:
            raise TypeError(f"{cls.__name__}() got unexpected or repeated arguments {sorted(kwargs)!r}")
        return tuple(values)

    @classmethod
    def _make(cls, iterable: Any) -> Any:
        made = _tuple_new(cls, iterable)
        if len(made) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(made)}")
        return made

    def _replace(self, /, **kwargs: Any) -> Any:
        made = self._make(map(kwargs.pop, self._fields, self))
        if kwargs:
            raise ValueError(f"Got unexpected field names: {list(kwargs)!r}")
        return made

    def _asdict(self) -> Dict[str, Any]:
        return dict(zip(self._fields, self))

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({', '.join(f'{k}={v!r}' for k, v in zip(self._fields, self))})"

    def __getnewargs__(self) -> Tuple[Any, ...]:
        return tuple(self)


def fields_tuple(name: str, fields: Tuple[str, ...], module: str) -> Any:
    """A class like `collections.namedtuple(name, fields)` (the same fields, accessors, methods,
    equality, pickling), made without `exec`: 15 µs for twenty fields, where `typing.NamedTuple`
    takes 350 µs and namedtuple 125 µs. Generated modules make their result and table classes with
    it at run time and declare them as NamedTuples for type checkers (`if TYPE_CHECKING:`): a third
    of a package's import was making those classes."""
    space: Dict[str, Any] = {key: _tuplegetter(i, None) for i, key in enumerate(fields)}
    space.update(__slots__=(), _fields=fields, __match_args__=fields, __module__=module, __qualname__=name,
                 __doc__=f"{name}({', '.join(fields)})")
    return type(name, (FieldsTuple,), space)


class TraceStep(NamedTuple):
    """One line of a resolution trace: a step kind, its numbers and a sentence (immutable)."""

    kind: str
    text: str
    values: Tuple[Tuple[str, Any], ...] = ()

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "values": {k: plain(v) for k, v in self.values}}

    def __repr__(self) -> str:
        return f"TraceStep({self.kind!r}, {self.text!r})"


class Result:
    """What every procedure's result has besides its fields (the generated class adds them, and
    `rolls` and `trace` last): the outcome tuple, the trace as text, plain JSON."""

    __slots__ = ()
    procedure = ""

    def outcome(self) -> Tuple[Any, ...]:
        fields: Tuple[Any, ...] = self  # type: ignore[assignment]
        return fields[:-2]

    def text(self, gm: bool = False) -> str:
        """The trace as sentences, one per line: what the players may see, or with `gm=True` also the
        lines only the game master sees (kind "gm", such as a wrong guess of a hidden target)."""
        steps = self.trace  # type: ignore[attr-defined]
        if gm:
            return "\n".join([s[1] for s in steps])
        return "\n".join([s[1] for s in steps if s[0] != "gm"])  # by index: faster than the field names

    def to_dict(self) -> Dict[str, Any]:
        fields: Tuple[str, ...] = self._fields  # type: ignore[attr-defined]
        out: Dict[str, Any] = {"procedure": self.procedure}
        for name, value in zip(fields[:-2], self.outcome()):
            out[name] = plain(value)
        out["rolls"] = [r.to_dict() for r in self.rolls]  # type: ignore[attr-defined]
        out["trace"] = [s.to_dict() for s in self.trace]  # type: ignore[attr-defined]
        return out


def check_inputs(specs: Tuple[Tuple[Any, ...], ...]) -> None:
    """Check a procedure's inputs in order and raise the first problem (generated code tests them
    inline and calls this only when one fails, to say which): ("int", name, value, lo, hi),
    ("bool", name, value), ("type", name, value, cls), ("entry", name, entry)."""
    for spec in specs:
        kind = spec[0]
        if kind == "int":
            check_int(spec[1], spec[2], spec[3], spec[4])
        elif kind == "bool":
            check_bool(spec[1], spec[2])
        elif kind == "type":
            check_type(spec[1], spec[2], spec[3])
        else:
            require_specified(spec[2], spec[1])


# `record(Cls, (field, ...))` builds a NamedTuple record from all its fields without the
# Python-level frame of its own constructor: as fast as a plain class, and immutable.
record = tuple.__new__


def plain(value: Any) -> Any:
    """A JSON-ready copy of a result value."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def fmt(value: Any) -> str:
    """A value as it reads in a trace sentence."""
    if value is True:
        return "是"
    if value is False:
        return "否"
    if value is None:
        return "无"
    name = getattr(value, "name", None)
    if isinstance(name, str):
        return name
    return str(value)


def shown(value: Any, table: Optional[Dict[str, Any]] = None) -> str:
    """An outcome value in the rules' words: 是/否, a number, or the name of the entry of `table`
    an id names ("—" for no entry)."""
    if isinstance(table, dict) and isinstance(value, str):
        return "—" if value == "" else fmt(table[value]) if value in table else value
    return fmt(value)


def check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise OutOfBounds(f"{name}必须是真或假，得到{described(value)}", name=name)
    return value


def check_type(name: str, value: Any, cls: type) -> Any:
    if not isinstance(value, cls):
        raise OutOfBounds(f"{name}必须是{cls.__name__}，得到{kind(value)}", name=name)
    return value


def not_given(*_args: Any) -> Any:
    raise NotSpecifiedBySource("未指定的条目没有公式")


class UnknownEntry(RuleError):
    """No entry of a table has this id or name."""

    code = "unknown-entry"


MAX_CLOSE = 100  # characters of a name looked for a close match (the message shows 20)


def _close_match(key: str, names: Sequence[str]) -> Optional[str]:
    """`difflib.get_close_matches(key, names, n=1)`'s name, or None, with fewer ratios: difflib
    measures every name whose two upper bounds of its ratio reach 0.6 (`real_quick_ratio`,
    `quick_ratio`); here they are measured by decreasing `quick_ratio`, until the best ratio found
    is above every bound left (no name left can reach or tie it). An unknown word from a chat
    against a 10,000-weapon pack: 150 ms became 50."""
    import difflib

    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(key)
    by_bound: Dict[float, List[str]] = {}
    for name in names:
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= 0.6:
            bound = matcher.quick_ratio()
            if bound >= 0.6:
                by_bound.setdefault(bound, []).append(name)
    best: Optional[Tuple[float, str]] = None
    for bound in sorted(by_bound, reverse=True):
        if best is not None and bound < best[0]:
            break
        for name in by_bound[bound]:
            matcher.set_seq1(name)
            ratio = matcher.ratio()
            if ratio >= 0.6 and (best is None or (ratio, name) > best):
                best = (ratio, name)
    return None if best is None else best[1]


def lookup(table: Dict[str, Any], key: Any, what: str, cls: type) -> Any:
    """Find an entry by object, id or Chinese name; a clear error with a suggestion otherwise."""
    if isinstance(key, cls):
        return key
    if isinstance(key, str):
        entry = table.get(key)
        if entry is not None:
            return entry
        for candidate in table.values():
            if candidate.name == key:
                return candidate
        close = _close_match(key, [*table, *(e.name for e in table.values())]) if len(key) <= MAX_CLOSE else None
        hint = f"，是否想找“{close}”？" if close is not None else ""
        raise UnknownEntry(f"没有名为{described(key)}的{what}{hint}", key=key[:MAX_CLOSE])
    raise UnknownEntry(f"{what}必须是编号、名称或条目对象，得到{kind(key)}")


def index(table: Dict[Any, Any], key: Any, what: str) -> Any:
    """The entry of an indexed table (`sizes[attacker.size]`) whose index field equals `key`."""
    entry = table.get(key)
    if entry is None:
        raise UnknownEntry(f"没有{what}为{key}的条目", key=key)
    return entry


def require_specified(entry: Any, what: str) -> Any:
    if entry.not_specified is not None:
        raise NotSpecifiedBySource(f"{what}“{entry.name}”在原文中没有给出具体规则：{entry.not_specified}",
                                   entry=entry.id)
    return entry


def faces_text(faces: Sequence[int], added: Sequence[bool] = ()) -> str:
    if len(faces) == 1 and not added:
        return f"[{faces[0]}]"
    if not any(added):
        return "[" + ", ".join(map(str, faces)) + "]"
    marks = list(added) + [False] * (len(faces) - len(added))
    return "[" + ", ".join([f"{f}+" if a else str(f) for f, a in zip(faces, marks)]) + "]"


def _tuples(values: List[Any]) -> Tuple[Any, ...]:
    """A JSON array as a tuple, its arrays as tuples too (recursing only into arrays: a row's
    values are mostly numbers and text)."""
    return tuple([_tuples(v) if type(v) is list else v for v in values])


# A picked column's character of code PICK_BASE + i picks its i-th value (the compiler's
# emit/python/model.py `rows_file`): its latin-1 byte, less the base, in C.
_PICKED = bytes((b - 35) % 256 for b in range(256))


def _row_files(module_file: str, names: Sequence[str], arrays: Sequence[int]) -> Iterator[Tuple[int, List[Any]]]:
    """Each rows file's (number of rows, its columns as iterables of that length): see `load_rows`."""
    import json
    import os
    from itertools import repeat

    folder = os.path.join(os.path.dirname(os.path.abspath(module_file)), "_rows")
    array_set = set(arrays)
    for file_name in names:
        with open(os.path.join(folder, file_name), encoding="utf-8") as f:
            data = json.load(f)
        n = data["rows"]
        columns: List[Any] = []
        for i, col in enumerate(data["columns"]):
            if "all" in col:
                value = col["all"]
                columns.append(repeat(_tuples(value) if type(value) is list else value, n))
            elif "pick" in col:
                values = col["values"]
                if i in array_set:
                    values = [_tuples(v) if type(v) is list else v for v in values]
                columns.append(map(values.__getitem__, col["pick"].encode("latin-1").translate(_PICKED)))
            else:
                values = col["list"]
                columns.append([_tuples(v) if type(v) is list else v for v in values] if i in array_set else values)
        yield n, columns


def load_rows(module_file: str, names: Sequence[str], arrays: Sequence[int] = ()) -> Tuple[Tuple[Any, ...], ...]:
    """The data rows of a large table, from the JSON files beside the model module (`_rows/`):
    each row as the tuple the model module would otherwise hold as a literal (`arrays`: the
    columns that hold arrays, made tuples too). Each file holds its rows by column (the compiler's
    emit/python/model.py `rows_file`): a column with one value as that value, a column with at
    most 221 distinct values as those values and one character per row picking one, any other
    as its list. JSON is read faster than Python of the same size is compiled, and a column of
    few values is one string, read at once and decoded in C (`bytes` indexing a list)."""
    rows: List[Tuple[Any, ...]] = []
    for _, columns in _row_files(module_file, names, arrays):
        rows += zip(*columns)
    return tuple(rows)


def load_entries(cls: Any, module_file: str, names: Sequence[str], arrays: Sequence[int],
                 convert: Dict[int, Any]) -> Dict[str, Any]:
    """A large table's entries by id, each a `cls` (a NamedTuple) made from a row of `load_rows`
    with True inserted after its first five values (the entry is given) and the columns in
    `convert` converted: a (mapping, placeholder) pair looks the value up (a reference; the
    placeholder for none), a function is called with it. What the model module's loop over a small
    table's rows makes, column by column in C: for 10,000 weapons 4 ms instead of 17."""
    from functools import partial
    from itertools import repeat

    made = partial(tuple.__new__, cls)
    entries: Dict[str, Any] = {}
    for n, columns in _row_files(module_file, names, arrays):
        ids = columns[0] = list(columns[0])
        for i, how in convert.items():
            if type(how) is tuple:
                columns[i] = map(how[0].get, columns[i], repeat(how[1]))  # keys are ids: get(None) is the placeholder
            else:
                columns[i] = map(how, columns[i])
        columns.insert(5, repeat(True, n))
        entries.update(zip(ids, map(made, zip(*columns))))
    return entries
