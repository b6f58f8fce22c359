"""Run every figure, print the table, write the JSON (and, in a full run, the growth plot).

    .venv/bin/python -m tests.benchmarks.run            # every figure (long: a 50k build)
    .venv/bin/python -m tests.benchmarks.run --quick    # bundled data and 1k papers, < 1 min

Exits 0 when figures miss their budgets (the table says ✓/✗); it reports, it
does not assert. Terminal figures are skipped, with a note, when tmux is missing.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if not __package__:  # run as a script (``python tests/benchmarks/run.py``): find the repo
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from index_builder.paths import bundled_sources
from tests.benchmarks import figures, report, scale, terminal
from tests.benchmarks.stats import Figure

HERE = Path(__file__).resolve().parent


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(prog="python -m tests.benchmarks.run", description=__doc__)
    p.add_argument("--quick", action="store_true", help="bundled data and 1k papers, 2 runs")
    p.add_argument("--json", type=Path, help="write the figures here (default: .cache/last.json)")
    p.add_argument("--runs", type=int, help="terminal runs per program (default 5, quick 2)")
    p.add_argument("--reps", type=int, help="repetitions of the query set (default 5, quick 2)")
    p.add_argument(
        "--sizes", type=int, nargs="*", help="synthetic sizes (default 1000 10000 50000)"
    )
    p.add_argument(
        "--skip",
        nargs="*",
        default=[],
        help="figure groups to skip: terminal build search memory50k real realupdate realterminal",
    )
    p.add_argument(
        "--real-sizes",
        type=int,
        nargs="*",
        help="sizes of grown real-text corpora (default 50000; the updated home is always 6,628)",
    )
    p.add_argument("--markdown", type=Path, help="also write the figures as Markdown here")
    p.add_argument("--plot", type=Path, default=HERE / "growth.svg", help="growth plot (full runs)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Measure, print and save; returns 0 whatever the figures say."""
    args = parse_args(argv)
    runs = args.runs or (2 if args.quick else 5)
    reps = args.reps or (2 if args.quick else 5)
    sizes = (
        args.sizes if args.sizes is not None else ([1000] if args.quick else [1000, 10000, 50000])
    )
    started = time.perf_counter()
    table = bundled_sources()[0]
    with table.open(encoding="utf-8", newline="") as f:
        titles = [r["title"] for r in csv.DictReader(f)]
    notes: list[str] = []
    out: list[Figure] = []
    work = Path(tempfile.mkdtemp(prefix="psbench-"))

    def show(new: list[Figure]) -> None:
        out.extend(new)
        print(report.text_table(new), flush=True)

    bundled, home = None, None
    if "build" not in args.skip or "search" not in args.skip:
        bundled, home, built = figures.build_figure(work, 1 if args.quick else 3)
        show(built)
    if "terminal" in args.skip:
        notes.append("terminal figures skipped (--skip terminal)")
    elif not terminal.available():
        notes.append("terminal figures skipped: tmux is not installed")
    else:
        show(figures.terminal_figures(table, titles, home, runs, quick=args.quick))
    growth: dict[int, dict[str, Any]] = {}
    if bundled is not None and "search" not in args.skip:
        show(figures.search_figures(bundled, reps, budget=5.0))
    if bundled is not None:
        bundled.close()
    if "search" not in args.skip:
        for size in sizes:
            ready = figures.synthetic_ready(size)
            found = figures.search_figures(ready, reps, budget=30.0 if size >= 50000 else None)
            show(found)
            growth[size] = scale.growth_row(ready, found)
            ready.close()
    if growth:
        show(scale.growth_figures(growth))
        if len(growth) >= 2:
            scale.plot_growth(growth, args.plot)
            notes.append(f"growth plot: {args.plot}")
    if not args.quick and "memory50k" not in args.skip and terminal.available():
        show(scale.memory_at(50000))
    if not args.quick and "real" not in args.skip:
        from tests.benchmarks import realfigures

        real_sizes = args.real_sizes if args.real_sizes is not None else [50000]
        found, real_notes = realfigures.real_run(
            table,
            titles,
            real_sizes,
            runs=runs,
            reps=reps,
            skip=args.skip,
        )
        out.extend(found)
        notes.extend(real_notes)
    shutil.rmtree(work, ignore_errors=True)
    elapsed = time.perf_counter() - started
    print()
    print(report.text_table(out))
    for note in notes:
        print(f"note: {note}")
    print(f"({elapsed:.0f} s)")
    target = args.json or (HERE / ".cache" / ("quick.json" if args.quick else "last.json"))
    report.write_json(
        target, out, {"quick": args.quick, "notes": notes, "seconds": elapsed, "growth": growth}
    )
    print(f"figures written to {target}")
    if args.markdown:
        args.markdown.write_text(report.markdown(out, growth, notes), encoding="utf-8")
        print(f"Markdown written to {args.markdown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
