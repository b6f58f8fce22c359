"""What the cyclic garbage collector cost a full build's Whoosh gathering, in one process.

:func:`index_builder.search.parallel.build` pauses the collector (in the worker it forks
too). This runs the same steps (every document of the updated home gathered, then its
postings grouped and encoded) with the collector running and then paused, in turn, and
prints the CPU seconds of each and the collections and their CPU seconds
(``gc.callbacks``). The papers are held as the build holds them.

Run: ``PYTHONPATH=. .venv/bin/python -m tests.benchmarks.build_gc [HOME] [--rounds N]``
(HOME: an updated home; by default the one kept under ``tests/benchmarks/.cache``).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path
from typing import Any


def gathering(papers: Any, paused: bool) -> tuple[float, int, float]:
    """CPU seconds of gathering and encoding ``papers``; collections and their seconds."""
    from index_builder.search.documents import PaperDocs
    from index_builder.search.schema import make_schema
    from index_builder.search.segment import SegmentBuilder

    seen = {"count": 0, "seconds": 0.0, "started": 0.0}

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen["started"] = time.process_time()
        else:
            seen["count"] += 1
            seen["seconds"] += time.process_time() - seen["started"]

    gc.collect()
    gc.callbacks.append(note)
    if paused:
        gc.disable()
    try:
        started = time.process_time()
        builder = SegmentBuilder(make_schema())
        for doc in PaperDocs(papers):
            builder.add(doc)
        builder.gathered()
        return time.process_time() - started, int(seen["count"]), seen["seconds"]
    finally:
        gc.enable()
        gc.callbacks.remove(note)


def main() -> None:
    """Print the medians of each way."""
    from index_builder.search.columns import load_numpy
    from tests.benchmarks.updated import cached_home, papers_of

    parser = argparse.ArgumentParser()
    parser.add_argument("home", nargs="?", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    load_numpy()
    papers, _ = papers_of(args.home or cached_home())
    runs: dict[bool, list[tuple[float, int, float]]] = {False: [], True: []}
    for _ in range(args.rounds):
        for paused in (False, True):
            runs[paused].append(gathering(papers, paused))
    for paused, found in runs.items():
        cpu = statistics.median(r[0] for r in found)
        count = statistics.median(r[1] for r in found)
        seconds = statistics.median(r[2] for r in found)
        way = "collector paused " if paused else "collector running"
        print(f"  {way}: {cpu:.2f} s CPU, {count:.0f} collections, {seconds:.3f} s in them")


if __name__ == "__main__":
    main()
