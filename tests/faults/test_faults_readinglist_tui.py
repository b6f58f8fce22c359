"""The reading-list screen and another process writing the same file (a real CLI call).

The screen must show what another process wrote (a note, a status) without being told,
and a note edit must never overwrite text it did not show: on a conflict both are kept.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import DataTable, TextArea

from index_builder.model import Paper
from index_builder.paths import HOME_ENV
from index_builder.readinglist.store import ReadingList
from tui.screens.reading_list.dialogs import NoteDialog
from tui.screens.reading_list.screen import ReadingListScreen

PAPER = Paper(id="77001", title="Shared Notes Under Contention", authors=("Ann Lee",))


class ListApp(App[None]):
    """A bare app that shows the reading list screen of one store."""

    def __init__(self, store: ReadingList) -> None:
        super().__init__()
        self.screen_obj = ReadingListScreen(store, {PAPER.id: PAPER}.get, papers=[PAPER])

    def on_mount(self) -> None:
        self.push_screen(self.screen_obj)


@pytest.fixture
def shared(tmp_path: Path) -> tuple[Path, Path, ReadingList]:
    """A home whose list holds PAPER with the note "mine", and the source the CLI reads."""
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps([{"event_id": int(PAPER.id), "title": PAPER.title}]))
    home = tmp_path / "home"
    store = ReadingList(home / "data" / "reading_list.sqlite3")
    store.add(PAPER)
    store.set_note(PAPER.id, "mine")
    yield home, rows, store
    store.close()


def other_process(home: Path, rows: Path, *args: str) -> None:
    """Run ``paperscope reading-list ARGS`` in another process on the same file."""
    argv = [sys.executable, "-m", "tui", "--no-bundled", "--source", str(rows), "reading-list"]
    env = {**os.environ, HOME_ENV: str(home)}
    done = subprocess.run(
        [*argv, *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr


def status_cell(app: ListApp) -> str:
    table = app.screen_obj.query_one("#rl-table", DataTable)
    return str(table.get_cell(PAPER.id, "status").plain)


async def test_the_dialog_shows_the_note_written_elsewhere(
    shared: tuple[Path, Path, ReadingList],
) -> None:
    home, rows, store = shared
    app = ListApp(store)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        other_process(home, rows, "note", PAPER.id, "from", "the", "shell")
        other_process(home, rows, "status", PAPER.id, "read")
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteDialog)
        area = app.screen.query_one(TextArea)
        assert area.text == "from the shell"
        await pilot.press("space", "o", "k", "ctrl+s")
        await pilot.pause()
    bm = store.get(PAPER.id)
    assert bm is not None and bm.note == "from the shell ok" and bm.status == "read"


async def test_saving_a_note_keeps_one_written_while_editing(
    shared: tuple[Path, Path, ReadingList],
) -> None:
    home, rows, store = shared
    app = ListApp(store)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteDialog)
        other_process(home, rows, "note", PAPER.id, "written", "meanwhile")
        await pilot.press("space", "x", "ctrl+s")
        await pilot.pause()
    bm = store.get(PAPER.id)
    assert bm is not None
    assert "written meanwhile" in bm.note and "mine x" in bm.note


async def test_the_screen_notices_changes_without_a_key(
    shared: tuple[Path, Path, ReadingList],
) -> None:
    home, rows, store = shared
    app = ListApp(store)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        before = status_cell(app)
        other_process(home, rows, "status", PAPER.id, "read")
        for _ in range(200):  # wait for the condition, not for a fixed time
            if status_cell(app) != before:
                break
            await pilot.pause(0.05)
        assert status_cell(app) != before
        assert app.screen_obj.bookmarks[0].status == "read"
