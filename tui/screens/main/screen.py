"""The main screen: search box, result list, paper view, facets, status line, footer.

:class:`MainScreen` holds the screen's actions (keys in :mod:`tui.screens.main.bindings`)
and the handlers of its widgets' messages. The widgets own their behaviour and say what
happened by messages (``on_result_list_highlighted``, ``on_search_box_submitted``…): the
list pages itself, the paper view looks up its similar papers, the search box keeps its
history. Its base, :class:`~tui.screens.main.view.MainView`, composes the widgets, owns
the helpers and is the one place that changes the widgets. The helpers compute and run
workers but touch no widget: :class:`SearchFlow` (queries in a worker; each answer an
:class:`Answer` that ``MainView.show_answer`` shows), :class:`Listings` (like:, author:,
For you and the way back), :class:`StartUp` (what fills the screen), :class:`PaperLinks`,
:class:`Library` (bookmarks, reading list, citations), :class:`ForYou` (dismissed
papers) and :class:`OwnedLibrary`. Everything from outside comes in through the
:class:`~tui.services.Services` it is created with.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.widgets import Input
from textual.worker import Worker

from tui.lifecycle.failures import failed, report
from tui.lifecycle.loading import Loader
from tui.screens.main.bindings import MAIN_BINDINGS
from tui.screens.main.listings import author_query
from tui.screens.main.search_flow import SearchDone as Done
from tui.screens.main.search_flow import progress
from tui.screens.main.searching import FOR_YOU, like_query
from tui.screens.main.view import MainView
from tui.widgets.did_you_mean import DidYouMean
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import ResultList
from tui.widgets.workers import WorkerFailed

NARROW = 100
"""Below this many columns the list and the view are stacked."""


class MainScreen(MainView):
    """Search as you type over the catalogue, with the paper under the cursor beside it."""

    BINDINGS: ClassVar[list[BindingType]] = MAIN_BINDINGS
    SearchDone = Done

    def on_mount(self) -> None:
        keys = self.services.keymap.get("did_you_mean", "tab").split(",")[0]
        self.query_one(DidYouMean).key_hint = self.app.get_key_display(
            Binding(keys, "accept_suggestion")
        )
        self.show_times_in(self.services.zone_setting)
        self.box.focus()
        self.results.empty_message = "Loading papers…"
        self.status.set_index_state("loading papers")
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

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < NARROW, "-narrow")

    # -- loading ----------------------------------------------------------------------------

    def on_loader_catalogue_loaded(self, message: Loader.CatalogueLoaded) -> None:
        self.start_up.loaded(message.catalogue)

    def on_loader_index_progress(self, message: Loader.IndexProgress) -> None:
        self.status.set_index_state(*progress(message))
        self.show_note()

    def on_loader_index_ready(self, message: Loader.IndexReady) -> None:
        self.use_index(message)

    def on_loader_failed(self, message: Loader.Failed) -> None:
        # Without an index the simple filter searches.
        if message.what == "index":
            self.flow.index_failed = True
            self.status.set_index_state("no index (simple filter)")
        else:
            self.results.empty_message = f"Could not load the papers: {message.error}"
            self.results.refresh()
        self.notify(f"Could not load the {message.what}: {message.error}", severity="error")
        self.show_note()

    # -- searching --------------------------------------------------------------------------

    @on(Input.Changed, "#search")
    def on_query_changed(self) -> None:
        self.listings.changed(self.box.value)
        self.run_search()

    def on_search_box_submitted(self) -> None:
        self.results.focus()

    def on_search_done(self, message: Done) -> None:
        at, row = self.cursor_at()
        answer = self.flow.done(message, query=self.box.value, at=at, row=row)
        if answer is not None:
            self.show_answer(answer)

    # -- the paper under the cursor ---------------------------------------------------------

    def on_result_list_highlighted(self, message: ResultList.Highlighted) -> None:
        # The list's new rows reach the screen first; the view (wrapping a whole
        # abstract) is laid out on the frame after.
        self.call_after_refresh(self.follow_cursor)

    def on_result_list_selected(self, message: ResultList.Selected) -> None:
        self.add_class("-reading")
        self.view.focus()

    def on_paper_view_open_paper(self, message: PaperView.OpenPaper) -> None:
        # A similar paper is in the like: listing of the paper shown.
        shown = self.current_paper()
        self.highlight(message.paper, like_query(shown.id) if shown is not None else "")
        self.view.focus()

    def on_paper_view_link_chosen(self, message: PaperView.LinkChosen) -> None:
        self.links.open_url(message.url, message.label)

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
        if (before := self.listings.leave()) is not None:
            self.box.value = before

    def action_accept_suggestion(self) -> None:
        """Search for the "did you mean" suggestion."""
        suggestion = self.query_one(DidYouMean).suggestion
        if suggestion:
            self.box.value = suggestion
            self.box.cursor_position = len(suggestion)

    def action_more_like_this(self) -> None:
        """Replace the list with the papers similar to the current one."""
        if (paper := self.current_paper()) is not None:
            self.list_and_focus(like_query(paper.id), needs_index="More like this")

    def action_cycle_sort(self) -> None:
        """Cycle the sort order: relevance, title, session time."""
        self.status.set_sort(self.flow.next_sort())
        self.run_search()

    def action_toggle_facets(self) -> None:
        """Show or hide the facet counts for the current query."""
        panel = self.facet_panel
        if panel is None:  # built the first time it is asked for: start-up stays light
            panel = FacetPanel(id="facets")
            self.query_one("#panes").mount(panel)
        if panel.toggle():
            result = self.flow.result
            if result is not None and result.facets:
                panel.set_facets(result.facets)
            panel.focus()
            self.run_search()
        else:
            self.results.focus()

    def on_facet_panel_chosen(self, message: FacetPanel.Chosen) -> None:
        """Narrow the user's own query by a facet's filter (a listing is left)."""
        if (query := self.listings.with_facet(self.box.value, message.query)) is not None:
            self.box.value = query

    def action_open(self, link: str) -> None:
        """Open the paper's ``page`` (OpenReview or the virtual site), ``code`` or ``pdf``."""
        if (paper := self.current_paper()) is not None:
            self.links.open_link(paper, link)

    def action_more_by_author(self) -> None:
        """List the papers of the current paper's first author (Backspace goes back)."""
        if (paper := self.current_paper()) is not None:
            if (query := author_query(paper)) is None:
                self.notify("No author named for this paper.")
            else:
                self.list_and_focus(query)

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
        self.list_and_focus(FOR_YOU, needs_index="For you")

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
                self.list_and_focus(query)

        self.app.push_screen(WatchesScreen(watches, searcher.index), chosen)

    def action_not_interested(self) -> None:
        """Not interested in the current paper: For you hides it (u takes it back)."""
        if (paper := self.current_paper()) is not None:
            self.for_you.dismiss(paper)

    def action_undo_dismiss(self) -> None:
        """Take back the current paper if it is dismissed, else the last one dismissed."""
        self.for_you.take_back(self.current_paper())
