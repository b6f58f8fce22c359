"""What forking a build's workers costs and saves at a few sizes of index.

:data:`index_builder.search.parallel.FORK_FROM` keeps a small build in one process. This
builds the index of the first N papers of the bundled catalogue (shuffled with a fixed
seed) with the workers forked and then in one process, in turn, and prints for each the
median CPU seconds of the build and its workers, the CPU seconds of this process alone
(in a forked build, the longest path two idle cores can take), and the wall seconds.

Run: ``PYTHONPATH=. .venv/bin/python -m tests.benchmarks.build_fork [--sizes 60,239,...]
[--rounds N]``
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def cpu(*who: int) -> float:
    """User and system CPU seconds of ``who`` (``resource.RUSAGE_*``), summed."""
    return sum(resource.getrusage(w).ru_utime + resource.getrusage(w).ru_stime for w in who)


@contextmanager
def forking(allowed: bool) -> Iterator[None]:
    """Builds that fork their workers from the first document (or never)."""
    from index_builder.search import parallel

    before = parallel.FORK_FROM
    parallel.FORK_FROM = 2 if allowed else 10**9
    try:
        yield
    finally:
        parallel.FORK_FROM = before


def one_build(papers: list[Any]) -> tuple[float, float, float]:
    """CPU of the build and its workers, CPU of this process, wall: one build of ``papers``."""
    from index_builder.search.engine import SearchIndex

    folder = Path(tempfile.mkdtemp(prefix="build-fork-"))
    try:
        both = cpu(resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        own, wall = cpu(resource.RUSAGE_SELF), time.perf_counter()
        index = SearchIndex(folder / "index", papers, "bench")
        index.ensure()
        index.close()
        return (
            cpu(resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN) - both,
            cpu(resource.RUSAGE_SELF) - own,
            time.perf_counter() - wall,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Print the medians of each size, forked and in one process."""
    from index_builder.catalogue.load import load_catalogue
    from index_builder.paths import bundled_sources
    from index_builder.vectors import tfidf

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="60,239,400,800,1600,3000")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    papers = list(load_catalogue(bundled_sources(), cache_dir=None).papers)
    random.Random(1).shuffle(papers)
    tfidf.compute(papers[:2])  # the vector libraries loaded before any fork, as the app does
    runs: dict[tuple[int, bool], list[tuple[float, float, float]]] = {}
    for size in (int(s) for s in args.sizes.split(",")):
        for _ in range(args.rounds):
            for allowed in (True, False):
                with forking(allowed):
                    runs.setdefault((size, allowed), []).append(one_build(papers[:size]))
    print("papers  workers   CPU s  here s  wall s")
    for (size, allowed), figures in runs.items():
        total, own, wall = (statistics.median(f[i] for f in figures) for i in range(3))
        mode = "forked" if allowed else "none"
        print(f"{size:6d}  {mode:7s}  {total:6.3f}  {own:6.3f}  {wall:6.3f}")


if __name__ == "__main__":
    main()
