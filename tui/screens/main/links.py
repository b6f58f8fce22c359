"""The main screen's links: a paper's page, PDF or code opened in a browser.

:class:`PaperLinks` is a helper the screen owns: it opens the paper's links through the
services (the paper view shows the paper and looks up its similar papers itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from index_builder.model import Paper
from index_builder.text.links import openreview_pdf

if TYPE_CHECKING:
    from tui.services import Services


class PaperLinks:
    """Opens a paper's links; says so on the screen when the paper has none."""

    def __init__(self, screen: Screen[Any], services: Services) -> None:
        self._screen = screen
        self._services = services

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
