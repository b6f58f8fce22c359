"""Listings the main screen shows in place of the user's query, and the way back.

``m`` lists ``like:ID``, ``a`` ``author:"…"``, ``R`` ``for:you``, and a paper opened from
the reading list or from the similar papers that the list does not hold is listed with the
cursor on it (``is:bookmarked`` or ``like:ID``). :class:`Listings` remembers the
query before the listing, which ``Backspace`` brings back with the cursor where it was,
and keeps the list's cursor the one current paper: the view shows it and every key acts
on it.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from index_builder.model import Paper
from tui.screens.main.search_flow import SearchFlow
from tui.screens.main.searching import FOR_YOU, like_query
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.result_list import ResultList
from tui.widgets.search_box import SearchBox

BOOKMARKED = "is:bookmarked"
"""The listing a paper opened from the reading list is shown in, when not listed."""


def author_query(paper: Paper) -> str | None:
    """The query for the papers of ``paper``'s first author (None without one)."""
    name = next((a.replace('"', " ").strip() for a in paper.authors if a.strip()), "")
    return f'author:"{name}"' if name else None


class Listings:
    """The listing shown in the box (if any) and the user's query before it."""

    def __init__(self, screen: Screen[Any], flow: SearchFlow) -> None:
        self._screen = screen
        self._flow = flow
        self.before: str | None = None
        """The query to go back to from a listing, or None when none is shown."""
        self.query: str | None = None
        """The query of the listing."""
        self._place: tuple[str, str | None, int] | None = None
        """The user's query, its paper under the cursor and its row, when a listing began."""

    @property
    def box(self) -> SearchBox:
        """The search box."""
        return self._screen.query_one(SearchBox)

    def changed(self, value: str) -> None:
        """The box changed: typed over, a listing is left behind."""
        if value != self.query:
            self.before = self.query = None

    def show(self, query: str) -> None:
        """List ``query`` in place of the user's query, which :meth:`leave` brings back."""
        before = self.box.value if self.before is None else self.before
        if self.before is None:
            results = self._screen.query_one(ResultList)
            current = results.current
            self._place = (before, current.paper.id if current else None, results.cursor)
        self.query = query
        self.box.value = query
        self.before = before

    def leave(self) -> None:
        """Return from a listing to the query before it."""
        if self.before is not None:
            self._flow.place = self._place
            self.box.value, self.before = self.before, None

    def base(self) -> str:
        """The user's own query (empty in a listing), which a facet adds to; leaves it."""
        base = "" if self.before is not None else self.box.value.strip()
        self.before = None
        return base

    def highlight(self, paper: Paper, listing: str) -> bool:
        """Move the list's cursor to ``paper``; if it is not listed, list ``listing`` with it.

        True when the paper was listed already (the answer to ``listing`` puts it
        at the top when it does not hold it).
        """
        results = self._screen.query_one(ResultList)
        listed = next((i for i, h in enumerate(results.hits) if h.paper.id == paper.id), None)
        if listed is not None:
            results.cursor = listed
            return True
        self._flow.pending = (listing, paper)
        if self.box.value == listing:
            self._flow.run()
        else:
            self.show(listing)
        return False

    def more_like_this(self, paper: Paper) -> None:
        """List the papers similar to ``paper`` (the index is needed)."""
        searcher = self._flow.searcher
        if searcher is None or not searcher.ready:
            self._screen.notify(
                "More like this needs the search index, which is still being built."
            )
            return
        self._list_and_focus(like_query(paper.id))

    def for_you(self) -> None:
        """List the papers For you recommends (the index is needed)."""
        searcher = self._flow.searcher
        if searcher is None or not searcher.ready:
            self._screen.notify("For you needs the search index, which is still being built.")
            return
        self._list_and_focus(FOR_YOU)

    def more_by_author(self, paper: Paper) -> None:
        """List the papers of ``paper``'s first author."""
        query = author_query(paper)
        if query is None:
            self._screen.notify("No author named for this paper.")
            return
        self._list_and_focus(query)

    def watch_news(self, query: str) -> None:
        """List a watch's new matches (``(QUERY) is:new``), chosen in the watches pane."""
        self._list_and_focus(query)

    def _list_and_focus(self, query: str) -> None:
        self.show(query)
        self._screen.remove_class("-reading")
        self._screen.query_one(ResultList).focus()

    def toggle_facets(self) -> None:
        """Show or hide the facet counts for the current query."""
        found = self._screen.query(FacetPanel)
        panel = found.first() if found else None
        if panel is None:  # built the first time it is asked for: start-up stays light
            panel = FacetPanel(id="facets")
            self._screen.query_one("#panes").mount(panel)
        if panel.toggle():
            result = self._flow.result
            if result is not None and result.facets:
                panel.set_facets(result.facets)
            panel.focus()
            self._flow.run()
        else:
            self._screen.query_one(ResultList).focus()

    def add_facet(self, query: str) -> None:
        """Narrow the user's own query by a facet's filter (a listing is left)."""
        base = self.base()
        if query not in base.split():
            self.box.value = f"{base} {query}".strip()
