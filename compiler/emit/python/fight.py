"""fight.py of a package: the ruleset's fight state and the procedures' effects, as data for the
runtime interpreter (`_runtime/fight.py`), plus the entry points `start_fight`, `fight_from_dict`,
`until` and (with an accumulation procedure) `state_threshold`.

Everything reaches the module through `code.py` (names, strings and literals only): the effects
are plain tuples, never code.
"""

from __future__ import annotations

from ...ir import Procedure, Ruleset
from ..fight_data import (check_uses, debuff_index as _debuff_index, fight_actions, lowered_max, points_range,
                          state_spared, state_index as _state_index, state_stats, track_inputs, track_states)
from .code import Code, Writer, code, comment, docstring, join, literal, module_head, name, string


def _check_uses(rs: Ruleset, p: Procedure) -> list[Code]:
    """The checks `p` rolls, as `fight_checks.CheckUse` records."""
    return [code("CheckUse({}, {}, {}, {}, {})", *[literal(x) for x in row]) for row in check_uses(rs, p)]


def _function(w: Writer, signature: list[str], doc: str, body: list[str]) -> None:
    """A module-level function of fixed text (no value from the rules reaches it)."""
    w.line()
    w.line()
    for line in signature:
        w.line(Code(line))
    w.indent()
    w.line(docstring(doc))
    for line in body:
        w.line(Code(line))
    w.dedent()


def _mapping(w: Writer, title: str, pairs: list[tuple[Code, Code]]) -> None:
    w.line(code("{}: Dict[str, Any] = {{", Code(title)))
    w.indent()
    for k, v in pairs:
        w.line(code("{}: {},", k, v))
    w.dedent()
    w.line(Code("}"))


def _scope(scope: tuple[tuple[str, ...], str, str, str]) -> Code:
    return code("Scope({}, {}, {}, {})", *[literal(x) for x in scope])


def _conditions(w: Writer, rs: Ruleset) -> None:
    """The conditions and relation rules, as `fight_conditions` records (literals only)."""
    spec = rs.fight
    assert spec is not None
    _mapping(w, "_FLAG_NAMES", [(string(s.id), string(s.name)) for s in rs.stats if s.type == "bool"])
    w.line(comment("Each condition: what it changes while it applies, when it applies, what it forbids, when it ends."))
    w.line(Code("_CONDITIONS: Dict[str, ConditionSpec] = {"))
    w.indent()
    for c in spec.conditions:
        ends = [code("Ending({}, {}, {}, {}, {})", literal(k), literal(of), literal(nth), _scope(sc), literal(st))
                for k, of, nth, sc, st in c.ends]
        more = join("", [code(", {}={}", Code(k), literal(v)) for k, v in (("then", c.then),
                                                                          ("turn_pools", c.turn_pools)) if v])
        w.line(code("{}: ConditionSpec({}, {}, {}, {}, {}, {}, {}, ({}), {}, {}, {}, {}{}),", string(c.id),
                    string(c.name), literal(c.sets), literal(c.adds), literal(c.options), _scope(c.applies),
                    literal(c.forbids), literal(c.forbids_actions), join("", [code("{}, ", x) for x in ends]),
                    literal(c.max_value), literal(c.stack), literal(c.rules), literal(c.as_states), more))
    w.dedent()
    w.line(Code("}"))
    _mapping(w, "_RELATION_SPECS", [(string(r.id), code("RelationSpec({}, {}, {}, {}, {}, {}{})",
                                                      string(dict(spec.relations)[r.id]), literal(r.held),
                                                      literal(r.holder), literal(r.ends_holder), literal(r.ends_held),
                                                      literal(r.clears),
                                                      code(", {}", literal(r.ends_if_held_by)) if r.ends_if_held_by
                                                      else Code(""))) for r in spec.relation_rules])


def _turn(w: Writer, rs: Ruleset) -> None:
    """The turn structure, as a `fight_state.TurnSpec` (literals only)."""
    assert rs.fight is not None
    turn = rs.fight.turn
    if turn is None:
        return
    w.line(comment("What a turn holds and what each kind of action costs from it (own turn, off it, next turn)."))
    w.line(Code("_TURN = TurnSpec(("))
    w.indent()
    for pool in turn.pools:
        w.line(code("Pool({}),", join(", ", [literal(x) for x in (pool if pool[5] else pool[:5])])))
    w.dedent()
    w.line(Code("), ("))
    w.indent()
    for kind, own, off, nxt in turn.kinds:
        w.line(code("({}, KindCost({}, {}, {})),", literal(kind), literal(own), literal(off), literal(nxt)))
    w.dedent()
    extra = Code(", stat_pools=True") if any(p[5] for p in turn.pools) else Code("")  # a pool held in a stat
    if turn.names:  # the ruleset's own names for kinds of action
        extra = code("{}, names={}", extra, literal(turn.names))
    w.line(code("), {}, {}, {}, {}{})", literal(turn.refuse), literal(turn.ready), literal(turn.owes), literal(turn.rules),
                extra))


