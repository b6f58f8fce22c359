"""The first similar papers after a change in place, at three venues: time and memory.

A change in place leaves its papers' vector rows pending
(:mod:`index_builder.search.pending_rows`); the first ``similar`` (the paper view of the
app) reads ``vectors.bin`` and writes those rows into its matrices. On the three-venue
home of :mod:`tests.benchmarks.venues3` (20,030 papers; a join by hand and the next search
are made first when no row is pending), each round starts new processes that open the
index as the app does (catalogue, then a search), import numpy, then:

- ``after a change``: the first ``similar`` (pending rows written), then a second one;
- ``no change``: the vectors file read alone (what a start with nothing pending reads).

Printed, as medians: the first similar's wall and CPU seconds, the second one's
milliseconds, and the resident memory it added (MB): at its peak (VmHWM after it, less the
resident memory before it) and after it (VmRSS).

Run: ``PYTHONPATH=. .venv/bin/python -m tests.benchmarks.pending_vectors [--rounds N]``.
The children run the code that ``PYTHONPATH`` names: point it at another checkout (with
the same home copied into its ``tests/benchmarks/.cache``) to measure that code.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from tests.benchmarks import changes, venues3


def _status(field: str) -> float:
    """This process's ``/proc`` status ``field`` in MB (10^6 bytes)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024 / 1e6
    raise KeyError(field)


def child(home: str, mode: str) -> None:
    """Open the home's index as the app does; measure the first similar (``change``) or the
    vectors' read alone (``plain``); print the figures as JSON."""
    import time

    import numpy  # noqa: F401  (the app has it by then; its import is not the figure)

    from index_builder.paths import Paths
    from index_builder.search.pending_rows import read_pending
    from index_builder.vectors.storage import load
    from tui.shared.context import Context

    paths = Paths.from_env({"PAPERSCOPE_HOME": home})
    index = Context(paths).index()
    index.search(changes.QUERY)
    pid = index.papers[0].id
    Path("/proc/self/clear_refs").write_text("5")  # the peak so far (the catalogue's) reset
    before_rss = _status("VmRSS")
    out = {"pending": len(read_pending(paths.index_dir)), "rss_before": before_rss}
    wall, cpu = time.perf_counter(), time.process_time()
    if mode == "change":
        index.similar(pid, 10)
    else:
        held = load(paths.index_dir)
    out["wall_s"], out["cpu_s"] = time.perf_counter() - wall, time.process_time() - cpu
    out["peak_mb"] = _status("VmHWM") - before_rss
    out["held_mb"] = _status("VmRSS") - before_rss
    if mode == "change":
        again = time.perf_counter()
        index.similar(index.papers[1].id, 10)
        out["second_ms"] = (time.perf_counter() - again) * 1000
    else:
        del held
    print(json.dumps(out))


def measure(home: Path, mode: str) -> dict[str, float]:
    """One child's figures."""
    code = "import sys; from tests.benchmarks import pending_vectors as p; p.child(*sys.argv[1:])"
    done = subprocess.run(
        [sys.executable, "-c", code, str(home), mode],
        env={**os.environ},
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout.splitlines()[-1]))


def main() -> None:
    """Make a change in place when none is pending, then print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"first similar after a change, load {os.getloadavg()[0]:.1f}:", flush=True)
    home, _ = venues3.ready_home(fresh=False)
    if not measure(home, "change")["pending"]:
        changes.with_search(home, "join", venues3.lone_for_join(home))
    runs: dict[str, list[dict[str, float]]] = {"after a change": [], "no change": []}
    for _ in range(args.rounds):
        runs["after a change"].append(measure(home, "change"))
        runs["no change"].append(measure(home, "plain"))
    for name, found in runs.items():
        print(f"  {name} ({found[0]['pending']:.0f} rows pending, {len(found)} rounds):")
        for key in ("wall_s", "cpu_s", "second_ms", "peak_mb", "held_mb"):
            if key in found[0]:
                print(f"    {key}: {statistics.median(f[key] for f in found):.3g}")
    print(f"  (load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
