"""Grid geometry for flanking (d20 R33) and cube-root rounding (R39), in exact integer arithmetic.

Positions are the top-left square (or the centre hex, axial q, r) of a
creature's space; sizes are size categories 1 tiny ... 6 gargantuan. A large or
larger creature qualifies through any one of its cells.

* Squares: two allies flank when the segment between the centres of one cell of
  each, both cells next to the enemy's space, passes through the centre point of
  the enemy's space. Coordinates are doubled so every centre is an integer.
* Hexes: count the perimeter hexes of the enemy's space between one cell of
  each ally, the shorter way round; they flank when that count reaches
  `needed` (2 for medium or smaller, 4 large, 5 huge, 6 gargantuan by default).
  A large space is four hexes (a rhombus), huge seven (radius 1), gargantuan
  nineteen (radius 2): their perimeters (10, 12, 18) put two creatures on
  opposite sides 4, 5 and 8 hexes apart.
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import List, Tuple

from .core import RuleError

Cell = Tuple[int, int]

_SQUARE_SIDE = {1: 1, 2: 1, 3: 1, 4: 2, 5: 3, 6: 4}
_HEX_RADIUS = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}
_HEX_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def square_cells(x: int, y: int, size: int) -> List[Cell]:
    side = _SQUARE_SIDE.get(size, 1)
    return [(x + i, y + j) for i in range(side) for j in range(side)]


def _adjacent_to(cell: Cell, space: List[Cell]) -> bool:
    return cell not in space and any(max(abs(cell[0] - c[0]), abs(cell[1] - c[1])) == 1 for c in space)


def flanks_square(ax: int, ay: int, a_size: int, bx: int, by: int, b_size: int,
                  ex: int, ey: int, e_size: int) -> bool:
    enemy = square_cells(ex, ey, e_size)
    side = _SQUARE_SIDE.get(e_size, 1)
    cx, cy = 2 * ex + side, 2 * ey + side  # doubled centre of the enemy's space
    a_cells = [c for c in square_cells(ax, ay, a_size) if _adjacent_to(c, enemy)]
    b_cells = [c for c in square_cells(bx, by, b_size) if _adjacent_to(c, enemy)]
    for a in a_cells:
        px, py = 2 * a[0] + 1, 2 * a[1] + 1
        for b in b_cells:
            qx, qy = 2 * b[0] + 1, 2 * b[1] + 1
            cross = (qx - px) * (cy - py) - (qy - py) * (cx - px)
            if cross != 0:
                continue
            dot = (cx - px) * (qx - px) + (cy - py) * (qy - py)
            if 0 < dot < (qx - px) ** 2 + (qy - py) ** 2:
                return True
    return False


def hex_distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_cells(q: int, r: int, size: int) -> List[Cell]:
    """The hexes of a creature's space (D20-12): one for medium or smaller, four for large (the
    rhombus (q, r), (q+1, r), (q, r+1), (q+1, r+1)), seven for huge (radius 1 around (q, r)),
    nineteen for gargantuan (radius 2): the footprints whose perimeters give the seed's 2 / 4 / 5
    hexes between two creatures on opposite sides (6, 10 and 12 perimeter hexes)."""
    if size == 4:
        return [(q, r), (q + 1, r), (q, r + 1), (q + 1, r + 1)]
    radius = _HEX_RADIUS.get(size, 0)
    return [(q + dq, r + dr) for dq in range(-radius, radius + 1) for dr in range(-radius, radius + 1)
            if hex_distance((q + dq, r + dr), (q, r)) <= radius]


def hex_perimeter(space: List[Cell]) -> List[Cell]:
    """The hexes next to `space` and outside it, in order around it: sorted by angle about its
    centroid, exactly (the plane (2q + r, r) is an affine image of the hex plane, so cross
    products keep their signs; coordinates are scaled by the cell count to stay integers)."""
    inside = set(space)
    ring = sorted({(c[0] + d[0], c[1] + d[1]) for c in space for d in _HEX_DIRS} - inside)
    n = len(space)
    cx, cy = sum(2 * c[0] + c[1] for c in space), sum(c[1] for c in space)
    points = [((2 * c[0] + c[1]) * n - cx, c[1] * n - cy, c) for c in ring]

    def key(p: Tuple[int, int, Cell]) -> int:  # the half-plane: 0 for angles in [0, pi), else 1
        return 0 if p[1] > 0 or (p[1] == 0 and p[0] > 0) else 1

    def before(a: Tuple[int, int, Cell], b: Tuple[int, int, Cell]) -> int:
        if key(a) != key(b):
            return key(a) - key(b)
        cross = a[0] * b[1] - a[1] * b[0]
        return -1 if cross > 0 else 1 if cross < 0 else (a[0] ** 2 + a[1] ** 2) - (b[0] ** 2 + b[1] ** 2)

    return [p[2] for p in sorted(points, key=cmp_to_key(before))]


def flanks_hex(aq: int, ar: int, a_size: int, bq: int, br: int, b_size: int,
               eq: int, er: int, e_size: int, needed: int) -> bool:
    ring = hex_perimeter(hex_cells(eq, er, e_size))
    index = {cell: i for i, cell in enumerate(ring)}
    a_idx = [index[c] for c in hex_cells(aq, ar, a_size) if c in index]
    b_idx = [index[c] for c in hex_cells(bq, br, b_size) if c in index]
    n = len(ring)
    for i in a_idx:
        for j in b_idx:
            d = abs(i - j)
            if min(d, n - d) - 1 >= needed:
                return True
    return False


def round_cbrt(volume: int, step: int) -> int:
    """The multiple of `step` nearest to the cube root of `volume` (halves round up), exactly."""
    if volume < 0 or step <= 0:
        raise RuleError("体积必须非负，步长必须为正")
    k = 0
    # Largest k with ((k + 1/2) * step)^3 <= volume, i.e. (2k+1)^3 * step^3 <= 8 * volume.
    hi = 1
    while (2 * hi + 1) ** 3 * step**3 <= 8 * volume:
        hi *= 2
    lo = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if (2 * mid + 1) ** 3 * step**3 <= 8 * volume:
            lo = mid + 1
        else:
            hi = mid
    k = lo
    return k * step
