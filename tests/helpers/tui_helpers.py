"""Small waits for Pilot tests, and the type of the app factory fixture."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App
from textual.command import CommandList, CommandPalette
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.worker import Worker, WorkerError

from tests.helpers.waiting import describe
from tui.app import PaperScopeApp
from tui.screens.main.screen import MainScreen

AppFactory = Callable[..., PaperScopeApp]
"""The type of the ``make_app`` fixture: builds the app on a private home."""


def main(pilot: Pilot[int]) -> MainScreen:
    """The app's main screen."""
    app = pilot.app
    assert isinstance(app, PaperScopeApp)
    screen = next((s for s in app.screen_stack if isinstance(s, MainScreen)), app.screen)
    assert isinstance(screen, MainScreen)
    return screen


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


async def view_follows(pilot: Pilot[int]) -> None:
    """Wait until the paper view shows the paper under the list's cursor (and is drawn)."""
    screens = [s for s in pilot.app.screen_stack if isinstance(s, MainScreen)]
    if not screens:
        return
    screen = screens[0]
    await until(
        pilot,
        lambda: screen.results.current is screen.view.hit or screen.view.has_focus_within,
        what="the paper view to show the paper under the cursor",
    )
    await pilot.pause()


async def ready(pilot: Pilot[int]) -> MainScreen:
    """Wait until the index is open and the first result is on screen."""

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


async def until(
    pilot: Pilot[int], predicate: Callable[[], bool], timeout: float = 20.0, what: str = ""
) -> bool:
    """Let the app run until ``predicate()`` holds (True); fail after ``timeout`` seconds,
    saying what it waited for (``what``, else the predicate's name)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"gave up after {timeout:g} s waiting for {what or describe(predicate)}"
            )
        await pilot.pause(0.02)
    return True


def highlighted_command(app: App[object]) -> str:
    """The command under the palette's cursor, lower case ("" when none or no palette)."""
    if not isinstance(app.screen, CommandPalette):
        return ""
    commands = app.screen.query_one(CommandList)
    if commands.highlighted is None:
        return ""
    return str(commands.get_option_at_index(commands.highlighted).prompt).lower()


def rendered_text(widget: Widget) -> str:
    """The widget's lines as plain text, as they would be drawn."""
    width, height = widget.size
    return "\n".join(strip.text for strip in widget.render_lines(Region(0, 0, width, height)))


IndexStates = list[tuple[str, tuple[int, int] | None]]
"""What the status line was told of the index: (state, (done, total) of a build or None)."""


def record_index_states(screen: MainScreen, monkeypatch: pytest.MonkeyPatch) -> IndexStates:
    """Every index state the status line is given from now on, in order (each is shown
    too): a test asserts, say, that a change never showed a build's progress."""
    status = screen.status
    shown = status.set_index_state
    seen: IndexStates = []

    def recording(state: str, progress: tuple[int, int] | None = None) -> None:
        seen.append((state, progress))
        shown(state, progress)

    monkeypatch.setattr(status, "set_index_state", recording)
    return seen


def rebuilt(states: IndexStates) -> list[str]:
    """The states that said the index was being built ("building index 40%", with its
    progress bar): none for a change made in place. (A download's progress is not one.)"""
    return [state for state, _ in states if "build" in state]


def states_at_catalogue_builds(screen: MainScreen, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The status line's index state each time a catalogue is built from now on (a change
    merges the papers again before its index changes: the longest part of its wait)."""
    from index_builder.catalogue import load

    build = load.load_catalogue
    seen: list[str] = []

    def spying(*args: Any, **kwargs: Any) -> Any:
        seen.append(screen.status.index_state)
        return build(*args, **kwargs)

    monkeypatch.setattr(load, "load_catalogue", spying)
    return seen
