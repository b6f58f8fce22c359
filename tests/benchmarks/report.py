"""The figures as a printed table, a Markdown table and JSON."""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.benchmarks.stats import Figure, fmt

HEADER = ("figure", "median", "p95", "anchor", "anchor median", "ratio", "budget", "")


def _budget(f: Figure) -> str:
    if f.budget is None:
        return ""
    if f.check == "ratio":
        return f"≤ {f.budget:g}× anchor"
    return f"{f.check} ≤ {f.budget:g} {f.unit}"


def rows(figures: Sequence[Figure]) -> list[tuple[str, ...]]:
    """One row of strings per figure."""
    out: list[tuple[str, ...]] = []
    for f in figures:
        unit = f" {f.unit}" if f.unit else ""
        out.append(
            (
                f.label,
                fmt(f.median, 2 if f.unit == "s" else 1) + unit,
                fmt(f.p95, 2 if f.unit == "s" else 1) + unit,
                f.anchor_label,
                fmt(f.anchor_median, 2 if f.unit == "s" else 1)
                + (unit if f.anchor_samples else ""),
                fmt(f.ratio, 2) + ("×" if f.anchor_samples else ""),
                _budget(f),
                f.verdict if f.budget is not None else "",
            )
        )
    return out


def text_table(figures: Sequence[Figure]) -> str:
    """A fixed-width table for the terminal."""
    table = [HEADER, *rows(figures)]
    widths = [max(len(r[i]) for r in table) for i in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(figures: Sequence[Figure]) -> str:
    """A Markdown table for RESULTS.md."""
    out = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows(figures)]
    return "\n".join(out)


def growth_table(growth: dict[int, dict[str, Any]]) -> str:
    """Figure 7 as a Markdown table: build seconds, size and query p95 per size."""
    out = [
        "| papers | PaperScope build | FTS5 build | PaperScope size | PaperScope p95 "
        "| FTS5 p95 | linear p95 |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size, row in sorted(growth.items()):
        b, s, q = row["build_s"], row["size_mb"], row["p95_ms"]
        out.append(
            f"| {size:,} | {b['PaperScope']:.1f} s | {b['SQLite FTS5']:.1f} s "
            f"| {s['PaperScope']:.0f} MB | {fmt(q['PaperScope'])} ms "
            f"| {fmt(q['SQLite FTS5'])} ms | {fmt(q['linear scan'])} ms |"
        )
    return "\n".join(out)


def markdown(
    figures: Sequence[Figure], growth: dict[int, dict[str, Any]], notes: Sequence[str]
) -> str:
    """The run as Markdown: machine, figures, notes on each figure, growth."""
    m = machine()
    out = [
        f"Measured {m['date']} on {m['cpu']} ({m['cores']} cores), Python {m['python']}, "
        f"load average at the end {m['load_average']}.",
        "",
        markdown_table(figures),
        "",
    ]
    out += [f"- {f.label}: {f.note}" for f in figures if f.note]
    out += [f"- {n}" for n in notes]
    if growth:
        out += ["", growth_table(growth)]
    return "\n".join(out) + "\n"


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def write_json(path: Path, figures: Sequence[Figure], meta: dict[str, Any]) -> None:
    """All figures and the machine, atomically."""
    data = {"machine": machine(), **meta, "figures": [f.to_json() for f in figures]}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    os.replace(tmp, path)
