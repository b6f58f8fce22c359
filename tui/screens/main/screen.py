"""The main screen: search box, result list, paper view, facets, status line, footer.

One class with the screen's actions (keys in :mod:`tui.screens.main.bindings`);
what it shares or delegates lives in helper objects it owns: :class:`SearchFlow`
(queries in a worker), :class:`PaperPane` (the view, similar papers, links),
:class:`Library` (bookmarks, reading list, citations) and :class:`ForYou` (For you,
dismissed papers). Everything from outside
comes in through the :class:`~tui.services.Services` it is created with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer, Input
from textual.worker import Worker

from index_builder.model import Paper, SearchResult, SortKey
from tui.lifecycle.failures import failed, report
from tui.lifecycle.loading import Loader, Preload
from tui.screens.main.bindings import MAIN_BINDINGS
from tui.screens.main.browse import PaperPane
from tui.screens.main.for_you import ForYou
from tui.screens.main.history import FILE_NAME as HISTORY_FILE
from tui.screens.main.history import SearchHistory
from tui.screens.main.library import Library
from tui.screens.main.listings import BOOKMARKED, Listings
from tui.screens.main.owned import OwnedLibrary
from tui.screens.main.search_flow import SearchDone as Done
from tui.screens.main.search_flow import SearchFlow
from tui.screens.main.searching import FOR_YOU, Searcher, like_query
from tui.screens.main.start_up import StartUp
from tui.widgets.did_you_mean import DidYouMean
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import ResultList
from tui.widgets.search_box import SearchBox
from tui.widgets.status_bar import StatusBar
from tui.widgets.workers import WorkerFailed

if TYPE_CHECKING:
    from index_builder.readinglist.library_match import LibraryMatch
    from index_builder.search.engine import SearchIndex
    from tui.services import PaperSource, Services

NARROW = 100
"""Below this many columns the list and the view are stacked."""


class MainScreen(Screen[None]):
    """Search as you type over the catalogue, with the paper under the cursor beside it."""

    BINDINGS: ClassVar[list[BindingType]] = MAIN_BINDINGS
    SearchDone = Done

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
        self.flow = SearchFlow(
            self,
            marked=self.bookmarked_ids,
            facet_panel=lambda: self.facet_panel,
            loaded=self.lists_loaded,
            indexed=self.index_ready,
            zone=lambda: services.zone_setting,
            dismissed=self.for_you.dismissed,
        )
        self.listings = Listings(self, self.flow)
        self.start_up = StartUp(self, self.flow, catalogue, index)
        self.pane = PaperPane(
            self,
            services,
            marked=self.bookmarked_ids,
            dismissed=self.for_you.known,
        )

    def compose(self) -> ComposeResult:
        yield SearchBox(SearchHistory(self.services.paths.data_dir / HISTORY_FILE), id="search")
        yield DidYouMean(id="did-you-mean")
        with Horizontal(id="panes"):
            yield ResultList(id="results")
            yield PaperView(id="view")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        keys = self.services.keymap.get("did_you_mean", "tab").split(",")[0]
        self.query_one(DidYouMean).key_hint = self.app.get_key_display(
            Binding(keys, "accept_suggestion")
        )
        self.show_times_in(self.services.zone_setting)
        self.box.focus()
        self.start_up.first_frame()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker of this screen that failed is reported (:mod:`tui.lifecycle.failures`)."""
        if failed(event):
            report(self.app, event.worker)

    def on_worker_failed(self, message: WorkerFailed) -> None:
        """A worker of one of the screen's widgets failed: reported the same way."""
        report(self.app, message.worker)

    def on_result_list_drawn(self) -> None:
        self.start_up.drawn()

    def show_times_in(self, setting: str) -> None:
        """Session times in ``setting``'s zone: the paper view, and rows sorted by time."""
        self.query_one(PaperView).set_zone(setting)
        self.results.show_times(setting if self.flow.sort == "time" else None)

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < NARROW, "-narrow")

    # -- the parts --------------------------------------------------------------------------

    @property
    def box(self) -> SearchBox:
        """The search box."""
        return self.query_one(SearchBox)

    @property
    def results(self) -> ResultList:
        """The result list."""
        return self.query_one(ResultList)

    @property
    def view(self) -> PaperView:
        """The paper view."""
        return self.query_one(PaperView)

    @property
    def status(self) -> StatusBar:
        """The status line."""
        return self.query_one(StatusBar)

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

    def catalogue(self) -> PaperSource | None:
        """The loaded catalogue (None while it loads)."""
        return self.searcher.catalogue if self.searcher is not None else None

    # -- loading ----------------------------------------------------------------------------

    def on_loader_catalogue_loaded(self, message: Loader.CatalogueLoaded) -> None:
        self.start_up.loaded(message.catalogue)

    def on_loader_index_progress(self, message: Loader.IndexProgress) -> None:
        self.flow.index_progress(message)

    def on_loader_index_ready(self, message: Loader.IndexReady) -> None:
        self.flow.index_ready(message)

    def on_loader_failed(self, message: Loader.Failed) -> None:
        self.flow.failed(message)

    # -- searching --------------------------------------------------------------------------

    @on(Input.Changed, "#search")
    def on_query_changed(self) -> None:
        self.listings.changed(self.box.value)
        self.run_search()

    def on_search_box_submitted(self) -> None:
        self.results.focus()

    def run_search(self) -> None:
        """Start the query now in the box; an older one still running is superseded."""
        self.flow.run()

    def on_search_done(self, message: Done) -> None:
        self.flow.done(message)

    # -- the paper under the cursor ---------------------------------------------------------

    def on_result_list_highlighted(self, message: ResultList.Highlighted) -> None:
        # The list's new rows reach the screen first; the view (wrapping a whole
        # abstract) is laid out on the frame after.
        self.call_after_refresh(self._follow_cursor)

    def _follow_cursor(self) -> None:
        hit = self.results.current
        if hit is not self.view.hit:
            self.pane.show(hit)

    def on_result_list_selected(self, message: ResultList.Selected) -> None:
        self.add_class("-reading")
        self.view.focus()

    def on_paper_view_open_paper(self, message: PaperView.OpenPaper) -> None:
        # A similar paper is in the like: listing of the paper shown.
        shown = self.current_paper()
        self.listings.highlight(message.paper, like_query(shown.id) if shown is not None else "")
        self.view.focus()

    def on_paper_view_link_chosen(self, message: PaperView.LinkChosen) -> None:
        self.pane.open_url(message.url, message.label)

    def index_ready(self) -> None:
        """The index is ready: the view looks up similar papers with it."""
        if (searcher := self.flow.searcher) is not None:
            self.view.similar_from(searcher.similar)

    def show_after_swap(self, paper_id: str) -> None:
        """Highlight ``paper_id`` in the answer given once a rebuilt catalogue is swapped in."""
        self.start_up.highlight_after_swap = paper_id

    def open_paper_id(self, paper_id: str) -> None:
        """Highlight the paper chosen in the reading list (from the bookmarks if not listed)."""
        catalogue = self.catalogue()
        paper = catalogue.get(paper_id) if catalogue is not None else None
        if paper is not None:
            listed = self.listings.highlight(paper, BOOKMARKED)
            self.results.focus() if listed else self.view.focus()

    def bookmarks_changed(self) -> None:
        """Redraw the badges in the list and the view; a query that filters on the
        bookmarks (``is:bookmarked``) is answered again, so the list shows them as they are."""
        self.results.set_bookmarked(self.bookmarked_ids())
        self.pane.refresh_badge()
        # Any spelling (is:Bookmarked, -is:bookmarked): a needless search again costs little.
        if "bookmarked" in self.box.value.lower() and self.flow.result is not None:
            self.run_search()

    def lists_loaded(self) -> None:
        """A catalogue is in use (after the first frame): the bookmarks and the dismissed
        papers are read, so the view marks them; then the library is matched in a worker."""
        self.library.load()
        self.for_you.dismissed()
        self.pane.refresh_badge()
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
        self.pane.refresh_badge()
        query = self.box.value.strip().lower()
        if query == FOR_YOU or "dismissed" in query:
            self.run_search()

    # -- actions ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "accept_suggestion":
            return self.query_one(DidYouMean).suggestion is not None
        if action == "leave_like":
            return self.listings.before is not None and self.focused is self.results
        return True

    def action_focus_search(self) -> None:
        """Put the cursor in the search box."""
        self.remove_class("-reading")
        self.box.focus()
        self.box.cursor_position = len(self.box.value)

    def action_back(self) -> None:
        """Back to the list; from the list, leave a like: listing."""
        if self.focused is self.results and not self.has_class("-reading"):
            self.action_leave_like()
        self.remove_class("-reading")
        self.results.focus()

    def action_leave_like(self) -> None:
        """Return from a listing (like:, author:, is:bookmarked) to the query before it."""
        self.listings.leave()

    def action_accept_suggestion(self) -> None:
        """Search for the "did you mean" suggestion."""
        suggestion = self.query_one(DidYouMean).suggestion
        if suggestion:
            self.box.value = suggestion
            self.box.cursor_position = len(suggestion)

    def action_more_like_this(self) -> None:
        """Replace the list with the papers similar to the current one."""
        if (paper := self.current_paper()) is not None:
            self.listings.more_like_this(paper)

    def action_cycle_sort(self) -> None:
        """Cycle the sort order: relevance, title, session time."""
        self.status.set_sort(self.flow.next_sort())
        self.run_search()

    def action_toggle_facets(self) -> None:
        """Show or hide the facet counts for the current query."""
        self.listings.toggle_facets()

    def on_facet_panel_chosen(self, message: FacetPanel.Chosen) -> None:
        self.listings.add_facet(message.query)

    def action_open(self, link: str) -> None:
        """Open the paper's ``page`` (OpenReview or the virtual site), ``code`` or ``pdf``."""
        if (paper := self.current_paper()) is not None:
            self.pane.open_link(paper, link)

    def action_more_by_author(self) -> None:
        """List the papers of the current paper's first author (Backspace goes back)."""
        if (paper := self.current_paper()) is not None:
            self.listings.more_by_author(paper)

    def action_toggle_bookmark(self) -> None:
        """Bookmark the current paper, or remove its bookmark."""
        if (paper := self.current_paper()) is not None:
            self.library.toggle(paper)

    def action_reading_list(self, start: str = "") -> None:
        """Open the reading list screen (``start``: ``export`` or ``sessions`` opened in it)."""
        self.library.open_reading_list(self.catalogue(), start=start or None)

    def action_cite(self, how: str) -> None:
        """Copy the current paper's citation in the configured style (``pick``: choose one)."""
        if (paper := self.current_paper()) is not None:
            cite = self.library.pick_citation if how == "pick" else self.library.copy_citation
            cite(paper, self.catalogue())

    def action_for_you(self) -> None:
        """List the papers For you ranks by the reading list (Backspace goes back)."""
        self.listings.for_you()

    def action_watches(self) -> None:
        """Open the watches pane; Enter there lists the chosen watch's new papers."""
        from index_builder.readinglist.watches import Watches
        from tui.screens.watches import WatchesScreen

        searcher, store = self.searcher, self.services.reading_list()
        if searcher is None or searcher.index is None:
            self.notify("The watches need the search index, which is still being built.")
            return
        try:
            watches = Watches(store).all() if store is not None else []
        except Exception as exc:  # a locked or damaged list must not close the app
            self.notify(f"Watches: {exc}", severity="error")
            return

        def chosen(query: str | None) -> None:
            if query:
                self.listings.watch_news(query)

        self.app.push_screen(WatchesScreen(watches, searcher.index), chosen)

    def action_not_interested(self) -> None:
        """Not interested in the current paper: For you hides it (u takes it back)."""
        if (paper := self.current_paper()) is not None:
            self.for_you.dismiss(paper)

    def action_undo_dismiss(self) -> None:
        """Take back the current paper if it is dismissed, else the last one dismissed."""
        self.for_you.take_back(self.current_paper())
