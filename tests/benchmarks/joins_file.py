"""What ``J`` costs on the event loop with a large joins file (issue 36.13).

    .venv/bin/python -m tests.benchmarks.joins_file [--lines 100000] [--reps 5]

Writes a ``joins.jsonl`` of ``--lines`` real-shaped joins (and one 84 MB line) in a temp
folder, then prints the median seconds of (a) reading and parsing the whole file
(:func:`~index_builder.catalogue.joins.by_hand.read_joins`, what each ``J`` did on the event
loop before) and (b) :func:`tui.commands.join.what_j_does`, which now tells a join by hand
from the paper's sources without reading the file (and runs in ``J``'s worker, with the
rest of the planning; the worker reads the separations once per catalogue). It reports;
it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from index_builder.catalogue.joins.by_hand import HandJoin, read_joins
from index_builder.model import Paper
from index_builder.paths import Paths
from tui.commands.join import what_j_does
from tui.shared.context import Context


def _median(action: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print the figures (see the module doc)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    abstract = "We study watermarks for large language models. " * 20
    with tempfile.TemporaryDirectory() as home:
        paths = Paths(Path(home) / "c", Path(home) / "d", Path(home) / "k").ensure()
        ctx = Context(paths=paths, use_bundled=False)
        paper = Paper("64328", "A paper", title_raw="A paper", event_id=64328,
                      sources=("icml2026_events.csv:1", "joins.jsonl:7"))  # fmt: skip
        cases = {
            f"{args.lines:,} lines": "\n".join(
                HandJoin.of(60000 + n, f"Paper {n}", f"{abstract} {n}", "2026-12-05").line()
                for n in range(args.lines)
            ),
            "one 84 MB line": HandJoin.of(64328, "Long", "x" * 84_000_000, "2026-12-05").line(),
        }
        for name, text in cases.items():
            paths.hand_joins.write_text(text + "\n", encoding="utf-8")
            parse = _median(lambda: read_joins(paths.hand_joins), args.reps)
            deciding = _median(lambda: what_j_does(paper, ctx), args.reps)
            print(f"{name:>16}: read_joins (each J did it on the event loop before) "
                  f"{parse:.3f} s; what_j_does now {deciding * 1e6:.1f} µs")  # fmt: skip


if __name__ == "__main__":
    main()
