"""Peak memory: the high-water mark of resident memory (VmHWM) of a process."""

from __future__ import annotations

import os
import resource
from pathlib import Path


def peak_rss_mb(pid: int) -> float | None:
    """VmHWM of ``pid`` in MB (10^6 bytes), or None if it cannot be read."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024 / 1e6
    return None


def own_peak_mb() -> float:
    """This process's peak resident memory in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6


def children_peak_mb() -> float:
    """The largest peak of any finished child process in MB."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 / 1e6


def api_peak_mb(size: int) -> float:
    """Peak RSS of a process that holds ``size`` synthetic papers, opens their cached
    PaperScope index (alone: no peers) and runs the query set once. A first process
    rebuilds the index if it is stale, so the figure is the steady state, not a build."""
    import subprocess
    import sys

    code = "import sys; from tests.benchmarks import memory; memory._api_child(*sys.argv[1:])"
    subprocess.run([sys.executable, "-c", code, str(size), ""], check=True)
    out = subprocess.run(
        [sys.executable, "-c", code, str(size), "measure"],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.split()[-1])


def _api_child(size: str, measure: str) -> None:
    from tests.benchmarks import engines, latency
    from tests.benchmarks.corpus import generate

    corpus = generate(int(size))
    built = engines.paperscope(
        corpus.papers, engines.CACHE / corpus.key / "whoosh", corpus.key, fresh=False
    )
    if measure:
        for q in latency.synthetic_queries(corpus):
            built.search(q.text, q.prefix)
        print(peak_rss_mb(os.getpid()))
    built.close()
