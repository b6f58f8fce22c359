"""The CPU time of the Pilot tests' two waits for a settled app, in turn in one process:
``tests.helpers.tui_helpers.settle`` (three rounds of two pauses) and
``tests.helpers.tui_quiet.settle`` (until three pauses in a row find no worker busy).

    PYTHONPATH=. python -m tests.benchmarks.settle_cpu --rounds 40

The app runs on the TUI tests' 46 sample papers at 120x36 as ``make_app`` starts it
(index built first, not timed). Each round times, for each wait in turn: the wait on an
idle app, and a move of the list's cursor (``j`` or ``k``: the view shows the next paper
and looks up its similar papers in a worker) followed by the wait. The CPU seconds are the
process's (every thread: the app's workers too); the figures are medians in milliseconds,
with the pauses each wait made.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

Wait = Callable[[Pilot[int]], Awaitable[None]]


def measure(rounds: int) -> dict[str, dict[str, list[float]]]:
    """Each wait's CPU milliseconds and pauses, idle and after a move of the cursor."""
    import textual._wait

    from index_builder.paths import Paths
    from index_builder.search.engine import SearchIndex
    from tests.helpers import tui_helpers, tui_quiet
    from tests.helpers.tui_fixtures import IDLE_CHECK_S
    from tests.helpers.tui_papers import PaperShelf, sample_papers
    from tui.app import PaperScopeApp
    from tui.shared.config import Config
    from tui.shared.context import Context

    # As the tests run (``tui_quick_idle_checks``).
    textual._wait.SLEEP_GRANULARITY, textual._wait.SLEEP_IDLE = IDLE_CHECK_S, IDLE_CHECK_S / 20
    waits: dict[str, Wait] = {"three rounds": tui_helpers.settle, "quiet": tui_quiet.settle}
    out = {name: {"idle": [], "move": [], "pauses": []} for name in waits}
    shelf = PaperShelf(sample_papers())

    async def run(home: Path) -> None:
        paths = Paths(home / "config", home / "data", home / "cache").ensure()
        ctx = Context(paths=paths, use_bundled=False)
        ctx._catalogue = shelf  # type: ignore[assignment]
        ctx._index = SearchIndex(paths.index_dir, shelf.papers, shelf.fingerprint)
        app = PaperScopeApp(ctx, config=Config(path=paths.config_file))
        async with app.run_test(size=(120, 36)) as pilot:
            await tui_quiet.ready(pilot)
            tui_helpers.main(pilot).results.focus()
            await tui_helpers.settle(pilot)
            counted = pilot.pause
            pauses = 0

            async def pause(delay: float | None = None) -> None:
                nonlocal pauses
                pauses += 1
                await counted(delay)

            pilot.pause = pause  # type: ignore[method-assign]
            for number in range(rounds):
                for name, wait in waits.items():
                    started, pauses = time.process_time(), 0
                    await wait(pilot)
                    out[name]["idle"].append((time.process_time() - started) * 1000)
                    out[name]["pauses"].append(pauses)
                    started = time.process_time()
                    await pilot.press("j" if number % 2 == 0 else "k")
                    await wait(pilot)
                    out[name]["move"].append((time.process_time() - started) * 1000)

    with tempfile.TemporaryDirectory(prefix="settle-cpu-") as folder:
        home = Path(folder)
        SearchIndex(home / "cache" / "index", shelf.papers, shelf.fingerprint).ensure()
        asyncio.run(run(home))
    return out


def main() -> None:
    """Time both waits in turn; print medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    figures = measure(parser.parse_args().rounds)
    for name, kinds in figures.items():
        idle, move = statistics.median(kinds["idle"]), statistics.median(kinds["move"])
        pauses = statistics.median(kinds["pauses"])
        print(f"{name:>12}: idle {idle:5.1f} ms CPU ({pauses:.0f} pauses), a move {move:5.1f} ms")


if __name__ == "__main__":
    main()
