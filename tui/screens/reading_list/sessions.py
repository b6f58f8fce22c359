"""The reading list's "Sessions" view (``p``), and the store-call guard both views use.

:class:`Sessions` is a helper the reading list screen owns (the planner): the bookmarks
grouped by conference day in the chosen zone and by session, talks included, board and
room where known, clashes marked (see :mod:`tui.screens.reading_list.rows`).
Keys act on the row under the cursor of whichever view is shown; a heading row is
no bookmark. :func:`attempt` runs a store call and says why it failed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from rich.text import Text
from textual.app import App
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable

from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import Lookup
from index_builder.readinglist.store import ReadingList, ReadingListError
from index_builder.times import DEFAULT_SETTING
from tui.screens.reading_list.rows import fill_sessions

T = TypeVar("T")


class InApp(Protocol):
    """Anything that knows its app (a screen, or what a helper knows of one)."""

    @property
    def app(self) -> App[Any]: ...


def attempt(owner: InApp, change: Callable[[], T]) -> T | None:
    """Run a store call; on failure say why and return None (the list stays as it was)."""
    try:
        return change()
    except (ReadingListError, KeyError) as exc:
        owner.app.notify(str(exc), title="Reading list", severity="error")
        return None


def is_heading(key: str | None) -> bool:
    """True for a day, session or clash line of the sessions table (no bookmark)."""
    return not key or key.startswith("#")


class PlanTable(DataTable[Text]):
    """The sessions table: up and down (and j, k) step from paper to paper over headings."""

    def _step(self, delta: int) -> None:
        rows = self.ordered_rows
        row = self.cursor_row + delta
        while 0 <= row < len(rows) and is_heading(rows[row].key.value):
            row += delta
        if 0 <= row < len(rows):
            self.move_cursor(row=row)
        elif delta < 0:
            self.scroll_home(animate=False)  # the day heading above the first paper shows

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_cursor_up(self) -> None:
        self._step(-1)


class Sessions:
    """The sessions table of the reading list screen (``#rl-sessions``)."""

    def __init__(
        self,
        screen: Screen[Any],
        store: ReadingList,
        lookup: Lookup | None,
        zone: str = DEFAULT_SETTING,
        papers: Callable[[], Iterable[Paper]] = tuple,
    ) -> None:
        self._screen = screen
        self._papers = papers
        """Every paper of the data: what's on reads the conference's days from them."""
        self._store = store
        self._lookup = lookup
        self.zone = zone
        """The zone setting the times are shown in."""
        self.bookmarks: dict[str, Bookmark] = {}
        """The bookmarks in the table, by row key (a paper's id; ``id#n`` for its later rows)."""

    @property
    def count(self) -> int:
        """How many bookmarked papers the table shows (a paper with a talk shows twice)."""
        return len({bm.paper_id for bm in self.bookmarks.values()})

    @property
    def table(self) -> DataTable[Text]:
        """The table of days, sessions and their bookmarks."""
        return self._screen.query_one("#rl-sessions", DataTable)

    @property
    def shown(self) -> bool:
        """True while the sessions view is shown instead of the list."""
        return self._screen.query_one(ContentSwitcher).current == "rl-sessions"

    def current(self) -> Bookmark | None:
        """The bookmark on the sessions row under the cursor (None on a heading)."""
        table = self.table
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value
        return self.bookmarks.get(key or "")

    def toggle(self) -> None:
        """Switch between the list and the poster sessions."""
        switcher = self._screen.query_one(ContentSwitcher)
        show = "rl-sessions" if switcher.current == "rl-table" else "rl-table"
        switcher.current = show
        if show == "rl-sessions":
            self.fill()
        self._screen.query_one(f"#{show}", DataTable).focus()

    def fill(self) -> None:
        """Read every bookmark again and redraw the table, the cursor kept on its bookmark."""
        every = attempt(self._screen, lambda: self._store.all(sort="time"))
        if every is None:
            return
        table = self.table
        keep = self.current() if self.shown else None
        width = self._screen.size.width or 120
        self.bookmarks = fill_sessions(table, every, self._lookup, self.zone, width)
        if keep is not None and keep.paper_id in self.bookmarks:
            table.move_cursor(row=table.get_row_index(keep.paper_id))
        elif self.bookmarks:  # the first paper, not the heading above it
            table.move_cursor(row=table.get_row_index(next(iter(self.bookmarks))))
            table.scroll_home(animate=False)

    def whats_on(self) -> None:
        """What's on now among the bookmarks (a day and hour can be typed), and the next."""
        from tui.screens.whats_on import WhatsOnScreen

        every = attempt(self._screen, lambda: self._store.all(sort="time"))
        if every is not None:
            screen = WhatsOnScreen(every, self._lookup, self.zone, papers=self._papers())
            self._screen.app.push_screen(screen)

    def show_times_in(self, setting: str) -> None:
        """Show times in ``setting``'s zone from now on (the table redraws if shown)."""
        self.zone = setting
        if self.shown:
            self.fill()
