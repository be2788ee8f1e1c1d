"""Emit one ruleset's JavaScript package: IR -> {path relative to generated/js/<ruleset>/: text}.

* `index.js`: an ES module with no dependencies (the runtime, compiler/runtime/js/, copied in);
* `index.d.ts`: its types; `package.json` (`type: module`, `exports`, the Python distribution's
  version with the same pack label); `README.md`: its API;
* `rulec_<ruleset>.user.js`: the same code as one ES2015 script with a `// ==UserScript==`
  header, defining one global object `rulec_<ruleset>` (SealDice loads a plugin as one script).

Both files are one body of code: the module adds `export {...}`, the script wraps the body in a
function and returns the same names.
"""

from __future__ import annotations

import json
from pathlib import Path

from ... import __version__
from ...keep import NO_KEEP, Keep
from ...ir import Param, Ruleset
from ...validate.scopes import class_name
from ..python.model import table_order
from ..python.package import _entry_table
from ..python.procedures import camel
from ..shape import kept_text
from ..env import md_code, md_escape
from .code import Js, Writer, comment, join, js, literal, name, string
from .model import exported, write_model
from .procedures import getter, split_params, write_procedure

RUNTIME_DIR = Path(__file__).resolve().parent.parent.parent / "runtime" / "js"
RUNTIME_EXPORTS = ["RuleError", "DiceExhausted", "BadFace", "NotSpecifiedBySource", "OutOfBounds", "LimitExceeded",
                   "UnknownEntry", "DiceValue", "SeededDice", "FixedDice", "Odds", "TraceStep", "Result", "shown",
                   "pool_distribution"]


def global_name(rs: Ruleset) -> str:
    return f"rulec_{rs.id}"


def _runtime(rs: Ruleset) -> str:
    text = (RUNTIME_DIR / "runtime.js").read_text(encoding="utf-8").replace("'use strict';\n", "", 1)
    if any(h.module == "geometry" for h in rs.helpers):
        text += "\n" + (RUNTIME_DIR / "geometry.js").read_text(encoding="utf-8")
    return text


def names(rs: Ruleset) -> list[str]:
    out = RUNTIME_EXPORTS + exported(rs) + ["PROCEDURE_INFO", "VERSION", "RULES_VERSION"]
    for p in rs.procedures:
        out += [p.id, f"{p.id}_fast", f"{p.id}_prepare", f"{p.id}_odds", f"{p.id.upper()}_FIELDS", camel(p.id) + "Result"]
    return out


def version(rs: Ruleset) -> str:
    return rs.version + (f"+{rs.pack_label}" if rs.pack_label else "")


def body(rs: Ruleset, keep: Keep = NO_KEEP) -> str:
    w = Writer()
    w.line(js("const VERSION = {};", string(version(rs))))
    w.line(js("const RULES_VERSION = {};", string(rs.version)))
    write_model(rs, w, keep)
    return _runtime(rs) + "\n" + w.text() + kept_text(keep, "js-procedures", rs, _procedures)


def _procedures(rs: Ruleset) -> str:
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


def _header(rs: Ruleset, header: str) -> str:
    return "\n".join("// " + line[2:] if line.startswith("# ") else "//" + line[1:] for line in header.splitlines())


def module_js(rs: Ruleset, header: str, text: str) -> str:
    exports = ",\n  ".join(_lines(names(rs)))
    return (f"{_header(rs, header)}\n// {rs.name}: the compiled rules of ruleset '{rs.id}', as an ES module with no "
            f"dependencies.\n'use strict';\n\n{text}\nexport {{\n  {exports},\n}};\n")


