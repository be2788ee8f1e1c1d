"""Inline SVG line charts for the reference pages: no JavaScript, no plotting library.

The output is a pure function of the data (fixed size, fixed palette, numbers
rounded for stable text), so pages stay byte-identical across builds. All text
goes through `html.escape`.
"""

from __future__ import annotations

from html import escape

PALETTE = ("#8b1e1e", "#1f5f99", "#2e7d32", "#b26a00", "#6a3d9a", "#00838f", "#ad1457", "#5d4037",
           "#455a64", "#9e9d24", "#c62828", "#283593")
WIDTH, HEIGHT = 680, 340
LEFT, RIGHT, TOP, BOTTOM = 52, 170, 34, 44


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1.0
    for step in (1, 2, 2.5, 5):
        for power in range(-2, 6):
            candidate = step * 10**power
            if candidate >= value:
                return candidate
    return value


LEGEND_CHARS = 9  # what fits in the legend column at 13 px


def _marker(shape: int, cx: float, cy: float, color: str) -> str:
    """One of four marker shapes, so series that cross or run close stay told apart."""
    if shape == 0:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3" fill="{color}"/>'
    if shape == 1:
        return f'<rect x="{cx - 3:.1f}" y="{cy - 3:.1f}" width="6" height="6" fill="{color}"/>'
    if shape == 2:
        return f'<path d="M{cx:.1f} {cy - 3.8:.1f}L{cx + 3.6:.1f} {cy + 2.6:.1f}H{cx - 3.6:.1f}Z" fill="{color}"/>'
    return f'<path d="M{cx:.1f} {cy - 4:.1f}L{cx + 4:.1f} {cy:.1f}L{cx:.1f} {cy + 4:.1f}L{cx - 4:.1f} {cy:.1f}Z" fill="{color}"/>'


def merge_identical(series: list[tuple[str, list[float | None]]]) -> list[tuple[list[str], list[float | None]]]:
    """Series with the same values, drawn once: seven weapons with one curve are one line whose
    legend names them all, not seven lines hiding each other."""
    merged: dict[tuple[float | None, ...], list[str]] = {}
    for name, ys in series:
        merged.setdefault(tuple(ys), []).append(name)
    return [(names, list(ys)) for ys, names in merged.items()]


def legend_label(names: list[str]) -> str:
    label = "、".join(names)
    if len(label) <= LEGEND_CHARS:
        return label
    suffix = f"等{len(names)}种" if len(names) > 1 else "…"
    return names[0][:LEGEND_CHARS - len(suffix)] + suffix


def line_chart(title: str, x_label: str, y_label: str, xs: list[int],
               series: list[tuple[str, list[float | None]]]) -> str:
    """A chart of several series over the same x values; None leaves a gap. Identical series are
    drawn once and named together (the full list in the legend entry's tooltip)."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top = _nice_max(max((y for _, ys in series for y in ys if y is not None), default=1.0))
    x_lo, x_hi = min(xs), max(xs)
    span = (x_hi - x_lo) or 1

    def px(x: float) -> str:
        return f"{LEFT + (x - x_lo) / span * plot_w:.1f}"

    def py(y: float) -> str:
        return f"{TOP + plot_h - y / top * plot_h:.1f}"

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
             f'height="{HEIGHT}" role="img" aria-label="{escape(title)}" class="chart">',
             f'<title>{escape(title)}</title>',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
             f'<text x="{LEFT}" y="20" font-size="15" font-weight="600" fill="#1d1d1f">{escape(title)}</text>']
    for i in range(5):
        value = top * i / 4
        parts.append(f'<line x1="{LEFT}" y1="{py(value)}" x2="{LEFT + plot_w}" y2="{py(value)}" '
                     f'stroke="#e3e5e8" stroke-width="1"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{float(py(value)) + 4:.1f}" font-size="13" text-anchor="end" '
                     f'fill="#5f6368">{value:g}</text>')
    for x in xs:
        parts.append(f'<text x="{px(x)}" y="{TOP + plot_h + 16}" font-size="13" text-anchor="middle" '
                     f'fill="#5f6368">{x}</text>')
    parts.append(f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" stroke="#5f6368"/>')
    parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 8}" font-size="13" text-anchor="middle" '
                 f'fill="#1d1d1f">{escape(x_label)}</text>')
    parts.append(f'<text x="14" y="{TOP + plot_h / 2:.1f}" font-size="13" text-anchor="middle" fill="#1d1d1f" '
                 f'transform="rotate(-90 14 {TOP + plot_h / 2:.1f})">{escape(y_label)}</text>')
    for n, (names, ys) in enumerate(merge_identical(series)):
        color = PALETTE[n % len(PALETTE)]
        dash = "" if n < len(PALETTE) else ' stroke-dasharray="5 3"'
        runs: list[list[str]] = [[]]
        for x, y in zip(xs, ys):
            if y is None:
                runs.append([])
            else:
                runs[-1].append(f"{px(x)},{py(y)}")
        for run in runs:
            if len(run) > 1:
                parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2"{dash} points="{" ".join(run)}"/>')
            for point in run:
                cx, cy = point.split(",")
                parts.append(_marker(n % 4, float(cx), float(cy), color))
        ly = TOP + 4 + n * 18
        parts.append(f'<g><title>{escape("、".join(names))}</title>'
                     f'<line x1="{WIDTH - RIGHT + 8}" y1="{ly}" x2="{WIDTH - RIGHT + 28}" y2="{ly}" '
                     f'stroke="{color}" stroke-width="3"{dash}/>{_marker(n % 4, WIDTH - RIGHT + 18, ly, color)}'
                     f'<text x="{WIDTH - RIGHT + 34}" y="{ly + 4.5}" font-size="13" fill="#1d1d1f">'
                     f'{escape(legend_label(names))}</text></g>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
