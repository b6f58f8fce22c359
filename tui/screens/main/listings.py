"""Listings the main screen shows in place of the user's query, and the way back.

``m`` lists ``like:ID``, ``a`` ``author:"…"``, ``R`` ``for:you``, and a paper opened from
the reading list or from the similar papers that the list does not hold is listed with the
cursor on it (``is:bookmarked`` or ``like:ID``). :class:`Listings` remembers the
query before the listing, which ``Backspace`` brings back with the cursor where it was.
It reads and changes no widget: the screen hands it the box's text and the list's cursor,
and puts the text it returns in the box.
"""

from __future__ import annotations

from index_builder.model import Paper
from tui.screens.main.search_flow import SearchFlow

BOOKMARKED = "is:bookmarked"
"""The listing a paper opened from the reading list is shown in, when not listed."""


def author_query(paper: Paper) -> str | None:
    """The query for the papers of ``paper``'s first author (None without one)."""
    name = next((a.replace('"', " ").strip() for a in paper.authors if a.strip()), "")
    return f'author:"{name}"' if name else None


class Listings:
    """The listing shown in the box (if any) and the user's query before it."""

    def __init__(self, flow: SearchFlow) -> None:
        self._flow = flow
        self.before: str | None = None
        """The query to go back to from a listing, or None when none is shown."""
        self.query: str | None = None
        """The query of the listing."""
        self._place: tuple[str, str | None, int] | None = None
        """The user's query, its paper under the cursor and its row, when a listing began."""

    def changed(self, value: str) -> None:
        """The box changed: typed over, a listing is left behind."""
        if value != self.query:
            self.before = self.query = None

    def show(self, query: str, typed: str, at: str | None, row: int) -> str:
        """List ``query`` in place of the user's query, which :meth:`leave` brings back;
        the text for the box.

        ``typed`` is the box's text now, ``at`` the paper under the list's cursor and
        ``row`` its row (where the cursor goes back to).
        """
        before = typed if self.before is None else self.before
        if self.before is None:
            self._place = (before, at, row)
        self.query = query
        self.before = before
        return query

    def leave(self) -> str | None:
        """Return from a listing: the query before it for the box (None: no listing)."""
        if self.before is None:
            return None
        self._flow.place = self._place
        before, self.before = self.before, None
        return before

    def with_facet(self, typed: str, facet: str) -> str | None:
        """The user's own query (``typed``; empty in a listing, which is left) narrowed by
        a facet's filter; None when it has that filter already."""
        base = "" if self.before is not None else typed.strip()
        self.before = None
        return None if facet in base.split() else f"{base} {facet}".strip()
