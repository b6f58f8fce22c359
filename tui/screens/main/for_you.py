"""For you on the main screen: the listing (``R``) and dismissing papers (``x``, ``u``).

:class:`ForYou` is a helper the screen owns. ``R`` lists ``for:you`` (the
:class:`~tui.screens.main.searching.Searcher` ranks it in the search worker, off the
event loop); ``x`` dismisses the highlighted paper ("not interested": For you hides it
and counts it against the papers like it), stored in the reading list's database in a
worker; ``u`` takes the highlighted paper back when it is dismissed (``is:dismissed``
lists them, after a restart too), else the last dismissal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

if TYPE_CHECKING:
    from index_builder.model import Paper
    from tui.services import Services


class ForYou:
    """The dismissed papers of the reading list, and the undo of the last dismissals.

    ``changed`` is called after a dismissal or its undo (the screen lists For you again).
    """

    def __init__(self, screen: Screen[Any], services: Services, changed: Callable[[], None]):
        self._screen = screen
        self._services = services
        self._changed = changed
        self._ids: frozenset[str] | None = None
        self.undo: list[str] = []
        """Ids dismissed in this session, last at the end (what ``u`` takes back)."""

    def dismissed(self) -> frozenset[str]:
        """The dismissed ids (read from the reading list once, then kept up to date)."""
        if self._ids is None:
            from index_builder.readinglist.dismissed import Dismissals  # SQLite: after the frame

            store = self._services.reading_list()
            try:
                self._ids = Dismissals(store).ids() if store is not None else frozenset()
            except Exception:  # an unreadable list hides nothing; the error is said elsewhere
                self._ids = frozenset()
        return self._ids

    def known(self) -> frozenset[str]:
        """The dismissed ids if read already, else none (never reads: the view asks often)."""
        return self._ids or frozenset()

    def dismiss(self, paper: Paper) -> None:
        """Dismiss ``paper`` from For you, in a worker (a locked list waits its timeout)."""
        self._write(paper.id, True)

    def take_back(self, paper: Paper | None = None) -> None:
        """Take ``paper`` back if it is dismissed (from any session), else undo the last
        dismissal of this session."""
        if paper is not None and paper.id in self.dismissed():
            self._write(paper.id, False)
        elif self.undo:
            self._write(self.undo[-1], False)
        else:
            self._screen.notify("Nothing to undo. is:dismissed lists the papers you dismissed.")

    def _write(self, paper_id: str, dismiss: bool) -> None:
        store = self._services.reading_list()
        if store is None:
            self._screen.notify("The reading list cannot be opened.", severity="error")
            return
        app = self._screen.app

        def write() -> None:
            from index_builder.readinglist.dismissed import Dismissals

            try:
                dismissals = Dismissals(store)
                dismissals.add(paper_id) if dismiss else dismissals.remove(paper_id)
                ids = dismissals.ids()
            except Exception as exc:  # a locked or read-only list must not close the app
                app.call_from_thread(self._screen.notify, f"Reading list: {exc}", severity="error")
                return
            app.call_from_thread(self._written, paper_id, dismiss, ids)

        self._screen.run_worker(write, thread=True, group="dismiss", exit_on_error=False)

    def _written(self, paper_id: str, dismiss: bool, ids: frozenset[str]) -> None:
        self._ids = ids
        if dismiss:
            self.undo.append(paper_id)
            self._screen.notify("Not interested: hidden from For you (u to undo).")
        else:
            if paper_id in self.undo:
                self.undo.remove(paper_id)
            self._screen.notify("Back in For you.")
        self._changed()
