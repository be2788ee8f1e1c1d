"""Dice sources: where the faces come from, in a documented order.

A dice source has one method, `die(sides) -> face`. `SeededDice` is for play
(`random.Random`, reproducible with a seed); `FixedDice` replays given faces
for tests and worked examples, in this order:

* a pool roll takes its initial dice left to right, then every added die
  (加骰) in the order it was triggered, added dice of added dice included;
* a d20 roll with N advantage or disadvantage layers takes N + 1 faces;
* a damage roll takes each term's dice in order, then on a crit the same dice
  again (R31).

Running out of fixed faces raises `DiceExhausted`; a face the die cannot show
raises `BadFace`.

Every resolver takes its `dice` argument through `dice_source`, the one entry point of a dice
source into generated code: a `SeededDice` or `FixedDice` (exactly those classes, whose
instances cannot be changed to roll anything else) is used as it is, since its faces are made
or checked inside it; any other object with a `die` method is wrapped once per call in a
`CheckedDice`, which checks every face it gives (an `int`, not a `bool`, in 1..sides, else
`BadFace`); anything else is `OutOfBounds`. Only a `SeededDice` is ever read through its
`random` (the inline fast paths), so a custom source's `random` is never trusted either.
"""

from __future__ import annotations

import random
import re
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Protocol, Tuple, Type

from .core import BadFace, DiceExhausted, OutOfBounds, RuleError, bounded_list, described, kind

DamageTerms = Tuple[Tuple[int, int], ...]  # ((count, sides), ...)


class DiceValue(NamedTuple):
    """A dice expression from the rules, e.g. 2d6+3: its text, dice terms and flat bonus."""

    text: str
    terms: DamageTerms
    flat: int


def dice_count(value: Optional[DiceValue]) -> int:
    """How many dice a dice value rolls (none for no value)."""
    if value is None:
        return 0
    terms = value.terms
    return terms[0][0] if len(terms) == 1 else sum([count for count, _ in terms])


def join_dice(first: Optional[DiceValue], second: Optional[DiceValue]) -> Optional[DiceValue]:
    """Two damage rolls as one (an odds function enumerates two rolls it reads only as their sum
    as one roll of all their dice): the dice of both and both bonuses; None when neither rolls."""
    if first is None:
        return second
    if second is None:
        return first
    return DiceValue(f"{first.text}+{second.text}", first.terms + second.terms, first.flat + second.flat)


_MADE: Dict[Tuple[int, int], DiceValue] = {}


def make_dice(count: int, sides: int) -> DiceValue:
    """The dice value `countDsides` built by a formula (e.g. dice(2, 6)); 0 dice roll nothing."""
    key = (count, sides)
    value = _MADE.get(key)
    if value is None:
        if count < 0 or sides < 1:
            raise RuleError(f"无法掷{count}d{sides}：骰子数不能为负，面数至少为1")
        value = DiceValue(f"{count}d{sides}", ((count, sides),) if count else (), 0)
        _MADE[key] = value
    return value


class DiceSource(Protocol):
    """Anything with `die(sides) -> face`."""

    def die(self, sides: int) -> int:
        ...


class SeededDice:
    """Random faces from `random.Random(seed)`; the same seed replays the same rolls.

    A face is `int(random() * sides) + 1`. Fast resolvers draw faces from `random` directly
    for this class only (not a subclass, not another source with a `random`); an instance's
    attributes cannot be reassigned, so its faces are always in 1..sides.
    """

    __slots__ = ("rng", "random")
    rng: random.Random
    random: Callable[[], float]

    def __init__(self, seed: Optional[int] = None) -> None:
        object.__setattr__(self, "rng", random.Random(_seed(seed)))
        object.__setattr__(self, "random", self.rng.random)

    def __setattr__(self, key: str, value: Any) -> None:
        if self.__class__ is SeededDice:  # a subclass is a source of its own, checked like any other
            raise AttributeError(f"SeededDice is read-only: '{key}' cannot be set (write a dice source instead)")
        object.__setattr__(self, key, value)

    def __reduce__(self) -> Any:  # copy and pickle: the same state, through __init__'s path
        return (_seeded_from_state, (self.__class__, self.rng.getstate()))

    def die(self, sides: int) -> int:
        _sides(sides)
        return int(self.random() * sides) + 1


MAX_SEED_DIGITS = 4000  # a seed's decimal digits (a chat id is 10 to 20)
MAX_FIXED_FACES = 10_000  # faces given in advance (what a scenario may list)
_DIGITS = re.compile(r"-?[0-9]{1,%d}" % MAX_SEED_DIGITS)


