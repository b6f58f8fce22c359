"""The main screen: search box, result list, paper view, facets, status line, footer.

BINDINGS (letters act only when the search box does not have focus):

| key     | id              | action                                         |
|---------|-----------------|------------------------------------------------|
| /       | search          | focus the search box                           |
| escape  | back            | back to the list (leave like:/reading view)    |
| tab     | did_you_mean    | search for the "did you mean" suggestion       |
| m       | more_like_this  | list the papers similar to the current one     |
| s       | sort            | cycle relevance → title → time                 |
| f       | facets          | show or hide the facet counts                  |
| o / O   | open_page/code  | open the paper's page / its code in a browser  |
| b / B   | bookmark / reading_list | toggle bookmark / open the reading list |
| y / Y   | cite / cite_format | copy the default citation / pick a format   |
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Key, Resize
from textual.message import Message
from textual.widgets import Footer, Input
from textual.worker import get_current_worker

from index_builder.model import SearchResult, SortKey
from tui.loading import Loader, Preload
from tui.screens.main.browse import BrowseActions
from tui.screens.main.library import LibraryActions
from tui.searching import Searcher
from tui.widgets.did_you_mean import DidYouMean
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import ResultList
from tui.widgets.search_box import SearchBox
from tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue
    from index_builder.search.engine import SearchIndex

NARROW = 100
"""Below this many columns the list and the view are stacked."""
QUICK_LOAD_S = 0.15
"""How long the first frame may wait for a catalogue that is still loading."""
TYPING_PAUSE_S = 0.01
"""Keys typed within this pause of each other run one query (the last)."""


class MainScreen(BrowseActions):
    """Search as you type over the catalogue, with the paper under the cursor beside it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search", tooltip="Type a query", id="search"),
        Binding("escape", "back", "Back", tooltip="Back to the result list", id="back"),
        Binding(
            "backspace", "leave_like", "Back", show=False, tooltip="Leave like:", id="leave_like"
        ),
        Binding(
            "tab",
            "accept_suggestion",
            "Did you mean",
            tooltip="Search for the suggestion",
            id="did_you_mean",
        ),
        Binding(
            "tab",
            "app.focus_next",
            "Next pane",
            show=False,
            tooltip="Move to the next pane",
            id="focus_next",
        ),
        Binding(
            "m",
            "more_like_this",
            "More like this",
            tooltip="Papers similar to this one",
            id="more_like_this",
        ),
        Binding("s", "cycle_sort", "Sort", tooltip="Relevance, title or session time", id="sort"),
        Binding(
            "f", "toggle_facets", "Facets", tooltip="Counts by topic, kind, session", id="facets"
        ),
        Binding(
            "o",
            "open_page",
            "Open page",
            show=False,
            tooltip="Open the paper's page",
            id="open_page",
        ),
        Binding(
            "O",
            "open_code",
            "Open code",
            show=False,
            tooltip="Open the paper's code",
            id="open_code",
        ),
        *LibraryActions.LIBRARY_BINDINGS,
    ]

    class SearchDone(Message):
        """A query finished; dropped on arrival if the box has changed since."""

        def __init__(self, query: str, sort: SortKey, result: SearchResult, ready: bool) -> None:
            super().__init__()
            self.query = query
            self.sort = sort
            self.result = result
            self.ready = ready

    def __init__(self, catalogue: Preload, index: Callable[[], SearchIndex]) -> None:
        super().__init__()
        self._catalogue = catalogue
        self._open_index = index
        self.searcher: Searcher | None = None
        self.sort: SortKey = "relevance"
        self.result: SearchResult | None = None
        self.before_like: str | None = None
        self.index_failed = False

    def compose(self) -> ComposeResult:
        yield SearchBox(id="search")
        yield DidYouMean(id="did-you-mean")
        with Horizontal(id="panes"):
            yield ResultList(id="results")
            yield PaperView(id="view")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        keys = self.papp.keymap.get("did_you_mean", "tab").split(",")[0]
        self.query_one(DidYouMean).key_hint = self.app.get_key_display(
            Binding(keys, "accept_suggestion")
        )
        self.results.empty_message = "Loading papers…"
        self.status.set_index_state("loading papers")
        self.box.focus()
        # A warm start has the papers in memory by now (or nearly): show them in the
        # first frame. A first run builds the catalogue for longer: it shows a first
        # look (the table's papers, no abstracts) meanwhile, now or when the loader
        # posts it, and the loader posts the full catalogue when it lands.
        catalogue = self._catalogue.wait(QUICK_LOAD_S)
        if catalogue is not None:
            self._use_catalogue(catalogue)
            # Opening the index imports Whoosh: not while the first frame is drawn.
            self.call_after_refresh(self.load, not catalogue.complete, False)
        else:
            self.load(True)

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < NARROW, "-narrow")

    # -- loading ----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load", exit_on_error=False)
    def load(self, announce: bool, early: bool = True) -> None:
        """Catalogue first (unless already shown), then the index (built if needed).

        ``early``: post a first run's first look before the full catalogue.
        """
        loader = Loader(
            self._catalogue.result,
            self._open_index,
            self.post_message,
            announce=announce,
            early=self._catalogue.first if early else None,
        )
        loader.run()

    def on_loader_catalogue_loaded(self, message: Loader.CatalogueLoaded) -> None:
        self._use_catalogue(message.catalogue)

    def _use_catalogue(self, catalogue: Catalogue) -> None:
        self.searcher = Searcher(catalogue)
        self.view.abstracts_pending = not catalogue.complete
        if not catalogue.complete:
            self.status.set_index_state("loading abstracts")
        self.results.empty_message = "No papers."
        if not self.box.value.strip() and self.sort == "relevance":
            # Nothing typed yet: the catalogue order is the answer, shown at once.
            everything = self.searcher.everything("relevance")
            result = SearchResult("", len(everything), everything)
            self.on_main_screen_search_done(self.SearchDone("", self.sort, result, False))
        else:
            self.run_search()
        self.call_after_refresh(self.load_bookmarks)

    def on_loader_index_progress(self, message: Loader.IndexProgress) -> None:
        if message.total:
            percent = 100 * message.done // message.total
            self.status.set_index_state(f"building index {percent}%", (message.done, message.total))
        else:
            self.status.set_index_state("opening index")
        self._update_note()

    def on_loader_index_ready(self, message: Loader.IndexReady) -> None:
        if self.searcher is not None:
            self.searcher.attach(message.index)
        self.status.set_index_state("index ready")
        if message.notice:
            self.notify(message.notice, title="Index", severity="warning")
        self.run_search()
        self.find_similar()

    def on_loader_failed(self, message: Loader.Failed) -> None:
        if message.what == "index":
            self.index_failed = True
            self.status.set_index_state("no index (simple filter)")
        else:
            self.results.empty_message = f"Could not load the papers: {message.error}"
            self.results.refresh()
        self.notify(f"Could not load the {message.what}: {message.error}", severity="error")
        self._update_note()

    # -- searching --------------------------------------------------------------------------

    @on(Input.Changed, "#search")
    def on_query_changed(self) -> None:
        if not self.box.value.startswith("like:"):
            self.before_like = None
        self.run_search()

    @on(Input.Submitted, "#search")
    def on_query_submitted(self) -> None:
        self.results.focus()

    def on_key(self, event: Key) -> None:
        if event.key == "down" and self.focused is self.box:
            event.stop()
            self.results.focus()

    def run_search(self) -> None:
        """Start the query now in the box; an older one still running is superseded."""
        if self.searcher is None:
            return
        facets = self.facet_panel is not None and self.facet_panel.shown
        self.search_worker(self.searcher, self.box.value, self.sort, facets, self.bookmarked_ids())

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def search_worker(
        self, searcher: Searcher, query: str, sort: SortKey, facets: bool, marked: frozenset[str]
    ) -> None:
        """Run one query off the event loop and post its result."""
        worker = get_current_worker()
        # Keys sent in a burst (a paste, a fast typist) supersede each other within this
        # pause, so only the last query of the burst runs against the index.
        time.sleep(TYPING_PAUSE_S)
        if worker.is_cancelled:
            return
        result = searcher.run(query, sort=sort, bookmarked=marked, facets=facets)
        if not worker.is_cancelled:
            self.post_message(self.SearchDone(query, sort, result, searcher.ready))

    def on_main_screen_search_done(self, message: MainScreen.SearchDone) -> None:
        if message.query != self.box.value or message.sort != self.sort:
            return  # stale: the user has typed on since
        previous = self.result
        self.result = message.result
        # The same query answered again (new sort, index now ready): the cursor stays on
        # the paper the user moved to; a cursor still at the top stays at the top.
        keep = None
        current = self.results.current
        if previous is not None and previous.query == message.query and self.results.cursor > 0:
            keep = current.paper.id if current is not None else None
        query = message.query.strip()
        self.results.empty_message = f"No papers match {query!r}." if query else "No papers."
        self.results.set_hits(message.result.hits, keep=keep)
        offer = self.query_one(DidYouMean)
        had_suggestion = offer.suggestion is not None
        offer.offer(message.result.suggestion)
        self.status.set_counts(
            len(message.result.hits), message.result.total, message.result.elapsed_ms
        )
        panel = self.facet_panel
        if panel is not None and panel.shown:
            panel.set_facets(message.result.facets)
        self._update_note()
        if had_suggestion != (offer.suggestion is not None):
            self.refresh_bindings()  # the footer shows "tab" only while there is a suggestion

    def _update_note(self) -> None:
        note = ""
        if self.box.value.strip() and self.searcher is not None and not self.searcher.ready:
            note = "simple filter (index not ready)"
        elif self.result is not None and self.result.fallback:
            note = "query read as plain words"
        self.status.set_note(note)
