"""NAME_prepare(...)(dice) rolls exactly like NAME_fast(..., dice) and agrees with the traced form."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("ruleset, proc, make", [
    ("dp", "attack", lambda m: ((m.Combatant(strength=5, martial=8, specialty=7, attack_extras=5),
                                 m.Combatant(basic_defense=8, armor_defense=4, parry_defense=6, basic_extras=2)),
                                dict(weapon="long_sword", called_shot="head"))),
    ("d20", "attack", lambda m: ((m.Combatant(strength=16, crit_range=2), m.Combatant(armor_class=14)),
                                 dict(weapon="greatsword", sneak_dice=2, willing=True))),
    ("tracks", "firearm", lambda m: ((m.Combatant(dexterity=5, firearms=20), m.Combatant(basic_defense=2)),
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


def _tabulate(roll, budget=None):  # type: ignore[no-untyped-def]
    from rulec.runtime.d20 import face_table, face_tree

    table = face_table(20) if budget is None else face_table(20, budget)
    assert table[1:] == [False] * 20  # nothing is tabulated before a face is rolled
    for face in range(1, 21):
        face_tree(roll, table, face)
    return table


def test_face_tables_hold_the_decision_tree_within_their_budget():

    def roll(source):  # type: ignore[no-untyped-def]
        face = source.die(20)
        if face == 5:
            raise ValueError("refused")  # the normal path will raise it again
        if face == 20 and source.die(4) == 4:
            raise ValueError("refused deeper")
        return ("miss", face) if face < 10 else ("hit", face, source.die(8))

    table = _tabulate(roll)
    assert len(table) == 21
    assert table[1] == ("miss", 1) and table[9] == ("miss", 9)  # the face alone decides
    assert table[5] is None and table[20] is None  # refused on some faces: not tabulated
    assert table[12] == [("hit", 12, d) for d in range(1, 9)]  # item i: the next die shows i + 1
    # A budget of runs: 9 faces, then 9 runs each for two hit faces, then nothing is left.
    small = _tabulate(roll, budget=9 + 9 + 9)
    assert small[11] == [("hit", 11, d) for d in range(1, 9)] and small[12] is None and small[13] is None


def test_prepared_d20_rolls_walk_the_face_table(d20):  # type: ignore[no-untyped-def]
    fighter, target = d20.Combatant(strength=16, proficiency=2), d20.Combatant(armor_class=15)
    roll = d20.attack_prepare(fighter, target, "longsword")
    cells = dict(zip(roll.__code__.co_freevars, (c.cell_contents for c in roll.__closure__)))
    [table] = [v for k, v in cells.items() if k.endswith("_faces") and isinstance(v, list)]  # the face table
    a, b = d20.SeededDice(3), d20.SeededDice(3)
    for _ in range(3000):  # every face comes up: the table fills as it goes
        assert roll(a) == d20.attack_fast(fighter, target, d20.get_weapon("longsword"), dice=b)
    assert all(isinstance(table[face], tuple) for face in range(1, 10))  # +5: 1-9 miss on the face alone
    assert all(isinstance(table[face], list) and len(table[face]) == 8 for face in range(10, 21))  # then 1d8
    assert all(len(table[20][d]) == 8 for d in range(8))  # a crit rolls the d8 twice
    for faces in ([3], [12, 5], [20, 8, 7]):
        outcome = table[faces[0]]
        for face in faces[1:]:
            outcome = outcome[face - 1]
        assert outcome == d20.attack(fighter, target, "longsword", dice=d20.FixedDice(faces)).outcome()


def test_a_seeded_dice_subclass_is_rolled_through_its_own_die(d20):  # type: ignore[no-untyped-def]
    class Loaded(d20.SeededDice):  # type: ignore[misc, name-defined]
        def die(self, sides: int) -> int:
            return sides  # every die shows its highest face

    fighter, target = d20.Combatant(strength=16, proficiency=2), d20.Combatant(armor_class=15)
    for kwargs in ({}, {"willing": True}):  # the common-case closure and the general one
        hit, crit, damage, *_ = d20.attack_prepare(fighter, target, "longsword", **kwargs)(Loaded(1))
        assert (hit, crit, damage) == (True, True, 8 + 8 + 3)
