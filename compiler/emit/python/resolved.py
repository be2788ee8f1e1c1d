"""Every global name an emitted Python module reads is defined: by the module, its imports or
the builtins of Python 3.8 (the oldest the packages support).

`with_imports` imports exactly the names a module's body uses among those it is offered; a name
nothing offers (a `_rt_` function of a runtime module the ruleset does not ship, because a step
kind left it out of `StepKind.runtime`) is not imported, and the module would raise `NameError`
when called. `unresolved` finds such names from the module's symbol tables (`symtable`: the
scopes as Python resolves them), so the build fails on them instead. Annotations are not read:
under `from __future__ import annotations` they are never evaluated.

The build already holds each module's code object (it imports the package to compute the pages'
odds), so it asks `global_reads` first: the global names the bytecode reads, found from the
instructions that read a global (C-level byte scans, a tenth of building the symbol tables
again). Only when that finds a name nothing defines does `unresolved` read the symbol tables, to
say which and where. The one difference is code the compiler drops (`if not (x or True): raise
E(...)`): it reads nothing, so it cannot raise NameError either. `tests/test_resolved.py` holds
the two to the same answer.
"""

from __future__ import annotations

import ast
import builtins
import dis
import symtable
from types import CodeType

# Builtins newer than Python 3.8: a generated module must not rely on them.
_NEWER = frozenset({"aiter", "anext", "EncodingWarning", "BaseExceptionGroup", "ExceptionGroup"})
_MODULE = frozenset({"__name__", "__file__", "__doc__", "__spec__", "__package__", "__loader__", "__builtins__",
                     "__path__"})
BUILTINS = frozenset(dir(builtins)) - _NEWER | _MODULE


def unresolved(text: str, filename: str) -> list[tuple[str, int]]:
    """(name, first line that reads it) of each global name `text` reads that nothing defines."""
    top = symtable.symtable(text, filename, "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    read: set[str] = set()
    stack = [top]
    while stack:
        table = stack.pop()
        stack.extend(table.get_children())
        for s in table.get_symbols():
            if s.is_global() and s.is_assigned():
                defined.add(s.get_name())  # `global x; x = ...` in a function
            if s.is_referenced() and s.is_global():
                read.add(s.get_name())
    missing = read - defined - BUILTINS
    if not missing:
        return []
    lines: dict[str, int] = {}
    for node in ast.walk(ast.parse(text, filename)):
        if isinstance(node, ast.Name) and node.id in missing:
            lines[node.id] = min(lines.get(node.id, node.lineno), node.lineno)
    return sorted(((n, lines.get(n, 0)) for n in missing), key=lambda item: (item[1], item[0]))


# The instructions that read or define a global name, by the number their argument means in this
# Python (3.11 to 3.13: LOAD_GLOBAL's argument is the name's index shifted left by one). On another
# version `global_reads` answers None and the symbol tables are read instead.
_OP = dis.opmap
_SCANNED = (3, 11) <= __import__("sys").version_info[:2] <= (3, 13)
_LOAD_GLOBAL, _LOAD_NAME = _OP["LOAD_GLOBAL"], _OP["LOAD_NAME"]
_STORE_NAME, _STORE_GLOBAL, _EXTENDED_ARG = _OP["STORE_NAME"], _OP["STORE_GLOBAL"], dis.EXTENDED_ARG
_CLASS_READ = _OP.get("LOAD_FROM_DICT_OR_GLOBALS")  # 3.12+: a name in a class body of type parameters
_OPTIMIZED = 0x1  # CO_OPTIMIZED: a function's code (fast locals); a module's or class body's is not
# What Python sets up in a module's or class body's namespace (`x: int` at the top: `__annotations__`).
_OWN = frozenset({"__annotations__", "__module__", "__qualname__"})


def _arguments(ops: bytes, args: bytes, op: int) -> list[int]:
    """The arguments of every `op` instruction (`ops`, `args`: co_code's even and odd bytes)."""
    out = []
    at = ops.find(op)
    while at >= 0:
        arg, back, shift = args[at], at - 1, 8
        while back >= 0 and ops[back] == _EXTENDED_ARG:
            arg |= args[back] << shift
            back, shift = back - 1, shift + 8
        out.append(arg)
        at = ops.find(op, at + 1)
    return out


def global_reads(module: CodeType) -> tuple[set[str], set[str]] | None:
    """(the global names `module`'s code reads, the names it defines: at module level or through
    `global`), from its bytecode; None on a Python whose bytecode this does not know."""
    if not _SCANNED:
        return None
    read: set[str] = set()
    defined: set[str] = set()
    stack = [module]
    while stack:
        code = stack.pop()
        stack.extend(c for c in code.co_consts if isinstance(c, CodeType))
        raw, names = code.co_code, code.co_names
        ops, args = raw[::2], raw[1::2]
        read.update(names[a >> 1] for a in _arguments(ops, args, _LOAD_GLOBAL))
        defined.update(names[a] for a in _arguments(ops, args, _STORE_GLOBAL))
        if code.co_flags & _OPTIMIZED:
            continue
        # A module's or a class body's own names: a class body reads its own names first.
        stored = {names[a] for a in _arguments(ops, args, _STORE_NAME)}
        loaded = {names[a] for a in _arguments(ops, args, _LOAD_NAME)}
        if _CLASS_READ is not None:
            loaded.update(names[a] for a in _arguments(ops, args, _CLASS_READ))
        if code is module:
            defined |= stored
            read |= loaded - _OWN
        else:
            read |= loaded - stored - _OWN
    return read, defined


def reads_undefined(module: CodeType) -> bool:
    """Whether `module`'s code may read a global name nothing defines (then `unresolved` says
    which); True when its bytecode cannot be read on this Python."""
    found = global_reads(module)
    if found is None:
        return True
    read, defined = found
    return bool(read - defined - BUILTINS)
