"""The main screen's search flow: papers and index as they load, queries in a worker.

:class:`SearchFlow` is a helper the screen owns. It keeps the searcher, the sort
order and the last result. The screen hands it the loader's messages
(:mod:`tui.lifecycle.loading`); :meth:`SearchFlow.run` starts a query off the event loop and
the worker posts :class:`SearchDone` to the screen, which hands it back to
:meth:`SearchFlow.done`. An answer to a query the user has typed past is dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue

from index_builder.model import Hit, Paper, SearchResult, SortKey
from index_builder.times import DEFAULT_SETTING
from tui.lifecycle.loading import Loader
from tui.lifecycle.startup import TYPING_PAUSE_S
from tui.screens.main.searching import FOR_YOU, LIMIT, Searcher
from tui.widgets.did_you_mean import DidYouMean
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import Pager, ResultList
from tui.widgets.search_box import SearchBox
from tui.widgets.status_bar import StatusBar

SORTS: tuple[SortKey, ...] = ("relevance", "title", "time")


class SearchDone(Message):
    """A query finished; dropped on arrival if the box has changed since."""

    def __init__(self, query: str, sort: SortKey, result: SearchResult, ready: bool) -> None:
        super().__init__()
        self.query = query
        self.sort = sort
        self.result = result
        self.ready = ready


class SearchFlow:
    """Runs the query in the box and shows its answer: list, suggestion, counts, facets.

    ``marked`` gives the bookmarked ids (for ``is:bookmarked``); ``facet_panel`` the
    panel once it has been shown; ``loaded`` is called once a catalogue is in use,
    ``indexed`` once the index is ready; ``zone`` is the zone setting of the session
    times the rows show when sorted by time.
    """

    def __init__(
        self,
        screen: Screen[Any],
        *,
        marked: Callable[[], frozenset[str]],
        facet_panel: Callable[[], FacetPanel | None],
        loaded: Callable[[], None],
        indexed: Callable[[], None],
        zone: Callable[[], str] = lambda: DEFAULT_SETTING,
        dismissed: Callable[[], frozenset[str]] = frozenset,
    ) -> None:
        self._screen = screen
        self._dismissed = dismissed
        self._zone = zone
        self._marked = marked
        self._facet_panel = facet_panel
        self._loaded = loaded
        self._indexed = indexed
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

    @property
    def status(self) -> StatusBar:
        """The status line."""
        return self._screen.query_one(StatusBar)

    # -- loading ----------------------------------------------------------------------------

    def use_catalogue(self, catalogue: Catalogue, *, head: bool = False) -> None:
        """Search ``catalogue`` from now on (a first look first, then the full one).

        ``head``: only the first screen of papers, shown until the rest is read (the
        status line gives no count for it).
        """
        self.searcher = Searcher(catalogue)
        self.head = head
        self._screen.query_one(PaperView).abstracts_pending = not catalogue.complete
        missing = sum(1 for p in catalogue.papers if not p.abstract) if catalogue.complete else 0
        self.status.set_hint(f"{missing:,} lack abstracts: paperscope update" if missing else "")
        if not catalogue.complete:
            self.status.set_index_state("loading papers" if head else "loading abstracts")
        self._screen.query_one(ResultList).empty_message = "No papers."
        if not self.box.value.strip() and self.sort == "relevance":
            self.show_everything()
        else:
            self.run()
        if not head:  # the bookmarks are read once the first frame is out
            self._screen.call_after_refresh(self._loaded)

    def index_progress(self, message: Loader.IndexProgress) -> None:
        """Show how far the index build has come."""
        if message.total:
            percent = 100 * message.done // message.total
            self.status.set_index_state(f"building index {percent}%", (message.done, message.total))
        else:
            self.status.set_index_state("opening index")
        self.update_note()

    def index_ready(self, message: Loader.IndexReady) -> None:
        """Search with the index from now on; run the query again with it."""
        if self.searcher is not None:
            self.searcher.attach(message.index)
        self.status.set_index_state("index ready")
        if message.notice:
            self._screen.notify(message.notice, title="Index", severity="warning")
        self.run()
        self._indexed()

    def failed(self, message: Loader.Failed) -> None:
        """Say what could not be loaded; without an index the simple filter searches."""
        if message.what == "index":
            self.index_failed = True
            self.status.set_index_state("no index (simple filter)")
        else:
            results = self._screen.query_one(ResultList)
            results.empty_message = f"Could not load the papers: {message.error}"
            results.refresh()
        self._screen.notify(f"Could not load the {message.what}: {message.error}", severity="error")
        self.update_note()

    # -- searching --------------------------------------------------------------------------

    @property
    def box(self) -> SearchBox:
        """The search box."""
        return self._screen.query_one(SearchBox)

    def next_sort(self) -> SortKey:
        """Move to the next sort order (relevance, title, session time) and return it."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        return self.sort

    def show_everything(self) -> None:
        """Nothing typed yet: the catalogue order is the answer, shown at once."""
        if self.searcher is not None:
            everything = self.searcher.everything("relevance")
            result = SearchResult("", len(everything), everything)
            self.done(SearchDone("", self.sort, result, False))

    def run(self) -> None:
        """Start the query now in the box; an older one still running is superseded."""
        if self.searcher is None:
            return
        panel = self._facet_panel()
        facets = panel is not None and panel.shown
        searcher, query, sort, marked = self.searcher, self.box.value, self.sort, self._marked()
        # Only For you and is:dismissed read the dismissed papers.
        asks = query.strip().lower() == FOR_YOU or "dismissed" in query.lower()
        dismissed = self._dismissed() if asks else frozenset()
        # The same query again (sort, bookmarks, the index now ready): as many hits as the
        # list holds, so the cursor can stay where the user scrolled to.
        held = len(self._screen.query_one(ResultList).hits)
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

    def done(self, message: SearchDone) -> None:
        """Show a query's answer, unless the user has typed on or changed the sort since."""
        if message.query != self.box.value or message.sort != self.sort:
            return
        results = self._screen.query_one(ResultList)
        previous = self.result
        self.result = message.result
        # The same query answered again (new sort, index now ready): the cursor stays on
        # the paper the user moved to; a cursor still at the top stays at the top.
        keep, near = None, 0
        current = results.current
        if previous is not None and previous.query == message.query and results.cursor > 0:
            keep = current.paper.id if current is not None else None
            near = results.cursor  # that paper gone (unbookmarked in is:bookmarked): its row
        if self.place is not None and self.place[0] == message.query:  # back from a listing
            (_, keep, near), self.place = self.place, None
        hits = message.result.hits
        if self.pending is not None and self.pending[0] == message.query:
            # The paper the user opened is the one highlighted, listed or not.
            paper = self.pending[1]
            keep, self.pending = paper.id, None
            if not any(h.paper.id == keep for h in hits):
                hits = (Hit(paper), *hits)
        query = message.query.strip()
        results.empty_message = f"No papers match {query!r}." if query else "No papers."
        if message.result.note:
            results.empty_message = message.result.note
        results.show_times(self._zone() if message.sort == "time" else None)
        total = max(message.result.total, len(hits))
        results.set_hits(hits, keep=keep, total=total, near=near, more=self._pager(message))
        offer = self._screen.query_one(DidYouMean)
        had_suggestion = offer.suggestion is not None
        offer.offer(message.result.suggestion)
        offer.say(message.result.note)  # For you's words, or what it needs
        if not self.head:
            self._screen.query_one(StatusBar).set_counts(
                len(message.result.hits), message.result.total, message.result.elapsed_ms
            )
        # With nothing typed there is nothing to rank by: the papers come in the catalogue's
        # order, by session time (then title), and the status line says so.
        shown = "time" if not query and self.sort == "relevance" else self.sort
        self._screen.query_one(StatusBar).set_sort(shown)
        panel = self._facet_panel()
        if panel is not None and panel.shown:
            panel.set_facets(message.result.facets)
        self.update_note()
        if had_suggestion != (offer.suggestion is not None):
            self._screen.refresh_bindings()  # the footer shows "tab" only with a suggestion

    def _pager(self, message: SearchDone) -> Pager | None:
        """What fetches the hits of ``message``'s query past its first page."""
        searcher, marked = self.searcher, self._marked()
        if searcher is None:
            return None
        query, sort = message.query, message.sort

        def page(start: int, limit: int) -> tuple[Hit, ...]:
            return searcher.run(query, sort=sort, bookmarked=marked, limit=limit, offset=start).hits

        return page

    def update_note(self) -> None:
        """Say in the status line how the query was read (simple filter, plain words)."""
        note = ""
        if self.box.value.strip() and self.searcher is not None and not self.searcher.ready:
            note = "simple filter (index not ready)"
        elif self.result is not None and self.result.fallback:
            note = f"query read as plain words ({self.result.fallback_reason or 'bad syntax'})"
        self._screen.query_one(StatusBar).set_note(note)
