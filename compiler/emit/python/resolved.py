"""Every global name an emitted Python module reads is defined: by the module, its imports or
the builtins of Python 3.8 (the oldest the packages support).

`with_imports` imports exactly the names a module's body uses among those it is offered; a name
nothing offers (a `_rt_` function of a runtime module the ruleset does not ship, because a step
kind left it out of `StepKind.runtime`) is not imported, and the module would raise `NameError`
when called. `unresolved` finds such names from the module's symbol tables (`symtable`: the
scopes as Python resolves them), so the build fails on them instead. Annotations are not read:
under `from __future__ import annotations` they are never evaluated.
"""

from __future__ import annotations

import ast
import builtins
import symtable

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
