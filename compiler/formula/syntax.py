"""Formula syntax: text -> a small expression tree, never evaluated.

Formulas are written in Python-like infix notation (`floor((武技 + 专业) / 2)`,
`x if 距离 <= 5 else 0`). The text is parsed with `ast.parse(mode="eval")` and
then translated node by node into the tree below; every construct outside the
whitelist (attribute chains on calls, subscripts, lambdas, comprehensions,
`**`, dunder names, keyword arguments, ...) becomes a `FormulaError` with the
column where it starts. Nothing is ever passed to `eval` or `exec`.
"""

from __future__ import annotations

import ast
from ..messages import say
from ..record import Record, field_names, replace

MAX_LENGTH = 400
MAX_NODES = 200


class FormulaError(Exception):
    def __init__(self, col: int, message: str, hint: str | None = None):
        super().__init__(message)
        self.col = col
        self.message = message
        self.hint = hint


class Num(Record, frozen=True):
    value: int
    col: int


class Bool(Record, frozen=True):
    value: bool
    col: int


class Str(Record, frozen=True):
    value: str
    col: int


class Name(Record, frozen=True):
    parts: tuple[str, ...]
    col: int


class Index(Record, frozen=True):
    """`table[key].field...`: the entry of an indexed table whose index field equals key."""

    table: str
    key: Expr
    path: tuple[str, ...]
    col: int


class Unary(Record, frozen=True):
    op: str  # "-", "+", "not"
    operand: Expr
    col: int


class Binary(Record, frozen=True):
    op: str  # "+", "-", "*", "/"
    left: Expr
    right: Expr
    col: int


class Compare(Record, frozen=True):
    ops: tuple[str, ...]  # "<", "<=", ">", ">=", "==", "!="
    operands: tuple[Expr, ...]
    col: int


class BoolOp(Record, frozen=True):
    op: str  # "and", "or"
    values: tuple[Expr, ...]
    col: int


class Cond(Record, frozen=True):
    test: Expr
    then: Expr
    orelse: Expr
    col: int


class Call(Record, frozen=True):
    func: str
    args: tuple[Expr, ...]
    col: int


Expr = Num | Bool | Str | Name | Index | Unary | Binary | Compare | BoolOp | Cond | Call

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_FORBIDDEN = {  # each names its catalogue line: syntax.forbidden.<name>
    ast.Pow: "pow", ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Lambda: "lambda", ast.ListComp: "comprehension",
    ast.SetComp: "comprehension", ast.DictComp: "comprehension", ast.GeneratorExp: "comprehension",
    ast.NamedExpr: "walrus", ast.JoinedStr: "fstring", ast.Await: "await",
}


def _char_col(text: str, byte_offset: int) -> int:
    """ast reports UTF-8 byte offsets; diagnostics want character columns."""
    return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))


