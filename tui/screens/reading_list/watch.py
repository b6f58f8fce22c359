"""Changes made elsewhere to the reading list, noticed by the screen that shows it.

Changes made by another process (``paperscope reading-list add``) show up by themselves.
:class:`ChangeWatch` belongs to :class:`~tui.screens.reading_list.screen.ReadingListScreen`:
every :data:`CHECK_S` seconds, and when the screen comes back to the front, a thread worker
reads the bookmarks the screen shows; if they differ from what is on screen, it posts
:class:`ListChanged` to the screen, which reloads (keeping the cursor on its bookmark). The
read happens off the event loop, so a list locked by another process never freezes the
screen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.store import ReadingListError

CHECK_S = 1.0
"""How often the screen looks for changes made by another process."""


class ListChanged(Message):
    """The store's bookmarks differ from those on screen."""


class ChangeWatch:
    """Compares the store with what ``screen`` shows, off the event loop.

    ``reader`` gives, on the event loop, the read to run in the thread (the bookmarks
    the screen's view would show now); ``shown`` gives those on screen.
    """

    def __init__(
        self,
        screen: Screen[Any],
        reader: Callable[[], Callable[[], list[Bookmark]]],
        shown: Callable[[], list[Bookmark]],
    ) -> None:
        self.screen = screen
        self.reader = reader
        self.shown = shown

    def start(self) -> None:
        """Look every :data:`CHECK_S` seconds (call once the first load is done)."""
        self.screen.set_interval(CHECK_S, self.check)

    def check(self) -> None:
        """Compare now, if the screen is the one in front."""
        screen = self.screen
        if screen.is_attached and screen.app.screen is screen:
            screen.run_worker(
                partial(self._compare, self.reader(), list(self.shown())),
                thread=True,
                exclusive=True,
                group="rl-watch",
                exit_on_error=False,
            )

    def _compare(self, read: Callable[[], list[Bookmark]], shown: list[Bookmark]) -> None:
        try:
            rows = read()
        except ReadingListError:
            return  # locked or damaged right now: the next look will tell
        if rows != shown and not get_current_worker().is_cancelled:
            self.screen.post_message(ListChanged())