def _resources(w: Writer, rs: Ruleset) -> None:
    """The resources, as `fight_state.ResourceSpec` records, and the track inputs (literals only)."""
    assert rs.fight is not None
    if rs.fight.resources:
        w.line(comment("Each resource: its start and top (a number or a stat), the stat that shows what is left, on_empty."))
    _mapping(w, "_RESOURCES", [(string(r.id), code("ResourceSpec({})", join(", ", [literal(x) for x in (
        r.name, r.start, r.top, r.stat, r.on_empty, r.knocks, r.lifts, r.rules)]))) for r in rs.fight.resources])
    _mapping(w, "_TRACK_INPUTS", [(string(k), literal(v)) for k, v in track_inputs(rs).items()])


def fight_module(rs: Ruleset, header: str) -> str:
    spec = rs.fight
    assert spec is not None
    w = Writer()
    module_head(w, header, (f"{rs.name}：战斗状态 (the fight API of ruleset `{rs.id}`): combatants whose damage, condition "
                     "points, states, temporary modifiers and relations carry from one action to the next.\n\n"
                     "    fight = start_fight({'甲': Combatant(...), '乙': Combatant(...)})\n"
                     "    action = fight.resolve('attack', {'attacker': '甲', 'defender': '乙'}, weapon='...')\n"
                     "    fight = fight.apply(action)      # a new fight; nothing is mutated\n"
                     "    fight = fight.next_turn()        # modifiers lapse, rounds advance"))
    w.line()
    w.line(Code("from __future__ import annotations"))
    w.line()
    w.line(Code("from typing import Any, Dict, Mapping, Optional"))
    w.line()
    w.line(Code("from ._runtime.core import OutOfBounds"))
    if spec.accumulate:
        w.line(Code("from ._runtime.fight import Fight, state_threshold as _rt_state_threshold"))
    else:
        w.line(Code("from ._runtime.fight import Fight"))
    if spec.relation_rules:
        w.line(Code("from ._runtime.fight_conditions import ConditionSpec, Ending, RelationSpec, Scope"))
    else:
        w.line(Code("from ._runtime.fight_conditions import ConditionSpec, Ending, Scope"))
    if any(p.checks for p in rs.procedures):
        w.line(Code("from ._runtime.fight_checks import CheckUse"))
    w.line(Code("from ._runtime.fight_odds import UntilOdds, sequence_odds"))
    names = ["ActionSpec", "Effect", "FightRules"] + (["KindCost", "Pool"] if spec.turn is not None else [])
    names += (["ResourceSpec"] if spec.resources else []) + (["TurnSpec"] if spec.turn is not None else [])
    w.line(Code(f"from ._runtime.fight_state import {', '.join(names)}"))
    w.line(Code("from . import procedures as _procedures"))
    w.line(Code("from .model import Combatant"))
    w.line()
    w.line(Code("__all__ = ['Fight', 'FIGHT_RULES', 'UntilOdds', 'fight_from_dict', 'start_fight', 'state_threshold',"))
    w.line(Code("           'until']"))
    w.line()
    stats = [(string(s.id), literal((s.name, s.min, s.max))) for s in rs.stats if s.type == "int"]
    _mapping(w, "_STATS", stats)
    _mapping(w, "_COUNTERS", [(string(k), string(v)) for k, v in spec.counters])
    tracks = rs.table(spec.tracks).entries if spec.tracks else ()
    _mapping(w, "_TRACKS", [(string(e.id), string(e.name)) for e in tracks])
    states = rs.table(spec.states).entries if spec.states else ()
    _mapping(w, "_STATE_NAMES", [(string(e.id), string(e.name)) for e in states])
    _mapping(w, "_STATE_STATS", [(string(k), literal(v)) for k, v in state_stats(rs).items()])
    _mapping(w, "_STATE_SPARED", [(string(k), string(v)) for k, v in state_spared(rs)])
    _mapping(w, "_RELATIONS", [(string(k), string(v)) for k, v in spec.relations])
    w.line(comment("Each procedure a fight can resolve: its combatant roles and its declared effects."))
    w.line(Code("_ACTIONS: Dict[str, ActionSpec] = {"))
    w.indent()
    for p, roles, subject in fight_actions(rs):
        effects = [code("Effect({})", join(", ", [literal(x) for x in (e.kind, e.role, e.key, e.field, e.sign,
                                                                         e.duration, e.when, e.other)]))
                   for e in p.effects]
        params = [(string(q.id), string(q.name)) for q in p.params if q.type != "combatant"]
        checks = code(", checks=({})", join("", [code("{}, ", x) for x in _check_uses(rs, p)])) if p.checks else Code("")
        if p.action_from:  # the kind of action its result spends
            checks = code("{}, action_from={}", checks, literal(p.action_from))
        if p.costs:  # what its result spends of the turn's pools
            checks = code("{}, costs={}", checks, literal(p.costs))
        w.line(code("{}: ActionSpec({}, _procedures.{}, {}, ({}), _procedures.{}, {{{}}}, {}, {}, {}{}),",
                    string(p.id), string(p.name), name(p.id), literal(roles),
                    join("", [code("{}, ", x) for x in effects]), name(p.id + "_odds"),
                    join(", ", [code("{}: {}", k, v) for k, v in params]), literal(p.action[0]),
                    literal(p.action[1]), literal(subject), checks))
    w.dedent()
    w.line(Code("}"))
    accumulate = code("_procedures.{}", name(spec.accumulate + "_fast")) if spec.accumulate else Code("None")
    state_index = _state_index(rs)
    on_damage = Code("None")
    if spec.on_damage:
        counter, proc_id = spec.on_damage
        proc = next(p for p in rs.procedures if p.id == proc_id)
        outs = [o.id for o in proc.result]
        on_damage = code("({}, _procedures.{}, {}, {}, {})", string(counter), name(proc_id + "_fast"),
                         literal(outs.index("points")), literal(outs.index("awake")), string(proc.name))
    _mapping(w, "_TRACK_STATES", [(string(k), string(v)) for k, v in track_states(rs).items()])
    _mapping(w, "_TRACK_DEBUFFS", [(string(k), literal(v)) for k, v in spec.debuffs])
    debuff_index = _debuff_index(rs)
    _mapping(w, "_CHECK_NAMES", [(string(k), string(v)) for k, v in spec.checks])
    _mapping(w, "_TRACK_DEBUFF_CHECKS", [(string(k), literal(v)) for k, v in spec.debuff_checks if v])
    _conditions(w, rs)
    _turn(w, rs)
    _resources(w, rs)
    w.line(code("FIGHT_RULES = FightRules(Combatant, _STATS, _COUNTERS, _TRACKS, {}, _STATE_NAMES, _STATE_STATS,",
                accumulate))
    points_max, taken_max = points_range(rs)
    w.line(code("                         _RELATIONS, _ACTIONS, {}, {}, _TRACK_STATES, _TRACK_DEBUFFS, {},",
                literal(state_index), on_damage, literal(debuff_index)))
    w.line(comment("The most points a track holds: the top of what add_points-like procedures accept (saturated)."))
    w.line(code("                         points_max={}, taken_max={}, flag_names=_FLAG_NAMES, conditions=_CONDITIONS,",
                literal(points_max), literal(taken_max)))
    w.line(Code("                         relation_specs=_RELATION_SPECS, check_names=_CHECK_NAMES,"))
    w.line(code("                         track_debuff_checks=_TRACK_DEBUFF_CHECKS, turn={}, wake_tracks={},",
                Code("_TURN") if spec.turn else Code("None"), literal(spec.wake_tracks)))
    capacity = spec.track_inputs[1]
    w.line(code("                         state_spared=_STATE_SPARED, resources=_RESOURCES, track_inputs=_TRACK_INPUTS,"))
    w.line(code("                         capacity_param={}, lowered_max={})", literal(capacity), literal(lowered_max(rs))))
    _function(w, ["def start_fight(combatants: Mapping[str, Combatant], turns: bool = False) -> Fight:"],
              "A fight between the named combatants, who act in the order given; with `turns`, each turn is "
              "the budget the ruleset's turn structure declares (an action that does not fit is refused).",
              ["return Fight.start(FIGHT_RULES, combatants, turns)"])
    _function(w, ["def fight_from_dict(data: Mapping[str, Any]) -> Fight:"],
              "The fight `Fight.to_dict()` wrote (kept between chat messages); every value is checked.",
              ["return Fight.from_dict(FIGHT_RULES, data)"])
    _function(w, ["def until(procedure: str, field: str, threshold: int, *args: Any, max_attacks: int = 200,",
                  "          **kwargs: Any) -> UntilOdds:"],
              "Exactly: how many times `procedure` (with these arguments, as `<procedure>_odds` takes them) "
              "must be repeated until the running total of its whole-number outcome `field` reaches `threshold` "
              "(an absorbing chain over the total; the mass past `max_attacks` is `tail`).",
              ["odds = _ACTIONS[procedure].odds if isinstance(procedure, str) and procedure in _ACTIONS else None",
               "if odds is None:", "    raise OutOfBounds('没有可累计的过程', key='procedure')",
               "return sequence_odds(odds, field, threshold, max_attacks, args, kwargs)"])
    _function(w, ["def state_threshold(creature: Combatant, track: Any) -> Optional[int]:"],
              "The fewest points on `track` that put `creature` into the track's state (None: this ruleset's "
              "tracks have no states).",
              ["return _rt_state_threshold(FIGHT_RULES, creature, track) or None" if spec.accumulate
               else "return None"])
    return w.text()
