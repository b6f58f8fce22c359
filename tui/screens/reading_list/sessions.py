"""The reading list screen's "Sessions" view (``p``) and the store-call guard both views use.

A base of :class:`tui.screens.reading_list.screen.ReadingListScreen`: the bookmarks
grouped by day and poster session, clashes marked (see
:mod:`tui.screens.reading_list.rows`). Keys act on the row under the cursor of
whichever view is shown; a heading row is no bookmark.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.text import Text
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable

from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import Lookup
from index_builder.readinglist.store import ReadingList, ReadingListError
from tui.screens.reading_list.rows import fill_sessions

T = TypeVar("T")


class SessionsView(Screen[str | None]):
    """The sessions table of the reading list, and :meth:`_try` for store calls."""

    store: ReadingList
    lookup: Lookup | None
    in_sessions: dict[str, Bookmark]

    def _try(self, change: Callable[[], T]) -> T | None:
        """Run a store call; on failure say why and return None (the list stays as it was)."""
        try:
            return change()
        except (ReadingListError, KeyError) as exc:
            self.notify(str(exc), title="Reading list", severity="error")
            return None

    @property
    def sessions_table(self) -> DataTable[Text]:
        """The table of days, sessions and their bookmarks."""
        return self.query_one("#rl-sessions", DataTable)

    @property
    def sessions_shown(self) -> bool:
        """True while the sessions view is shown instead of the list."""
        return self.query_one(ContentSwitcher).current == "rl-sessions"

    def session_current(self) -> Bookmark | None:
        """The bookmark on the sessions row under the cursor (None on a heading)."""
        table = self.sessions_table
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(Coordinate(table.cursor_row, 0)).row_key.value
        return self.in_sessions.get(key or "")

    def action_toggle_sessions(self) -> None:
        """Switch between the list and the poster sessions."""
        switcher = self.query_one(ContentSwitcher)
        show = "rl-sessions" if switcher.current == "rl-table" else "rl-table"
        switcher.current = show
        if show == "rl-sessions":
            self._fill_sessions()
        self.query_one(f"#{show}", DataTable).focus()

    def _fill_sessions(self) -> None:
        every = self._try(lambda: self.store.all(sort="time"))
        if every is None:
            return
        table = self.sessions_table
        keep = self.session_current() if self.sessions_shown else None
        self.in_sessions = {b.paper_id: b for b in every}
        fill_sessions(table, every, self.lookup)
        if keep is not None and keep.paper_id in self.in_sessions:
            table.move_cursor(row=table.get_row_index(keep.paper_id))
