"""Snapshot tests (pytest-textual-snapshot) of the main screen, help, empty results, first run.

Update after an intended change with ``pytest tests/tui/test_snapshots.py --snapshot-update``
and look at the report before committing.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from index_builder.search.engine import SearchIndex
from tests.helpers.held_index import GatedIndex
from tests.helpers.tui_helpers import AppFactory, main, ready, settle, type_query, until


async def fixed_time(pilot: Pilot[int]) -> None:
    """Query time fixed and the cursor not blinking, so that the picture does not flicker."""
    screen = main(pilot)
    screen.box.cursor_blink = False
    status = screen.status
    status.set_counts(status.shown, status.total, 1.0)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def massart(pilot: Pilot[int]) -> None:
    """Index ready, "massart noise" typed, cursor on the second paper."""
    await ready(pilot)
    await type_query(pilot, "massart noise")
    await pilot.press("escape", "j")
    await settle(pilot)
    await fixed_time(pilot)


def test_main_screen_wide(snap_compare, make_app: AppFactory) -> None:
    assert snap_compare(make_app(), terminal_size=(120, 36), run_before=massart)


def test_main_screen_narrow(snap_compare, make_app: AppFactory) -> None:
    assert snap_compare(make_app(), terminal_size=(70, 22), run_before=massart)


def test_help_screen(snap_compare, make_app: AppFactory) -> None:
    async def help_open(pilot: Pilot[int]) -> None:
        await ready(pilot)
        await fixed_time(pilot)
        await pilot.press("escape", "question_mark")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(120, 36), run_before=help_open)


def test_empty_results(snap_compare, make_app: AppFactory) -> None:
    async def nothing(pilot: Pilot[int]) -> None:
        await ready(pilot)
        await type_query(pilot, "zzzqqqxxx")
        await fixed_time(pilot)

    assert snap_compare(make_app(), terminal_size=(120, 36), run_before=nothing)


def test_first_run_progress(
    snap_compare, make_app: AppFactory, tui_index_dir: Path, tui_papers: tuple
) -> None:
    gated = GatedIndex(SearchIndex(tui_index_dir / "index", tui_papers, "tui-tests"))

    async def building(pilot: Pilot[int]) -> None:
        await until(pilot, lambda: "43%" in main(pilot).status.text, what="the build held at 43 %")
        await settle(pilot)
        await fixed_time(pilot)

    app = make_app(index=gated)
    gated.release_when(app)  # the picture is taken while the build is held
    try:
        assert snap_compare(app, terminal_size=(120, 36), run_before=building)
    finally:
        gated.release.set()
