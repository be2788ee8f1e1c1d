"""The success-counting dice pool (the `.ww` family): traced rolls, fast successes, sentences."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Tuple

from .core import faces_text, record


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


def pool_sentence(label: str, roll: PoolRoll) -> str:
    """The trace sentence of a pool roll (added dice are marked with +)."""
    if roll.all_succeed:
        return f"{label}：{roll.command}，所有{roll.dice}个骰子均视为成功（不加骰）"
    extras = f"（另有附加成功{roll.extras}）" if roll.extras else ""
    if roll.dice == 0:
        return f"{label}：没有骰子可掷，成功数{roll.successes}{extras}"
    return (f"{label}：掷{roll.command}，骰面{faces_text(roll.faces, roll.added)}，"
            f"成功数{roll.successes}{extras}")
