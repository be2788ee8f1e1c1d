"""The fight of a JavaScript package: the ruleset's fight data (the same data the Python package's
fight.py holds, from the same IR through emit/fight_data.py) passed to the runtime interpreter
(compiler/runtime/js/fight*.js), plus the entry points `start_fight`, `fight_from_dict` (also
`fightFromDict`), `until`, `state_threshold`.

Every value reaches the module through code.py (names, strings and literals only); procedures are
named, never written here.
"""

from __future__ import annotations

from ...ir import Ruleset
from ..fight_data import check_uses, debuff_index, fight_actions, lowered_max, outcome_index, points_range, \
    procedure, state_index, state_spared, state_stats, track_inputs, track_states
from .code import Js, Writer, comment, join, js, literal, name, string
from .procedures import split_params
from .ts_types import param_type, required

FIGHT_RUNTIME = ["fight_state.js", "fight_rules.js", "fight.js", "fight_apply.js", "fight_shown.js", "fight_budget.js",
                 "fight_carried.js", "fight_events.js", "fight_odds.js", "fight_plan.js", "fight_resources.js"]
FIGHT_EXPORTS = ["Fight", "FightAction", "Refused", "UntilOdds", "attacks_until", "chain_until", "expected_attacks",
                 "MAX_ATTACKS", "MAX_CHAIN_WORK", "MAX_THRESHOLD", "MAX_LOG", "MAX_LOG_LINE", "MAX_MEMBERS",
                 "MAX_MODIFIERS", "MAX_CONDITIONS", "MAX_NAME", "MAX_TURN", "MAX_VALUE", "MAX_PLAN_STEPS",
                 "MAX_PLAN_STATES", "MAX_PLAN_WORK", "MAX_PLAN_MOVES", "FIGHT_RULES", "start_fight", "fight_from_dict", "fightFromDict",
                 "until", "state_threshold"]


def _pairs(pairs: list[tuple[str, object]]) -> Js:
    """`[[key, value], ...]` of plain data."""
    return literal([[k, v] for k, v in pairs])


def _positional(rs: Ruleset, proc_id: str) -> Js:
    return literal([x.id for x in split_params(procedure(rs, proc_id))[0]])


def _actions(rs: Ruleset, w: Writer) -> None:
    w.line(Js("actions: ["))
    w.indent()
    for p, roles, subject in fight_actions(rs):
        effects = literal([[e.kind, e.role, e.key, e.field, e.sign, e.duration, e.when, e.other] for e in p.effects])
        params = _pairs([(q.id, q.name) for q in p.params if q.type != "combatant"])
        # the parameters without a default (Python's call without one is a TypeError: the fight's bad_options)
        required = [q.id for q in p.params if q.type != "combatant" and q.default is None
                    and not (q.type not in ("int", "bool") and q.optional)]
        w.line(js("[{}, {{name: {}, call: {}, positional: {}, roles: {}, effects: {}, odds: {}, params: {}, "
                  "action: {}, nature: {}, subject: {}, checks: {}, required: {}{}}}],", string(p.id), string(p.name),
                  name(p.id), _positional(rs, p.id), literal(roles), effects, name(p.id + "_odds"), params,
                  literal(p.action[0]), literal(p.action[1]), literal(subject), literal(check_uses(rs, p)),
                  literal(required), join("", [js(", action_from: {}", literal(p.action_from)) if p.action_from else Js(""),
                                               js(", costs: {}", _pairs(list(p.costs))) if p.costs else Js("")])))
    w.dedent()
    w.line(Js("],"))


