"""What the main screen does with the paper under the cursor, and its browsing keys.

A base of :class:`tui.screens.main.screen.MainScreen`, which adds the layout, the
loading and the search flow: the view follows the cursor (similar papers come
from a worker), ``Enter``/``Esc`` move between list and view, ``m`` lists similar
papers as ``like:ID``, ``s`` sorts, ``f`` shows facets, ``o``/``O`` open links.
"""

from __future__ import annotations

import time

from textual import work
from textual.worker import get_current_worker

from index_builder.model import Hit, Paper, SearchResult, SortKey
from tui.screens.main.library import LibraryActions
from tui.searching import PaperSource, Searcher, like_query
from tui.widgets.did_you_mean import DidYouMean
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import ResultList
from tui.widgets.search_box import SearchBox
from tui.widgets.status_bar import StatusBar

SORTS: tuple[SortKey, ...] = ("relevance", "title", "time")
SIMILAR_DELAY_S = 0.12
"""Similar papers are looked up once the cursor rests this long (holding j stays light)."""


class BrowseActions(LibraryActions):
    """The paper view, similar papers and the browsing actions of the main screen."""

    searcher: Searcher | None = None
    sort: SortKey = "relevance"
    result: SearchResult | None = None
    before_like: str | None = None
    """The query to go back to from a ``like:`` listing (None when not in one)."""

    def run_search(self) -> None:
        """Start the query in the box (the main screen runs it)."""

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

    # -- the paper under the cursor ---------------------------------------------------------

    def on_result_list_highlighted(self, message: ResultList.Highlighted) -> None:
        # The list's new rows reach the screen first; the view (wrapping a whole
        # abstract) is laid out on the frame after.
        self.call_after_refresh(self._follow_cursor)

    def _follow_cursor(self) -> None:
        hit = self.results.current
        if hit is not self.view.hit:
            self.show_paper(hit)

    def show_paper(self, hit: Hit | None) -> None:
        """Show ``hit`` in the view and look up its similar papers."""
        marked = hit is not None and hit.paper.id in self.bookmarked_ids()
        self.view.show(hit, bookmarked=marked)
        self.find_similar()

    def find_similar(self) -> None:
        """Fill the view's similar papers in a worker (once the index is ready)."""
        paper = self.view.paper
        if paper is not None and self.searcher is not None and self.searcher.ready:
            self.similar_worker(self.searcher, paper.id)

    @work(thread=True, exclusive=True, group="similar", exit_on_error=False)
    def similar_worker(self, searcher: Searcher, paper_id: str) -> None:
        """Similar papers for ``paper_id``, after a pause so that scrolling stays light."""
        worker = get_current_worker()
        time.sleep(SIMILAR_DELAY_S)
        if worker.is_cancelled:
            return
        hits = searcher.similar(paper_id, 8)
        if not worker.is_cancelled:
            self.app.call_from_thread(self.view.set_similar, paper_id, hits)

    def on_result_list_selected(self, message: ResultList.Selected) -> None:
        self.add_class("-reading")
        self.view.focus()

    def on_paper_view_open_paper(self, message: PaperView.OpenPaper) -> None:
        self.show_paper(Hit(message.paper))
        self.view.focus()

    def on_paper_view_link_chosen(self, message: PaperView.LinkChosen) -> None:
        self.open_url(message.url, message.label)

    # -- actions ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "accept_suggestion":
            return self.query_one(DidYouMean).suggestion is not None
        if action == "leave_like":
            return self.before_like is not None and self.focused is self.results
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
        """Return from a like: listing to the query before it."""
        if self.before_like is not None:
            self.box.value, self.before_like = self.before_like, None

    def action_accept_suggestion(self) -> None:
        """Search for the "did you mean" suggestion."""
        suggestion = self.query_one(DidYouMean).suggestion
        if suggestion:
            self.box.value = suggestion
            self.box.cursor_position = len(suggestion)

    def action_more_like_this(self) -> None:
        """Replace the list with the papers similar to the current one."""
        hit = self.view.hit or self.results.current
        if hit is None:
            return
        if self.searcher is None or not self.searcher.ready:
            self.notify("More like this needs the search index, which is still being built.")
            return
        before = self.box.value if self.before_like is None else self.before_like
        self.box.value = like_query(hit.paper.id)
        self.before_like = before
        self.remove_class("-reading")
        self.results.focus()

    def action_cycle_sort(self) -> None:
        """Cycle the sort order: relevance, title, session time."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.status.set_sort(self.sort)
        self.run_search()

    @property
    def facet_panel(self) -> FacetPanel | None:
        """The facet panel, once it has been shown."""
        found = self.query(FacetPanel)
        return found.first() if found else None

    def action_toggle_facets(self) -> None:
        """Show or hide the facet counts for the current query."""
        panel = self.facet_panel
        if panel is None:  # built the first time it is asked for: start-up stays light
            panel = FacetPanel(id="facets")
            self.query_one("#panes").mount(panel)
        if panel.toggle():
            if self.result is not None and self.result.facets:
                panel.set_facets(self.result.facets)
            panel.focus()
            self.run_search()
        else:
            self.results.focus()

    def on_facet_panel_chosen(self, message: FacetPanel.Chosen) -> None:
        base = "" if self.before_like is not None else self.box.value.strip()
        self.before_like = None
        if message.query not in base.split():
            self.box.value = f"{base} {message.query}".strip()

    def action_open_page(self) -> None:
        """Open the paper's OpenReview page (or its virtual-site page) in a browser."""
        paper = self.view.paper
        if paper is not None:
            url = paper.openreview_url or paper.url
            self.open_url(url, "paper page") if url else self.notify("No page for this paper.")

    def action_open_code(self) -> None:
        """Open the paper's first code link in a browser."""
        paper = self.view.paper
        if paper is not None:
            if paper.code_urls:
                self.open_url(paper.code_urls[0], "code")
            else:
                self.notify("No code link for this paper.")

    def open_url(self, url: str, what: str) -> None:
        """Open ``url`` (http/https only) through the app."""
        self.papp.open_link(url, what)

    def current_paper(self) -> Paper | None:
        """The paper in the view (it follows the cursor)."""
        return self.view.paper

    def catalogue(self) -> PaperSource | None:
        """The loaded catalogue (None while it loads)."""
        return self.searcher.catalogue if self.searcher is not None else None

    def open_paper_id(self, paper_id: str) -> None:
        """Move the cursor to the paper if it is listed, else show it in the view."""
        listed = next((i for i, h in enumerate(self.results.hits) if h.paper.id == paper_id), None)
        if listed is not None:
            self.results.cursor = listed
            self.results.focus()
            return
        catalogue = self.catalogue()
        paper = catalogue.get(paper_id) if catalogue is not None else None
        if paper is not None:
            self.show_paper(Hit(paper))
            self.view.focus()

    def bookmarks_changed(self) -> None:
        """Redraw the badges in the list and the view."""
        marked = self.bookmarked_ids()
        self.results.set_bookmarked(marked)
        paper = self.view.paper
        self.view.set_bookmarked(paper is not None and paper.id in marked)
