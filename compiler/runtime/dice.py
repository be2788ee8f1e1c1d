"""Dice sources and the dice engines that consume them.

A dice source has one method, `die(sides) -> face`. `SeededDice` is for play
(`random.Random`, reproducible with a seed); `FixedDice` replays given faces
for tests and worked examples, in this documented order:

* a pool roll takes its initial dice left to right, then every added die
  (加骰) in the order it was triggered, added dice of added dice included;
* a d20 roll with N advantage or disadvantage layers takes N + 1 faces;
* a damage roll takes each term's dice in order, then on a crit the same dice
  again (R31).

Running out of fixed faces raises `DiceExhausted`; a face the die cannot show
raises `BadFace`. Each engine has a traced form (returns an immutable roll
record with every face) and a fast form used when no trace is wanted.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Protocol, Sequence, Tuple

from .core import BadFace, DiceExhausted, record

DamageTerms = Tuple[Tuple[int, int], ...]  # ((count, sides), ...)


class DiceValue(NamedTuple):
    """A dice expression from the rules, e.g. 2d6+3: its text, dice terms and flat bonus."""

    text: str
    terms: DamageTerms
    flat: int


_MADE: Dict[Tuple[int, int], DiceValue] = {}


def make_dice(count: int, sides: int) -> DiceValue:
    """The dice value `countDsides` built by a formula (e.g. dice(2, 6)); 0 dice roll nothing."""
    key = (count, sides)
    value = _MADE.get(key)
    if value is None:
        if count < 0 or sides < 1:
            raise ValueError(f"cannot roll {count}d{sides}")
        value = DiceValue(f"{count}d{sides}", ((count, sides),) if count else (), 0)
        _MADE[key] = value
    return value


class DiceSource(Protocol):
    """Anything with `die(sides) -> face`."""

    def die(self, sides: int) -> int:
        ...


class SeededDice:
    """Random faces from `random.Random(seed)`; the same seed replays the same rolls.

    A face is `int(random() * sides) + 1`. Fast resolvers use `random` directly
    when a source has it, so a custom source should expose `random` only with
    exactly that meaning.
    """

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = random.Random(seed)
        self.random = self.rng.random

    def die(self, sides: int) -> int:
        return int(self.random() * sides) + 1


class FixedDice:
    """Faces given in advance, consumed in order; for tests and worked examples."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces: List[int] = list(faces)
        self.used = 0

    def die(self, sides: int) -> int:
        if self.used >= len(self.faces):
            raise DiceExhausted(
                f"固定骰面已用完：第{self.used + 1}个骰子（d{sides}）没有给出骰面",
                needed=self.used + 1,
                given=len(self.faces),
            )
        face = self.faces[self.used]
        if not isinstance(face, int) or not 1 <= face <= sides:
            raise BadFace(f"第{self.used + 1}个骰面{face!r}不是d{sides}能掷出的点数", index=self.used)
        self.used += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.used


class PoolSpec:
    """A success-counting pool (the `.ww` family): sides, success and add-die thresholds, bot command."""

    __slots__ = ("sides", "success_at", "add_at", "prefix", "bot_default_add_at")

    def __init__(self, sides: int, success_at: int, add_at: int, prefix: str = ".ww",
                 bot_default_add_at: int = 10) -> None:
        self.sides = sides
        self.success_at = success_at
        self.add_at = add_at if add_at > 0 else sides + 1
        self.prefix = prefix
        self.bot_default_add_at = bot_default_add_at

    def command(self, dice: int, extras: int) -> str:
        text = f"{self.prefix}{dice}"
        if self.add_at != self.bot_default_add_at and self.add_at <= self.sides:
            text += f"a{self.add_at}"
        if extras > 0:
            text += f"+{extras}"
        elif extras < 0:
            text += f"{extras}"
        return text


