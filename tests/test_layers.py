"""The layout shows the passes (issue 28): no import circle between the modules of compiler/, and
its packages form layers in the order of the passes — load → validate → lower/ir → optimise →
emit → build → cli — each importing only its own layer and those below when it is loaded.

Only module-level imports count (what loading a module loads); an import inside a function or
under `if TYPE_CHECKING:` is how a module defers a dependency (the interactive commands start
without the compiler's passes) and is not an edge. A few modules are services the layers below
are handed rather than passes of their own layer: they are placed by `SERVICES`, and must
themselves import nothing above their place.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

COMPILER = Path(__file__).resolve().parent.parent / "compiler"

# Each package (or top-level module) of compiler/ to its layer; an import may only go to the same
# layer or a lower one.
LAYERS: dict[str, int] = {
    "runtime": 0,  # copied into every generated package: the standard library only
    "messages": 1, "diagnostics": 1, "__init__": 1, "memo": 1, "record": 1, "jsontext": 1, "__main__": 9,
    "ir": 2, "formula": 2, "engines": 2, "features": 2,
    "load": 3,
    "steps": 4, "validate": 4,  # a step kind checks itself; validate/ walks the kinds
    "lower": 5,
    "optimise": 6,
    "emit": 7,
    "build": 8,
    "cli": 9, "importers": 9,
}
# Modules placed apart from their package: the code values and the handler registry every step
# kind writes through (a step kind holds its own handlers), and the words no id of the rules may
# be, which the checks report and the code writers refuse.
SERVICES: dict[str, int] = {
    "emit.python.code": 2, "emit.python.wrap": 2, "emit.python.wrap_tokens": 2, "emit.python.wrap_breaks": 2,
    "emit.python.wrap_strings": 2, "emit.js.code": 2, "emit.js.wrap": 2, "emit.handlers": 2, "validate.reserved": 2,
    "emit.hidden": 2,
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(COMPILER).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """The compiler modules `path` imports when it is loaded."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    if name == "__init__":
        here = []
    out: set[str] = set()
    body: list[ast.stmt] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Try):
            body.extend(node.body)
        elif not isinstance(node, ast.If):  # `if TYPE_CHECKING:` and the like
            body.append(node)
    for node in body:
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue  # only relative imports reach the compiler (it is installed as rulec)
        base = here[:len(here) - (node.level - 1)]
        target = base + (node.module.split(".") if node.module else [])
        for alias in node.names:
            candidate = ".".join(target + [alias.name])
            found = candidate if candidate in modules else ".".join(target) or "__init__"
            if found in modules and found != name:
                out.add(found)
    return out


@cache
def _graph() -> dict[str, set[str]]:
    """Each module of compiler/ to the modules it imports when loaded (read once per run)."""
    paths = {_module_name(p): p for p in COMPILER.rglob("*.py") if "__pycache__" not in p.parts}
    modules = set(paths)
    return {name: _imports(path, name, modules) for name, path in paths.items()}


def _layer(module: str) -> int:
    for prefix, layer in SERVICES.items():
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return LAYERS[module.split(".")[0]]


def test_every_package_has_a_layer() -> None:
    names = {p.name.removesuffix(".py") for p in COMPILER.iterdir() if p.suffix == ".py" or
             (p.is_dir() and (p / "__init__.py").is_file())}
    assert names == set(LAYERS), f"give each a layer in LAYERS: {sorted(names ^ set(LAYERS))}"


def test_no_module_imports_a_layer_above_its_own() -> None:
    graph = _graph()
    upward = sorted(f"{a} (layer {_layer(a)}) imports {b} (layer {_layer(b)})"
                    for a, targets in graph.items() for b in targets if _layer(b) > _layer(a))
    assert not upward, "\n".join(upward)


def test_no_import_circle_between_modules() -> None:
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            circle = visit(start)
            assert circle is None, " -> ".join(circle)


def test_no_import_circle_between_packages() -> None:
    """Packages (with SERVICES apart) import one another in one direction only."""
    def unit(module: str) -> str:
        for prefix in SERVICES:
            if module == prefix or module.startswith(prefix + "."):
                return prefix
        return module.split(".")[0]

    edges = {(unit(a), unit(b)) for a, targets in _graph().items() for b in targets if unit(a) != unit(b)}
    both = sorted(f"{a} <-> {b}" for a, b in edges if (b, a) in edges and a < b)
    assert not both, both