class _Translator:
    def __init__(self, text: str):
        self.text = text
        self.ascii = text.isascii()  # a byte offset is then the column
        self.count = 0

    def col(self, node: ast.AST) -> int:
        offset = getattr(node, "col_offset", 0)
        return offset if self.ascii else _char_col(self.text, offset)

    def name_parts(self, node: ast.expr) -> tuple[str, ...] | None:
        if isinstance(node, ast.Name):
            return (node.id,)
        if isinstance(node, ast.Attribute):
            base = self.name_parts(node.value)
            return None if base is None else base + (node.attr,)
        return None

    def _indexed(self, node: ast.expr) -> Index | None:
        """`table[key]` followed by attribute names, or None for anything else."""
        path: list[str] = []
        while isinstance(node, ast.Attribute):
            path.insert(0, node.attr)
            node = node.value
        if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Name):
            return None
        col = self.col(node)
        self.check_ident((node.value.id, *path), col)
        key = node.slice
        if isinstance(key, (ast.Slice, ast.Tuple)):
            raise FormulaError(col, say("syntax.index-one-value"))
        return Index(node.value.id, self.tr(key), tuple(path), col)

    def check_ident(self, parts: tuple[str, ...], col: int) -> None:
        for part in parts:
            if part.startswith("_"):
                raise FormulaError(col, say("syntax.name-not-allowed-names", part=part))

    def tr(self, node: ast.expr) -> Expr:
        self.count += 1
        if self.count > MAX_NODES:
            raise FormulaError(self.col(node), say("syntax.formula-has-more-than", max_nodes=MAX_NODES))
        col = self.col(node)
        message = _FORBIDDEN.get(type(node))  # the parser makes these classes exactly, never a subclass
        if message is not None:
            raise FormulaError(col, say(f"syntax.forbidden.{message}"))
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                return Bool(node.value, col)
            if isinstance(node.value, int):
                if abs(node.value) > 10**9:
                    raise FormulaError(col, say("syntax.number-too-large"))
                return Num(node.value, col)
            if isinstance(node.value, str):
                return Str(node.value, col)
            raise FormulaError(col, say("syntax.constant-not-allowed-use", value=node.value))
        if isinstance(node, (ast.Attribute, ast.Subscript)) and self._indexed(node) is not None:
            return self._indexed(node)  # type: ignore[return-value]
        if isinstance(node, ast.Subscript):
            raise FormulaError(col, say("syntax.only-table-name-can"))
        if isinstance(node, (ast.Name, ast.Attribute)):
            parts = self.name_parts(node)
            if parts is None:
                raise FormulaError(col, say("syntax.attribute-access-only-allowed"))
            self.check_ident(parts, col)
            if parts in (("True",), ("False",)):
                return Bool(parts == ("True",), col)
            return Name(parts, col)
        if isinstance(node, ast.UnaryOp):
            unary_ops: dict[type, str] = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not"}
            if type(node.op) not in unary_ops:
                raise FormulaError(col, say("syntax.not-allowed"))
            return Unary(unary_ops[type(node.op)], self.tr(node.operand), col)
        if isinstance(node, ast.BinOp):
            if type(node.op) in _FORBIDDEN:
                raise FormulaError(col, say(f"syntax.forbidden.{_FORBIDDEN[type(node.op)]}"))
            if type(node.op) not in _BINOPS:
                raise FormulaError(col, say("syntax.operator-not-allowed-formulas"))
            return Binary(_BINOPS[type(node.op)], self.tr(node.left), self.tr(node.right), col)
        if isinstance(node, ast.Compare):
            compare_ops: list[str] = []
            for cmp in node.ops:
                if type(cmp) not in _CMPOPS:
                    raise FormulaError(col, say("syntax.only-comparisons-are-allowed"))
                compare_ops.append(_CMPOPS[type(cmp)])
            operands = (self.tr(node.left), *(self.tr(c) for c in node.comparators))
            return Compare(tuple(compare_ops), operands, col)
        if isinstance(node, ast.BoolOp):
            bool_op = "and" if isinstance(node.op, ast.And) else "or"
            return BoolOp(bool_op, tuple(self.tr(v) for v in node.values), col)
        if isinstance(node, ast.IfExp):
            return Cond(self.tr(node.test), self.tr(node.body), self.tr(node.orelse), col)
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise FormulaError(col, say("syntax.only-named-functions-can"))
            if node.keywords:
                raise FormulaError(col, say("syntax.keyword-arguments-are-not"))
            if any(isinstance(a, ast.Starred) for a in node.args):
                raise FormulaError(col, say("syntax.arguments-are-not-allowed"))
            self.check_ident((node.func.id,), col)
            return Call(node.func.id, tuple(self.tr(a) for a in node.args), col)
        raise FormulaError(col, say("syntax.not-allowed-formulas", name__=type(node).__name__))


def parse(text: str) -> Expr:
    """Parse formula text into an expression tree, or raise FormulaError with a column. A tree is
    frozen and a function of the text alone, so each text read is kept (a ruleset writes the same
    formula many times: the bundled rulesets hold 613 distinct texts among 1,738); a text refused
    is read again each time, so its error is said in the language of the moment."""
    if type(text) is str:
        kept = _PARSED.get(text)
        if kept is not None:
            return kept
    tree = _parse(text)
    if type(text) is str:
        if len(_PARSED) >= _MAX_PARSED:
            _PARSED.clear()
        _PARSED[text] = tree
    return tree


_MAX_PARSED = 8192
_PARSED: dict[str, Expr] = {}


def _parse(text: str) -> Expr:
    if not isinstance(text, str):
        raise FormulaError(0, say("syntax.formula-must-text"))
    if len(text) > MAX_LENGTH:
        raise FormulaError(MAX_LENGTH, say("syntax.formula-longer-than-characters", max_length=MAX_LENGTH))
    if not text.strip():
        raise FormulaError(0, say("syntax.formula-empty"))
    if "\n" in text.strip():
        raise FormulaError(text.index("\n"), say("syntax.formula-fits-on-one"))
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        col = max(0, (exc.offset or 1) - 1)
        raise FormulaError(col, say("syntax.cannot-read-formula", msg=exc.msg)) from None
    except (ValueError, RecursionError, MemoryError):
        raise FormulaError(0, say("syntax.cannot-read-formula-2")) from None
    lead = len(text) - len(text.lstrip())
    expr = _Translator(text.strip()).tr(tree.body)
    return _shift(expr, lead) if lead else expr


def _shift(expr: Expr, by: int) -> Expr:
    # Leading spaces were stripped before parsing; columns are re-based on the original text.
    changes: dict[str, object] = {"col": expr.col + by}
    for name in field_names(expr):
        v = getattr(expr, name)
        if isinstance(v, tuple) and v and not isinstance(v[0], str):
            changes[name] = tuple(_shift(x, by) for x in v)
        elif name in ("operand", "left", "right", "test", "then", "orelse", "key"):
            changes[name] = _shift(v, by)
    return replace(expr, **changes)
