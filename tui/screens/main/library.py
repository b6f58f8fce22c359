"""The main screen's reading-list and citation keys: ``b``, ``B``, ``y``, ``Y``.

A mixin of :class:`tui.screens.main.screen.MainScreen`, kept apart because it talks to
other helpers' modules (the reading list store, citations, the clipboard and
their screens).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual import work
from textual.binding import Binding
from textual.screen import Screen

if TYPE_CHECKING:
    from index_builder.model import Paper
    from index_builder.readinglist.store import ReadingList
    from tui.app import PaperScopeApp
    from tui.searching import PaperSource


class LibraryActions(Screen[None]):
    """Bookmark, reading list and citation actions for a screen with a paper view."""

    LIBRARY_BINDINGS: ClassVar[list[Binding]] = [
        Binding(
            "b",
            "toggle_bookmark",
            "Bookmark",
            tooltip="Add to or remove from the reading list",
            id="bookmark",
        ),
        Binding(
            "B", "reading_list", "Reading list", tooltip="Open the reading list", id="reading_list"
        ),
        Binding("y", "copy_citation", "Cite", tooltip="Copy the default citation", id="cite"),
        Binding(
            "Y",
            "pick_citation",
            "Cite as…",
            show=False,
            tooltip="Pick a citation format",
            id="cite_format",
        ),
    ]

    _marked: frozenset[str] = frozenset()

    @property
    def papp(self) -> PaperScopeApp:
        """The app, with its stores and settings."""
        return cast("PaperScopeApp", self.app)

    def current_paper(self) -> Paper | None:
        """The paper the keys act on (the screen says which)."""
        return None

    def catalogue(self) -> PaperSource | None:
        """The loaded catalogue (None while it loads)."""
        return None

    def open_paper_id(self, paper_id: str) -> None:
        """Show the paper with this id (the screen says how)."""

    def bookmarks_changed(self) -> None:
        """Called after the bookmarked ids changed (the screen redraws its badges)."""

    def bookmarked_ids(self) -> frozenset[str]:
        """Ids of the bookmarked papers (as of the last load or change)."""
        return self._marked

    def load_bookmarks(self) -> None:
        """Read the bookmarked ids from the store (nothing if it cannot be opened)."""
        store = self._store()
        self._marked = store.ids() if store is not None else frozenset()
        self.bookmarks_changed()

    def _store(self) -> ReadingList | None:
        return self.papp.reading_list()

    def action_toggle_bookmark(self) -> None:
        """Bookmark the current paper, or remove its bookmark."""
        paper = self.current_paper()
        store = self._store()
        if paper is None:
            return
        if store is None:
            self.notify("The reading list cannot be opened.", severity="error")
            return
        self._toggle_in_thread(store, paper)

    @work(thread=True, group="bookmark", exit_on_error=False)
    def _toggle_in_thread(self, store: ReadingList, paper: Paper) -> None:
        """Toggle off the event loop: a list locked by another window waits its busy timeout."""
        try:
            added = store.toggle(paper)
        except Exception as exc:  # a locked or broken store must not close the app
            self.app.call_from_thread(self.notify, f"Reading list: {exc}", severity="error")
            return
        self.app.call_from_thread(self._toggled, added)

    def _toggled(self, added: bool) -> None:
        self.load_bookmarks()
        self.notify("Added to the reading list." if added else "Removed from the reading list.")

    def action_reading_list(self) -> None:
        """Open the reading list screen."""
        from tui.screens.reading_list.screen import ReadingListScreen

        store = self._store()
        if store is None:
            self.notify("The reading list cannot be opened.", severity="error")
            return
        catalogue = self.catalogue()
        screen = (
            ReadingListScreen(store, catalogue.get, papers=lambda: catalogue.papers)
            if catalogue is not None
            else ReadingListScreen(store)
        )
        self.app.push_screen(screen, self._back_from_reading_list)

    def _back_from_reading_list(self, paper_id: str | None) -> None:
        self.load_bookmarks()
        if paper_id:
            self.open_paper_id(paper_id)

    def action_copy_citation(self) -> None:
        """Copy the current paper's citation in the configured style."""
        paper = self.current_paper()
        if paper is not None:
            self.papp.copy_citation(paper, self.papp.config.citation_style, self.catalogue())

    def action_pick_citation(self) -> None:
        """Choose a citation format, then copy it."""
        paper = self.current_paper()
        if paper is None:
            return
        from tui.screens.citation_picker import CitationPicker

        def chosen(style: str | None) -> None:
            if style:
                self.papp.copy_citation(paper, style, self.catalogue())

        key = self.papp.citation_key(paper, self.catalogue())
        picker = CitationPicker(paper, key=key, default=self.papp.config.citation_style)
        self.app.push_screen(picker, chosen)
