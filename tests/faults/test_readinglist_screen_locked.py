"""The reading list screen stays responsive while another process holds the list (issue
29, item 5). ``r``, ``n`` and ``d`` wrote on the event loop and froze the screen for the
whole lock wait (5 s at most); now the writes wait in a worker, in order, while the keys
pressed meanwhile act at once. The lock is real: another process holds the file's write
lock (``BEGIN EXCLUSIVE``) until the test has pressed every key and looked at the screen,
then is told on its standard input to let go, and every write then lands. (It held the
lock for 3 s of the clock, and on a loaded machine the keys took longer: the test failed
though the screen had not frozen.)"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import DataTable, TextArea

from index_builder.readinglist.store import ReadingList
from tests.helpers.tui_helpers import until
from tests.tui.test_reading_list_screen import SCREEN_PAPERS, ListApp, table_ids, written
from tui.screens.reading_list.dialogs import NoteDialog
from tui.screens.reading_list.screen import ReadingListScreen

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
conn.execute("UPDATE bookmarks SET note = note WHERE paper_id = 'none'")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("COMMIT")
"""
LOCK_WAIT_S = 60.0
"""How long the app's list waits for the lock (5 s by default): the other process lets go
when the test tells it, after the keys, however long they take on a loaded machine."""


def hold(path: Path) -> subprocess.Popen[str]:
    """Another process holding the list's write lock until a line on its standard input."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    return proc


def release(proc: subprocess.Popen[str]) -> None:
    """Tell the holder to commit and end; wait for it."""
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0


@asynccontextmanager
async def list_screen(tmp_path: Path) -> AsyncIterator[tuple[ListApp, Pilot[None], ReadingList]]:
    """The reading list screen on the three papers, its list waiting long for a lock."""
    store = ReadingList(tmp_path / "rl.sqlite3", timeout=LOCK_WAIT_S)
    for paper in SCREEN_PAPERS:
        store.add(paper)
    app = ListApp(store, SCREEN_PAPERS, tmp_path)
    try:
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause()
            yield app, pilot, store
    finally:
        store.close()


async def test_keys_act_while_a_write_waits_for_the_lock(tmp_path: Path) -> None:
    async with list_screen(tmp_path) as (app, pilot, store):
        table = app.screen.query_one("#rl-table", DataTable)
        assert table_ids(app) == ["p3", "p2", "p1"] and table.cursor_row == 0
        holder = hold(store.path)
        try:
            await pilot.press("r")  # p3: waits for the lock, off the event loop
            await pilot.press("j")
            assert table.cursor_row == 1, "j did nothing while r waited"
            await pilot.press("d")  # p2 leaves the screen at once; written later
            assert table_ids(app) == ["p3", "p1"]
            await pilot.press("n")
            assert isinstance(app.screen, NoteDialog)
            app.screen.query_one(TextArea).insert("written after the wait")
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, ReadingListScreen)
            # All of that happened while the other process still held the list: no
            # write has landed yet (a write made on the event loop would have waited
            # there for the lock, which is let go only below).
            assert holder.poll() is None
            assert store.get("p3").status == "to-read"  # type: ignore[union-attr]
            assert store.is_bookmarked("p2")
        finally:
            release(holder)
        await written(pilot)
        assert store.get("p3").status == "reading"  # type: ignore[union-attr]
        assert not store.is_bookmarked("p2")
        assert store.get("p1").note == "written after the wait"  # type: ignore[union-attr]
        assert table_ids(app) == ["p3", "p1"]
        # The list's files survived the other process's exit (a second connection of
        # this process once dropped its locks, and the undo met "disk I/O error").
        await pilot.press("u")
        await written(pilot)
        assert store.is_bookmarked("p2") and table_ids(app) == ["p3", "p2", "p1"]


async def test_a_look_for_outside_changes_while_a_removal_waits_keeps_it_removed(
    tmp_path: Path,
) -> None:
    """The screen's look for changes made elsewhere (each second) read the list while
    ``d``'s write still waited for the lock, found the removed row in the store, and
    reloaded it onto the screen (the test above failed this way on a loaded machine).
    Here the look runs at that moment on purpose."""
    async with list_screen(tmp_path) as (app, pilot, store):
        screen = app.screen
        assert isinstance(screen, ReadingListScreen)
        holder = hold(store.path)
        try:
            await pilot.press("j", "d")  # p2 leaves the screen; its write waits
            assert table_ids(app) == ["p3", "p1"]
            screen.changes.check()

            def looked() -> bool:
                return all(w.is_finished for w in app.workers if w.group == "rl-watch")

            await until(pilot, looked, what="the look for outside changes to end")
            await pilot.pause()
            assert holder.poll() is None and store.is_bookmarked("p2")
            assert table_ids(app) == ["p3", "p1"], "the removed row came back"
        finally:
            release(holder)
        await written(pilot)
        assert not store.is_bookmarked("p2") and table_ids(app) == ["p3", "p1"]