class PoolRoll(NamedTuple):
    """An immutable record of one pool roll."""

    dice: int
    extras: int
    faces: Tuple[int, ...]
    added: Tuple[bool, ...]
    successes: int
    command: str
    all_succeed: bool

    def to_dict(self) -> Dict[str, Any]:
        return {
            "kind": "pool",
            "command": self.command,
            "dice": self.dice,
            "extras": self.extras,
            "faces": list(self.faces),
            "added": list(self.added),
            "successes": self.successes,
            "all_succeed": self.all_succeed,
        }


def roll_pool(source: Any, spec: PoolSpec, dice: int, extras: int,
              all_succeed: bool = False) -> PoolRoll:
    """Roll `dice` dice (added dice chain) and count successes; extras are reported, not added."""
    command = spec.command(dice, extras)
    if all_succeed:
        return record(PoolRoll, (dice, extras, (), (), dice, command, True))
    die = source.die
    faces: List[int] = []
    added: List[bool] = []
    successes = 0
    pending = dice
    rolled = 0
    while pending > 0:
        pending -= 1
        face = die(spec.sides)
        faces.append(face)
        added.append(rolled >= dice)
        rolled += 1
        if face >= spec.success_at:
            successes += 1
        if face >= spec.add_at:
            pending += 1
    return record(PoolRoll, (dice, extras, tuple(faces), tuple(added), successes, command, False))


def pool_successes(die: Callable[[int], int], dice: int, sides: int, success_at: int,
                   add_at: int) -> int:
    """The fast form of `roll_pool`: only the number of successes."""
    successes = 0
    while dice > 0:
        dice -= 1
        face = die(sides)
        if face >= success_at:
            successes += 1
            if face >= add_at:
                dice += 1
        elif face >= add_at:
            dice += 1
    return successes


def pool_successes_random(random: Callable[[], float], dice: int, sides: int, success_at: int,
                          add_at: int) -> int:
    """`pool_successes` for a source that exposes `random()` (like SeededDice): faces inline."""
    successes = 0
    if add_at >= success_at:  # the usual pool: only a success can add a die
        while dice > 0:
            dice -= 1
            face = int(random() * sides) + 1
            if face >= success_at:
                successes += 1
                if face >= add_at:
                    dice += 1
        return successes
    while dice > 0:
        dice -= 1
        face = int(random() * sides) + 1
        if face >= success_at:
            successes += 1
            if face >= add_at:
                dice += 1
        elif face >= add_at:
            dice += 1
    return successes


class D20Roll(NamedTuple):
    """An immutable record of a d20 roll with advantage layers."""

    faces: Tuple[int, ...]
    natural: int
    layers: int

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": "d20", "faces": list(self.faces), "natural": self.natural,
                "layers": self.layers}


def net_layers(advantage: int, disadvantage: int, stacking: bool) -> int:
    """Net advantage layers: positive keeps the highest, negative the lowest (R32)."""
    net = advantage - disadvantage
    if not stacking:
        net = (net > 0) - (net < 0)
    return net


def roll_d20(source: Any, layers: int) -> D20Roll:
    if layers == 0:
        face = source.die(20)
        return record(D20Roll, ((face,), face, 0))
    die = source.die
    faces = tuple([die(20) for _ in range(abs(layers) + 1)])
    natural = max(faces) if layers >= 0 else min(faces)
    return record(D20Roll, (faces, natural, layers))


