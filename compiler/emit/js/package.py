"""Emit one ruleset's JavaScript package: IR -> {path relative to generated/js/<ruleset>/: text}.

* `index.js`: an ES module with no dependencies (the runtime, compiler/runtime/js/, copied in);
* `index.d.ts`: its types; `package.json` (`type: module`, `exports`, the Python distribution's
  version with the same pack label); `README.md`: its API;
* `rulec_<ruleset>.user.js`: the same code as one ES2015 script with a `// ==UserScript==`
  header, defining one global object `rulec_<ruleset>` (SealDice loads a plugin as one script).

Both files are one body of code: the module adds `export {...}`, the script wraps the body in a
function and returns the same names.

Every JavaScript and TypeScript file is `Js` made through `code.py`'s quoting functions, free text
of the rules (the ruleset's name, the build header's file names) included: `emit_js` refuses one
that is not (`UnquotedValue`), so a plain string can never be written as code.
"""

from __future__ import annotations

import json

from ... import __version__
from ...diagnostics import Diagnostic, RulesError
from ...messages import say
from ...ir import Param, Ruleset
from ...steps import kind_for
from ...validate.scopes import class_name
from ..python.model import table_order
from ..python.package import _entry_table, content_hash, plain_header
from ..python.procedures import camel
from ..shape import kept_text
from ..env import md_code, md_escape
from .code import Js, UnquotedValue, Writer, comment, comment_text, indented, join, js, literal, meta, name, \
    property_name, require_js, source_file, string
from .model import exported, write_model
from .resolved import undefined
from .fight import FIGHT_EXPORTS, FIGHT_RUNTIME, INITIATIVE_DTS, fight_dts, fight_js, initiative_js
from .procedures import getter, split_params, write_procedure

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
    geometry.js for its geometry helpers, and the fight's."""
    extra = {f for p in rs.procedures for s in p.steps for f in kind_for(s).runtime_js}
    if any(h.module == "geometry" for h in rs.helpers):
        extra.add("geometry.js")
    fight = FIGHT_RUNTIME if rs.fight is not None else []
    if "initiative" in rs.features:
        fight = [*fight, "initiative.js"]
    return [*CORE_RUNTIME, *sorted(extra - set(CORE_RUNTIME)), *fight]


def _runtime(rs: Ruleset) -> Js:
    return join("\n", [source_file(f) for f in runtime_files(rs)])


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
    fight = fight_js(rs) if rs.fight is not None else Js("")
    if "initiative" in rs.features:
        fight = js("{}{}", fight, initiative_js(rs))
    runtime, generated = _runtime(rs), js("{}{}{}", w.text(), require_js(kept_text("js-procedures", rs,
                                                                                   _procedures)), fight)
    missing = undefined(generated, runtime)
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
    """The build header (its `# ` comment lines, made by facade.py) as `//` comments: each line is
    text, quoted by `comment` like any other (a file name in it cannot end its comment)."""
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
    loads it first."""
    fields = [("name", global_name(rs)), ("author", "rulec"), ("version", version(rs)),
              ("description", f"{rs.name}（{rs.id}）：由 rulec {__version__} 从规则数据编译的结算模块；"
                              f"依赖它的插件声明 depends rulec:{global_name(rs)}"),
              ("license", "MIT"), ("timestamp", "0")]
    head = join("\n", [Js("// ==UserScript=="), *(meta(k, v) for k, v in fields), Js("// ==/UserScript==")])
    about = comment(f"{rs.name}: the same API as index.js, as one ES2015 script defining the global object "
                    f"{global_name(rs)} (on globalThis, so that it survives a CommonJS module wrapper).")
    items = join(",\n    ", _lines([js("{}: {}", name(n), name(n)) for n in names(rs)]))
    return js("{}\n{}\n{}\n(function (_rt_root) {{\n  'use strict';\n{}\n  _rt_root.{} = Object.freeze({{\n    {},\n"
              "  }});\n}})(typeof globalThis !== 'undefined' ? globalThis : (function () {{ return this; }})());\n",
              head, _header(header), about, indented(text, "  "), name(global_name(rs)), items)


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


def package_json(rs: Ruleset, digest: str = "") -> str:
    """The package's manifest; `digest`, the content hash of the rules, is in this file only (the
    modules' headers leave it out: they change only with what they show)."""
    data: dict[str, object] = {
        "name": f"rulec-{rs.id.replace('_', '-')}",
        "version": version(rs),
        "description": f"{rs.name}: compiled combat rules (generated by rulec {__version__}; do not edit)",
        "type": "module",
        "main": "./index.js",
        "types": "./index.d.ts",
        "exports": {".": {"types": "./index.d.ts", "default": "./index.js"},
                    "./script": f"./{global_name(rs)}.user.js", "./package.json": "./package.json"},
        "files": ["index.js", "index.d.ts", f"{global_name(rs)}.user.js", "README.md"],
        "license": "MIT",
        "sideEffects": False,
    }
    if digest:
        data["rulec"] = {"contentHash": digest}
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


