"""The TypeScript types of one ruleset's JavaScript package (`index.d.ts`): the runtime's
classes and functions, the ruleset's stats and combatant, each table's entry class and map,
its errors, each procedure's result class and its four forms, and the fight's types.
"""

from __future__ import annotations

from ...ir import Param, Ruleset
from ...validate.scopes import class_name
from ..python.model import table_order
from ..python.procedures import camel
from .bundle import RUNTIME_EXPORTS
from .code import Js, comment_text, join, js, name, property_name
from .fight import INITIATIVE_DTS, fight_dts
from .procedures import getter, split_params

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
