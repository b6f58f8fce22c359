"""A pytest plugin that reports each test's CPU time (``-p tests.helpers.cpu_durations``).

On a machine shared with other work the wall times of ``--durations`` follow the load;
the CPU a test spends (user and system, its own process and the children it waited for)
does not, so before and after are compared by it. At the end of the run it prints the
sum and the slowest 15 tests, by CPU, beside their wall time.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Iterator

import pytest

_times: dict[str, tuple[float, float]] = {}


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Time the test's set-up, call and teardown together."""
    cpu, wall = _cpu(), time.perf_counter()
    try:
        return (yield)
    finally:
        _times[item.nodeid] = (_cpu() - cpu, time.perf_counter() - wall)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write the times to ``$CPU_DURATIONS_DIR/<worker>.json`` when that is set.

    Under pytest-xdist each worker times its own tests and the controller prints nothing;
    the files let a run's times be summed across workers.
    """
    folder = os.environ.get("CPU_DURATIONS_DIR")
    if not folder or not _times:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(os.path.join(folder, f"{worker}.json"), "w", encoding="utf-8") as out:
        json.dump(_times, out)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The sum of the tests' CPU and wall times, and the 15 that took most CPU."""
    if not _times:
        return
    write = terminalreporter.write_line
    cpu = sum(c for c, _ in _times.values())
    wall = sum(w for _, w in _times.values())
    write(f"cpu-durations: {len(_times)} tests, CPU {cpu:.1f} s, wall {wall:.1f} s")
    ranked = sorted(_times.items(), key=lambda kv: -kv[1][0])
    for nodeid, (c, w) in ranked[:15]:
        write(f"  {c:6.2f} s CPU {w:6.2f} s wall  {nodeid}")