def _conditions(rs: Ruleset, w: Writer) -> None:
    spec = rs.fight
    assert spec is not None
    w.line(comment("Each condition: [name, sets, adds, options, applies, forbids, forbids_actions, ends, max_value,"))
    w.line(comment("stack, rules, as_states, then, turn_pools], as the Python package's ConditionSpec."))
    w.line(Js("conditions: ["))
    w.indent()
    for c in spec.conditions:
        w.line(js("[{}, {}],", string(c.id), literal([c.name, c.sets, c.adds, c.options, c.applies, c.forbids,
                                                       c.forbids_actions, c.ends, c.max_value, c.stack, c.rules,
                                                       c.as_states, c.then, c.turn_pools])))
    w.dedent()
    w.line(Js("],"))
    names = dict(spec.relations)
    w.line(js("relation_specs: {},", literal([[r.id, [names[r.id], r.held, r.holder, r.ends_holder, r.ends_held,
                                                      r.clears, *([r.ends_if_held_by] if r.ends_if_held_by else [])]]
                                              for r in spec.relation_rules])))


def fight_js(rs: Ruleset) -> Js:
    """The fight's data and entry points (after the procedures, whose functions it names)."""
    spec = rs.fight
    assert spec is not None
    w = Writer()
    w.line()
    w.line(comment("---- the fight (the Python package's fight.py): the ruleset's fight data for the runtime ----"))
    w.line(Js("const FIGHT_RULES = _rt_fight_rules({"))
    w.indent()
    ints = [s for s in rs.stats if s.type == "int"]
    w.line(js("combatant: Combatant, stat_count: {},", literal(len(rs.stats))))
    w.line(js("stats: {},", _pairs([(s.id, [s.name, s.min, s.max]) for s in ints])))
    w.line(js("counters: {},", _pairs(list(spec.counters))))
    tracks = rs.table(spec.tracks).entries if spec.tracks else ()
    w.line(js("tracks: {},", _pairs([(e.id, e.name) for e in tracks])))
    accumulate = (js("[{}, {}]", name(spec.accumulate + "_fast"), _positional(rs, spec.accumulate))
                  if spec.accumulate else Js("null"))
    w.line(js("accumulate: {}, state_index: {}, debuff_index: {},", accumulate, literal(state_index(rs)),
              literal(debuff_index(rs))))
    states = rs.table(spec.states).entries if spec.states else ()
    w.line(js("state_names: {},", _pairs([(e.id, e.name) for e in states])))
    w.line(js("state_stats: {},", _pairs(list(state_stats(rs).items()))))
    w.line(js("relations: {},", _pairs(list(spec.relations))))
    _actions(rs, w)
    on_damage = Js("null")
    if spec.on_damage:
        counter, proc_id = spec.on_damage
        on_damage = js("[{}, {}, {}, {}, {}, {}]", string(counter), name(proc_id + "_fast"),
                       _positional(rs, proc_id), literal(outcome_index(rs, proc_id, "points")),
                       literal(outcome_index(rs, proc_id, "awake")), string(procedure(rs, proc_id).name))
    w.line(js("on_damage: {},", on_damage))
    w.line(js("track_states: {},", _pairs(list(track_states(rs).items()))))
    w.line(js("track_debuffs: {},", _pairs(list(spec.debuffs))))
    points_max, taken_max = points_range(rs)
    w.line(comment("The most points a track holds: the top of what add_points-like procedures accept (saturated)."))
    w.line(js("points_max: {}, taken_max: {},", literal(points_max), literal(taken_max)))
    w.line(js("flag_names: {},", _pairs([(s.id, s.name) for s in rs.stats if s.type == "bool"])))
    _conditions(rs, w)
    w.line(js("check_names: {}, track_debuff_checks: {},", _pairs(list(spec.checks)),
              _pairs([(k, v) for k, v in spec.debuff_checks if v])))
    w.line(js("wake_tracks: {}, state_spared: {},", literal(spec.wake_tracks), _pairs(list(state_spared(rs)))))
    w.line(comment("Each resource: [name, start, top, stat, on_empty, knocks, lifts, rules] (a start or top: a number or a stat)."))
    w.line(js("resources: {},", _pairs([(r.id, [r.name, r.start, r.top, r.stat, r.on_empty, r.knocks, r.lifts, r.rules])
                                        for r in spec.resources])))
    w.line(js("track_inputs: {}, capacity_param: {}, lowered_max: {},", _pairs([(k, list(v)) for k, v in
                                                                               track_inputs(rs).items()]),
              literal(spec.track_inputs[1]), literal(lowered_max(rs))))
    t = spec.turn
    w.line(comment("What a turn holds and what each kind of action costs: [pools, kinds, refuse, ready, owes, rules"
                   "(, the ruleset's names for kinds)]."))
    w.line(js("turn: {},", Js("null") if t is None else literal([[p if p[5] else p[:5] for p in t.pools], t.kinds, t.refuse,
                                                                 t.ready, t.owes, t.rules] + ([t.names] if t.names else []))))
    w.dedent()
    w.line(Js("});"))
    threshold = ([Js("  const n = _rt_state_threshold(FIGHT_RULES, creature, track);"), Js("  return n || null;")]
                 if spec.accumulate else [Js("  return null;")])
    for line in [
        Js(""),
        comment("A fight between the named combatants (a Map or an object: name -> Combatant), who act in the order"),
        comment("given; with `turns` true, each turn is the budget the ruleset's turn structure declares."),
        Js("function start_fight(combatants, turns) { return Fight.start(FIGHT_RULES, combatants, turns); }"),
        comment("The fight toDict() wrote (kept between chat messages); every value is checked (OutOfBounds)."),
        Js("function fight_from_dict(data) { return Fight.from_dict(FIGHT_RULES, data); }"),
        Js("const fightFromDict = fight_from_dict;"),
        comment("Exactly: how many times `procedure` (its arguments as <procedure>_odds takes them, max_attacks in"),
        comment("the options) must be repeated until the running total of its outcome `field` reaches `threshold`."),
        Js("function until(procedure, field, threshold, ...args) {"),
        Js("  return _rt_until(FIGHT_RULES, procedure, field, threshold, args);"),
        Js("}"),
        comment("The fewest points on `track` that put `creature` into the track's state (null: no state)."),
        Js("function state_threshold(creature, track) {"),
        *threshold,
        Js("}"),
    ]:
        w.line(line)
    return w.text()


