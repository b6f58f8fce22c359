"""Pilot tests of the reading list screen: keys r, n, d, u, s, 0-3, e, p, Enter."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import DataTable, Input, OptionList, Static, TextArea

from index_builder.model import Event, Paper
from index_builder.readinglist.store import ReadingList
from tests.helpers.notices import Notices
from tests.helpers.tui_helpers import until
from tui.screens.reading_list.dialogs import ExportDialog, NoteDialog
from tui.screens.reading_list.screen import ReadingListScreen

SCREEN_PAPERS = [
    Paper(
        id="p1",
        title="Alpha [bold red]not markup[/] \x1b]52;c;SGk=\x07",
        authors=("Ann Lee", "Bo Li", "Cy Ma"),
        session="Poster Session 1",
        starts_at="2026-07-06T18:30:00-07:00",
        ends_at="2026-07-06T20:15:00-07:00",
        openreview_url="https://openreview.net/forum?id=a",
    ),
    Paper(
        id="p2",
        title="Beta",
        authors=("Dee Wu",),
        session="Oral 1A Something",
        starts_at="2026-07-06T18:45:00-07:00",
        ends_at="2026-07-06T19:00:00-07:00",
    ),
    Paper(id="p3", title="Gamma", authors=()),
]


class ListApp(App[None]):
    """A bare app that shows the reading list screen and records what it dismissed with."""

    def __init__(
        self, store: ReadingList, papers: list[Paper], export_dir: Path, sort: str = "added"
    ) -> None:
        super().__init__()
        self.store = store
        by_id = {p.id: p for p in papers}
        self.screen_obj = ReadingListScreen(store, by_id.get, papers=papers, export_dir=export_dir)
        # The editing tests read rows newest first; the Next order has tests of its own.
        self.screen_obj.sort = sort
        self.opened: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.screen_obj, self.opened.append)


@pytest.fixture
def rl_store(tmp_path: Path):
    store = ReadingList(tmp_path / "rl.sqlite3")
    for paper in SCREEN_PAPERS:
        store.add(paper)
    yield store
    store.close()


async def written(pilot: Any) -> None:
    """Wait until the screen's writes (run off the event loop) are done and shown."""
    edits = pilot.app.screen_obj.edits
    await until(pilot, lambda: edits.writes.idle, what="the reading list's writes to be done")
    await pilot.pause()


def table_ids(app: ListApp, table_id: str = "#rl-table") -> list[str]:
    table = app.screen.query_one(table_id, DataTable)
    return [str(row.key.value) for row in table.ordered_rows]


async def test_shows_bookmarks_as_text(rl_store: ReadingList, tmp_path: Path) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        assert table_ids(app) == ["p3", "p2", "p1"]  # newest first
        table = app.screen.query_one("#rl-table", DataTable)
        title = table.get_cell("p1", "title")
        assert "[bold red]not markup[/]" in title.plain and "\x1b" not in title.plain
        assert table.get_cell("p1", "authors").plain == "Ann Lee, Bo Li +1"
        assert table.get_cell("p3", "authors").plain == "authors unknown"


async def test_status_cycle_filter_and_sort(rl_store: ReadingList, tmp_path: Path) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")  # cursor on p3
        await written(pilot)
        assert rl_store.get("p3").status == "reading"  # type: ignore[union-attr]
        await pilot.press("r")
        await written(pilot)
        assert rl_store.get("p3").status == "read"  # type: ignore[union-attr]
        await pilot.press("r", "r")
        await written(pilot)
        assert rl_store.get("p3").status == "reading"  # type: ignore[union-attr]
        await pilot.press("2")
        assert table_ids(app) == ["p3"]
        await pilot.press("1")
        assert table_ids(app) == ["p2", "p1"]
        await pilot.press("0", "s")  # sort by title
        assert table_ids(app) == ["p1", "p2", "p3"]
        await pilot.press("s", "s")  # status, then time
        assert table_ids(app) == ["p1", "p2", "p3"]
        header = app.screen.query_one("#rl-header", Static)
        assert "sorted by next presentation" in str(header.render())


