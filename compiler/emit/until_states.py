"""The expected attacks until each state one attack can lead to, for `rulec diff` (and the
calculator's check): the fight's own exact chain (`Fight.until_plan` of the generated package), one
attack a turn, with the real state feedback.

"Each state" is: the damage total of the balancing preset (`until: {at, name}`), each state of the
fight's states table that a track the attack deals points to causes (`track_states`: a called shot,
a part), and each condition or state the procedure's own effects set on another combatant than the
one acting (dp's 绊摔 → 倒地; the actor's own stance, 格挡 or 瞄准, is no state the attack leads to). Which of
them the chosen inputs can reach is read off the attack's exact odds (the outcome naming the track,
the true/false outcome gating the effect): one that cannot be reached is listed with None ("—"),
without running the chain. The calculator's script (templates/calculator_until.js `untilStates`) lists
the same states in the same order from the JavaScript module's same data.
"""

from __future__ import annotations

from typing import Any, NamedTuple

MAX_ACTIONS = 200  # attacks the chain follows: past this the state shows "—"
MAX_STATES = 40  # states listed for one attack
TAIL = 1e-9  # chance left unreached past MAX_ACTIONS that still counts as reached


class StateTarget(NamedTuple):
    label: str  # Chinese, as the page and the report show it
    target: dict[str, Any] | None  # until_plan's target (roles by the names of `fight_names`), None: unreachable


def fight_names(roles: tuple[str, ...]) -> dict[str, str]:
    """The combatants' names in the fight the chain runs: 角色1, 角色2, … by role order."""
    return {role: f"角色{i + 1}" for i, role in enumerate(roles)}


