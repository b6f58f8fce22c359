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

from pathlib import Path

from tests.benchmarks.change_cpu import compare_trees, run

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
    """Measure each tree's rebuilds, vectors kept and fitted; print medians."""
    compare_trees(
        __doc__.split("\n\n")[0], measure, lambda kind: f"index --rebuild, vectors {kind}"
    )


if __name__ == "__main__":
    main()