def script_js(rs: Ruleset, header: str, text: str) -> str:
    meta = [("name", global_name(rs)), ("author", "rulec"), ("version", version(rs)),
            ("description", f"{rs.name}（{rs.id}）：由 rulec {__version__} 从规则数据编译的结算模块"),
            ("license", "MIT"), ("timestamp", "0")]
    head = ["// ==UserScript=="] + [f"// @{k:<12}{_one_line(v)}" for k, v in meta] + ["// ==/UserScript=="]
    body_text = "\n".join(["  " + line if line else line for line in text.splitlines()])
    items = ",\n    ".join(_lines([f"{n}: {n}" for n in names(rs)]))
    return "\n".join(head) + "\n" + _header(rs, header) + "\n" + (
        f"// {rs.name}: the same API as index.js, as one ES2015 script defining the global object {global_name(rs)}.\n"
        f"var {global_name(rs)} = (function () {{\n  'use strict';\n{body_text}\n  return Object.freeze({{\n    {items},\n"
        f"  }});\n}})();\n")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _lines(items: list[str], width: int = 100) -> list[str]:
    out: list[str] = []
    line = ""
    for item in items:
        if line and len(line) + len(item) + 2 > width:
            out.append(line)
            line = item
        else:
            line = f"{line}, {item}" if line else item
    if line:
        out.append(line)
    return out


