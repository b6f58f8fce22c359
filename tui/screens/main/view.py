"""The main screen's widgets, and how it shows in them what its helpers compute.

:class:`MainView` is the base of :class:`~tui.screens.main.screen.MainScreen`: it owns
the helpers (made with the screen's services) and composes the widgets, and it is the
one place where the main screen changes them: :meth:`MainView.show_answer` shows a
query's :class:`~tui.screens.main.search_flow.Answer`, :meth:`MainView.use_catalogue`
and :meth:`MainView.use_index` put a catalogue and an index to use, and the listings
are put in the box by :meth:`MainView.show_listing`. The keys' actions and the handlers
of the widgets' messages are in :mod:`tui.screens.main.screen`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import getters
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen

from index_builder.model import Paper, SearchResult, SortKey
from tui.lifecycle.loading import Loader, Preload
from tui.screens.main.for_you import ForYou
from tui.screens.main.history import FILE_NAME as HISTORY_FILE
from tui.screens.main.history import SearchHistory
from tui.screens.main.library import Library
from tui.screens.main.links import PaperLinks
from tui.screens.main.listings import BOOKMARKED, Listings
from tui.screens.main.owned import OwnedLibrary
from tui.screens.main.search_flow import Answer, SearchFlow, hint
from tui.screens.main.searching import FOR_YOU, Searcher
from tui.screens.main.start_up import StartUp
from tui.widgets.did_you_mean import DidYouMean
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.keys_footer import KeysFooter
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import ResultList
from tui.widgets.search_box import SearchBox
from tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue
    from index_builder.readinglist.library_match import LibraryMatch
    from index_builder.search.engine import SearchIndex
    from tui.services import PaperSource, Services


class MainView(Screen[None]):
    """The main screen's widgets and helpers, and what it shows in the widgets."""

    def __init__(
        self, services: Services, catalogue: Preload, index: Callable[[], SearchIndex]
    ) -> None:
        super().__init__()
        self.services = services
        self.library = Library(
            self, services, changed=self.bookmarks_changed, open_paper=self.open_paper_id
        )
        self.for_you = ForYou(self, services, changed=self.dismissals_changed)
        self.owned = OwnedLibrary(self, services, changed=self.library_changed)
        self.flow = SearchFlow(self, marked=self.bookmarked_ids, dismissed=self.for_you.dismissed)
        self.listings = Listings(self.flow)
        self.start_up = StartUp(
            self,
            self.flow,
            catalogue,
            index,
            use_catalogue=self.use_catalogue,
            use_index=self.use_index,
        )
        self.links = PaperLinks(self, services)

    def compose(self) -> ComposeResult:
        yield SearchBox(SearchHistory(self.services.paths.data_dir / HISTORY_FILE), id="search")
        yield DidYouMean(id="did-you-mean")
        with Horizontal(id="panes"):
            yield ResultList(id="results")
            yield PaperView(id="view")
        yield StatusBar(id="status")
        yield KeysFooter()

    def show_times_in(self, setting: str) -> None:
        """Session times in ``setting``'s zone: the paper view, and rows sorted by time."""
        self.query_one(PaperView).set_zone(setting)
        self.results.show_times(setting if self.flow.sort == "time" else None)

    # -- the parts --------------------------------------------------------------------------

    box = getters.query_one(SearchBox)
    """The search box."""
    results = getters.query_one(ResultList)
    """The result list."""
    view = getters.query_one(PaperView)
    """The paper view."""
    status = getters.query_one(StatusBar)
    """The status line."""

    @property
    def facet_panel(self) -> FacetPanel | None:
        """The facet panel, once it has been shown."""
        found = self.query(FacetPanel)
        return found.first() if found else None

    @property
    def searcher(self) -> Searcher | None:
        """The searcher over the loaded catalogue (None while it loads)."""
        return self.flow.searcher

    @property
    def sort(self) -> SortKey:
        """The sort order of the list."""
        return self.flow.sort

    @property
    def result(self) -> SearchResult | None:
        """The answer shown in the list."""
        return self.flow.result

    @property
    def index_failed(self) -> bool:
        """True when the index could not be opened (the simple filter searches)."""
        return self.flow.index_failed

    def bookmarked_ids(self) -> frozenset[str]:
        """Ids of the bookmarked papers (as of the last load or change)."""
        return self.library.marked

    def current_paper(self) -> Paper | None:
        """The paper the keys act on: the one highlighted in the list (the view shows it)."""
        hit = self.results.current
        return hit.paper if hit is not None else None

    def cursor_at(self) -> tuple[str | None, int]:
        """The id of the paper under the list's cursor (None: no paper), and its row."""
        hit = self.results.current
        return (hit.paper.id if hit is not None else None), self.results.cursor

    def catalogue(self) -> PaperSource | None:
        """The loaded catalogue (None while it loads)."""
        return self.searcher.catalogue if self.searcher is not None else None

    def use_catalogue(self, catalogue: Catalogue, head: bool = False) -> None:
        """Search ``catalogue`` from now on and show its answer (``head``: only the first
        screen of papers, until the rest is read; the status line gives no count for it)."""
        self.flow.use_catalogue(catalogue, head=head)
        self.view.abstracts_pending = not catalogue.complete
        self.status.set_hint(hint(catalogue))
        if not catalogue.complete:
            self.status.set_index_state("loading papers" if head else "loading abstracts")
        self.results.empty_message = "No papers."
        if not self.box.value.strip() and self.flow.sort == "relevance":
            at, row = self.cursor_at()
            if (everything := self.flow.everything(at=at, row=row)) is not None:
                self.show_answer(everything)
        else:
            self.run_search()
        if not head:  # the bookmarks are read once the first frame is out
            self.call_after_refresh(self.lists_loaded)

    def use_index(self, message: Loader.IndexReady, highlight: Paper | None = None) -> None:
        """Search with the index from now on: the query again, similar papers in the view
        (``highlight``: the paper the answer puts the cursor on)."""
        self.flow.index_ready(message)
        if highlight is not None:
            self.flow.pending = (self.box.value, highlight)
        self.status.set_index_state("index ready")
        if message.notice:
            self.notify(message.notice, title="Index", severity="warning")
        self.run_search()
        if (searcher := self.flow.searcher) is not None:
            self.view.similar_from(searcher.similar)

    def run_search(self) -> None:
        """Start the query now in the box; an older one still running is superseded."""
        panel = self.facet_panel
        facets = panel is not None and panel.shown
        self.flow.run(self.box.value, facets=facets, held=len(self.results.hits))

    def show_answer(self, answer: Answer) -> None:
        """Show a query's answer: the list, the line under the box, the status line."""
        zone = self.services.zone_setting if answer.sort == "time" else None
        self.results.empty_message = answer.empty
        self.results.show_times(zone)
        self.results.set_hits(
            answer.hits, keep=answer.keep, total=answer.total, near=answer.near, more=answer.more
        )
        offer = self.query_one(DidYouMean)
        had_suggestion = offer.suggestion is not None
        offer.offer(answer.suggestion)
        offer.say(answer.note)  # For you's words, or what it needs
        if answer.counts is not None:
            self.status.set_counts(*answer.counts)
        self.status.set_sort(answer.shown_sort)
        panel = self.facet_panel
        if panel is not None and panel.shown:
            panel.set_facets(answer.facets)
        self.show_note()
        if had_suggestion != (offer.suggestion is not None):
            self.refresh_bindings()  # the footer shows "tab" only with a suggestion

    def show_note(self) -> None:
        """Say in the status line how the query was read (simple filter, plain words)."""
        self.status.set_note(self.flow.note(self.box.value))

    def follow_cursor(self) -> None:
        """Show the paper under the list's cursor in the view (with its marks)."""
        hit = self.results.current
        if hit is not self.view.hit:
            marked, dismissed = self.marks(hit.paper.id if hit is not None else None)
            self.view.show(hit, bookmarked=marked, dismissed=dismissed)

    def marks(self, paper_id: str | None) -> tuple[bool, bool]:
        """Whether ``paper_id`` is bookmarked, and whether it is dismissed (as known)."""
        if paper_id is None:
            return False, False
        return paper_id in self.bookmarked_ids(), paper_id in self.for_you.known()

    def refresh_badge(self) -> None:
        """Redraw the view's bookmark badge and its dismissed mark."""
        if (paper := self.view.paper) is not None:
            self.view.set_marks(*self.marks(paper.id))

    def highlight(self, paper: Paper, listing: str) -> bool:
        """Move the list's cursor to ``paper``; if it is not listed, list ``listing`` with it.

        True when the paper was listed already (the answer to ``listing`` puts it
        at the top when it does not hold it).
        """
        hits = self.results.hits
        listed = next((i for i, h in enumerate(hits) if h.paper.id == paper.id), None)
        if listed is not None:
            self.results.cursor = listed
            return True
        self.flow.pending = (listing, paper)
        if self.box.value == listing:
            self.run_search()
        else:
            self.show_listing(listing)
        return False

    def show_listing(self, query: str) -> None:
        """Put the listing ``query`` in the box in place of the user's query (Backspace
        brings that back, with the cursor where it was)."""
        self.box.value = self.listings.show(query, self.box.value, *self.cursor_at())

    def list_and_focus(self, query: str, needs_index: str = "") -> None:
        """Show the listing ``query`` with the list focused; ``needs_index`` names what
        cannot be listed before the index is ready."""
        if needs_index and (self.searcher is None or not self.searcher.ready):
            self.notify(f"{needs_index} needs the search index, which is still being built.")
            return
        self.show_listing(query)
        self.remove_class("-reading")
        self.results.focus()

    def show_after_swap(self, paper_id: str) -> None:
        """Highlight ``paper_id`` in the answer given once a rebuilt catalogue is swapped in."""
        self.start_up.highlight_after_swap = paper_id

    def open_paper_id(self, paper_id: str) -> None:
        """Highlight the paper chosen in the reading list (from the bookmarks if not listed)."""
        catalogue = self.catalogue()
        paper = catalogue.get(paper_id) if catalogue is not None else None
        if paper is not None:
            listed = self.highlight(paper, BOOKMARKED)
            self.results.focus() if listed else self.view.focus()

    def bookmarks_changed(self) -> None:
        """Redraw the badges in the list and the view; a query that filters on the
        bookmarks (``is:bookmarked``) is answered again, so the list shows them as they are."""
        self.results.set_bookmarked(self.bookmarked_ids())
        self.refresh_badge()
        # Any spelling (is:Bookmarked, -is:bookmarked): a needless search again costs little.
        if "bookmarked" in self.box.value.lower() and self.flow.result is not None:
            self.run_search()

    def lists_loaded(self) -> None:
        """A catalogue is in use (after the first frame): the bookmarks and the dismissed
        papers are read, so the view marks them; then the library is matched in a worker."""
        self.library.load()
        self.for_you.dismissed()
        self.refresh_badge()
        if (catalogue := self.catalogue()) is not None:
            self.owned.load(catalogue)

    def library_changed(self, match: LibraryMatch | None) -> None:
        """Badge the library's papers; For you and ``is:library`` shown are answered again."""
        if self.searcher is not None:
            self.searcher.set_library(match)
        ids = match.paper_ids if match is not None else frozenset()
        self.results.set_owned(ids)
        self.view.set_owned(ids)
        query = self.box.value.strip().lower()
        if (query == FOR_YOU or "library" in query) and self.flow.result is not None:
            self.run_search()

    def dismissals_changed(self) -> None:
        """The view's mark redrawn; For you ranked again, is:dismissed listed again."""
        self.refresh_badge()
        query = self.box.value.strip().lower()
        if query == FOR_YOU or "dismissed" in query:
            self.run_search()
