"""`_Chain.plain_gains` tells, without applying an action, what it adds to a counted total when it
leaves the fight as it was (the pages' expected attacks rest on it); where it answers, the answer
is the one applying each outcome gives (`_Chain.step`), for every weapon of every bundled ruleset's
attack against a few defenders."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

ATTACKS = {  # ruleset -> (procedure, roles, the option sets tried with every weapon)
    # willpower spent: a resource effect that spends; a seized weapon: a condition set
    "dp": ("attack", {"attacker": "甲", "defender": "乙"}, ({}, {"willpower": True}, {"seize": True})),
    "d20": ("attack", {"attacker": "甲", "target": "乙"}, ({},)),
    # an eye hit: a track's points
    "tracks": ("attack", {"attacker": "甲", "defender": "乙"}, ({}, {"part": "eyes"})),
}


def _applied(fp: Any, rules: Any, counted: Any, start: Any, step: Any) -> dict[int, float] | None:
    chain = fp._Chain(rules, counted)
    key = fp._key(start)
    steps = chain.step(start, key, 0, step)
    if not all(k2 == key and delta >= 0 for _, k2, delta, _ in steps):
        return None
    gains: dict[int, float] = {}
    for _, _, delta, q in steps:
        gains[delta] = gains.get(delta, 0.0) + q
    return gains


@pytest.mark.parametrize("rid", sorted(ATTACKS))
def test_plain_gains_equal_the_applied_outcomes(rid: str, request: pytest.FixtureRequest) -> None:
    m = request.getfixturevalue(rid)
    fp = importlib.import_module(f"{m.__name__}._runtime.fight_plan")  # the package imports its fight when asked
    procedure, roles, option_sets = ATTACKS[rid]
    rules = m.FIGHT_RULES
    names = list(roles.values())
    stats = set(m.Combatant.__dataclass_fields__)
    defenders = [m.Combatant()] + [m.Combatant(**{s: v}) for s, v in (("basic_defense", 3), ("armor_class", 14))
                                    if s in stats]
    answered = refused = 0
    for weapon in list(m.WEAPONS)[:15]:
        for defender, options in ((d, o) for d in defenders for o in option_sets):
            attacker = m.Combatant(willpower=3) if "willpower" in stats else m.Combatant()
            fight = m.start_fight({"甲": attacker, "乙": defender})
            step = {"procedure": procedure, "roles": roles, "options": {"weapon": weapon, **options},
                    "end_turn": True}
            _, cycle = fp.read_plan(rules, names, [step])
            counted = fp.read_targets(rules, names, {"who": "乙", "counter": "damage", "at_least": 10})[0]
            start = fp._zero(fight._with(log=()), counted)
            try:
                plain = fp._Chain(rules, counted).plain_gains(start, cycle[0])
            except m.RuleError:
                continue
            if plain is None:
                refused += 1
                continue
            answered += 1
            applied = _applied(fp, rules, counted, start, cycle[0])
            assert applied is not None, (weapon, defender)
            assert plain.keys() == applied.keys(), weapon
            assert all(abs(plain[k] - applied[k]) < 1e-12 for k in plain), weapon
    assert answered > 0
    assert refused > 0 or len(option_sets) == 1