async def test_remove_and_undo(rl_store: ReadingList, tmp_path: Path) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        rl_store.set_note("p2", "keep me")
        await pilot.press("s")  # title order: p1, p2, p3; the cursor stays on p3
        await pilot.press("k")
        before = rl_store.get("p2")
        await pilot.press("d")
        await written(pilot)
        assert not rl_store.is_bookmarked("p2")
        assert table_ids(app) == ["p1", "p3"]
        await pilot.press("d")  # p3 now under the cursor
        await written(pilot)
        assert table_ids(app) == ["p1"]
        await pilot.press("u", "u")
        await written(pilot)
        assert rl_store.get("p2") == before
        assert table_ids(app) == ["p1", "p2", "p3"]
        await pilot.press("u")  # nothing left to undo: no change, no crash
        await written(pilot)
        assert len(rl_store) == 3


async def test_note_dialog_saves_and_cancels(rl_store: ReadingList, tmp_path: Path) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        assert isinstance(app.screen, NoteDialog)
        app.screen.query_one(TextArea).insert("first line\nsecond")
        await pilot.press("ctrl+s")
        await written(pilot)
        await pilot.pause()
        assert isinstance(app.screen, ReadingListScreen)
        assert rl_store.get("p3").note == "first line\nsecond"  # type: ignore[union-attr]
        await pilot.press("n")
        await pilot.press("x", "y", "escape")
        await pilot.pause()
        assert rl_store.get("p3").note == "first line\nsecond"  # type: ignore[union-attr]
        assert "first line" in str(app.screen.query_one("#rl-note", Static).render())


async def test_enter_opens_the_paper_or_says_it_left(rl_store: ReadingList, tmp_path: Path) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS[:2], tmp_path)  # p3 left the data
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#rl-table", DataTable)
        assert "no longer in the data" in table.get_cell("p3", "title").plain
        await pilot.press("enter")  # p3: stays, with a notice
        await pilot.pause()
        assert isinstance(app.screen, ReadingListScreen) and app.opened == []
        await pilot.press("j", "enter")
        await pilot.pause()
        assert app.opened == ["p2"]


async def test_export_writes_where_it_says_or_to_a_typed_path(
    rl_store: ReadingList, tmp_path: Path, notices: Notices
) -> None:
    """``e``, a format key (JSON): the file the dialog names; ``e`` again, the calendar
    highlighted and a path typed: that file."""
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    target = tmp_path / "mine" / "cal.ics"
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        path = Path(app.screen.query_one(Input).value)
        assert path.parent == tmp_path / "exports" and path.suffix == ".bib"
        await pilot.press("j")  # JSON
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        written = path.with_suffix(".json")
        data = json.loads(written.read_text(encoding="utf-8"))
        assert {b["paper_id"] for b in data["bookmarks"]} == {"p1", "p2", "p3"}
        assert any(str(written) in m for m in notices.messages(app))

        assert isinstance(app.screen, ReadingListScreen)
        await pilot.press("e")
        await pilot.press("down", "down", "down", "down")  # highlight the calendar
        assert app.screen.query_one(OptionList).highlighted == 4
        app.screen.query_one(Input).focus()
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        text = target.read_bytes().decode("utf-8")
        assert text.startswith("BEGIN:VCALENDAR\r\n") and text.count("BEGIN:VEVENT") == 2