def one_attack_a_turn(mod: Any, spec: Any, procedure: str, kwargs: dict[str, Any], rules: Any = None,
                      started: dict[Any, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    """The fight the pages' chains run — its roles' combatants from `kwargs`, named by
    `fight_names` — and the plan step of one `procedure` a turn with the rest of `kwargs` as its
    options: (fight, step). `rules`: the package's fight rules to start it with (its own by default).
    `started`: fights already started with these rules, by their combatants' identities (a fight
    is never changed in place, so the cells of a page that share the combatants share it)."""
    names = fight_names(spec.roles)
    step = {"procedure": procedure, "roles": names, "end_turn": True,
            "options": {k: v for k, v in kwargs.items() if k not in names}}
    members = tuple(kwargs[r] for r in spec.roles)
    key = tuple(map(id, members))
    kept = started.get(key) if started is not None else None
    if kept is not None and all(a is b for a, b in zip(kept[0], members)):
        return kept[1], step
    combatants = {names[r]: kwargs[r] for r in spec.roles}
    fight = mod.start_fight(combatants) if rules is None else mod.Fight.start(rules, combatants)
    if started is not None:
        started[key] = (members, fight)  # holds the combatants: no identity is reused while kept
    return fight, step


def _possible(odds: Any, field: str) -> dict[Any, float]:
    try:
        return {k: p for k, p in odds.marginal(field).items() if p > 0}
    except (KeyError, AttributeError, TypeError, ValueError):
        return {}


def state_targets(rules: Any, procedure: str, odds: Any, until_at: int, until_name: str) -> list[StateTarget]:
    """The states one attack of `procedure` can lead to, with `odds` its exact odds for the chosen inputs."""
    spec = rules.actions.get(procedure)
    if spec is None:
        return []
    names = fight_names(spec.roles)
    actor = spec.roles[spec.subject] if 0 <= spec.subject < len(spec.roles) else ""
    out: list[StateTarget] = []
    seen: set[tuple[str, str, str]] = set()

    def add(label: str, who: str, kind: str, key: str, reachable: bool, at_least: int = 0) -> None:
        if (who, kind, key) in seen or len(out) >= MAX_STATES:
            return
        seen.add((who, kind, key))
        target: dict[str, Any] = {"who": names[who], kind: key}
        if at_least:
            target["at_least"] = at_least
        out.append(StateTarget(label, target if reachable else None))

    for e in spec.effects:
        gate = True if not e.when else _possible(odds, e.when).get(True, 0) > 0
        if e.kind == "counter" and until_at and e.field == getattr(odds, "damage", None):
            grows = any(type(v) is int and v > 0 for v in _possible(odds, e.field))
            add(until_name, e.role, "counter", e.key, gate and grows, until_at)
        elif e.kind == "track":
            named = _possible(odds, e.key)
            for track, state in rules.track_states.items():
                label = f"{rules.state_names.get(state, state)}（{rules.tracks.get(track, track)}）"
                add(label, e.role, "state", state, gate and track in named)
        elif e.role == actor:
            continue
        elif e.kind == "condition" and e.key in rules.conditions:
            add(rules.conditions[e.key].name, e.role, "condition", e.key, gate)
        elif e.kind == "state":
            add(rules.state_names.get(e.key, e.key), e.role, "state", e.key, gate)
    return out


def expected_until_states(mod: Any, procedure: str, kwargs: dict[str, Any], odds: Any, until_at: int,
                          until_name: str) -> list[tuple[str, float | None]]:
    """[(state's label, expected attacks until it or None)] for one attack of `procedure` with
    `kwargs` (its combatants and options), a fight of its roles, one attack a turn."""
    rules = mod.fight.FIGHT_RULES
    spec = rules.actions.get(procedure)
    if spec is None or spec.odds is None:
        return []
    out: list[tuple[str, float | None]] = []
    fight: Any = None
    step: dict[str, Any] = {}
    for st in state_targets(rules, procedure, odds, until_at, until_name):
        value: float | None = None
        if st.target is not None:
            try:
                if fight is None:
                    fight, step = one_attack_a_turn(mod, spec, procedure, kwargs)
                chain = fight.until_plan([step], st.target, max_actions=MAX_ACTIONS)
                value = chain.expected if chain.tail <= TAIL else None
            except (mod.RuleError, mod.LimitExceeded):
                value = None
        out.append((st.label, value))
    return out


def damage_only(rules: Any, procedure: str) -> bool:
    """Whether the procedure's effects lead to no state but the damage total (dp's attack: no track
    with a state, no condition set on the other combatant)."""
    spec = rules.actions.get(procedure)
    if spec is None:
        return True
    actor = spec.roles[spec.subject] if 0 <= spec.subject < len(spec.roles) else ""
    return not any((e.kind == "track" and rules.track_states) or (e.kind in ("condition", "state") and e.role != actor)
                   for e in spec.effects)


def preset_states(mod: Any, rs: Any, preset: Any, entry: Any,
                  until: list[float | None] | None = None) -> dict[str, list[float | None]]:
    """{state's label: expected attacks per value of the preset's varied stat or parameter} for
    `entry` of the preset's table, as the pages' balancing tables set up the attack
    (emit/odds_tables.py `_Evaluator._compute`): the preset's combatants and options. `until`, the
    balancing row's expected attacks until the damage total, is taken as that state's column (the
    same chain), so a procedure that leads to no other state costs nothing more."""
    import dataclasses

    rules = mod.fight.FIGHT_RULES
    spec = rules.actions.get(preset.procedure)
    counts = spec is not None and any(e.kind == "counter" for e in spec.effects)
    if until is not None and damage_only(rules, preset.procedure):
        return {preset.until_name: list(until)} if preset.until_at and counts else {}

    odds_fn = getattr(mod, f"{preset.procedure}_odds")
    proc = next(p for p in rs.procedures if p.id == preset.procedure)
    given = dict(preset.combatants)
    base: dict[str, Any] = {prm.id: mod.Combatant.from_dict(dict(given.get(prm.id, ())))
                            for prm in proc.params if prm.type == "combatant"}
    base.update(dict(preset.args))
    head, _, stat = preset.vary_target.partition(".")
    stat_id = mod.STAT_NAMES.get(stat, stat)
    columns: dict[str, list[float | None]] = {}
    n = len(preset.vary_values)
    for k, value in enumerate(preset.vary_values):
        kwargs = dict(base)
        kwargs[head] = dataclasses.replace(base[head], **{stat_id: value}) if stat else value
        kwargs[preset.param] = entry.id
        try:
            odds = odds_fn(**kwargs)
        except mod.RuleError:
            continue
        for label, expected in expected_until_states(mod, preset.procedure, kwargs, odds, preset.until_at,
                                                     preset.until_name):
            columns.setdefault(label, [None] * n)[k] = expected
    if until is not None and preset.until_name in columns:
        columns[preset.until_name] = list(until)
    return columns