def package_json(rs: Ruleset) -> str:
    data = {
        "name": f"rulec-{rs.id.replace('_', '-')}",
        "version": version(rs),
        "description": f"{rs.name}: compiled combat rules (generated by rulec {__version__}; do not edit)",
        "type": "module",
        "main": "./index.js",
        "types": "./index.d.ts",
        "exports": {".": {"types": "./index.d.ts", "default": "./index.js"},
                    "./script": f"./{global_name(rs)}.user.js"},
        "files": ["index.js", "index.d.ts", f"{global_name(rs)}.user.js", "README.md"],
        "license": "MIT",
        "sideEffects": False,
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


_TS = {"int": "number", "bool": "boolean", "str": "string"}


def dts(rs: Ruleset) -> str:
    w: list[str] = [f"// Types of the '{rs.id}' module (generated by rulec; do not edit)."]
    w += ["export interface DiceSource { die(sides: number): number; }",
          "export class SeededDice implements DiceSource { constructor(seed?: number); die(sides: number): number; "
          "random(): number; }",
          "export class FixedDice implements DiceSource { constructor(faces: Iterable<number>); die(sides: number): "
          "number; readonly remaining: number; }",
          "export class DiceValue { readonly text: string; readonly terms: ReadonlyArray<[number, number]>; "
          "readonly flat: number; }",
          "export class RuleError extends Error { readonly code: string; readonly details: Record<string, unknown>; "
          "toDict(): {error: string; message: string; details: Record<string, unknown>}; }",
          *[f"export class {e} extends RuleError {{}}" for e in RUNTIME_EXPORTS[1:7]],
          "export class TraceStep { readonly kind: string; readonly text: string; "
          "readonly values: ReadonlyArray<[string, unknown]>; toDict(): {kind: string; text: string; values: "
          "Record<string, unknown>}; }",
          "export class Result { readonly rolls: ReadonlyArray<{toDict(): Record<string, unknown>}>; "
          "readonly trace: ReadonlyArray<TraceStep>; outcome(): unknown[]; text(gm?: boolean): string; "
          "toDict(): Record<string, unknown>; }",
          "export class Odds { readonly fields: ReadonlyArray<string>; readonly outcomes: ReadonlyArray<[unknown[], "
          "number]>; readonly dropped: number; readonly hit_probability: number; readonly expected_damage: number; "
          "total(): number; probability(where: Record<string, unknown>): number; marginal(field: string): "
          "Map<unknown, number>; expected(field: string): number; toDict(): Record<string, unknown>; }",
          "export function shown(value: unknown, table?: Map<string, {name: string}>): string;",
          "export function pool_distribution(dice: number, sides: number, success_at: number, add_at: number, "
          "cached?: boolean): {readonly probs: number[]; readonly dropped: number; mean(): number};",
          "export const VERSION: string;", "export const RULES_VERSION: string;",
          "export const RULINGS: Readonly<Record<string, number | boolean>>;",
          "export const STAT_NAMES: Readonly<Record<string, string>>;",
          "export const PROCEDURE_INFO: Readonly<Record<string, {name: string; params: [string, string, string][]; "
          "positional: string[]; fields: [string, string, string][]; summary: {hit: string | null; "
          "damage: string | null}}>>;"]
    stats = "; ".join(f"{s.id}?: {_TS[s.type]}" for s in rs.stats)
    w.append(f"export interface Stats {{ {stats} }}")
    fields = "; ".join(f"readonly {s.id}: {_TS[s.type]}" for s in rs.stats)
    w.append(f"export class Combatant {{ constructor(stats?: Stats); static fromDict(data: Record<string, number | "
             f"boolean>): Combatant; toDict(): Required<Stats>; {fields}; }}")
    ts_field = {"int": "number", "bool": "boolean", "text": "string", "enum": "string",
                "enum_list": "ReadonlyArray<string>", "dice": "DiceValue | null", "formula": "(...args: any[]) => any"}
    for t in table_order(rs.tables):
        cls = class_name(t.id)
        members = ["readonly id: string", "readonly name: string", "readonly description: string",
                   "readonly rules: ReadonlyArray<string>", "readonly not_specified: string | null",
                   "readonly given: boolean"]
        members += [f"readonly {f.id}: {class_name(f.table or '') if f.type == 'ref' else ts_field[f.type]}"
                    for f in t.fields]
        w.append(f"export class {cls} {{ {'; '.join(members)}; toDict(): Record<string, unknown>; }}")
        w.append(f"export const {t.id.upper()}: ReadonlyMap<string, {cls}>;")
        w.append(f"export function {getter(t.id)}(key: {cls} | string): {cls};")
        if t.index:
            w.append(f"export const {t.id.upper()}_BY_{t.index.upper()}: ReadonlyMap<unknown, {cls}>;")
    for e in rs.errors:
        w.append(f"export class {''.join(p.capitalize() for p in e.id.split('_'))} extends RuleError {{}}")
    for p in rs.procedures:
        cls = camel(p.id) + "Result"
        out_fields = "; ".join(f"readonly {o.id}: {_TS[o.formula.type]}" for o in p.result)
        w.append(f"export class {cls} extends Result {{ {out_fields}; }}")
        w.append(f"export const {p.id.upper()}_FIELDS: ReadonlyArray<string>;")
        positional, options = split_params(p)

        def ts(prm: Param) -> str:
            t = prm.type
            if t in ("int", "bool"):
                return _TS[t]
            if t == "combatant":
                return "Combatant"
            return f"{class_name(t)} | string" + (" | null" if prm.optional else "")

        args = ", ".join(f"{x.id}{'?' if x.default is not None else ''}: {ts(x)}" for x in positional)
        # The fast form's options (its dice) are required: a defaulted parameter before them is `| undefined`.
        fast_args = ", ".join(f"{x.id}: {ts(x)}{' | undefined' if x.default is not None else ''}" for x in positional)
        opts = "; ".join(f"{x.id}?: {ts(x)}" for x in options)
        sep = ", " if args else ""
        out = "[" + ", ".join(_TS[o.formula.type] for o in p.result) + "]"
        w.append(f"export function {p.id}({args}{sep}options?: {{{opts}{'; ' if opts else ''}dice?: DiceSource}}): "
                 f"{cls};")
        w.append(f"export function {p.id}_fast({fast_args}{sep}options: {{{opts}{'; ' if opts else ''}dice: DiceSource}}): "
                 f"{out};")
        w.append(f"export function {p.id}_prepare({args}{sep}options?: {{{opts}}}): (dice: DiceSource) => {out};")
        w.append(f"export function {p.id}_odds({args}{sep}options?: {{{opts}}}): Odds;")
    return "\n".join(w) + "\n"


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
`random.Random(seed)`, so a seed gives the same faces as the Python package's `SeededDice(seed)`;
`new FixedDice([...])` replays faces in the documented order and throws `DiceExhausted` when they
run out. Errors are `RuleError` subclasses with a stable `code` and a message in the rules'
language (`err.toDict()`). `PROCEDURE_INFO` describes every procedure's parameters and outcome
fields with their Chinese names, for tools that build calls from chat text. Not in this module
yet: the fight state (`start_fight`, `until`) and `initiative_order` of the Python package.
"""


def emit_js(rs: Ruleset, header: str, keep: Keep = NO_KEEP) -> dict[str, str]:
    text = body(rs, keep)
    return {
        "index.js": module_js(rs, header, text),
        f"{global_name(rs)}.user.js": script_js(rs, header, text),
        "index.d.ts": dts(rs),
        "package.json": package_json(rs),
        "README.md": readme(rs),
    }


__all__ = ["emit_js", "global_name", "join", "name"]
