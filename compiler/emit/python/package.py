"""Emit one ruleset's Python distribution: IR -> {relative path: text}.

`generated/<ruleset>/` is a distribution folder: `pyproject.toml` (flit, so that `pip install`
writes nothing into it), `README.md`, and the import package `rulec_<ruleset>/`, standard
library only: `model.py`, `procedures.py`, `_runtime/` (the compiler's runtime modules this
ruleset uses, copied verbatim), `py.typed`. The same import name works from the folder and
after `pip install`. Every generated module is `compile()`d here, so an emitter bug fails the
build instead of a user's import.
"""

from __future__ import annotations

import re
from functools import lru_cache, partial
from types import CodeType
from pathlib import Path

from ...memo import current
from ..shape import fight_shape, kept_text
from ...diagnostics import Diagnostic, RulesError
from ...engines import ENGINES
from ...features import FEATURES
from ...ir import Ruleset
from ...steps import kind_for
from ...validate.scopes import class_name
from ..env import Markdown, md_code, md_escape, render_markdown, render_python
from .code import Code, Writer, code, comment, docstring, literal, name, string
from .fight import fight_module
from .model import table_order, write_model
from .procedures import camel, getter, write_procedure, write_result
from .resolved import reads_undefined, unresolved
from ...messages import say

RUNTIME_DIR = Path(__file__).resolve().parent.parent.parent / "runtime"
ALWAYS = ("__init__", "core", "sources", "odds")
_PLAIN_NAMES = {"DiceSource", "SeededDice", "FixedDice", "DiceValue", "PoolSpec", "Odds", "OddsBuilder", "RuleError",
                "OutOfBounds", "DamageTerms"}


def package_name(rs: Ruleset) -> str:
    return f"rulec_{rs.id}"


def runtime_modules(rs: Ruleset) -> list[str]:
    """The runtime modules the ruleset's package needs: always core, sources and odds; those its
    step kinds declare (`StepKind.runtime`); its helpers' and features' modules (the pool engine's
    for a feature of a pool ruleset)."""
    needed = set(ALWAYS)
    for p in rs.procedures:
        for s in p.steps:
            needed |= set(kind_for(s).runtime)
    if rs.dice.engine == "pool" and rs.features:
        needed |= set(ENGINES["pool"].RUNTIME)
    needed |= {h.module for h in rs.helpers}
    for f in rs.features:
        needed |= set(FEATURES[f].runtime)
    if rs.fight is not None:
        needed |= {"fight", "fight_apply", "fight_budget", "fight_carried", "fight_checks", "fight_conditions",
                   "fight_events", "fight_odds", "fight_plan", "fight_plan_read", "fight_resources", "fight_shown",
                   "fight_state", "fight_stats", "fight_stored", "fight_until"}
    return sorted(needed)


# The top-level statements `_runtime_names` reads, in runtime source with its strings and comments
# blanked (`_SOURCE_NOISE`): `def name`/`class name` (not `async def`), `a = b = ...` (each plain
# target, not a tuple's), `name: T ...`. tests/test_runtime_names.py checks it against the syntax
# tree (ast.parse of the 22 runtime modules was 0.08 s of every build).
_SOURCE_NOISE = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
                           r'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|#[^\n]*', re.S)
_TOP_LEVEL = re.compile(r"^(?:(?:def|class)[ \t]+([A-Za-z_]\w*)|((?:[A-Za-z_]\w*[ \t]*=[ \t]*)+)(?!=)"
                        r"|([A-Za-z_]\w*)[ \t]*:(?!=))", re.M)
_TARGET = re.compile(r"([A-Za-z_]\w*)[ \t]*=")
_BLOCK_KEYWORDS = frozenset({"else", "try", "finally", "except"})


def top_level_names(source: str) -> list[str]:
    """The names a module's top-level `def`, `class`, assignment and annotated assignment bind, in
    order (what `ast.parse` finds as FunctionDef, ClassDef, Assign and AnnAssign to a Name)."""
    text = _SOURCE_NOISE.sub(lambda m: "" if m.group(0).startswith("#") else '""', source)
    names: list[str] = []
    for m in _TOP_LEVEL.finditer(text):
        if m.group(1):
            names.append(m.group(1))
        elif m.group(2):
            names += _TARGET.findall(m.group(2))
        elif m.group(3) not in _BLOCK_KEYWORDS:
            names.append(m.group(3))
    return names


