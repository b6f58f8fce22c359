"""The CPU time of a join by hand, its undo and a plain search, each with the next search,
for two trees run in turn: what a change costs when the machine is too loaded for wall
clock figures to say much.

    PYTHONPATH=. python -m tests.benchmarks.change_cpu --tree main=/path/to/main/copy \
        --tree this=. --rounds 5

Each tree gets a home of its own (``paperscope index``, then a lone abstract looked up);
each round runs, for each tree in turn, ``join ABSTRACT`` + ``search``, ``join --undo`` +
``search``, a plain ``search`` and (in the first two rounds) ``index --rebuild`` +
``search``, each a new process with ``PYTHONPATH`` set to its tree. The CPU seconds are
the user and system time of those processes (``getrusage(RUSAGE_CHILDREN)`` around each);
the figures are medians, with the wall-clock medians beside them.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

QUERY = "attention"


def run(tree: Path, home: Path, *args: str) -> tuple[float, float, str]:
    """``(CPU seconds, wall seconds, stdout)`` of ``paperscope ARGS`` from ``tree``."""
    env = {"PATH": "/usr/bin:/bin", "PAPERSCOPE_HOME": str(home), "PYTHONPATH": str(tree)}
    env["TERM"] = "dumb"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "tui", *args],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, time.perf_counter() - started, done.stdout


def with_search(tree: Path, home: Path, *args: str) -> tuple[float, float]:
    """A command and the next search: their CPU and wall seconds added."""
    first, second = run(tree, home, *args), run(tree, home, "search", QUERY)
    return first[0] + second[0], first[1] + second[1]


def measure(trees: dict[str, Path], rounds: int, root: Path) -> dict[str, dict[str, list]]:
    """Every tree's ``(CPU, wall)`` pairs by what was run."""
    homes, lone = {}, {}
    for name, tree in trees.items():
        homes[name] = root / name
        run(tree, homes[name], "index")
        found = run(tree, homes[name], "search", "is:unjoined", "--json")[2]
        lone[name] = str(json.loads(found)["hits"][0]["id"])
    kinds = ("join by hand", "its undo", "plain search", "index --rebuild")
    out: dict[str, dict[str, list]] = {name: {k: [] for k in kinds} for name in trees}
    for serial in range(rounds):
        for name, tree in trees.items():
            home = homes[name]
            for kept in (home / "cache").glob("catalogue-*.previous.pickle"):
                kept.unlink()  # each join a first one, as in tests.benchmarks.changes
            out[name]["join by hand"].append(with_search(tree, home, "join", lone[name]))
            out[name]["its undo"].append(with_search(tree, home, "join", "--undo", lone[name]))
            plain = run(tree, home, "search", QUERY)
            out[name]["plain search"].append((plain[0], plain[1]))
            if serial < 2:
                out[name]["index --rebuild"].append(with_search(tree, home, "index", "--rebuild"))
    return out


def compare_trees(
    description: str,
    measure_trees: Callable[[dict[str, Path], int, Path], dict[str, dict[str, list]]],
    label: Callable[[str], str],
) -> None:
    """Parse ``--tree NAME=PATH`` and ``--rounds``, run ``measure_trees`` in a temporary
    folder, print the load and each figure's median CPU and wall (``label`` names it)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tree", action="append", required=True, metavar="NAME=PATH")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    trees = {n: Path(p).resolve() for n, p in (t.split("=", 1) for t in args.tree)}
    root = Path(tempfile.mkdtemp(prefix="tree-cpu-"))
    try:
        found = measure_trees(trees, args.rounds, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("load", " ".join(Path("/proc/loadavg").read_text().split()[:3]))
    for name, kinds in found.items():
        for kind, pairs in kinds.items():
            cpu = statistics.median(c for c, _ in pairs)
            wall = statistics.median(w for _, w in pairs)
            print(f"  {name}: {label(kind)}: CPU {cpu:.3f} s, wall {wall:.3f} s")


def main() -> None:
    """Measure each tree's join, undo, search and rebuild; print medians."""
    compare_trees(
        __doc__.split("\n\n")[0],
        measure,
        lambda kind: kind if kind == "plain search" else f"{kind} + search",
    )


if __name__ == "__main__":
    main()
