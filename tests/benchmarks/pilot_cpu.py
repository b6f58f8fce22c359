"""The CPU time of the app's start and of a move of the focus, as the Pilot tests drive
them, for two trees run in turn: what a TUI test's steps cost when the machine is too
loaded for wall-clock figures to say much.

    PYTHONPATH=. python -m tests.benchmarks.pilot_cpu --tree main=/path/to/main/copy \
        --tree this=. --rounds 5

Each round runs, for each tree in turn, this file in a process whose ``PYTHONPATH`` is
the tree (which need not hold the file): it builds the index of the TUI tests' 46 sample
papers (not timed), starts the app four times at 120x36 as ``make_app`` does (the first
untimed: in a test run a start is not the process's first), each until its first result
is shown and settled (``ready``), moves the focus from the search box to the list and
back five times, then the list's cursor down and up (``j``, ``k``: the view shows the
paper and its similar papers) five times each, each until settled. The CPU seconds are
the process's (every thread: the app's workers too); the figures are medians, with the
wall-clock medians beside them.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.benchmarks.change_cpu import compare_trees

STARTS = 3
MOVES = 5
KINDS = ("start", "focus", "cursor")


def measure(trees: dict[str, Path], rounds: int, root: Path) -> dict[str, dict[str, list]]:
    """Every tree's ``(CPU, wall)`` pairs: an app's start, a move of the focus, of the
    cursor."""
    out: dict[str, dict[str, list]] = {n: {k: [] for k in KINDS} for n in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            found = root / f"{name}.json"
            env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree), "TERM": "dumb"}
            # This file runs in the tree measured (which may not hold it), on its modules.
            code = f"import runpy, sys; sys.argv = ['', '--child', {str(found)!r}]; "
            code += f"runpy.run_path({__file__!r}, run_name='__main__')"
            subprocess.run(
                [sys.executable, "-c", code],
                cwd=tree,
                env=env,
                check=True,
            )
            for kind, pairs in json.loads(found.read_text(encoding="utf-8")).items():
                out[name][kind].extend(tuple(p) for p in pairs)
    return out


def child(found: Path) -> None:
    """Start the app, move the focus and the cursor in this tree; write the ``(CPU, wall)``
    pairs."""
    from index_builder.paths import Paths
    from index_builder.search.engine import SearchIndex
    from tests.helpers.tui_helpers import main, ready, settle
    from tests.helpers.tui_papers import PaperShelf, sample_papers
    from tui.app import PaperScopeApp
    from tui.shared.config import Config
    from tui.shared.context import Context

    shelf = PaperShelf(sample_papers())
    pairs: dict[str, list[tuple[float, float]]] = {kind: [] for kind in KINDS}

    def clock() -> tuple[float, float]:
        return time.process_time(), time.perf_counter()

    def since(then: tuple[float, float]) -> tuple[float, float]:
        now = clock()
        return now[0] - then[0], now[1] - then[1]

    async def run(home: Path, timed: bool) -> None:
        paths = Paths(home / "config", home / "data", home / "cache").ensure()
        ctx = Context(paths=paths, use_bundled=False)
        ctx._catalogue = shelf  # type: ignore[assignment]
        ctx._index = SearchIndex(paths.index_dir, shelf.papers, shelf.fingerprint)
        app = PaperScopeApp(ctx, config=Config(path=paths.config_file))
        started = clock()
        async with app.run_test(size=(120, 36)) as pilot:
            await ready(pilot)
            if not timed:  # the process's first start imports and parses what the rest reuse
                return
            pairs["start"].append(since(started))
            screen = main(pilot)
            for widget in [screen.results, screen.box] * MOVES:
                moved = clock()
                widget.focus()
                await settle(pilot)
                pairs["focus"].append(since(moved))
            screen.results.focus()
            await settle(pilot)
            for key in "jk" * MOVES:
                moved = clock()
                await pilot.press(key)
                await settle(pilot)
                pairs["cursor"].append(since(moved))

    with tempfile.TemporaryDirectory(prefix="pilot-cpu-") as folder:
        cache = Path(folder) / "index"
        SearchIndex(cache, shelf.papers, shelf.fingerprint).ensure()
        for number in range(STARTS + 1):
            home = Path(folder) / f"home{number}"
            (home / "cache").mkdir(parents=True)
            (home / "cache" / "index").symlink_to(cache)
            asyncio.run(run(home, timed=number > 0))
    found.write_text(json.dumps(pairs), encoding="utf-8")


def main() -> None:
    """Measure each tree's app start and focus moves; print medians."""
    if sys.argv[1:2] == ["--child"]:
        child(Path(sys.argv[2]))
        return
    compare_trees(__doc__.split("\n\n")[0], measure, lambda kind: f"an app's {kind}")


if __name__ == "__main__":
    main()