_TS = {"int": Js("number"), "bool": Js("boolean"), "str": Js("string")}
_TS_FIELD = {"int": Js("number"), "bool": Js("boolean"), "text": Js("string"), "enum": Js("string"),
             "enum_list": Js("ReadonlyArray<string>"), "dice": Js("DiceValue | null"),
             "formula": Js("(...args: any[]) => any")}
_DTS_RUNTIME = [
    Js("export interface DiceSource { die(sides: number): number; }"),
    Js("export class SeededDice implements DiceSource { constructor(seed?: number | bigint | string); "
       "die(sides: number): number; "
       "random(): number; }"),
    Js("export class FixedDice implements DiceSource { constructor(faces: Iterable<number>); die(sides: number): "
       "number; readonly remaining: number; }"),
    Js("export class DiceValue { readonly text: string; readonly terms: ReadonlyArray<[number, number]>; "
       "readonly flat: number; }"),
    Js("export class RuleError extends Error { readonly code: string; readonly details: Record<string, unknown>; "
       "toDict(): {error: string; message: string; details: Record<string, unknown>}; "
       "toJSON(): {error: string; message: string; details: Record<string, unknown>}; }"),
]
_DTS_RUNTIME_REST = [
    Js("export class TraceStep { readonly kind: string; readonly text: string; "
       "readonly values: ReadonlyArray<[string, unknown]>; toDict(): {kind: string; text: string; values: "
       "Record<string, unknown>}; toJSON(): ReturnType<TraceStep['toDict']>; }"),
    Js("export class Result { readonly rolls: ReadonlyArray<{toDict(): Record<string, unknown>}>; "
       "readonly trace: ReadonlyArray<TraceStep>; outcome(): unknown[]; text(gm?: boolean): string; "
       "toDict(): Record<string, unknown>; toJSON(): Record<string, unknown>; }"),
    Js("export class Odds { readonly fields: ReadonlyArray<string>; readonly outcomes: ReadonlyArray<[unknown[], "
       "number]>; readonly dropped: number; readonly hit_probability: number; readonly expected_damage: number; "
       "total(): number; probability(where: Record<string, unknown>): number; marginal(field: string): "
       "Map<unknown, number>; expected(field: string): number; toDict(): Record<string, unknown>; "
       "toJSON(): Record<string, unknown>; }"),
    Js("export function shown(value: unknown, table?: ReadonlyMap<string, {name: string}>): string;"),
    Js("export function close_match(key: string, names: Iterable<string>): string | null;"),
    Js("export class FrozenMap<K, V> implements ReadonlyMap<K, V> { constructor(entries?: Iterable<readonly [K, V]>); "
       "readonly size: number; get(key: K): V | undefined; has(key: K): boolean; keys(): IterableIterator<K>; "
       "values(): IterableIterator<V>; entries(): IterableIterator<[K, V]>; forEach(fn: (value: V, key: K, map: "
       "ReadonlyMap<K, V>) => void, thisArg?: unknown): void; [Symbol.iterator](): IterableIterator<[K, V]>; "
       "toJSON(): Record<string, V>; }"),
    Js("export function pool_distribution(dice: number, sides: number, success_at: number, add_at: number, "
       "cached?: boolean): {readonly probs: number[]; readonly dropped: number; mean(): number};"),
    Js("export const VERSION: string;"), Js("export const RULES_VERSION: string;"),
    Js("export const RULINGS: Readonly<Record<string, number | boolean>>;"),
    Js("export const STAT_NAMES: Readonly<Record<string, string>>;"),
    Js("export const PROCEDURE_INFO: Readonly<Record<string, {name: string; params: [string, string, string][]; "
       "positional: string[]; fields: [string, string, string][]; summary: {hit: string | null; "
       "damage: string | null}}>>;"),
]
_ENTRY_MEMBERS = [Js("readonly id: string"), Js("readonly name: string"), Js("readonly description: string"),
                  Js("readonly rules: ReadonlyArray<string>"), Js("readonly not_specified: string | null"),
                  Js("readonly given: boolean")]


