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
"""

from __future__ import annotations

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


def hex_ring(center: Cell, radius: int) -> List[Cell]:
    """The hexes at exactly `radius` from `center`, in order around the ring."""
    if radius == 0:
        return [center]
    q, r = center[0] + _HEX_DIRS[4][0] * radius, center[1] + _HEX_DIRS[4][1] * radius
    ring = []
    for direction in range(6):
        for _ in range(radius):
            ring.append((q, r))
            q, r = q + _HEX_DIRS[direction][0], r + _HEX_DIRS[direction][1]
    return ring


def hex_cells(q: int, r: int, size: int) -> List[Cell]:
    radius = _HEX_RADIUS.get(size, 0)
    return [(q + dq, r + dr) for dq in range(-radius, radius + 1) for dr in range(-radius, radius + 1)
            if hex_distance((q + dq, r + dr), (q, r)) <= radius]


def flanks_hex(aq: int, ar: int, a_size: int, bq: int, br: int, b_size: int,
               eq: int, er: int, e_size: int, needed: int) -> bool:
    ring = hex_ring((eq, er), _HEX_RADIUS.get(e_size, 0) + 1)
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