__all__ = ["FIGHT_EXPORTS", "FIGHT_RUNTIME", "fight_js"]


_DTS_FIGHT = [
    Js("export interface FightRules { readonly actions: ReadonlyMap<string, unknown>; }"),
    Js("export interface FightModifier { readonly stat: string; readonly delta: number; readonly expires: number; "
       "readonly source: string; }"),
    Js("export interface FightCondition { readonly id: string; readonly value: number; readonly source: string; "
       "readonly expires: number; }"),
    Js("export interface FightMember { readonly name: string; readonly base: Combatant; "
       "readonly counters: ReadonlyArray<readonly [string, number]>; readonly points: ReadonlyArray<readonly [string, "
       "number]>; readonly states: ReadonlyArray<string>; readonly modifiers: ReadonlyArray<FightModifier>; "
       "readonly conditions: ReadonlyArray<FightCondition>; readonly spent: ReadonlyArray<readonly [string, number]>; "
       "readonly owed: ReadonlyArray<readonly [string, number]>; readonly ready: string; "
       "readonly resources: ReadonlyArray<readonly [string, number]>; readonly lowered: ReadonlyArray<readonly [string, "
       "number]>; counter(key: string): number; "
       "track_points(key: string): number; }"),
    Js("export interface FightDict { turn: number; turns: boolean; members: {name: string; "
       "stats: Record<string, number | boolean>; counters: Record<string, number>; points: Record<string, number>; "
       "states: string[]; modifiers: [string, number, number, string][]; conditions: [string, number, string, number][]; "
       "spent: Record<string, number>; owed: Record<string, number>; ready: string; resources?: Record<string, number>; "
       "lowered?: Record<string, number>}[]; "
       "relations: [string, string, string][]; log: string[]; }"),
    Js("export class FightAction<R extends Result = Result> { readonly procedure: string; "
       "readonly roles: ReadonlyArray<readonly [string, string]>; readonly result: R; "
       "readonly applied: ReadonlyArray<string>; readonly used: ReadonlyArray<readonly [string, string, string]>; "
       "readonly plan: {readonly name: string; readonly cost: ReadonlyArray<readonly [string, number]>; "
       "readonly owes: ReadonlyArray<readonly [string, number]>; readonly readied: boolean; readonly over: string} "
       "| null; "
       "text(gm?: boolean): string; toDict(): Record<string, unknown>; toJSON(): Record<string, unknown>; }"),
    Js("export class UntilOdds { readonly probabilities: ReadonlyArray<number>; readonly tail: number; "
       "readonly threshold: number; readonly expected: number; readonly median: number; at_most(n: number): number; "
       "toDict(): {probabilities: number[]; tail: number; threshold: number; expected: number; median: number}; "
       "toJSON(): ReturnType<UntilOdds['toDict']>; }"),
    Js("export class Refused extends RuleError {}"),
    Js("export type FightPlanStep = {[P in keyof FightProcedures]: {procedure: P; roles: FightProcedures[P]['roles']; "
       "options?: Omit<FightProcedures[P]['options'], 'dice'>; end_turn?: boolean}}[keyof FightProcedures];"),
    Js("export type FightPlan = ReadonlyArray<FightPlanStep> | {opening?: ReadonlyArray<FightPlanStep>; "
       "cycle: ReadonlyArray<FightPlanStep>};"),
    Js("export type FightTarget = {who: string; condition: string} | {who: string; state: string} | "
       "{who: string; counter: string; at_least?: number} | {who: string; points: string; at_least?: number};"),
    # The options argument: required when the procedure has a required option, else optional.
    Js("type FightOptions<P extends keyof FightProcedures, X = {}> = {} extends FightProcedures[P]['options'] "
       "? [options?: FightProcedures[P]['options'] & X] : [options: FightProcedures[P]['options'] & X];"),
    Js("export class Fight { readonly members: ReadonlyArray<FightMember>; readonly turn: number; "
       "readonly relations: ReadonlyArray<readonly [string, string, string]>; readonly log: ReadonlyArray<string>; "
       "readonly rules: FightRules; readonly round: number; readonly actor: string; "
       "static start(rules: FightRules, combatants: ReadonlyMap<string, Combatant> | Record<string, Combatant>, "
       "turns?: boolean): Fight; static from_dict(rules: FightRules, data: unknown): Fight; member(name: string): FightMember; "
       "effective(name: string): Combatant; holds(relation: string, holder: string, held: string): boolean; "
       "active_conditions(name: string): ReadonlyArray<FightCondition>; "
       "applied_to(name: string): string[]; "
       "resolve<P extends keyof FightProcedures>(procedure: P, roles: FightProcedures[P]['roles'], "
       "...options: FightOptions<P>): FightAction<FightProcedures[P]['result']>; "
       "act<P extends keyof FightProcedures>(procedure: P, roles: FightProcedures[P]['roles'], "
       "...options: FightOptions<P>): [FightAction<FightProcedures[P]['result']>, Fight]; "
       "apply(action: FightAction): Fight; next_turn(): Fight; remove_state(name: string, state: string): Fight; "
       "log_since(earlier: Fight): ReadonlyArray<string>; "
       "ready(name: string, action: string): Fight; left(name: string): string; "
       "status(name: string): string; resource(name: string, resource: string): number; "
       "until_state<P extends keyof FightProcedures>(procedure: P, roles: FightProcedures[P]['roles'], "
       "target: string, track: string, ...options: FightOptions<P, {max_attacks?: number}>): UntilOdds; "
       "until_plan(plan: FightPlan, target: FightTarget | ReadonlyArray<FightTarget>, "
       "options?: {max_actions?: number; negligible?: number}): UntilOdds; "
       "expected_until(plan: FightPlan, target: FightTarget | ReadonlyArray<FightTarget>, "
       "options?: {max_actions?: number}): number | null; "
       "reached(target: FightTarget | ReadonlyArray<FightTarget>): boolean; "
       "toDict(): FightDict; toJSON(): FightDict; }"),
    Js("export const FIGHT_RULES: FightRules;"),
    Js("export function start_fight(combatants: ReadonlyMap<string, Combatant> | Record<string, Combatant>, "
       "turns?: boolean): Fight;"),
    Js("export function fight_from_dict(data: unknown): Fight;"),
    Js("export function fightFromDict(data: unknown): Fight;"),
    Js("export function until(procedure: keyof FightProcedures, field: string, threshold: number, "
       "...args: unknown[]): UntilOdds;"),
    Js("export function state_threshold(creature: Combatant, track: string): number | null;"),
    Js("export function attacks_until(marginal: ReadonlyMap<number, number> | Record<number, number>, "
       "threshold: number, max_attacks?: number, negligible?: number): UntilOdds;"),
    Js("export function chain_until(gains: (total: number) => ReadonlyMap<number, number>, threshold: number, "
       "max_attacks?: number, negligible?: number): UntilOdds;"),
    Js("export function expected_attacks(marginal: ReadonlyMap<number, number> | Record<number, number>, "
       "threshold: number): number | null;"),
    *[js("export const {}: number;", name(n)) for n in FIGHT_EXPORTS if n.startswith("MAX_")],
]


