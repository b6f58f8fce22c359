"""What the reading list screen follows: changes made elsewhere, and its own width.

Changes made by another process (``paperscope reading-list add``) show up by themselves.
A base of :class:`tui.screens.reading_list.screen.ReadingListScreen`: every
:data:`CHECK_S` seconds, and when the screen comes back to the front, a thread worker
reads the bookmarks the screen shows; if they differ from what is on screen, the
screen reloads (keeping the cursor on its bookmark). The read happens off the event
loop, so a list locked by another process never freezes the screen.

The title column gets the room the other columns leave (:func:`rows.rooms`), so the
Added column shows at 120 columns and the table is redrawn when the screen is resized.
"""

from __future__ import annotations

from textual import work
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.store import ReadingList, ReadingListError
from tui.screens.reading_list.rows import rooms

CHECK_S = 1.0
"""How often the screen looks for changes made by another process."""


class ChangeWatch(Screen[str | None]):
    """Reload when the store holds other bookmarks than the screen shows."""

    store: ReadingList
    bookmarks: list[Bookmark]
    status_filter: str | None
    sort: str

    class Changed(Message):
        """The store's bookmarks differ from those on screen."""

    @property
    def room(self) -> tuple[int, int]:
        """The title and authors columns' room at the screen's width."""
        return rooms(self.size.width or 120)

    def on_resize(self) -> None:
        if self.bookmarks and self.is_mounted:
            self.reload()

    def watch_changes(self) -> None:
        """Start looking (call once the first load is done)."""
        self.set_interval(CHECK_S, self.check_changes)

    def on_screen_resume(self) -> None:
        self.check_changes()

    def check_changes(self) -> None:
        """Compare the store with the screen, off the event loop."""
        if self.is_attached and self.app.screen is self:
            self._compare(self.store, self.status_filter, self.sort, list(self.bookmarks))

    @work(thread=True, exclusive=True, group="rl-watch", exit_on_error=False)
    def _compare(
        self, store: ReadingList, status: str | None, sort: str, shown: list[Bookmark]
    ) -> None:
        try:
            rows = store.all(status=status, sort=sort)
        except ReadingListError:
            return  # locked or damaged right now: the next look will tell
        if rows != shown and not get_current_worker().is_cancelled:
            self.post_message(self.Changed())

    def on_change_watch_changed(self, message: Changed) -> None:
        message.stop()
        self.reload()

    def reload(self, keep: str | None = None) -> None:
        """Read the store again and redraw (the screen defines it)."""
        raise NotImplementedError