def _ts(prm: Param) -> Js:
    """A parameter's TypeScript type."""
    if prm.type in ("int", "bool"):
        return _TS[prm.type]
    if prm.type == "combatant":
        return Js("Combatant")
    entry = js("{} | string", name(class_name(prm.type)))
    return js("{} | null", entry) if prm.optional else entry


def _required(prm: Param) -> bool:
    """An option the call must give: no default, and not an entry that may be left out."""
    return prm.default is None and not (prm.type not in ("int", "bool") and prm.optional)


def _members(parts: list[Js]) -> Js:
    """`a; b; ...; ` for the members or options of a type (nothing when there are none)."""
    return js("{}; ", join("; ", parts)) if parts else Js("")


def dts(rs: Ruleset) -> Js:
    w: list[Js] = [js("// Types of the {} module (generated by rulec; do not edit).", comment_text(repr(rs.id)))]
    w += _DTS_RUNTIME
    w += [js("export class {} extends RuleError {{}}", name(e)) for e in RUNTIME_EXPORTS[1:7]]
    w += _DTS_RUNTIME_REST
    w.append(js("export interface Stats {{ {} }}", join("; ", [js("{}?: {}", property_name(s.id), _TS[s.type])
                                                              for s in rs.stats])))
    fields = join("; ", [js("readonly {}: {}", property_name(s.id), _TS[s.type]) for s in rs.stats])
    w.append(js("export class Combatant {{ constructor(stats?: Stats); static fromDict(data: Record<string, number | "
                "boolean>): Combatant; toDict(): Required<Stats>; toJSON(): Required<Stats>; {}; }}", fields))
    for t in table_order(rs.tables):
        cls = name(class_name(t.id))
        members = _ENTRY_MEMBERS + [
            js("readonly {}: {}", property_name(f.id), name(class_name(f.table or "")) if f.type == "ref"
               else _TS_FIELD[f.type]) for f in t.fields]
        w.append(js("export class {} {{ {}; toDict(): Record<string, unknown>; toJSON(): Record<string, unknown>; }}",
                    cls, join("; ", members)))
        w.append(js("export const {}: FrozenMap<string, {}>;", name(t.id.upper()), cls))
        w.append(js("export function {}(key: {} | string): {};", getter(t.id), cls, cls))
        if t.index:
            w.append(js("export const {}: FrozenMap<unknown, {}>;", name(f"{t.id.upper()}_BY_{t.index.upper()}"),
                        cls))
    for e in rs.errors:
        w.append(js("export class {} extends RuleError {{}}", name("".join(p.capitalize() for p in e.id.split("_")))))
    for p in rs.procedures:
        cls = name(camel(p.id) + "Result")
        out_fields = join("; ", [js("readonly {}: {}", property_name(o.id), _TS[o.formula.type]) for o in p.result])
        w.append(js("export class {} extends Result {{ {}; }}", cls, out_fields))
        w.append(js("export const {}: ReadonlyArray<string>;", name(f"{p.id.upper()}_FIELDS")))
        positional, options = split_params(p)
        args = [js("{}?: {}", name(x.id), _ts(x)) if x.default is not None else js("{}: {}", name(x.id), _ts(x))
                for x in positional]
        # The fast form's options (its dice) are required: a defaulted parameter before them is `| undefined`.
        fast_args = [js("{}: {} | undefined", name(x.id), _ts(x)) if x.default is not None
                     else js("{}: {}", name(x.id), _ts(x)) for x in positional]
        # An option without a default (Python's keyword-only parameter without one) is required,
        # and so is the options object that holds it.
        members = [js("{}: {}", name(x.id), _ts(x)) if _required(x) else js("{}?: {}", name(x.id), _ts(x))
                   for x in options]
        opts = _members(members)
        if any(_required(x) for x in options):  # a defaulted positional before a required options object
            args = fast_args
        lead = js("{}, ", join(", ", args)) if args else Js("")
        fast_lead = js("{}, ", join(", ", fast_args)) if fast_args else Js("")
        opts_only = join("; ", members)
        given = Js("options") if any(_required(x) for x in options) else Js("options?")
        out = js("[{}]", join(", ", [_TS[o.formula.type] for o in p.result]))
        pid = name(p.id)
        w.append(js("export function {}({}{}: {{{}dice?: DiceSource}}): {};", pid, lead, given, opts, cls))
        w.append(js("export function {}_fast({}options: {{{}dice: DiceSource}}): {};", pid, fast_lead, opts, out))
        w.append(js("export function {}_prepare({}{}: {{{}}}): (dice: DiceSource) => {};", pid, lead, given,
                    opts_only, out))
        w.append(js("export function {}_odds({}{}: {{{}}}): Odds;", pid, lead, given, opts_only))
    if rs.fight is not None:
        w += fight_dts(rs)
    if "initiative" in rs.features:
        w.append(INITIATIVE_DTS)
    return js("{}\n", join("\n", w))


