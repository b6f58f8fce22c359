"""The CPU time of two waits for a settled app, in turn in one process: the tests' wait,
``tests.helpers.tui_helpers.settle`` (until three pauses in a row find no worker busy), and
the one it replaced, kept here as the baseline (:func:`three_rounds`: three rounds of two
pauses whatever happens in them).

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


async def three_rounds(pilot: Pilot[int]) -> None:
    """The wait the tests used before: three rounds of two pauses, busy or not, then the
    view's check."""
    from textual.worker import WorkerError

    from tests.helpers.tui_helpers import view_follows

    for _ in range(3):
        await pilot.pause()
        for _attempt in range(5):
            # The start-up worker may be held on purpose (a first run); never wait for it.
            busy = [w for w in pilot.app.workers if w.group != "load" and not w.is_finished]
            if not busy:
                break
            try:
                await pilot.app.workers.wait_for_complete(busy)
                break
            except WorkerError:  # one was still being started: look again
                await pilot.pause(0.01)
        # A frame passes (pause() ends with a screen update): the view follows the list a
        # frame later, and what that starts is looked for in the next round.
        await pilot.pause()
    await view_follows(pilot)


def measure(rounds: int) -> dict[str, dict[str, list[float]]]:
    """Each wait's CPU milliseconds and pauses, idle and after a move of the cursor."""
    import textual._wait

    from index_builder.paths import Paths
    from index_builder.search.engine import SearchIndex
    from tests.helpers import tui_helpers
    from tests.helpers.tui_fixtures import IDLE_CHECK_S
    from tests.helpers.tui_papers import PaperShelf, sample_papers
    from tui.app import PaperScopeApp
    from tui.shared.config import Config
    from tui.shared.context import Context

    # As the tests run (``tui_quick_idle_checks``).
    textual._wait.SLEEP_GRANULARITY, textual._wait.SLEEP_IDLE = IDLE_CHECK_S, IDLE_CHECK_S / 20
    waits: dict[str, Wait] = {"three rounds": three_rounds, "quiet": tui_helpers.settle}
    out = {name: {"idle": [], "move": [], "pauses": []} for name in waits}
    shelf = PaperShelf(sample_papers())

    async def run(home: Path) -> None:
        paths = Paths(home / "config", home / "data", home / "cache").ensure()
        ctx = Context(paths=paths, use_bundled=False)
        ctx._catalogue = shelf  # type: ignore[assignment]
        ctx._index = SearchIndex(paths.index_dir, shelf.papers, shelf.fingerprint)
        app = PaperScopeApp(ctx, config=Config(path=paths.config_file))
        async with app.run_test(size=(120, 36)) as pilot:
            await tui_helpers.ready(pilot)
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
