"""The main screen's reading-list and citation work, as a helper object it owns.

:class:`Library` knows the bookmarked ids and does what ``b``, ``B``, ``y`` and
``Y`` ask for, on the paper and catalogue the screen hands it; the screen keeps
the keys and the actions (:mod:`tui.screens.main.screen`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

if TYPE_CHECKING:
    from index_builder.model import Paper
    from index_builder.readinglist.store import ReadingList
    from tui.services import PaperSource, Services


class Library:
    """Bookmarks, the reading list screen and citations for one screen.

    ``changed`` is called after the bookmarked ids changed (the screen redraws its
    badges); ``open_paper`` with the id of a paper chosen in the reading list.
    """

    def __init__(
        self,
        screen: Screen[Any],
        services: Services,
        *,
        changed: Callable[[], None],
        open_paper: Callable[[str], None],
    ) -> None:
        self._screen = screen
        self._services = services
        self._changed = changed
        self._open_paper = open_paper
        self.marked: frozenset[str] = frozenset()
        """Ids of the bookmarked papers (as of the last load or change)."""

    def load(self) -> None:
        """Read the bookmarked ids from the store (nothing if it cannot be opened)."""
        store = self._services.reading_list()
        self.marked = store.ids() if store is not None else frozenset()
        self._changed()

    def toggle(self, paper: Paper) -> None:
        """Bookmark ``paper``, or remove its bookmark."""
        store = self._services.reading_list()
        if store is None:
            self._screen.notify("The reading list cannot be opened.", severity="error")
            return
        self._screen.run_worker(
            lambda: self._toggle_in_thread(store, paper),
            thread=True,
            group="bookmark",
            exit_on_error=False,
        )

    def _toggle_in_thread(self, store: ReadingList, paper: Paper) -> None:
        """Off the event loop: a list locked by another window waits its busy timeout."""
        app = self._screen.app
        try:
            added = store.toggle(paper)
        except Exception as exc:  # a locked or broken store must not close the app
            app.call_from_thread(self._screen.notify, f"Reading list: {exc}", severity="error")
            return
        app.call_from_thread(self._toggled, added)

    def _toggled(self, added: bool) -> None:
        self.load()
        self._screen.notify(
            "Added to the reading list." if added else "Removed from the reading list."
        )

    def open_reading_list(self, catalogue: PaperSource | None, start: str | None = None) -> None:
        """Open the reading list screen; back from it, open the paper chosen there.

        ``start``: ``"export"`` or ``"sessions"`` to open the export dialog or the
        sessions view at once.
        """
        from tui.screens.reading_list.screen import ReadingListScreen

        store = self._services.reading_list()
        if store is None:
            self._screen.notify("The reading list cannot be opened.", severity="error")
            return
        zone = self._services.zone_setting
        url = self._services.config.zotero_url
        screen = (
            ReadingListScreen(
                store, catalogue.get, papers=lambda: catalogue.papers, start=start, zone=zone,
                zotero_url=url,
            )
            if catalogue is not None
            else ReadingListScreen(store, start=start, zone=zone, zotero_url=url)
        )  # fmt: skip
        self._screen.app.push_screen(screen, self._back_from_reading_list)

    def _back_from_reading_list(self, paper_id: str | None) -> None:
        self.load()
        if paper_id:
            self._open_paper(paper_id)

    def copy_citation(self, paper: Paper, catalogue: PaperSource | None) -> None:
        """Copy ``paper``'s citation in the configured style."""
        self._services.copy_citation(paper, self._services.config.citation_style, catalogue)

    def pick_citation(self, paper: Paper, catalogue: PaperSource | None) -> None:
        """Choose a citation format for ``paper``, then copy it."""
        from tui.screens.citation_picker import CitationPicker

        def chosen(style: str | None) -> None:
            if style:
                self._services.copy_citation(paper, style, catalogue)

        default = self._services.config.citation_style

        def pick(key: str | None) -> None:
            self._screen.app.push_screen(CitationPicker(paper, key=key, default=default), chosen)

        self._services.with_citation_key(paper, catalogue, pick)
