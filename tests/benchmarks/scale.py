"""Figures 6 (at 50,000 papers) and 7 (growth): the product against corpus size."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from tests.benchmarks import corpora, plot, startup
from tests.benchmarks.corpus import generate, write_abstract_list
from tests.benchmarks.engines import CACHE
from tests.benchmarks.figures import FLOOR_PEAK, FLOOR_START, ok, timeouts
from tests.benchmarks.stats import Figure
from tests.benchmarks.terminal import StatusSpotter


def growth_row(ready: corpora.Ready, found: list[Figure]) -> dict[str, Any]:
    """Build seconds and query p95 of each engine on one corpus."""
    ps, fts = ready.engines[:2]
    return {
        "papers": len(ready.papers),
        "build_s": {"PaperScope": ps.build_s, "SQLite FTS5": fts.build_s},
        "built_at": ps.built_at if ps.cached else "this run",
        "size_mb": {"PaperScope": ps.size_bytes / 1e6, "SQLite FTS5": fts.size_bytes / 1e6},
        "p95_ms": {
            "PaperScope": found[0].p95,
            "SQLite FTS5": found[1].p95,
            "linear scan": found[2].p95,
        },
    }


def growth_figures(growth: dict[int, dict[str, Any]]) -> list[Figure]:
    """Figure 7: the build at each size (query p95 is in figure 4's rows)."""
    return [
        Figure(
            f"growth_build_{size}",
            f"7. index build, {size:,} papers",
            "s",
            [row["build_s"]["PaperScope"]],
            "SQLite FTS5",
            [row["build_s"]["SQLite FTS5"]],
            budget=120.0 if size == 50000 else None,
            check="median",
            note=f"{size / row['build_s']['PaperScope']:,.0f} papers/s, "
            f"{row['size_mb']['PaperScope']:.0f} MB; built {row['built_at']}",
        )
        for size, row in sorted(growth.items())
    ]


def plot_growth(growth: dict[int, dict[str, Any]], path: Path) -> None:
    """Write the growth SVG."""
    rows = sorted(growth.items())
    build: plot.Series = {
        name: [(n, r["build_s"][name]) for n, r in rows] for name in ("PaperScope", "SQLite FTS5")
    }
    query: plot.Series = {
        name: [(n, r["p95_ms"][name]) for n, r in rows]
        for name in ("PaperScope", "SQLite FTS5", "linear scan")
    }
    plot.growth_svg(
        path,
        build,
        query,
        "Synthetic corpora, 2-core machine; log-log; dashed: the 30 ms budget",
        [(50000, 30.0)],
    )


def memory_at(size: int) -> list[Figure]:
    """Figure 6 at ``size`` papers: the real TUI on the synthetic abstracts given with --source.

    The corpus goes in as one abstract list (exactly ``size`` papers, each with its
    abstract; titles derived by the catalogue), the bundled data left out. The
    index is prepared with ``paperscope index`` first, so this is a warm start.
    Titles are detected by the status line's paper count, as derived titles are
    not known in advance.
    """
    corpus = generate(size)
    root = CACHE / corpus.key / "source"
    root.mkdir(parents=True, exist_ok=True)
    abstracts = root / "abstracts.txt"
    if not abstracts.exists():
        write_abstract_list(corpus, abstracts)
    args = ("--no-bundled", "--source", str(abstracts))
    home = CACHE / corpus.key / "home"
    label = f"6. peak RSS, {size:,} papers (TUI)"
    try:
        prep = startup.prepare_home(home, *args)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        return [Figure(f"rss_{size}", label, "MB", note=f"paperscope index failed: {exc}")]
    spotter = StatusSpotter()
    starts = [startup.time_to_titles(startup.paperscope_cmd(*args), home, spotter, 600.0)]
    starts.append(startup.time_to_titles(startup.paperscope_cmd(*args), home, spotter, 600.0))
    names = sorted(n for n, ids in corpus.planted.items() if len(ids) == 1)[:3]
    typed = startup.type_in_app(home, spotter, {n: n.capitalize() for n in names}, 1, *args)
    return [
        Figure(
            f"warm_start_{size}",
            f"1b. warm start → list, {size:,} papers",
            "s",
            ok(starts),
            "floor app (bundled)",
            list(FLOOR_START),
            note=f"{timeouts(starts)} index prepared in {prep:.0f} s".strip(),
        ),
        Figure(
            f"rss_{size}",
            label,
            "MB",
            [typed.peak_mb] if typed.peak_mb else [],
            "floor app",
            list(FLOOR_PEAK),
            note="; ".join(typed.notes) or "VmHWM after start and 3 searches",
            extra={"typing_ms": typed.samples},
        ),
    ]