async def test_sessions_view_fits_a_narrow_screen_and_steps_over_headings(
    rl_store: ReadingList, tmp_path: Path
) -> None:
    rl_store.add(LONG)
    app = ListApp(rl_store, [*SCREEN_PAPERS, LONG], tmp_path)
    async with app.run_test(size=(70, 22)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        sessions = app.screen.query_one("#rl-sessions", DataTable)
        lines = {str(r.key.value): sessions.get_cell(r.key, "plan") for r in sessions.ordered_rows}
        keys = list(lines)
        assert lines[keys[0]].plain == "Monday 6 July 2026" and keys[0].startswith("#day")
        clashes = [lines[k].plain.strip() for k in keys if k.startswith("#clash")]
        assert clashes[0].startswith("clash: Oral 1A Something")
        assert clashes[1].startswith("clash: Poster Session 1")
        assert keys.index("p1") < keys.index("p2") < keys.index("p3")
        # every line fits beside the scrollbar: nothing (a clash, a time) is off screen
        assert all(line.cell_len <= 70 - 5 for line in lines.values())
        assert lines["p9"].plain.endswith("…")  # the long title is cut, with a mark
        assert sessions.cursor_row == keys.index("p1")  # the first paper, not a heading
        await pilot.press("j")  # over p2's session and clash lines
        assert sessions.cursor_row == keys.index("p2")
        await pilot.press("k")
        assert sessions.cursor_row == keys.index("p1")
        await pilot.press("j", "j", "enter")  # over the no-time heading
        await pilot.pause()
        after_p2 = [k for k in keys[keys.index("p2") + 1 :] if not k.startswith("#")]
        assert app.opened == [after_p2[0]]


@pytest.mark.parametrize("size", [(20, 5), (30, 8), (200, 60)])
async def test_small_and_large_terminals(
    rl_store: ReadingList, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("p", "p", "r", "s", "n", "escape", "d", "u", "escape")
        await written(pilot)
        await pilot.pause()
        assert app.opened == [None]


async def test_export_failure_is_reported(
    rl_store: ReadingList, tmp_path: Path, notices: Notices
) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    app = ListApp(rl_store, SCREEN_PAPERS, blocker / "sub")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        app.screen.query_one(Input).focus()
        await pilot.press("j")  # typed into the file name, not a format choice
        assert isinstance(app.screen, ExportDialog)
        assert app.screen.query_one(Input).value.endswith(".bibj")
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert any("Export failed" in m for m in notices.messages(app))
        assert isinstance(app.screen, ReadingListScreen)


async def test_keys_act_on_the_sessions_row(rl_store: ReadingList, tmp_path: Path) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=(120, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p", "j")  # from p1, the first paper, to p2
        await pilot.press("r")
        await written(pilot)
        assert rl_store.get("p2").status == "reading"  # type: ignore[union-attr]
        assert rl_store.get("p3").status == "to-read"  # type: ignore[union-attr]
        sessions = app.screen.query_one("#rl-sessions", DataTable)
        # still on p2 after the redraw
        assert table_ids(app, "#rl-sessions")[sessions.cursor_row] == "p2"
        await pilot.press("d")
        await written(pilot)
        assert not rl_store.is_bookmarked("p2") and "p2" not in table_ids(app, "#rl-sessions")
        await pilot.press("u")
        await written(pilot)
        assert rl_store.is_bookmarked("p2")
        before = rl_store.all()
        sessions.move_cursor(row=0)
        await pilot.press("r", "d")  # on the day heading: nothing to change
        await written(pilot)
        assert rl_store.all() == before
        await pilot.press("p")
        assert set(table_ids(app)) == {"p1", "p2", "p3"}


async def test_escape_from_the_planner_goes_back_to_the_list(
    rl_store: ReadingList, tmp_path: Path
) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        assert app.screen_obj.sessions.shown
        await pilot.press("escape")
        assert isinstance(app.screen, ReadingListScreen) and app.opened == []
        assert not app.screen_obj.sessions.shown
        assert app.screen.query_one("#rl-table", DataTable).has_focus
        await pilot.press("escape")
        assert app.opened == [None]


async def test_escape_from_a_planner_opened_from_the_papers_goes_back_to_them(
    rl_store: ReadingList, tmp_path: Path
) -> None:
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    app.screen_obj = ReadingListScreen(
        rl_store, {p.id: p for p in SCREEN_PAPERS}.get, papers=SCREEN_PAPERS, start="sessions"
    )
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert app.screen_obj.sessions.shown
        await pilot.press("escape")
        assert app.opened == [None]


LONG = Paper(
    id="p9",
    title="A Very Long Title " * 8,
    authors=("Stella Biderman", "Mohammad Aflah Khan", "Niloofar Mireshghallah", "C. Arnett"),
)


@pytest.mark.parametrize("size", [(120, 36), (80, 24), (70, 22)])
async def test_every_column_shows_on_screen(
    rl_store: ReadingList, tmp_path: Path, size: tuple[int, int]
) -> None:
    from tests.helpers.tui_helpers import rendered_text

    rl_store.add(LONG)
    app = ListApp(rl_store, [*SCREEN_PAPERS, LONG], tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#rl-table", DataTable)
        lines = rendered_text(table).splitlines()
        assert "Next" in lines[0] and "Title       " in lines[0], lines[0]
        rows = [line for line in lines[1:] if line.strip()]
        assert len(rows) == 4, rows
        # the next presentation ends each row (no venue: in the offset the data has)
        ends = sorted(line.rstrip().rsplit("  ", 1)[-1].strip() for line in rows)
        assert ends == ["Mon 18:30", "Mon 18:45", "no time", "no time"], rows


async def test_a_bookmark_added_elsewhere_shows_up(rl_store: ReadingList, tmp_path: Path) -> None:
    app = ListApp(rl_store, [*SCREEN_PAPERS, LONG], tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert table_ids(app) == ["p3", "p2", "p1"]
        with ReadingList(rl_store.path) as other:  # another process: its own connection
            other.add(LONG)
            other.set_status("p1", "read")
        await until(pilot, lambda: table_ids(app)[0] == "p9", what="the other process's paper")
        assert table_ids(app) == ["p9", "p3", "p2", "p1"]
        table = app.screen.query_one("#rl-table", DataTable)
        assert table.get_cell("p1", "status").plain == "read"


TALKER = Paper(
    id="p5",
    title="Talker",
    authors=("Tal K",),
    oral=True,
    session="Poster Session 2",
    starts_at="2026-07-06T22:00:00-07:00",
    ends_at="2026-07-06T23:45:00-07:00",
    events=(
        Event("oral", "Oral 1A", "2026-07-06T18:00:00-07:00", "2026-07-06T18:15:00-07:00"),
        Event(
            "poster", "Poster Session 2", "2026-07-06T22:00:00-07:00",
            "2026-07-06T23:45:00-07:00", poster_position="#2504",
        ),
    ),
    venue="ICML 2026",
)  # fmt: skip


@pytest.mark.parametrize(
    ("now", "order", "cells"),
    [
        (  # before the conference: the talk is the oral paper's next presentation
            "2026-07-01T00:00:00+00:00",
            ["p5", "p1", "p2", "p3"],
            {"p5": "Tue 10:00 talk", "p1": "Mon 18:30", "p2": "Mon 18:45", "p3": "no time"},
        ),
        (  # its talk is over, p1's poster session still runs: the poster comes next
            "2026-07-06T18:35:00-07:00",
            ["p1", "p2", "p5", "p3"],
            {"p5": "Tue 14:00 #2504", "p1": "Mon 18:30"},
        ),
        (  # all over: the first presentation of each, dimmed, in the conference's order
            "2026-12-06T05:00:00+00:00",
            ["p5", "p1", "p2", "p3"],
            {"p5": "Tue 10:00 talk"},
        ),
    ],
)
async def test_the_list_shows_and_sorts_by_the_next_presentation(
    rl_store: ReadingList, tmp_path: Path, now: str, order: list[str], cells: dict[str, str]
) -> None:
    """The issue's ask: the day, time and board of each paper's next presentation, sorted by
    it from the start, instead of an Added column that is the same day for all."""
    rl_store.add(TALKER)
    papers = [*SCREEN_PAPERS, TALKER]
    app = ListApp(rl_store, papers, tmp_path, sort="time")
    moment = datetime.fromisoformat(now)
    app.screen_obj.clock = lambda: moment
    assert ReadingListScreen(rl_store).sort == "time"  # the order a new list opens in
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert table_ids(app) == order
        table = app.screen.query_one("#rl-table", DataTable)
        for paper_id, text in cells.items():
            assert table.get_cell(paper_id, "next").plain == text
        past = table.get_cell("p5", "next").style == "dim"
        assert past == now.startswith("2026-12")
        header = str(app.screen.query_one("#rl-header", Static).render())
        assert "sorted by next presentation" in header


async def test_every_column_shows_after_the_terminal_narrows(
    rl_store: ReadingList, tmp_path: Path
) -> None:
    from tests.helpers.tui_helpers import rendered_text

    rl_store.add(LONG)
    app = ListApp(rl_store, [*SCREEN_PAPERS, LONG], tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(70, 22)
        await pilot.pause()
        table = app.screen.query_one("#rl-table", DataTable)
        lines = rendered_text(table).splitlines()
        assert "Authors" in lines[0] and "Next" in lines[0], lines[0]
        assert any("Mon 18:30" in line for line in lines), lines