def _example_arg(rs: Ruleset, prm: Param, combatants: list[str]) -> str:
    """A JavaScript argument for the README's example call (ids only: no free text reaches it)."""
    ptype = prm.type
    if ptype == "combatant":
        combatants.append("b" if combatants else "a")
        return combatants[-1]
    if ptype in ("int", "bool"):
        default = prm.default
        return json.dumps(default if default is not None else 0 if ptype == "int" else False)
    table = next((t for t in rs.tables if t.id == ptype), None)
    return json.dumps(table.entries[0].id if table is not None and table.entries else "")


def readme(rs: Ruleset) -> str:
    """The package's README: its files, an example call and the API (rule text escaped as Markdown)."""
    example = ""
    first = rs.procedures[0] if rs.procedures else None
    if first is not None:
        combatants: list[str] = []
        args = ", ".join(_example_arg(rs, x, combatants) for x in split_params(first)[0])
        comma = ", " if args else ""
        example = (f"import {{ Combatant, SeededDice, {first.id}, {first.id}_odds }} from \"./index.js\";\n\n"
                   f"const a = new Combatant(), b = new Combatant();\n"
                   f"const r = {first.id}({args}{comma}{{dice: new SeededDice(1)}});\n"
                   "console.log(r.text());                    // the trace, in the rules' language\n"
                   "console.log(JSON.stringify(r.toDict()));  // plain JSON, as the Python package's to_dict()\n"
                   f"const odds = {first.id}_odds({args});\n"
                   "console.log(odds.hit_probability, odds.expected_damage);\n")
    rows = "\n".join(f"| {md_code(p.id)} | {md_escape(p.name)} | "
                      + ", ".join(md_code(x.id) for x in split_params(p)[0]) + " | "
                      + ", ".join(md_code(x.id) for x in split_params(p)[1]) + " |" for p in rs.procedures)
    return f"""# {global_name(rs)} (JavaScript) — {md_escape(rs.name)}

Generated by rulec {__version__} from the rules of {md_code(rs.id)}; do not edit. The same
procedures, tables, rulings, errors, dice sources and trace sentences as the Python package
{md_code('rulec_' + rs.id)} (version {md_code(version(rs))}), from the same compiled rules, with no dependencies.

- `index.js`: an ES module, typed by `index.d.ts`;
- `{global_name(rs)}.user.js`: the same API as one ES2015 script (SealDice plugins, userscripts),
  defining the global object `{global_name(rs)}`.

```js
{example}```

## API

Every procedure `NAME` comes in four forms. Its leading parameters are positional; the rest
(the Python package's keyword-only parameters) and `dice` go in a last options object.

| form | what it does |
|---|---|
| `NAME(..., {{dice}})` | checks the inputs (entries by id, Chinese name or object), rolls, returns a frozen result: the outcome fields, `rolls`, `trace`, `outcome()`, `text(gm)`, `toDict()` |
| `NAME_fast(..., {{dice}})` | the outcome array only (fields in `NAME_FIELDS`) |
| `NAME_prepare(...)` | the checks and setup once; returns `dice => outcome array` |
| `NAME_odds(...)` | the exact distribution: `hit_probability`, `expected_damage`, `marginal(field)`, `probability({{field: value}})`, `dropped` |

| procedure | name | positional | options |
|---|---|---|---|
{rows}

Dice: `new SeededDice(seed)` draws from a Mersenne Twister seeded exactly as Python's
`random.Random(seed)`, so a seed gives the same faces as the Python package's `SeededDice(seed)`
(a seed above 2^53, such as a QQ id, as a BigInt or its decimal digits: `new SeededDice('863713211934855000')`);
`new FixedDice([...])` replays faces in the documented order and throws `DiceExhausted` when they
run out. Errors are `RuleError` subclasses with a stable `code` and a message in the rules'
language (`err.toDict()`; `code`, `message` and `details` are own properties, and
`JSON.stringify(err)` is `toDict()`, as for every object with a `toDict`). Tables are read-only
maps (`set`, `delete` and `clear` throw). CommonJS: `const m = await import("{'rulec-' + rs.id.replace('_', '-')}")`;
the script `{global_name(rs)}.user.js` sets `globalThis.{global_name(rs)}`. `PROCEDURE_INFO` describes every procedure's parameters and outcome
fields with their Chinese names, for tools that build calls from chat text.

The fight (as the Python package's `start_fight`): `start_fight({{甲: a, 乙: b}})` returns an
immutable `Fight`; `fight.resolve(procedure, {{role: name}}, {{options, dice}})` an action,
`fight.apply(action)` / `fight.act(...)` / `fight.next_turn()` a new fight, with the same log,
`status(name)`, errors (`Refused` for an action a condition forbids) and bounds; `fight.toDict()`
is the Python package's `to_dict()`, read back (checked) by `fight_from_dict` / `fightFromDict`;
`until(...)` and `fight.until_state(...)` give the exact odds of a sequence of actions.
"""


def emit_js(rs: Ruleset, header: str) -> dict[str, str]:
    text, plain = body(rs), plain_header(header)
    return checked({
        "index.js": module_js(rs, plain, text),
        f"{global_name(rs)}.user.js": script_js(rs, plain, text),
        "index.d.ts": dts(rs),
        "package.json": package_json(rs, content_hash(header)),
        "README.md": readme(rs),
    })


CODE_SUFFIXES = (".js", ".mjs", ".cjs", ".ts")


def checked(files: dict[str, str]) -> dict[str, str]:
    """`files`, once every JavaScript or TypeScript file among them is known to be `Js` (made by
    the quoting functions of code.py, never a plain string): else the build fails here, with a
    rulec bug, rather than write code that free text could have reached."""
    for rel, text in files.items():
        if rel.endswith(CODE_SUFFIXES) and not isinstance(text, Js):
            raise UnquotedValue(f"generated {rel} was not made by the JavaScript quoting path (emit/js/code.py)")
    return files


__all__ = ["checked", "emit_js", "global_name", "join", "name"]
