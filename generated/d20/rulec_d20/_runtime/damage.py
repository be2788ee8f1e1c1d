"""Damage dice such as `2d6+1d4+3`: traced rolls, fast totals and prepared rollers (R31 crits)."""

from __future__ import annotations

from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple

from .core import faces_text, record
from .sources import DamageTerms, DiceValue


class DamageRoll(NamedTuple):
    """An immutable record of a damage-dice roll (crit dice included)."""

    faces: Tuple[int, ...]
    total: int
    crit: bool
    expression: str

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": "damage", "expression": self.expression, "faces": list(self.faces),
                "total": self.total, "crit": self.crit}


def terms_text(terms: DamageTerms, crit: bool = False) -> str:
    """`2d6+1d4` (counts doubled on a crit); memoised, as a weapon's dice repeat."""
    key = (terms, crit)
    text = _TERMS_TEXT.get(key)
    if text is None:
        mult = 2 if crit else 1
        text = "+".join([f"{count * mult}d{sides}" for count, sides in terms]) or "0"
        if len(_TERMS_TEXT) < 4096:
            _TERMS_TEXT[key] = text
    return text


_TERMS_TEXT: Dict[Tuple[DamageTerms, bool], str] = {}


def roll_damage(source: Any, terms: DamageTerms, crit: bool) -> DamageRoll:
    die = source.die
    if len(terms) == 1 and terms[0][0] == 1:  # one die: the common weapon
        sides = terms[0][1]
        faces: Tuple[int, ...] = (die(sides), die(sides)) if crit else (die(sides),)
    else:
        rolled = [die(sides) for count, sides in terms for _ in range(count)]
        if crit:
            rolled += [die(sides) for count, sides in terms for _ in range(count)]
        faces = tuple(rolled)
    return record(DamageRoll, (faces, sum(faces), crit, terms_text(terms, crit)))


def damage_total(die: Callable[[int], int], terms: DamageTerms, crit: bool) -> int:
    """The fast form of `roll_damage`."""
    total = 0
    for _ in range(2 if crit else 1):  # the same face order as roll_damage: the crit copy comes last
        for count, sides in terms:
            for _ in range(count):
                total += die(sides)
    return total


def damage_roller(value: Optional[DiceValue]) -> Callable[[Callable[[int], int], bool], int]:
    """A roller specialised to one dice value (total including its flat bonus), for bulk rolling."""
    if value is None:
        return lambda die, crit: 0
    terms, flat = value.terms, value.flat
    if len(terms) == 1 and terms[0][0] == 1:
        sides = terms[0][1]
        return lambda die, crit: die(sides) + die(sides) + flat if crit else die(sides) + flat
    return lambda die, crit: damage_total(die, terms, crit) + flat


def damage_total_random(random: Callable[[], float], terms: DamageTerms, crit: bool) -> int:
    """`damage_total` for a SeededDice's `random()` (the only source read through it): faces inline."""
    total = 0
    for _ in range(2 if crit else 1):
        for count, sides in terms:
            for _ in range(count):
                total += int(random() * sides) + 1
    return total


def damage_roller_random(value: Optional[DiceValue]) -> Callable[[Callable[[], float], bool], int]:
    """`damage_roller` for a SeededDice's `random()`: the same total from the same faces."""
    if value is None:
        return lambda random, crit: 0
    terms, flat = value.terms, value.flat
    return lambda random, crit: damage_total_random(random, terms, crit) + flat


def single_die(value: Optional[DiceValue]) -> Tuple[int, int]:
    """(sides, flat) when a dice value is exactly one die plus a bonus, else (0, 0): prepared
    resolvers roll such a value inline."""
    if value is not None and len(value.terms) == 1 and value.terms[0][0] == 1:
        return value.terms[0][1], value.flat
    return 0, 0


def damage_sentence(label: str, roll: DamageRoll, flat: int) -> str:
    bonus = f"{flat:+d}" if flat else ""
    crit = "（重击，伤害骰掷两次）" if roll.crit else ""
    return f"{label}：掷{roll.expression}{bonus}{crit}，骰面{faces_text(roll.faces)}，合计{roll.total + flat}"