@lru_cache(maxsize=1)
def _runtime_names() -> dict[str, tuple[str, ...]]:
    """Every top-level name of each runtime module (what generated code may import from it)."""
    return {path.stem: tuple(n for n in top_level_names(path.read_text(encoding="utf-8")) if not n.startswith("_"))
            for path in sorted(RUNTIME_DIR.glob("*.py"))}


def _candidates(modules: list[str]) -> list[tuple[str, str, str]]:
    out = [("dataclasses", "asdict", "asdict"), ("dataclasses", "dataclass", "dataclass"),
           ("types", "MappingProxyType", "MappingProxyType")]
    out += [("typing", n, n) for n in ("TYPE_CHECKING", "Any", "Callable", "Dict", "Final", "List", "Mapping",
                                       "NamedTuple", "Optional", "Sequence", "Tuple", "Union")]
    out += [("._runtime.core", "TraceStep", "_Step"), ("._runtime.core", "record", "_rec")]  # trace lines: short
    for module in modules:
        for n in _runtime_names().get(module, ()):
            out.append((f"._runtime.{module}", n, n if n in _PLAIN_NAMES else f"_rt_{n}"))
    return out


_IDENTIFIER = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
MARKER = "# @@rulec-imports@@"


def with_imports(text: str, candidates: list[tuple[str, str, str]]) -> str:
    """Replace the marker by exactly the imports the module's body uses (no unused imports)."""
    head, _, body = text.partition(MARKER + "\n")
    used = set(_IDENTIFIER.findall(body))
    by_module: dict[str, list[str]] = {}
    seen: set[str] = set()
    for module, n, alias in candidates:
        if alias in used and alias not in seen:
            seen.add(alias)
            by_module.setdefault(module, []).append(n + (f" as {alias}" if alias != n else ""))
    w = Writer()
    for module, names in by_module.items():
        line = f"from {module} import {', '.join(names)}"
        w.line(Code(line if len(line) <= 120 else f"from {module} import ({', '.join(names)})"))
    return head + "".join(line + "\n" for line in w.lines) + body


_HASH_LINE = "# Content hash: "


def plain_header(header: str) -> str:
    """The build header (outputs.header) without its content-hash line. The hash changes with every
    input file, so only the stamp and the package's `__init__.py` (and the JS package.json) carry
    it: a module that does not show an edit stays byte for byte the same."""
    return "\n".join(line for line in header.splitlines() if not line.startswith(_HASH_LINE))


def content_hash(header: str) -> str:
    """The content hash of the build header (`sha256:...`), or "" when it has none."""
    return next((line[len(_HASH_LINE):] for line in header.splitlines() if line.startswith(_HASH_LINE)), "")


def _model_names(rs: Ruleset) -> list[tuple[str, str, str]]:
    names = ["Combatant"]
    for t in rs.tables:
        names += [class_name(t.id), t.id.upper(), getter(t.id), f"_NO_{class_name(t.id).upper()}"]
        if t.index:
            names.append(f"{t.id.upper()}_BY_{t.index.upper()}")
    names += [camel(e.id) for e in rs.errors] + [f"_R_{r.key.upper()}" for r in rs.rulings]
    return [(".model", n, n) for n in names]


def _header_lines(header: str) -> str:
    """The build header as the comment lines atop a module (the body after it is kept apart)."""
    head = Writer()
    for line in header.splitlines():
        head.line(comment(line[2:]))
    return head.text()


def procedures_module(rs: Ruleset, header: str) -> str:
    """procedures.py: the header, then what the ruleset's shape makes (kept by a resident build)."""
    return _header_lines(header) + kept_text("py-procedures", rs, _procedures_body, str)


def _fight_body(rs: Ruleset) -> str:
    """fight.py after the header: made from the fight's shape (`shape.fight_shape`)."""
    return fight_module(rs, "")


