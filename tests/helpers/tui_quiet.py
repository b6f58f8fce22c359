"""The Pilot tests' wait for a quiet app (``tests/tui``): ``settle``, and the ``ready`` and
``type_query`` that end with it.

Each ``Pilot.pause()`` posts a callback to every node of the screen and waits for each to
run it, waits until the process is idle, and draws a frame: ~2.3 ms of CPU on the idle main
screen, more when the frame lays the screen out again. :func:`tests.helpers.tui_helpers.
settle` makes three rounds of two pauses, whatever happens in them (seven pauses with the
view's check, ~18 ms of CPU on an idle app, called ~290 times in this folder). This one
pauses until three pauses in a row found no worker busy, and as long as workers keep
starting (the old one stopped after three rounds, busy or not): an idle app costs four
pauses, a busy one is followed as far as it goes. It gives up, saying so, after
``timeout`` seconds of workers that never stop.
"""

from __future__ import annotations

import time

from textual.pilot import Pilot
from textual.worker import Worker, WorkerError

from tests.helpers.tui_helpers import main, until, view_follows
from tui.screens.main.screen import MainScreen

QUIET_PAUSES = 3
"""Pauses in a row with no worker busy after which the app counts as settled."""


def busy_workers(pilot: Pilot[int]) -> list[Worker[object]]:
    """The app's workers still running, but the start-up one (a first run may hold it on
    purpose: never waited for)."""
    return [w for w in pilot.app.workers if w.group != "load" and not w.is_finished]


async def settle(pilot: Pilot[int], timeout: float = 60.0) -> None:
    """Wait until the workers are done and their messages handled (three pauses in a row
    with none busy), then until the paper view shows the paper under the cursor."""
    deadline = time.monotonic() + timeout
    quiet = 0
    while quiet < QUIET_PAUSES:
        await pilot.pause()
        busy = busy_workers(pilot)
        if not busy:
            quiet += 1
            continue
        quiet = 0
        if time.monotonic() > deadline:
            names = ", ".join(sorted({w.name or w.group for w in busy}))
            raise AssertionError(f"gave up after {timeout:g} s waiting for workers: {names}")
        try:
            await pilot.app.workers.wait_for_complete(busy)
        except WorkerError:  # one was still being started: look again
            await pilot.pause(0.01)
    await view_follows(pilot)


async def ready(pilot: Pilot[int]) -> MainScreen:
    """Wait until the index is open and the first result is on screen, then settle."""

    def searchable() -> bool:
        screen = main(pilot)
        return screen.searcher is not None and screen.searcher.ready and screen.result is not None

    await until(pilot, searchable, timeout=60, what="the index to open and a first result")
    await settle(pilot)
    return main(pilot)


async def type_query(pilot: Pilot[int], text: str, *, keys: bool = False) -> MainScreen:
    """Put ``text`` in the search box and wait for its result.

    ``keys=True`` presses every key (slower: each starts a query); otherwise the box
    gets the whole text at once, as a paste does.
    """
    screen = main(pilot)
    screen.box.focus()
    if keys:
        await pilot.press(*text)
    else:
        screen.box.value = text
        screen.box.cursor_position = len(text)
    await settle(pilot)
    return screen