def fight_dts(rs: Ruleset) -> list[Js]:
    """The fight's types: `FightProcedures` maps each procedure a fight resolves to its roles, its
    options (those without a default required, as the Python signature has them) and its result."""
    from ..python.procedures import camel

    rows = []
    for p, roles, _subject in fight_actions(rs):
        role_types = join("; ", [js("{}: string", name(r)) for r in roles])
        options = [js("{}{}: {}", name(q.id), Js("") if required(q) else Js("?"), param_type(q))
                   for q in p.params if q.type != "combatant"]
        options.append(Js("dice?: DiceSource"))
        rows.append(js("{}: {{roles: {{{}}}; options: {{{}}}; result: {}}};", name(p.id), role_types,
                       join("; ", options), name(camel(p.id) + "Result")))
    return [js("export interface FightProcedures {{ {} }}", join(" ", rows)), *_DTS_FIGHT]


def initiative_js(rs: Ruleset) -> Js:
    """`initiative_order(entries, {dice})` of a ruleset with the initiative feature (the Python
    package's procedures.initiative_order: its pool, its tiebreak ruling, its limits)."""
    d = rs.dice
    w = Writer()
    w.line()
    w.line(comment("先攻顺序: [[name, dice, extras], ...] -> [names in order, trace]; ties re-roll (R50)."))
    w.line(Js("function initiative_order(entries, options) {"))
    w.line(Js("  options = _rt_options(options, ['dice']);"))
    w.line(Js("  const dice = options.dice === undefined || options.dice === null ? new SeededDice() "
              ": _rt_dice_source(options.dice);"))
    w.line(js("  return _rt_initiative_order(entries, _POOL, dice, !!_R_INITIATIVE_TIEBREAK_EXTRAS, 50, {}, {}, {});",
              literal(d.limits["pool_dice"]), literal(d.limits["pool_rolls"]), literal(d.limits["added_dice"])))
    w.line(Js("}"))
    return w.text()


INITIATIVE_DTS = Js("export function initiative_order(entries: ReadonlyArray<readonly [string, number, number]>, "
                    "options?: {dice?: DiceSource}): [string[], string[]];")
