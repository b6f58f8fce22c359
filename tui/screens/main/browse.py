"""The main screen's paper view: the paper shown and its links.

:class:`PaperPane` is a helper the screen owns: it shows a hit in the view with
its bookmark badge (the view looks up the similar papers itself), and opens the
paper's page or code through the services.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from index_builder.model import Hit, Paper
from index_builder.text.links import openreview_pdf
from tui.widgets.paper_view import PaperView

if TYPE_CHECKING:
    from tui.services import Services


class PaperPane:
    """Shows papers in the screen's :class:`PaperView` and opens their links."""

    def __init__(
        self,
        screen: Screen[Any],
        services: Services,
        *,
        marked: Callable[[], frozenset[str]],
        dismissed: Callable[[], frozenset[str]] = frozenset,
    ) -> None:
        self._screen = screen
        self._services = services
        self._marked = marked
        self._dismissed = dismissed

    @property
    def view(self) -> PaperView:
        """The paper view."""
        return self._screen.query_one(PaperView)

    def show(self, hit: Hit | None) -> None:
        """Show ``hit`` in the view (which looks up its similar papers)."""
        marked = hit is not None and hit.paper.id in self._marked()
        dismissed = hit is not None and hit.paper.id in self._dismissed()
        self.view.show(hit, bookmarked=marked, dismissed=dismissed)

    def refresh_badge(self) -> None:
        """Redraw the view's bookmark badge and its dismissed mark."""
        paper = self.view.paper
        if paper is not None:
            self.view.set_marks(paper.id in self._marked(), paper.id in self._dismissed())

    def open_url(self, url: str, what: str) -> None:
        """Open ``url`` (http/https only) through the services."""
        self._services.open_link(url, what)

    def open_link(self, paper: Paper, link: str) -> None:
        """Open ``paper``'s ``page``, ``code`` or ``pdf`` in a browser."""
        {"page": self.open_page, "code": self.open_code, "pdf": self.open_pdf}[link](paper)

    def open_page(self, paper: Paper) -> None:
        """Open the paper's OpenReview page (or its virtual-site page) in a browser."""
        url = paper.openreview_url or paper.url
        if url:
            self.open_url(url, "paper page")
        else:
            self._screen.notify("No page for this paper.")

    def open_pdf(self, paper: Paper) -> None:
        """Open the paper's PDF on OpenReview (derived from its forum page) in a browser."""
        pdf = openreview_pdf(paper.openreview_url) if paper.openreview_url else None
        if pdf:
            self.open_url(pdf, "PDF")
        else:
            self._screen.notify("No OpenReview PDF for this paper.")

    def open_code(self, paper: Paper) -> None:
        """Open the paper's first code link in a browser."""
        if paper.code_urls:
            self.open_url(paper.code_urls[0], "code")
        else:
            self._screen.notify("No code link for this paper.")
