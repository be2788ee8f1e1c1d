"""The d20 with advantage layers: traced rolls, fast kept faces, face tables of prepared resolvers."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Tuple

from .core import faces_text, record


class D20Roll(NamedTuple):
    """An immutable record of a d20 roll with advantage layers."""

    faces: Tuple[int, ...]
    natural: int
    layers: int

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": "d20", "faces": list(self.faces), "natural": self.natural,
                "layers": self.layers}


def roll_d20(source: Any, layers: int) -> D20Roll:
    if layers == 0:
        face = source.die(20)
        return record(D20Roll, ((face,), face, 0))
    die = source.die
    faces = tuple([die(20) for _ in range(abs(layers) + 1)])
    natural = max(faces) if layers >= 0 else min(faces)
    return record(D20Roll, (faces, natural, layers))


def d20_natural(die: Callable[[int], int], layers: int) -> int:
    """The fast form of `roll_d20`: only the kept face (the same faces, in the same order)."""
    kept = die(20)
    for _ in range(layers if layers > 0 else -layers):
        face = die(20)
        if face > kept if layers > 0 else face < kept:
            kept = face
    return kept


def d20_natural_random(random: Callable[[], float], layers: int) -> int:
    """`d20_natural` for a SeededDice's `random()` (the only source read through it): faces inline."""
    kept = int(random() * 20) + 1
    for _ in range(layers if layers > 0 else -layers):
        face = int(random() * 20) + 1
        if face > kept if layers > 0 else face < kept:
            kept = face
    return kept


def d20_sentence(label: str, roll: D20Roll) -> str:
    if roll.layers == 0:
        return f"{label}：掷d20得{roll.natural}"
    mode = f"{abs(roll.layers)}重{'优势' if roll.layers > 0 else '劣势'}"
    return f"{label}：{mode}，掷{len(roll.faces)}个d20 {faces_text(roll.faces)}，取{roll.natural}"


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
