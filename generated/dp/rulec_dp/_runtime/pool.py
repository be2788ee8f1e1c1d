"""The success-counting dice pool (the `.ww` family): traced rolls, fast successes, sentences."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Tuple

from .core import LimitExceeded, faces_text, record

# The default of the pool engine's `dice.limits.added_dice` (compiler/engines/pool.py): the most
# dice one pool may add (加骰) before the roll stops with LimitExceeded. Generated code passes
# its ruleset's declared limit; the compiler checks that fair dice exceed it with probability
# at most 1e-16 for the largest pool the ruleset allows, so only a source that is not random (one
# that always shows its highest face, say) can reach it. Every pool function here has a cap.
ADDED_DICE = 1000


def too_many_added(max_added: int) -> LimitExceeded:
    """The error of a pool whose added dice pass `max_added`."""
    return LimitExceeded(f"一次骰池检定的加骰超过{max_added}个，超过规则集的上限（added_dice）："
                         "公平的骰子几乎不可能如此（概率低于10⁻¹⁶），请检查骰子来源", limit=max_added)


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
              all_succeed: bool = False, max_added: int = ADDED_DICE) -> PoolRoll:
    """Roll `dice` dice (added dice chain, at most `max_added` added dice: LimitExceeded past them)
    and count successes; extras are reported, not added."""
    command = spec.command(dice, extras)
    if all_succeed:
        return record(PoolRoll, (dice, extras, (), (), dice, command, True))
    die = source.die
    faces: List[int] = []
    added: List[bool] = []
    successes = 0
    pending = dice
    rolled = 0
    left = max_added  # added dice still allowed
    while pending > 0:
        pending -= 1
        face = die(spec.sides)
        faces.append(face)
        added.append(rolled >= dice)
        rolled += 1
        if face >= spec.success_at:
            successes += 1
        if face >= spec.add_at:
            if left <= 0:
                raise too_many_added(max_added)
            left -= 1
            pending += 1
    return record(PoolRoll, (dice, extras, tuple(faces), tuple(added), successes, command, False))


def pool_successes(die: Callable[[int], int], dice: int, sides: int, success_at: int,
                   add_at: int, max_added: int = ADDED_DICE) -> int:
    """The fast form of `roll_pool`: only the number of successes (the same cap on added dice)."""
    successes = 0
    left = max_added  # added dice still allowed
    while dice > 0:
        dice -= 1
        face = die(sides)
        if face >= success_at:
            successes += 1
            if face >= add_at:
                if left <= 0:
                    raise too_many_added(max_added)
                left -= 1
                dice += 1
        elif face >= add_at:
            if left <= 0:
                raise too_many_added(max_added)
            left -= 1
            dice += 1
    return successes


def pool_successes_random(random: Callable[[], float], dice: int, sides: int, success_at: int,
                          add_at: int, max_added: int = ADDED_DICE) -> int:
    """`pool_successes` for a SeededDice's `random()`: faces inline (the same cap on added dice)."""
    successes = 0
    left = max_added  # added dice still allowed
    if add_at >= success_at:  # the usual pool: only a success can add a die
        while dice > 0:
            dice -= 1
            face = int(random() * sides) + 1
            if face >= success_at:
                successes += 1
                if face >= add_at:
                    if left <= 0:
                        raise too_many_added(max_added)
                    left -= 1
                    dice += 1
        return successes
    while dice > 0:
        dice -= 1
        face = int(random() * sides) + 1
        if face >= success_at:
            successes += 1
            if face >= add_at:
                if left <= 0:
                    raise too_many_added(max_added)
                left -= 1
                dice += 1
        elif face >= add_at:
            if left <= 0:
                raise too_many_added(max_added)
            left -= 1
            dice += 1
    return successes


def pool_sentence(label: str, roll: PoolRoll) -> str:
    """The trace sentence of a pool roll (added dice are marked with +)."""
    if roll.all_succeed:
        return f"{label}：{roll.command}，所有{roll.dice}个骰子均视为成功（不加骰）"
    extras = f"（另有附加成功{roll.extras}）" if roll.extras else ""
    if roll.dice == 0:
        return f"{label}：没有骰子可掷，成功数{roll.successes}{extras}"
    return (f"{label}：掷{roll.command}，骰面{faces_text(roll.faces, roll.added)}，"
            f"成功数{roll.successes}{extras}")
