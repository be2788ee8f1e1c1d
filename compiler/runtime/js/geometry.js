// Grid geometry for flanking (d20 R33) and cube-root rounding (R39): geometry.py in JavaScript,
// in exact integer arithmetic (every quantity stays far below 2^53).
const _rt_SQUARE_SIDE = {1: 1, 2: 1, 3: 1, 4: 2, 5: 3, 6: 4};
const _rt_HEX_RADIUS = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2};
const _rt_HEX_DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
function _rt_square_cells(x, y, size) {
  const side = _rt_SQUARE_SIDE[size] || 1, out = [];
  for (let i = 0; i < side; i++) for (let j = 0; j < side; j++) out.push([x + i, y + j]);
  return out;
}
function _rt_adjacent_to(cell, space) {
  const inside = space.some(c => c[0] === cell[0] && c[1] === cell[1]);
  return !inside && space.some(c => Math.max(Math.abs(cell[0] - c[0]), Math.abs(cell[1] - c[1])) === 1);
}
function _rt_flanks_square(ax, ay, aSize, bx, by, bSize, ex, ey, eSize) {
  const enemy = _rt_square_cells(ex, ey, eSize), side = _rt_SQUARE_SIDE[eSize] || 1;
  const cx = 2 * ex + side, cy = 2 * ey + side;
  const aCells = _rt_square_cells(ax, ay, aSize).filter(c => _rt_adjacent_to(c, enemy));
  const bCells = _rt_square_cells(bx, by, bSize).filter(c => _rt_adjacent_to(c, enemy));
  for (const a of aCells) {
    const px = 2 * a[0] + 1, py = 2 * a[1] + 1;
    for (const b of bCells) {
      const qx = 2 * b[0] + 1, qy = 2 * b[1] + 1;
      if ((qx - px) * (cy - py) - (qy - py) * (cx - px) !== 0) continue;
      const dot = (cx - px) * (qx - px) + (cy - py) * (qy - py);
      if (dot > 0 && dot < (qx - px) * (qx - px) + (qy - py) * (qy - py)) return true;
    }
  }
  return false;
}
function _rt_hex_distance(a, b) {
  const dq = a[0] - b[0], dr = a[1] - b[1];
  return Math.floor((Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2);
}
function _rt_hex_cells(q, r, size) {
  // one hex for medium or smaller, a rhombus of four for large, radius 1 (seven) for huge, radius 2 for gargantuan
  if (size === 4) return [[q, r], [q + 1, r], [q, r + 1], [q + 1, r + 1]];
  const radius = _rt_HEX_RADIUS[size] || 0, out = [];
  for (let dq = -radius; dq <= radius; dq++) {
    for (let dr = -radius; dr <= radius; dr++) {
      if (_rt_hex_distance([q + dq, r + dr], [q, r]) <= radius) out.push([q + dq, r + dr]);
    }
  }
  return out;
}
function _rt_hex_perimeter(space) {
  // the hexes next to the space, in order around it by angle about its centroid, exactly (geometry.py)
  const inside = new Set(space.map(c => c.join(','))), seen = new Set(), ring = [];
  for (const c of space) {
    for (const d of _rt_HEX_DIRS) {
      const cell = [c[0] + d[0], c[1] + d[1]], k = cell.join(',');
      if (!inside.has(k) && !seen.has(k)) { seen.add(k); ring.push(cell); }
    }
  }
  const n = space.length;
  let cx = 0, cy = 0;
  for (const c of space) { cx += 2 * c[0] + c[1]; cy += c[1]; }
  const points = ring.map(c => [(2 * c[0] + c[1]) * n - cx, c[1] * n - cy, c]);
  const half = p => (p[1] > 0 || (p[1] === 0 && p[0] > 0)) ? 0 : 1;
  points.sort((a, b) => {
    if (half(a) !== half(b)) return half(a) - half(b);
    const cross = a[0] * b[1] - a[1] * b[0];
    return cross > 0 ? -1 : cross < 0 ? 1 : (a[0] * a[0] + a[1] * a[1]) - (b[0] * b[0] + b[1] * b[1]);
  });
  return points.map(p => p[2]);
}
function _rt_flanks_hex(aq, ar, aSize, bq, br, bSize, eq, er, eSize, needed) {
  const ring = _rt_hex_perimeter(_rt_hex_cells(eq, er, eSize)), index = new Map();
  ring.forEach((cell, i) => { index.set(cell.join(','), i); });
  const aIdx = _rt_hex_cells(aq, ar, aSize).filter(c => index.has(c.join(','))).map(c => index.get(c.join(',')));
  const bIdx = _rt_hex_cells(bq, br, bSize).filter(c => index.has(c.join(','))).map(c => index.get(c.join(',')));
  const n = ring.length;
  for (const i of aIdx) {
    for (const j of bIdx) {
      const d = Math.abs(i - j);
      if (Math.min(d, n - d) - 1 >= needed) return true;
    }
  }
  return false;
}
function _rt_round_cbrt(volume, step) {
  if (volume < 0 || step <= 0) throw new RuleError('体积必须非负，步长必须为正');
  const fits = k => (2 * k + 1) * (2 * k + 1) * (2 * k + 1) * step * step * step <= 8 * volume;
  let hi = 1;
  while (fits(hi)) hi *= 2;
  let lo = 0;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo * step;
}
