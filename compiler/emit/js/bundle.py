"""The code of one ruleset's JavaScript package, in its two forms: `index.js`, an ES module with
no dependencies, and `rulec_<ruleset>.user.js`, the same code as one ES2015 script with a
`// ==UserScript==` header defining one global object (SealDice loads a plugin as one script).

Both are one body of code (`body`): the runtime files the ruleset needs (compiler/runtime/js/,
`runtime_files`), then its model, procedures, PROCEDURE_INFO and fight; the module adds
`export {...}`, the script wraps the body in a function and returns the same names (`names`).
"""

from __future__ import annotations

from functools import partial

from ... import __version__
from ...diagnostics import Diagnostic, RulesError
from ...messages import say
from ...ir import Ruleset
from ...memo import current
from ...steps import kind_for
from ..python.model import by_columns
from ..python.package import _entry_table
from ..python.procedures import camel
from ..shape import fight_shape, kept_text
from .code import Js, Writer, comment, join, js, literal, meta, name, reread, require_js, source_file, string
from .model import exported, write_model
from .resolved import defined, names_of, undefined_in
from .fight import FIGHT_EXPORTS, FIGHT_RUNTIME, fight_js, initiative_js
from .procedures import split_params, write_procedure

RUNTIME_EXPORTS = ["RuleError", "DiceExhausted", "BadFace", "NotSpecifiedBySource", "OutOfBounds", "LimitExceeded",
                   "UnknownEntry", "DiceValue", "SeededDice", "FixedDice", "Odds", "TraceStep", "Result", "shown",
                   "pool_distribution", "close_match", "FrozenMap"]


def global_name(rs: Ruleset) -> str:
    return f"rulec_{rs.id}"


# The runtime every JavaScript module carries, in the order its top-level statements need.
CORE_RUNTIME = ("runtime.js", "sources.js", "engines.js", "odds.js", "calls.js")


def runtime_files(rs: Ruleset) -> list[str]:
    """The runtime files (compiler/runtime/js/) the module carries: the core every module has
    (`CORE_RUNTIME`, in this order), then those its step kinds declare (`StepKind.runtime_js`),
    geometry.js for its geometry helpers, columns.js for a table kept by column (emit/js/model.py),
    and the fight's."""
    extra = {f for p in rs.procedures for s in p.steps for f in kind_for(s).runtime_js}
    if any(h.module == "geometry" for h in rs.helpers):
        extra.add("geometry.js")
    if any(by_columns(t) for t in rs.tables):
        extra.add("columns.js")
    fight = FIGHT_RUNTIME if rs.fight is not None else []
    if "initiative" in rs.features:
        fight = [*fight, "initiative.js"]
    return [*CORE_RUNTIME, *sorted(extra - set(CORE_RUNTIME)), *fight]


def _runtime(rs: Ruleset) -> Js:
    """The runtime files' text, made once a build for each list of files (and kept by a resident
    build: they are rulec's own sources)."""
    memo = current()
    files = memo.intern(("js-runtime-files", rs.id), tuple(runtime_files(rs)))
    return memo.once("js-runtime", (files,), lambda: join("\n", [source_file(f) for f in files]))


def _undefined(runtime: Js, parts: tuple[Js, ...]) -> list[str]:
    """`resolved.undefined` of the code after the runtime (the model, then the parts made from the
    ruleset's shape), read part by part: a resident build reads again only the model, which it
    makes in every build (and does not keep: a big table's rows are megabytes), and the parts it
    made again (the procedures and the fight are kept while the shape is the same). Parts that do
    not end a line are read joined."""
    memo = current()
    known = memo.once("js-runtime-names", (runtime,), lambda: defined(runtime))
    if not all(p.endswith("\n") for p in parts[:-1]):
        return undefined_in([names_of("".join(parts))], known)
    model, *shaped = parts
    return undefined_in([names_of(model), *(memo.once("js-names", (p,), partial(names_of, p)) for p in shaped)], known)


def names(rs: Ruleset) -> list[str]:
    out = RUNTIME_EXPORTS + exported(rs) + ["PROCEDURE_INFO", "VERSION", "RULES_VERSION"]
    if rs.fight is not None:
        out += FIGHT_EXPORTS
    if "initiative" in rs.features:
        out.append("initiative_order")
    for p in rs.procedures:
        out += [p.id, f"{p.id}_fast", f"{p.id}_prepare", f"{p.id}_odds", f"{p.id.upper()}_FIELDS", camel(p.id) + "Result"]
    return out


def version(rs: Ruleset) -> str:
    return rs.version + (f"+{rs.pack_label}" if rs.pack_label else "")


