"""Emit one ruleset's Python package: IR -> {relative path: text}.

The package is standard-library only: `model.py` (stats, tables as data rows,
rulings, error types), `procedures.py` (traced, fast and odds functions),
`_runtime/` (the compiler's runtime copied verbatim), `py.typed`, its own
`pyproject.toml` and a README of its public API. Every generated module is
`compile()`d here, so a template bug fails the build instead of a user's import.
"""

from __future__ import annotations

from pathlib import Path

from compiler.diagnostics import Diagnostic, RulesError
from compiler.emit.env import render
from compiler.emit.python_view import package_view
from compiler.ir import Ruleset

RUNTIME_DIR = Path(__file__).resolve().parent.parent / "runtime"
RUNTIME_FILES = ("__init__.py", "core.py", "dice.py", "odds.py")


def runtime_files() -> dict[str, str]:
    return {name: (RUNTIME_DIR / name).read_text(encoding="utf-8") for name in RUNTIME_FILES}


def emit_package(rs: Ruleset, header: str) -> dict[str, str]:
    view = package_view(rs, header)
    view["add_at"] = rs.dice.add_at if rs.dice.add_at > 0 else rs.dice.sides + 1
    files = {
        "__init__.py": render("package_init.py.j2", **view),
        "model.py": render("model.py.j2", **view),
        "procedures.py": render("procedures.py.j2", **view),
        "py.typed": "",
        "pyproject.toml": render("package_pyproject.toml.j2", **view),
        "README.md": render("package_readme.md.j2", **view),
    }
    for name, text in runtime_files().items():
        files[f"_runtime/{name}"] = text
    for name, text in files.items():
        if name.endswith(".py"):
            try:
                compile(text, f"generated/{rs.id}/{name}", "exec", dont_inherit=True)
            except SyntaxError as exc:  # a compiler bug, reported against the manifest
                raise RulesError([Diagnostic(rs.span, "internal",
                                             f"generated {name} does not compile: {exc.msg} "
                                             f"(line {exc.lineno}); this is a rulec bug")]) from exc
    return files