def _procedures_body(rs: Ruleset) -> str:
    w = Writer()
    w.line(docstring(f"{rs.name}：结算流程 (procedures) of ruleset `{rs.id}`.\n\n"
                     "Each procedure NAME comes in four forms, all sharing `_NAME_setup` (the input checks and the\n"
                     "steps that need no dice):\n\n"
                     "* `NAME(...)` rolls with the given dice source (a seeded `SeededDice()` when none is given)\n"
                     "  and returns an immutable result with the outcome, every roll and a step-by-step trace\n"
                     "  in the rules' language;\n"
                     "* `NAME_fast(...)` returns only the outcome tuple (the fields of `NAME_FIELDS`);\n"
                     "* `NAME_prepare(...)` does the setup once and returns a function that rolls with a dice\n"
                     "  source and returns the outcome tuple (a `SeededDice` is rolled through its `random`\n"
                     "  directly: the same faces in the same order; with options at their defaults a variant\n"
                     "  folded for them is returned);\n"
                     "* `NAME_odds(...)` returns the exact outcome distribution without sampling."))
    w.line()
    w.line(Code("from __future__ import annotations"))
    w.line()
    w.line(Code(MARKER))
    if rs.dice.engine == "pool":
        d = rs.dice
        w.line()
        w.line(code("_POOL = PoolSpec({}, {}, {}, {}, {})", literal(d.setting("sides")), literal(d.setting("success_at")),
                    literal(d.setting("add_at")), string(str(d.setting("bot_prefix"))),
                    literal(d.setting("bot_default_add_at"))))
    if "initiative" in rs.features:
        w.line()
        w.line()
        with w.block(Code("def initiative_order(entries: Sequence[Tuple[str, int, int]], dice: Optional[DiceSource] = None"
                          ") -> Tuple[List[str], List[str]]")):
            w.line(docstring("先攻顺序：(name, dice, extras) entries -> (names in order, trace). Ties re-roll (R50)."))
            w.line(code("return _rt_initiative_order(entries, _POOL, _rt_dice_source(dice) if dice is not None "
                        "else SeededDice(), bool(_R_INITIATIVE_TIEBREAK_EXTRAS), max_dice={}, max_entries={}, "
                        "max_added={})", literal(d.limits["pool_dice"]), literal(d.limits["pool_rolls"]),
                        literal(d.limits["added_dice"])))
    for p in rs.procedures:
        write_procedure(rs, p, w)
    return with_imports(w.text(), _candidates(runtime_modules(rs)) + _model_names(rs) + _result_names(rs))


def _result_names(rs: Ruleset) -> list[tuple[str, str, str]]:
    names = []
    for p in rs.procedures:
        names += [camel(p.id) + "Result", f"{p.id.upper()}_FIELDS"]
    return [(".results", n, n) for n in names]


def _entry_table(e: object) -> str | None:
    """The table whose entry ids an outcome holds (`weapon.damage_type.id`), or None."""
    from ...ir import expr as ir

    if isinstance(e, ir.Attr) and e.field == "id":
        return ir.table_of(e.base.type)
    if isinstance(e, ir.Cond):
        return _entry_table(e.then) or _entry_table(e.orelse)
    return None


def results_module(rs: Ruleset, header: str) -> str:
    """results.py: each procedure's outcome fields and result type, and PROCEDURE_INFO."""
    return _header_lines(header) + kept_text("py-results", rs, _results_body, str)


def _results_body(rs: Ruleset) -> str:
    w = Writer()
    w.line(docstring(f"{rs.name}：结算结果 (the result types of the procedures, and their metadata) of ruleset "
                     f"`{rs.id}`."))
    w.line()
    w.line(Code("from __future__ import annotations"))
    w.line()
    w.line(Code(MARKER))
    w.line()
    w.line(comment("Every procedure's name and parameters (id, name, type) and outcome fields (id, name, type: int,"))
    w.line(comment("bool, str, or the table whose entry ids it holds), for tools that build calls from text and show"))
    w.line(comment("results in the rules' words (bots, VTT scripts)."))
    w.line(Code("PROCEDURE_INFO: Dict[str, Dict[str, Any]] = {"))
    w.indent()
    for p in rs.procedures:
        params = literal(tuple((x.id, x.name, x.type) for x in p.params))
        fields = literal(tuple((o.id, o.name, _entry_table(o.formula.expr) or o.formula.type) for o in p.result))
        w.line(code('{}: {{"name": {}, "params": {}, "fields": {}, "summary": {{"hit": {}, "damage": {}}}}},',
                    string(p.id), string(p.name), params, fields, literal(p.summary.hit), literal(p.summary.damage)))
    w.dedent()
    w.line(Code("}"))
    for p in rs.procedures:
        write_result(rs, p, w)
    return with_imports(w.text(), _candidates(["core"]))


