"""The growth plot as a hand-written SVG: build time and query p95 against corpus size."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

COLOURS = {"PaperScope": "#1f6feb", "SQLite FTS5": "#d29922", "linear scan": "#8b949e"}
W, H, PAD_L, PAD_R, PAD_T, PAD_B = 380, 260, 56, 14, 30, 44

Series = dict[str, list[tuple[float, float]]]
"""Engine name -> (papers, value) points."""


def _panel(x0: float, title: str, unit: str, series: Series, budget: float | None) -> list[str]:
    points = [p for pts in series.values() for p in pts if p[1] > 0]
    if not points:
        return []
    xs = [p[0] for p in points]
    ys = [p[1] for p in points] + ([budget] if budget else [])
    lx0, lx1 = math.log10(min(xs)) - 0.1, math.log10(max(xs)) + 0.1
    ly0, ly1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    ly1 = max(ly1, ly0 + 1)

    def px(x: float) -> float:
        return x0 + PAD_L + (math.log10(x) - lx0) / (lx1 - lx0) * (W - PAD_L - PAD_R)

    def py(y: float) -> float:
        return PAD_T + (ly1 - math.log10(y)) / (ly1 - ly0) * (H - PAD_T - PAD_B)

    bold = 'text-anchor="middle" font-weight="bold"'
    out = [f'<text x="{x0 + W / 2}" y="18" {bold}>{escape(title)}</text>']
    left, right = x0 + PAD_L, x0 + W - PAD_R
    for e in range(int(ly0), int(ly1) + 1):
        y = py(10**e)
        out.append(f'<line x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 + PAD_L - 4}" y="{y + 4:.1f}" text-anchor="end">{10**e:g}</text>')
    for x in sorted(set(xs)):
        out.append(
            f'<text x="{px(x):.1f}" y="{H - PAD_B + 16}" text-anchor="middle">{x:,.0f}</text>'
        )
    out.append(f'<text x="{x0 + W / 2}" y="{H - 8}" text-anchor="middle">papers</text>')
    out.append(
        f'<text x="{x0 + 14}" y="{H / 2}" transform="rotate(-90 {x0 + 14} {H / 2})" '
        f'text-anchor="middle">{escape(unit)}</text>'
    )
    if budget:
        y = py(budget)
        out.append(
            f'<line x1="{x0 + PAD_L}" x2="{x0 + W - PAD_R}" y1="{y:.1f}" y2="{y:.1f}" '
            'stroke="#cf222e" stroke-dasharray="4 3"/>'
        )
        out.append(
            f'<text x="{right}" y="{y - 4:.1f}" text-anchor="end" fill="#cf222e">budget</text>'
        )
    for name, pts in series.items():
        pts = sorted(p for p in pts if p[1] > 0)
        colour = COLOURS.get(name, "#000")
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out += [
            f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>' for x, y in pts
        ]
    return out


def growth_svg(
    path: Path,
    build: Series,
    query: Series,
    note: str,
    query_budget: Sequence[tuple[float, float]] = (),
) -> None:
    """Write two log-log panels side by side, with a legend and ``note`` under them."""
    parts = _panel(0, "Index build", "seconds", build, None)
    parts += _panel(
        W, "Query p95 (highlights included)", "ms", query, 100.0 if query_budget else None
    )
    legend_y = H + 8
    for i, name in enumerate(COLOURS):
        x = 60 + i * 170
        parts.append(f'<rect x="{x}" y="{legend_y}" width="14" height="4" fill="{COLOURS[name]}"/>')
        parts.append(f'<text x="{x + 20}" y="{legend_y + 6}">{escape(name)}</text>')
    parts.append(f'<text x="10" y="{legend_y + 26}" fill="#555">{escape(note)}</text>')
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" height="{H + 44}" '
        'font-family="sans-serif" font-size="11">\n'
        '<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(parts) + "\n</svg>\n"
    )
    tmp = path.with_suffix(".tmp")
    tmp.write_text(svg, encoding="utf-8")
    os.replace(tmp, path)
