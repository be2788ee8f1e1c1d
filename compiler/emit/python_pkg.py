"""Emit one ruleset's Python package: IR -> {relative path: text}.

The package is standard-library only: `model.py` (stats, tables as data rows,
rulings, error types), `procedures.py` (traced, fast and odds functions),
`_runtime/` (the compiler's runtime copied verbatim), `py.typed`, its own
`pyproject.toml` and a README of its public API. Every generated module is
`compile()`d here, so a template bug fails the build instead of a user's import.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .. import cache
from ..diagnostics import Diagnostic, RulesError
from ..emit.env import render
from ..emit.python_view import package_view
from ..ir import Ruleset

RUNTIME_DIR = Path(__file__).resolve().parent.parent / "runtime"
RUNTIME_FILES = ("__init__.py", "core.py", "dice.py", "geometry.py", "odds.py")


def runtime_files() -> dict[str, str]:
    return {name: (RUNTIME_DIR / name).read_text(encoding="utf-8") for name in RUNTIME_FILES}


# Every name a generated module may import, as (module, name, local alias). A module
# imports exactly the ones its body uses, so linters see no unused imports.
_STDLIB = [("dataclasses", "asdict", "asdict"), ("dataclasses", "dataclass", "dataclass"),
           ("fractions", "Fraction", "Fraction")] + [
    ("typing", n, n) for n in ("Any", "Callable", "Dict", "List", "NamedTuple", "Optional", "Sequence",
                               "Tuple", "Union")]
_RUNTIME = [("._runtime.core", n, n) for n in ("RuleError",)] + [
    ("._runtime.core", n, f"_rt_{n}") for n in (
        "TraceStep", "check_bool", "check_int", "check_type", "ceil", "ceildiv", "clamp", "div", "floor",
        "floordiv", "fmt", "lookup", "not_given", "plain", "record", "require_specified", "round_cbrt")] + [
    ("._runtime.geometry", n, f"_rt_{n}") for n in ("flanks_square", "flanks_hex")] + [
    ("._runtime.dice", n, n) for n in ("DamageTerms", "DiceSource", "DiceValue", "PoolSpec", "SeededDice")] + [
    ("._runtime.dice", n, f"_rt_{n}") for n in (
        "d20_natural", "d20_natural_random", "d20_sentence", "damage_roller", "damage_roller_random", "face_table", "face_tree", "damage_sentence", "damage_total", "initiative_order",
        "make_dice",
        "net_layers",
        "pool_sentence", "pool_successes_random",
        "pool_successes", "roll_d20", "roll_damage", "roll_pool", "single_die")] + [
    ("._runtime.odds", n, n) for n in ("Odds", "OddsBuilder")] + [
    ("._runtime.odds", n, f"_rt_{n}") for n in (
        "CERTAIN_ZERO", "ZERO_ITEMS", "all_succeed_distribution", "count_distribution", "d20_distribution",
        "dice_items",
        "pool_distribution")]


def _model_names(view: dict[str, Any]) -> list[tuple[str, str, str]]:
    names = ["Combatant"]
    for t in view["tables"]:
        names += [t["cls"], t["const"], t["getter"], t["none"]]
    names += [e["cls"] for e in view["errors"]] + [r["const"] for r in view["rulings"]]
    return [(".model", n, n) for n in names]


_IDENTIFIER = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_MARKER = "# @@rulec-imports@@"


def _import_lines(body: str, candidates: list[tuple[str, str, str]]) -> list[str]:
    used = set(_IDENTIFIER.findall(body))
    return [f"from {module} import {name}" + (f" as {alias}" if alias != name else "")
            for module, name, alias in candidates if alias in used]


def _render_module(template: str, view: dict[str, Any], candidates: list[tuple[str, str, str]]) -> str:
    """Render with a marker where the imports go, then import exactly the names the body uses."""
    text = render(template, **view, import_lines=[_MARKER])
    head, _, body = text.partition(_MARKER + "\n")
    return head + "".join(line + "\n" for line in _import_lines(body, candidates)) + body


def emit_package(rs: Ruleset, header: str) -> dict[str, str]:
    view = package_view(rs, header)
    view["add_at"] = rs.dice.add_at if rs.dice.add_at > 0 else rs.dice.sides + 1
    view["has_rows"] = any(t["chunks"] for t in view["tables"])
    files = {
        "__init__.py": render("package_init.py.j2", **view),
        "model.py": _render_module("model.py.j2", view, _STDLIB + _RUNTIME),
        "procedures.py": _render_module("procedures.py.j2", view, _STDLIB + _RUNTIME + _model_names(view)),
        "py.typed": "",
        "pyproject.toml": render("package_pyproject.toml.j2", **view),
        "README.md": render("package_readme.md.j2", **view),
    }
    for name, text in runtime_files().items():
        files[f"_runtime/{name}"] = text
    chunked = [c for t in view["tables"] for c in t["chunks"]]
    if chunked:
        files["_rows/__init__.py"] = render("rows_init.py.j2", header=header)
        for chunk in chunked:
            files[f"_rows/{chunk['module']}.py"] = render("rows.py.j2", header=header, chunk=chunk)
    for name, text in files.items():
        if name.endswith(".py"):
            # A module that compiled once need not be compiled again. The header (comments only,
            # with the content hash of every input) is left out of the key, so that editing one
            # rule file does not make every module look new.
            checked = cache.key("compiles", text.replace(header, "", 1))
            if cache.get(checked) is True:
                continue
            try:
                compile(text, f"generated/{rs.id}/{name}", "exec", dont_inherit=True)
            except SyntaxError as exc:  # a compiler bug, reported against the manifest
                raise RulesError([Diagnostic(rs.span, "internal",
                                             f"generated {name} does not compile: {exc.msg} "
                                             f"(line {exc.lineno}); this is a rulec bug")]) from exc
            cache.put(checked, True)
    return files