def pyproject(rs: Ruleset) -> str:
    def toml(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    version = rs.version + (f"+{rs.pack_label}" if rs.pack_label else "")
    packs = f" with the packs {', '.join(rs.packs)}" if rs.packs else ""
    return "\n".join([
        "# Generated by rulec - do not edit.",
        "[build-system]",
        'requires = ["flit_core>=3.4,<4"]',
        'build-backend = "flit_core.buildapi"',
        "",
        "[project]",
        f"name = {toml('rulec-' + rs.id.replace('_', '-'))}",
        f"version = {toml(version)}",
        f"description = {toml(f'{rs.id}: combat resolvers compiled by rulec{packs} (standard library only)')}",
        'readme = "README.md"',
        'requires-python = ">=3.8"',
        "dependencies = []",
        "",
        "[tool.flit.module]",
        f"name = {toml(package_name(rs))}",
        "",
        "[tool.ruff]",
        'target-version = "py38"',
        "line-length = 120",
        "",
        "[tool.ruff.lint]",
        'select = ["E4", "E7", "E9", "F", "W", "B", "E501"]',
        "",
    ])


def init_module(rs: Ruleset, header: str) -> str:
    tables = table_order(rs.tables)
    version = rs.version + (f"+{rs.pack_label}" if rs.pack_label else "")
    view = {
        "header": [comment(line[2:]) for line in header.splitlines()],
        "docstring": docstring(f"{rs.name} ({rs.id}): combat resolvers compiled by rulec.\n\n"
                               "Standard library only. See README.md beside this package for the public API."),
        "tables": [{"cls": name(class_name(t.id)), "const": name(t.id.upper()), "getter": getter(t.id),
                    "index": name(f"{t.id.upper()}_BY_{t.index.upper()}") if t.index else None} for t in tables],
        "errors": [name(camel(e.id)) for e in rs.errors],
        "initiative": "initiative" in rs.features,
        "fight": rs.fight is not None,
        "procedures": [{"id": name(p.id), "fast": name(p.id + "_fast"), "odds": name(p.id + "_odds"),
                        "prepare": name(p.id + "_prepare"), "cls": name(camel(p.id) + "Result"),
                        "fields": name(p.id.upper() + "_FIELDS")} for p in rs.procedures],
        "version": string(version), "id": string(rs.id), "name": string(rs.name), "rules_version": string(rs.version),
        "packs": literal(rs.packs),
    }
    return render_python("package_init.py.j2", **view)


def readme(rs: Ruleset) -> str:
    pkg = package_name(rs)
    version = rs.version + (f"+{rs.pack_label}" if rs.pack_label else "")
    return render_markdown(
        "package_readme.md.j2", name=rs.name, id=rs.id, version=version, package=pkg,
        packs=Markdown("、".join(md_escape(p) for p in rs.packs)),
        example=Markdown(f"import {pkg}\nfrom {pkg} import Combatant, FixedDice, SeededDice"),
        procedures=[{"id": p.id, "name": p.name,
                     "fields": Markdown(", ".join(f"{md_code(o.id)} ({md_escape(o.name)})" for o in p.result))}
                    for p in rs.procedures],
        tables=[{"name": t.name, "cls": class_name(t.id), "const": t.id.upper(), "lookup": f"{getter(t.id)}(id_or_name)"}
                for t in table_order(rs.tables)],
        errors=[{"cls": camel(e.id), "name": e.name} for e in rs.errors], initiative="initiative" in rs.features,
        fight=rs.fight is not None)


def emit_package(rs: Ruleset, header: str) -> dict[str, str]:
    """{path relative to generated/<ruleset>/: text}. `header` (with the content hash) heads the
    `__init__.py`; every other module has it without the hash (`plain_header`)."""
    pkg = package_name(rs)
    init, plain = f"{pkg}/__init__.py", plain_header(header)
    model, rows = write_model(rs, plain)
    files = {
        init: init_module(rs, header),
        f"{pkg}/model.py": with_imports(model, _candidates(runtime_modules(rs))),
        f"{pkg}/procedures.py": procedures_module(rs, plain),
        f"{pkg}/results.py": results_module(rs, plain),
        f"{pkg}/py.typed": "",
        "pyproject.toml": pyproject(rs),
        "README.md": readme(rs),
    }
    if rs.fight is not None:
        files[f"{pkg}/fight.py"] = _header_lines(plain) + kept_text("py-fight", rs, _fight_body, str, fight_shape)
    files.update({f"{pkg}/{rel}": text for rel, text in rows.items()})  # large tables' rows, as JSON
    memo = current()
    for module in runtime_modules(rs):  # rulec's own sources: read once a build, kept by a resident one
        slot = memo.intern(("py-runtime", module), module)
        files[f"{pkg}/_runtime/{module}.py"] = memo.once("py-runtime", (slot,), partial(_runtime_source, module))
    for rel, text in files.items():
        if rel.endswith(".py") and not rel.startswith(f"{pkg}/_runtime/"):
            _check_compiles(rs, rel, text, header if rel == init else plain)
    return files


def _runtime_source(module: str) -> str:
    return (RUNTIME_DIR / f"{module}.py").read_text(encoding="utf-8")


def compiled(rs: Ruleset, rel: str, text: str) -> CodeType:
    """The code object of an emitted module, compiled once a build (the check below and the
    import that computes the pages' odds both need it). A resident build keeps it by the module's
    text after its opening comment lines and their number: every edit changes the header (the
    content hash), and compiling the unchanged rest again was a third of a rebuild after an edit.
    Comment lines make no code, and with as many of them the line numbers are the same."""
    memo = current()
    filename = f"generated/{rs.id}/{rel}"
    if not memo.resident:
        return memo.once("python-code", (text,), lambda: compile(text, filename, "exec", dont_inherit=True))
    lines, body = comment_head(text)
    name = memo.key("python-code", filename, str(lines), body)
    code = memo.load(name)
    if not isinstance(code, CodeType):
        code = compile(text, filename, "exec", dont_inherit=True)
        memo.save(name, code)
    return code


def comment_head(text: str) -> tuple[int, str]:
    """How many lines `text` opens with that are comments and nothing else (a `#`, then printable
    characters only: no line break Python would see, no form feed), and the text after them."""
    at, lines = 0, 0
    while text.startswith("#", at):
        end = text.find("\n", at)
        if end < 0 or not text[at:end].isprintable():
            break
        at, lines = end + 1, lines + 1
    return lines, text[at:]


def _check_compiles(rs: Ruleset, rel: str, text: str, header: str) -> None:
    """Every module compiles and every global name it reads is defined (resolved.py): else the
    build fails here, with a rulec bug, instead of a user's import or call. A module checked once
    need not be checked again. The header (comments only: the sources, and in `__init__.py` the
    content hash of every input) is left out of the key, so that adding or editing a rule file
    does not make every module look new.
    The runtime modules are verbatim copies of compiler/runtime/, which tests/test_package_loader.py
    checks the same way: they are not checked again in every build."""
    memo = current()
    checked = memo.key("compiles-resolves", text.replace(header, "", 1))
    if memo.load(checked) is True:
        return
    filename = f"generated/{rs.id}/{rel}"
    try:
        code = compiled(rs, rel, text)
    except (SyntaxError, ValueError) as exc:  # a compiler bug, reported against the manifest
        line = getattr(exc, "lineno", "?")
        raise RulesError([Diagnostic(rs.span, "internal", say("internal.generated-does-not-compile", rel=rel, exc=exc, line=line))]) from exc
    # The code object's instructions say whether it reads a name nothing defines; only then are
    # its symbol tables read, to name it and its line.
    missing = unresolved(text, filename) if reads_undefined(code) else []
    if missing:
        names = ", ".join(f"{n} (line {line})" for n, line in missing[:5])
        raise RulesError([Diagnostic(rs.span, "internal", say("internal.unresolved-python", rel=rel, names=names))])
    memo.save(checked, True)