def _seed(seed: Any) -> Optional[int]:
    """A seed as `random.Random` takes it: None, or a whole number (an int, or its decimal digits as
    text, as the JavaScript twin reads a chat id too long for a Number) of at most MAX_SEED_DIGITS."""
    if seed is None:
        return None
    if seed.__class__ is int and -10 ** MAX_SEED_DIGITS < seed < 10 ** MAX_SEED_DIGITS:
        return seed
    if seed.__class__ is str and _DIGITS.fullmatch(seed):
        return int(seed)
    raise OutOfBounds(f"种子必须是整数（或它的十进制数字串），得到{described(seed)}", key="seed")


def _sides(sides: Any) -> None:
    if sides.__class__ is not int or not 1 <= sides <= 1_000_000:
        raise OutOfBounds(f"骰子的面数必须是1至1000000的整数，得到{described(sides)}", key="sides")


def _seeded_from_state(cls: Type[SeededDice], state: Any) -> SeededDice:
    out = cls.__new__(cls)
    SeededDice.__init__(out)
    out.rng.setstate(state)
    return out


class FixedDice:
    """Faces given in advance, consumed in order; for tests and worked examples (each face is
    checked as it is consumed)."""

    __slots__ = ("faces", "used")

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces: List[int] = bounded_list("固定骰面", faces, MAX_FIXED_FACES)
        self.used = 0

    def die(self, sides: int) -> int:
        _sides(sides)
        if self.used >= len(self.faces):
            raise DiceExhausted(
                f"固定骰面已用完：第{self.used + 1}个骰子（d{sides}）没有给出骰面",
                needed=self.used + 1,
                given=len(self.faces),
            )
        face = self.faces[self.used]
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise BadFace(f"第{self.used + 1}个骰面{described(face)}不是d{sides}能掷出的点数", index=self.used)
        self.used += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.used


def _face_text(face: Any) -> str:
    """A face a source gave, short enough for a message whatever it is."""
    return described(face)


class CheckedDice:
    """A dice source of the caller's own (any object with `die(sides)`), with every face checked:
    a whole number (`int`, not `bool`) from 1 to `sides`, else `BadFace`. Made by `dice_source`."""

    __slots__ = ("_die", "given")

    def __init__(self, source: Any) -> None:
        die = getattr(source, "die", None)
        if not callable(die):
            raise OutOfBounds("dice必须是有die(sides)方法的骰子来源（SeededDice、FixedDice或自定义），"
                              f"得到{kind(source)}", name="dice")
        self._die: Callable[[int], Any] = die
        self.given = 0

    def die(self, sides: int) -> int:
        face = self._die(sides)
        self.given += 1
        if face.__class__ is not int and (not isinstance(face, int) or isinstance(face, bool)) \
                or not 1 <= face <= sides:
            raise BadFace(f"骰子来源给出的第{self.given}个骰面{_face_text(face)}不是d{sides}能掷出的点数",
                          index=self.given - 1)
        return int(face)


def dice_source(dice: Any) -> DiceSource:
    """The dice argument of a resolver as a source whose faces are valid (see the module's
    docstring): a SeededDice or FixedDice itself, any other source wrapped in a CheckedDice, and
    anything without a `die` method refused (OutOfBounds)."""
    cls = dice.__class__
    if cls is SeededDice or cls is FixedDice or cls is CheckedDice:
        trusted: DiceSource = dice
        return trusted
    return CheckedDice(dice)


def parse_dice(text: str) -> Tuple[DamageTerms, int]:
    """Parse `2d6+1d4+3` into ((2, 6), (1, 4)) and 3. Raises ValueError on anything else."""
    terms: List[Tuple[int, int]] = []
    flat = 0
    cleaned = text.replace(" ", "")
    if not cleaned:
        raise ValueError("empty dice expression")
    for i, raw in enumerate(cleaned.replace("-", "+-").split("+")):
        if raw == "" and i == 0:
            continue
        sign = -1 if raw.startswith("-") else 1
        part = raw.lstrip("-")
        if "d" in part:
            if sign < 0:
                raise ValueError("dice cannot be subtracted")
            count_text, _, sides_text = part.partition("d")
            count = int(count_text) if count_text else 1
            if not sides_text.isdigit() or not (count_text == "" or count_text.isdigit()):
                raise ValueError(f"cannot read '{raw}'")
            sides = int(sides_text)
            if not (1 <= count <= 100 and 2 <= sides <= 1000):
                raise ValueError(f"'{raw}' is outside 1-100 dice of 2-1000 sides")
            terms.append((count, sides))
        elif part.isdigit():
            flat += sign * int(part)
        else:
            raise ValueError(f"cannot read '{raw}'")
    return tuple(terms), flat