class _MoreDice(Exception):
    """Raised by `_GivenFaces` when a resolution asks for a die past the faces it was given."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _GivenFaces:
    """A dice source that gives a fixed list of faces, then refuses any further die."""

    __slots__ = ("faces", "next")

    def __init__(self, faces: List[int]) -> None:
        self.faces = faces
        self.next = 0

    def die(self, sides: int) -> int:
        if self.next == len(self.faces):
            raise _MoreDice(sides)
        self.next += 1
        return self.faces[self.next - 1]


class _OverBudget(Exception):
    pass


FACE_TREE_BUDGET = 256  # resolutions run to build one prepared resolver's face table, at most


def _face_tree(roll: Callable[[Any], Any], faces: List[int], left: List[int]) -> Any:
    """`roll`'s outcome after `faces`, or, when it asks for another die of n sides, the list of
    the n subtrees for faces 1..n of that die. Each resolution run spends one unit of `left`."""
    if left[0] <= 0:
        raise _OverBudget
    left[0] -= 1
    try:
        return roll(_GivenFaces(faces))
    except _MoreDice as more:
        return [_face_tree(roll, faces + [face], left) for face in range(1, more.sides + 1)]


def face_table(sides: int, budget: int = FACE_TREE_BUDGET) -> List[Any]:
    """An empty face table for a prepared resolution whose first die has `sides` sides.

    Index = the face of that die; index 0 holds how many resolution runs are left for
    tabulating (`budget`). Each entry starts False (not tabulated yet); `face_tree` fills it
    the first time that face is rolled, so preparing costs nothing and each face is
    tabulated once. A filled entry is `roll`'s outcome when the face alone decides it (a
    miss); or a tree that the faces of the next dice decide: a list whose item i is the
    outcome, or the next such list, when that die shows i + 1; or None when the face is not
    tabulated (its tree is larger than the budget left, or the resolution raises on some
    faces: the normal path then runs and raises it itself).

    A prepared d20 resolver draws the first face, then walks this tree with the same
    `int(random() * sides)` draws SeededDice.die makes, in the same order. The outcomes come
    from the resolver's own general path, so they are what rolling those faces gives, by
    construction. Threads sharing one prepared resolver may both tabulate a face; they store
    equal trees, so the race costs time, never a different outcome.
    """
    return [budget] + [False] * sides


def face_tree(roll: Callable[[Any], Any], table: List[Any], face: int) -> Any:
    """Fill `table[face]` (see `face_table`) from runs of `roll`'s general path, and return it."""
    left = [table[0]]
    try:
        node = _face_tree(roll, [face], left)
    except Exception:  # noqa: BLE001 - over budget, or an error the normal path raises itself
        node = None
    table[0] = left[0]
    table[face] = node
    return node


def d20_natural(die: Callable[[int], int], layers: int) -> int:
    """The fast form of `roll_d20`: only the kept face (the same faces, in the same order)."""
    kept = die(20)
    for _ in range(layers if layers > 0 else -layers):
        face = die(20)
        if face > kept if layers > 0 else face < kept:
            kept = face
    return kept


def d20_natural_random(random: Callable[[], float], layers: int) -> int:
    """`d20_natural` for a source that exposes `random()` (like SeededDice): faces inline."""
    kept = int(random() * 20) + 1
    for _ in range(layers if layers > 0 else -layers):
        face = int(random() * 20) + 1
        if face > kept if layers > 0 else face < kept:
            kept = face
    return kept


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


def damage_roller(value: Optional["DiceValue"]) -> Callable[[Callable[[int], int], bool], int]:
    """A roller specialised to one dice value (total including its flat bonus), for bulk rolling."""
    if value is None:
        return lambda die, crit: 0
    terms, flat = value.terms, value.flat
    if len(terms) == 1 and terms[0][0] == 1:
        sides = terms[0][1]
        return lambda die, crit: die(sides) + die(sides) + flat if crit else die(sides) + flat
    return lambda die, crit: damage_total(die, terms, crit) + flat


def damage_total_random(random: Callable[[], float], terms: DamageTerms, crit: bool) -> int:
    """`damage_total` for a source that exposes `random()` (like SeededDice): faces inline."""
    total = 0
    for _ in range(2 if crit else 1):
        for count, sides in terms:
            for _ in range(count):
                total += int(random() * sides) + 1
    return total


def damage_roller_random(value: Optional["DiceValue"]) -> Callable[[Callable[[], float], bool], int]:
    """`damage_roller` for a source that exposes `random()`: the same total from the same faces."""
    if value is None:
        return lambda random, crit: 0
    terms, flat = value.terms, value.flat
    return lambda random, crit: damage_total_random(random, terms, crit) + flat


