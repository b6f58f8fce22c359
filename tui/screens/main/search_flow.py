"""The main screen's search flow: the searcher, the sort, and queries in a worker.

:class:`SearchFlow` is a helper the screen owns. It keeps the searcher, the sort order
and the last result, and never touches a widget: :meth:`SearchFlow.run` starts a query
off the event loop and the worker posts :class:`SearchDone` to the screen, which hands
it to :meth:`SearchFlow.done`; that returns the :class:`Answer` to show (None for an
answer to a query the user has typed past), and the screen shows it. The words of the
status line (:meth:`SearchFlow.note`, :func:`progress`, :func:`hint`) are computed here
and shown by the screen too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.worker import get_current_worker

from index_builder.model import FacetCount, Hit, Paper, SearchResult, SortKey
from tui.lifecycle.loading import Loader
from tui.lifecycle.startup import TYPING_PAUSE_S
from tui.screens.main.searching import FOR_YOU, LIMIT, Searcher
from tui.widgets.result_list import Pager

if TYPE_CHECKING:
    from textual.screen import Screen

    from index_builder.catalogue.load import Catalogue

SORTS: tuple[SortKey, ...] = ("relevance", "title", "time")


class SearchDone(Message):
    """A query finished; dropped on arrival if the box has changed since."""

    def __init__(self, query: str, sort: SortKey, result: SearchResult, ready: bool) -> None:
        super().__init__()
        self.query = query
        self.sort = sort
        self.result = result
        self.ready = ready


@dataclass(frozen=True)
class Answer:
    """What the screen shows for a query's answer: the list, the line under the box and
    the status line."""

    hits: tuple[Hit, ...]
    total: int
    keep: str | None
    """The id of the paper the cursor goes to (None: row ``near``)."""
    near: int
    more: Pager | None
    empty: str
    """What the list says when it holds no paper."""
    sort: SortKey
    shown_sort: SortKey
    """The sort the status line names (nothing typed: the catalogue's order, by time)."""
    suggestion: str | None
    note: str
    """For you's words, or what a listing needs (under the box)."""
    counts: tuple[int, int, float | None] | None
    """(shown, total, milliseconds) for the status line; None for a first screen of papers."""
    facets: Mapping[str, Sequence[FacetCount]]


def progress(message: Loader.IndexProgress) -> tuple[str, tuple[int, int] | None]:
    """The status line's index state for a build's progress, and its progress bar."""
    if message.total:
        percent = 100 * message.done // message.total
        return f"building index {percent}%", (message.done, message.total)
    return "opening index", None


def hint(catalogue: Catalogue) -> str:
    """The status line's hint: how many papers lack an abstract, and the command to fix it."""
    missing = sum(1 for p in catalogue.papers if not p.abstract) if catalogue.complete else 0
    return f"{missing:,} lack abstracts: paperscope update" if missing else ""


class SearchFlow:
    """Runs queries off the event loop and turns their results into :class:`Answer`\\ s.

    ``marked`` gives the bookmarked ids (for ``is:bookmarked``), ``dismissed`` the
    dismissed ones (For you, ``is:dismissed``).
    """

    def __init__(
        self,
        screen: Screen[Any],
        *,
        marked: Callable[[], frozenset[str]],
        dismissed: Callable[[], frozenset[str]] = frozenset,
    ) -> None:
        self._screen = screen
        """Runs the workers and receives :class:`SearchDone`; no widget is read or changed."""
        self._dismissed = dismissed
        self._marked = marked
        self.searcher: Searcher | None = None
        self.sort: SortKey = "relevance"
        self.result: SearchResult | None = None
        self.index_failed = False
        self.head = False
        """True while the searcher holds only the first screen of papers."""
        self.pending: tuple[str, Paper] | None = None
        """(query, paper): highlight the paper in that query's answer (at the top if not in it)."""
        self.place: tuple[str, str | None, int] | None = None
        """(query, paper id, row): where the cursor was in that query before a listing."""

    def use_catalogue(self, catalogue: Catalogue, *, head: bool = False) -> None:
        """Search ``catalogue`` from now on (a first look first, then the full one).

        ``head``: only the first screen of papers, shown until the rest is read (the
        status line gives no count for it).
        """
        self.searcher = Searcher(catalogue)
        self.head = head

    def index_ready(self, message: Loader.IndexReady) -> None:
        """Search with the index from now on."""
        if self.searcher is not None:
            self.searcher.attach(message.index)

    def next_sort(self) -> SortKey:
        """Move to the next sort order (relevance, title, session time) and return it."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        return self.sort

    def everything(self, *, at: str | None = None, row: int = 0) -> Answer | None:
        """Nothing typed yet: the catalogue order is the answer, shown at once (``at``
        and ``row`` as for :meth:`done`)."""
        if self.searcher is None:
            return None
        everything = self.searcher.everything("relevance")
        result = SearchResult("", len(everything), everything)
        return self.done(SearchDone("", self.sort, result, False), query="", at=at, row=row)

    def run(self, query: str, *, facets: bool = False, held: int = 0) -> None:
        """Start ``query`` now (an older one still running is superseded).

        ``facets``: count the facets too; ``held``: how many hits the list holds.
        """
        if self.searcher is None:
            return
        searcher, sort, marked = self.searcher, self.sort, self._marked()
        # Only For you and is:dismissed read the dismissed papers.
        asks = query.strip().lower() == FOR_YOU or "dismissed" in query.lower()
        dismissed = self._dismissed() if asks else frozenset()
        # The same query again (sort, bookmarks, the index now ready): as many hits as the
        # list holds, so the cursor can stay where the user scrolled to.
        same = self.result is not None and self.result.query == query
        limit = max(LIMIT, held) if same else LIMIT
        self._screen.run_worker(
            lambda: self._search(searcher, query, sort, facets, marked, limit, dismissed),
            thread=True,
            exclusive=True,
            group="search",
            exit_on_error=False,
        )

    def _search(
        self,
        searcher: Searcher,
        query: str,
        sort: SortKey,
        facets: bool,
        marked: frozenset[str],
        limit: int = LIMIT,
        dismissed: frozenset[str] = frozenset(),
    ) -> None:
        """Run one query off the event loop and post its result."""
        worker = get_current_worker()
        # Keys sent in a burst (a paste, a fast typist) supersede each other within this
        # pause, so only the last query of the burst runs against the index.
        time.sleep(TYPING_PAUSE_S)
        if worker.is_cancelled:
            return
        result = searcher.run(
            query, sort=sort, bookmarked=marked, facets=facets, limit=limit, dismissed=dismissed
        )
        if not worker.is_cancelled:
            self._screen.post_message(SearchDone(query, sort, result, searcher.ready))

    def done(
        self, message: SearchDone, *, query: str, at: str | None = None, row: int = 0
    ) -> Answer | None:
        """The answer to show for ``message``; None if the user has typed on (``query``
        is the box's text now) or changed the sort since.

        ``at`` and ``row``: the paper under the list's cursor and its row.
        """
        if message.query != query or message.sort != self.sort:
            return None
        previous = self.result
        self.result = message.result
        # The same query answered again (new sort, index now ready): the cursor stays on
        # the paper the user moved to; a cursor still at the top stays at the top.
        keep, near = None, 0
        if previous is not None and previous.query == message.query and row > 0:
            keep, near = at, row  # that paper gone (unbookmarked in is:bookmarked): its row
        if self.place is not None and self.place[0] == message.query:  # back from a listing
            (_, keep, near), self.place = self.place, None
        hits = message.result.hits
        if self.pending is not None and self.pending[0] == message.query:
            # The paper the user opened is the one highlighted, listed or not.
            paper = self.pending[1]
            keep, self.pending = paper.id, None
            if not any(h.paper.id == keep for h in hits):
                hits = (Hit(paper), *hits)
        typed = message.query.strip()
        empty = f"No papers match {typed!r}." if typed else "No papers."
        result = message.result
        return Answer(
            hits=tuple(hits),
            total=max(result.total, len(hits)),
            keep=keep,
            near=near,
            more=self._pager(message),
            empty=result.note or empty,
            sort=message.sort,
            # With nothing typed there is nothing to rank by: the papers come in the
            # catalogue's order, by session time (then title), and the status line says so.
            shown_sort="time" if not typed and self.sort == "relevance" else self.sort,
            suggestion=result.suggestion,
            note=result.note,
            counts=None if self.head else (len(result.hits), result.total, result.elapsed_ms),
            facets=result.facets,
        )

    def _pager(self, message: SearchDone) -> Pager | None:
        """What fetches the hits of ``message``'s query past its first page."""
        searcher, marked = self.searcher, self._marked()
        if searcher is None:
            return None
        query, sort = message.query, message.sort

        def page(start: int, limit: int) -> tuple[Hit, ...]:
            return searcher.run(query, sort=sort, bookmarked=marked, limit=limit, offset=start).hits

        return page

    def note(self, query: str) -> str:
        """How ``query`` was read, for the status line (simple filter, plain words)."""
        if query.strip() and self.searcher is not None and not self.searcher.ready:
            return "simple filter (index not ready)"
        if self.result is not None and self.result.fallback:
            return f"query read as plain words ({self.result.fallback_reason or 'bad syntax'})"
        return ""
