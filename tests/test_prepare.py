"""NAME_prepare(...)(dice) rolls exactly like NAME_fast(..., dice) and agrees with the traced form."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("ruleset, proc, make", [
    ("dp", "attack", lambda m: ((m.Combatant(strength=5, martial=8, specialty=7, attack_extras=5),
                                 m.Combatant(basic_defense=8, armor_defense=4, parry_defense=6, basic_extras=2)),
                                dict(weapon="long_sword", called_shot="head"))),
    ("d20", "attack", lambda m: ((m.Combatant(strength=16, crit_range=2), m.Combatant(armor_class=14)),
                                 dict(weapon="greatsword", sneak_dice=2, willing=True))),
    ("tracks", "firearm", lambda m: ((m.Combatant(dexterity=5, firearms=20), m.Combatant(defense=2)),
                                     dict(weapon="rifle", shots=3, distance=120))),
    ("d20", "shove", lambda m: ((m.Combatant(strength=18, athletics=True), m.Combatant()),
                                dict(obstacle_at=5))),
])
def test_prepare_matches_fast_and_traced(ruleset, proc, make, request):
    m = request.getfixturevalue(ruleset)
    args, kwargs = make(m)
    roll = getattr(m, f"{proc}_prepare")(*args, **kwargs)
    entries = {k: (getattr(m, f"get_{k}")(v) if k in ("weapon",) else v) for k, v in kwargs.items()}
    if "called_shot" in entries:
        entries["called_shot"] = m.get_called_shot(entries["called_shot"])
    a, b, c = m.SeededDice(5), m.SeededDice(5), m.SeededDice(5)
    for _ in range(300):
        prepared = roll(a)
        assert prepared == getattr(m, f"{proc}_fast")(*args, **entries, dice=b)
        assert prepared == getattr(m, proc)(*args, **kwargs, dice=c).outcome()


def test_face_outcomes_keeps_only_what_one_face_decides():
    from compiler.runtime.dice import face_outcomes

    def roll(source):  # type: ignore[no-untyped-def]
        face = source.die(20)
        if face == 5:
            raise ValueError("refused")  # the normal path will raise it again
        return ("miss", face) if face < 10 else ("hit", face, source.die(8))

    table = face_outcomes(roll, 20)
    assert table[0] is None and len(table) == 21
    assert table[1] == ("miss", 1) and table[9] == ("miss", 9)
    assert table[5] is None and all(t is None for t in table[10:])


def test_prepared_d20_misses_come_from_the_face_table(d20):  # type: ignore[no-untyped-def]
    roll = d20.attack_prepare(d20.Combatant(strength=16, proficiency=2), d20.Combatant(armor_class=15), "longsword")
    cells = dict(zip(roll.__code__.co_freevars, (c.cell_contents for c in roll.__closure__)))
    [table] = [v for k, v in cells.items() if k.startswith("_f") and isinstance(v, list)]  # the face table
    assert [face for face in range(1, 21) if table[face] is not None] == list(range(1, 10))  # +5: 10+ hits
    for face in range(1, 10):
        assert table[face] == d20.attack(d20.Combatant(strength=16, proficiency=2), d20.Combatant(armor_class=15),
                                         "longsword", dice=d20.FixedDice([face])).outcome()