def single_die(value: Optional["DiceValue"]) -> Tuple[int, int]:
    """(sides, flat) when a dice value is exactly one die plus a bonus, else (0, 0): prepared
    resolvers roll such a value inline."""
    if value is not None and len(value.terms) == 1 and value.terms[0][0] == 1:
        return value.terms[0][1], value.flat
    return 0, 0


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


def sample_table(values: Sequence[int], cum_weights: Sequence[float], rng: random.Random,
                 k: int) -> List[int]:
    """Draw k values from an exact distribution table (batch simulation)."""
    return rng.choices(values, cum_weights=cum_weights, k=k)


def _faces_text(faces: Sequence[int], added: Sequence[bool] = ()) -> str:
    if len(faces) == 1 and not added:
        return f"[{faces[0]}]"
    if not any(added):
        return "[" + ", ".join(map(str, faces)) + "]"
    marks = list(added) + [False] * (len(faces) - len(added))
    return "[" + ", ".join([f"{f}+" if a else str(f) for f, a in zip(faces, marks)]) + "]"


def pool_sentence(label: str, roll: PoolRoll) -> str:
    """The trace sentence of a pool roll (added dice are marked with +)."""
    if roll.all_succeed:
        return f"{label}：{roll.command}，所有{roll.dice}个骰子均视为成功（不加骰）"
    extras = f"（另有附加成功{roll.extras}）" if roll.extras else ""
    return (f"{label}：掷{roll.command}，骰面{_faces_text(roll.faces, roll.added)}，"
            f"成功数{roll.successes}{extras}")


def d20_sentence(label: str, roll: D20Roll) -> str:
    if roll.layers == 0:
        return f"{label}：掷d20得{roll.natural}"
    mode = f"{abs(roll.layers)}重{'优势' if roll.layers > 0 else '劣势'}"
    return f"{label}：{mode}，掷{len(roll.faces)}个d20 {_faces_text(roll.faces)}，取{roll.natural}"


def damage_sentence(label: str, roll: DamageRoll, flat: int) -> str:
    bonus = f"{flat:+d}" if flat else ""
    crit = "（重击，伤害骰掷两次）" if roll.crit else ""
    return f"{label}：掷{roll.expression}{bonus}{crit}，骰面{_faces_text(roll.faces)}，合计{roll.total + flat}"


def initiative_order(entries: Sequence[Tuple[str, int, int]], spec: PoolSpec, source: Any,
                     use_extras: bool = True, max_rerolls: int = 50) -> Tuple[List[str], List[str]]:
    """Order combatants by initiative (tracks R50) and return (names in order, trace sentences).

    Each entry is (name, dice, extras). Sort by successes, then extras, both
    descending; only those still tied roll again, repeatedly, until the order is
    strict. Entries that can never break a tie (no dice, same extras) keep their
    given order after `max_rerolls` rounds.
    """
    trace: List[str] = []

    def rank(group: List[Tuple[str, int, int]], depth: int) -> List[str]:
        rolled = []
        for name, dice, extras in group:
            roll = roll_pool(source, spec, dice, extras)
            trace.append(pool_sentence(f"{name}先攻" + (f"（第{depth + 1}次重掷）" if depth else ""), roll))
            rolled.append(((roll.successes, extras if use_extras else 0), (name, dice, extras)))
        rolled.sort(key=lambda item: (-item[0][0], -item[0][1]))
        order: List[str] = []
        i = 0
        while i < len(rolled):
            j = i
            while j < len(rolled) and rolled[j][0] == rolled[i][0]:
                j += 1
            tied = [entry for _, entry in rolled[i:j]]
            if len(tied) == 1:
                order.append(tied[0][0])
            elif depth >= max_rerolls:
                trace.append("仍然平手，保持给出的顺序：" + "、".join(e[0] for e in tied))
                order += [e[0] for e in tied]
            else:
                trace.append("平手，重新检定：" + "、".join(e[0] for e in tied))
                order += rank(tied, depth + 1)
            i = j
        return order

    return rank(list(entries), 0), trace
