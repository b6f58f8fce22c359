"""The CPU and wall time of ``paperscope index --rebuild`` on the bundled home, for two
trees run in turn: with the last build's vectors kept (an unchanged catalogue, as a
rebuild after a join and its undo) and with them fitted (their key file removed first).

    PYTHONPATH=. python -m tests.benchmarks.rebuild_cpu --tree main=/path/to/main/copy \
        --tree this=. --rounds 5

Each tree gets a home of its own (``paperscope index``); each round runs, for each tree in
turn, ``index --rebuild`` twice: once as it comes, once after removing
``paperscope-vectors-key.json`` (a tree without the kept vectors fits both times). The CPU
seconds are the user and system time of the command and the workers it forks
(:func:`tests.benchmarks.change_cpu.run`); the figures are medians.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from tests.benchmarks.change_cpu import run

KEY_FILE = "paperscope-vectors-key.json"


def measure(trees: dict[str, Path], rounds: int, root: Path) -> dict[str, dict[str, list]]:
    """Every tree's ``(CPU, wall)`` pairs, vectors kept and fitted."""
    for name, tree in trees.items():
        run(tree, root / name, "index")
    out: dict[str, dict[str, list]] = {n: {"kept": [], "fitted": []} for n in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            home = root / name
            cpu, wall, _ = run(tree, home, "index", "--rebuild")
            out[name]["kept"].append((cpu, wall))
            (home / "cache" / "index" / KEY_FILE).unlink(missing_ok=True)
            cpu, wall, _ = run(tree, home, "index", "--rebuild")
            out[name]["fitted"].append((cpu, wall))
    return out


def main() -> None:
    """Parse the trees and rounds, measure, print medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", required=True, metavar="NAME=PATH")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    trees = {n: Path(p).resolve() for n, p in (t.split("=", 1) for t in args.tree)}
    root = Path(tempfile.mkdtemp(prefix="rebuild-cpu-"))
    try:
        found = measure(trees, args.rounds, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("load", " ".join(Path("/proc/loadavg").read_text().split()[:3]))
    for name, kinds in found.items():
        for kind, pairs in kinds.items():
            cpu = statistics.median(c for c, _ in pairs)
            wall = statistics.median(w for _, w in pairs)
            print(f"  {name}: index --rebuild, vectors {kind}: CPU {cpu:.2f} s, wall {wall:.2f} s")


if __name__ == "__main__":
    main()