def body(rs: Ruleset) -> Js:
    w = Writer()
    w.line(js("const VERSION = {};", string(version(rs))))
    w.line(js("const RULES_VERSION = {};", string(rs.version)))
    write_model(rs, w)
    model = w.text()
    del w  # its lines: a 100,000-weapon table's rows are held once, as the model's text (issue 20)
    fight = kept_text("js-fight", rs, fight_js, reread, fight_shape) if rs.fight is not None else Js("")
    if "initiative" in rs.features:
        fight = js("{}{}", fight, initiative_js(rs))
    runtime = _runtime(rs)
    procedures = kept_text("js-procedures", rs, _procedures, reread)
    missing = _undefined(runtime, (model, procedures, fight))
    generated = js("{}{}{}", model, require_js(procedures), fight)
    del model
    if missing:
        raise RulesError([Diagnostic(rs.span, "internal", say("internal.unresolved-js", id=rs.id,
                                                             files=", ".join(runtime_files(rs)),
                                                             missing=", ".join(missing[:5])))])
    return js("{}\n{}", runtime, generated)


def _procedures(rs: Ruleset) -> Js:
    """Everything after the model: the procedures and PROCEDURE_INFO (no entry reaches them)."""
    w = Writer()
    if rs.dice.engine == "pool":
        d = rs.dice
        w.line()
        w.line(js("const _POOL = new PoolSpec({}, {}, {}, {}, {});", literal(d.setting("sides")),
                  literal(d.setting("success_at")), literal(d.setting("add_at")), string(str(d.setting("bot_prefix"))),
                  literal(d.setting("bot_default_add_at"))))
    w.line()
    w.line(comment("---- procedures ----"))
    for p in rs.procedures:
        write_procedure(rs, p, w)
    w.line()
    w.line(comment("Every procedure's name and parameters ([id, name, type]) and outcome fields ([id, name, type: int,"))
    w.line(comment("bool, str, or the table whose entry ids it holds]), as the Python package's PROCEDURE_INFO."))
    w.line(Js("const PROCEDURE_INFO = Object.freeze({"))
    w.indent()
    for p in rs.procedures:
        params = literal([[x.id, x.name, x.type] for x in p.params])
        fields = literal([[o.id, o.name, _entry_table(o.formula.expr) or o.formula.type] for o in p.result])
        positional = literal([x.id for x in split_params(p)[0]])
        w.line(js("{}: {{name: {}, params: {}, positional: {}, fields: {}, summary: {{hit: {}, damage: {}}}}},",
                  string(p.id), string(p.name), params, positional, fields, literal(p.summary.hit),
                  literal(p.summary.damage)))
    w.dedent()
    w.line(Js("});"))
    return w.text()


def _header(header: str) -> Js:
    """The build header (its `# ` comment lines, made by build/outputs.py) as `//` comments: each
    line is text, quoted by `comment` like any other (a file name in it cannot end its comment)."""
    return join("\n", [comment(line[2:]) for line in header.splitlines()])


def module_js(rs: Ruleset, header: str, text: Js) -> Js:
    exports = join(",\n  ", _lines([name(n) for n in names(rs)]))
    about = comment(f"{rs.name}: the compiled rules of ruleset '{rs.id}', as an ES module with no dependencies.")
    return js("{}\n{}\n'use strict';\n\n{}\nexport {{\n  {},\n}};\n", _header(header), about, require_js(text), exports)


def script_js(rs: Ruleset, header: str, text: Js) -> Js:
    """The single-file script. SealDice (goja_nodejs `require`) wraps every script file in a
    CommonJS module function, so a top-level `var` would stay local to the file: the script sets
    its one global on the global object explicitly (`globalThis`, or the sloppy-mode `this` of an
    engine without it). A plugin names it in `// @depends rulec:<its @name>` so that SealDice
    loads it first. The body inside the function is the module's text as it is, not indented:
    the same code as index.js, and indenting the 2 MB of a 10,000-weapon table's rows again took
    13 ms of every rebuild (a bundler's IIFE body is not indented either)."""
    fields = [("name", global_name(rs)), ("author", "rulec"), ("version", version(rs)),
              ("description", f"{rs.name}（{rs.id}）：由 rulec {__version__} 从规则数据编译的结算模块；"
                              f"依赖它的插件声明 depends rulec:{global_name(rs)}"),
              ("license", "MIT"), ("timestamp", "0")]
    head = join("\n", [Js("// ==UserScript=="), *(meta(k, v) for k, v in fields), Js("// ==/UserScript==")])
    about = comment(f"{rs.name}: the same API as index.js, as one ES2015 script defining the global object "
                    f"{global_name(rs)} (on globalThis, so that it survives a CommonJS module wrapper).")
    items = join(",\n  ", _lines([js("{}: {}", name(n), name(n)) for n in names(rs)]))
    return js("{}\n{}\n{}\n(function (_rt_root) {{\n'use strict';\n\n{}\n_rt_root.{} = Object.freeze({{\n  {},\n"
              "}});\n}})(typeof globalThis !== 'undefined' ? globalThis : (function () {{ return this; }})());\n",
              head, _header(header), about, text, name(global_name(rs)), items)


def _lines(items: list[Js], width: int = 100) -> list[Js]:
    """Items packed into lines of about `width` columns, `, ` between them."""
    out: list[Js] = []
    line: list[Js] = []
    used = 0
    for item in items:
        if line and used + len(item) + 2 > width:
            out.append(join(", ", line))
            line, used = [], 0
        used += len(item) + (2 if line else 0)
        line.append(item)
    if line:
        out.append(join(", ", line))
    return out
