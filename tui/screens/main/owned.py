"""The main screen's view of your library: which catalogue papers it holds.

:class:`OwnedLibrary` reads the library (``paperscope library import``) from the reading
list's database and matches it against the catalogue in a thread worker (a few hundred
milliseconds for a large library: never on the event loop), then hands the match to the
screen: the ``LIB`` badges in the list and the paper view, ``is:library`` and For you.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

if TYPE_CHECKING:
    from index_builder.readinglist.library_match import LibraryMatch
    from tui.services import PaperSource, Services


class OwnedLibrary:
    """The library matched to the loaded catalogue; ``changed`` gets each new match."""

    def __init__(
        self,
        screen: Screen[Any],
        services: Services,
        changed: Callable[[LibraryMatch | None], None],
    ) -> None:
        self._screen = screen
        self._services = services
        self._changed = changed
        self.match: LibraryMatch | None = None
        """The last match (None: no library, or not read yet)."""

    def load(self, catalogue: PaperSource) -> None:
        """Read and match the library against ``catalogue`` in a worker."""
        store = self._services.reading_list()
        if store is None:
            return
        app = self._screen.app

        def read() -> None:
            from index_builder.readinglist.library import Library
            from index_builder.readinglist.library_match import match_library

            try:
                entries = Library(store).entries()
            except Exception as exc:  # a locked or damaged list must not close the app
                app.call_from_thread(self._screen.notify, f"Library: {exc}", severity="error")
                return
            match = match_library(catalogue.papers, entries) if entries else None
            app.call_from_thread(self._matched, match)

        self._screen.run_worker(read, thread=True, group="owned", exclusive=True,
                                exit_on_error=False)  # fmt: skip

    def _matched(self, match: LibraryMatch | None) -> None:
        if match is None and self.match is None:
            return
        self.match = match
        self._changed(match)
