"""The facet panel: counts by topic, kind and session for the current query.

Choosing a value posts :class:`FacetPanel.Chosen` with the filter that selects
it (``FacetCount.query``); the screen appends that filter to the query.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from index_builder.model import FacetCount
from tui.widgets.paper_text import clean

TITLES = {
    "topic": "Topic",
    "kind": "Oral / spotlight",
    "session": "Session",
    "venue": "Venue",
    "track": "Track",
    "site": "Site",
    "tag": "Your tags",
}
"""Headings for the facet names the core uses; others are shown as they come."""

PER_FACET = 12


class FacetPanel(OptionList):
    """A list of facet values with their counts, grouped under headings."""

    DEFAULT_CSS = """
    FacetPanel { width: 38; border-left: tall $primary-darken-2; display: none; }
    FacetPanel.-shown { display: block; }
    """

    class Chosen(Message):
        """The user chose a facet value; ``query`` is the filter to add."""

        def __init__(self, facet: FacetCount) -> None:
            super().__init__()
            self.facet = facet
            self.query = facet.query

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.facets: dict[str, tuple[FacetCount, ...]] = {}
        self._choices: dict[str, FacetCount] = {}

    @property
    def shown(self) -> bool:
        """True while the panel is visible."""
        return self.has_class("-shown")

    def toggle(self) -> bool:
        """Show or hide the panel; returns whether it is now shown."""
        self.toggle_class("-shown")
        return self.shown

    def set_facets(self, facets: Mapping[str, Sequence[FacetCount]]) -> None:
        """Replace the counts with ``facets`` (facet name -> counts, best first)."""
        self.facets = {name: tuple(values) for name, values in facets.items()}
        self._choices = {}
        options: list[Option] = []
        for name, values in self.facets.items():
            if not values:
                continue
            options.append(
                Option(Text(TITLES.get(name, name.title()), style="bold"), disabled=True)
            )
            for number, facet in enumerate(values[:PER_FACET]):
                option_id = f"{name}-{number}"
                self._choices[option_id] = facet
                label = Text("  ")
                label.append(clean(facet.value) or "(none)")
                label.append(f"  {facet.count:,}", style="dim")
                options.append(Option(label, id=option_id))
        if not options:
            options.append(Option(Text("No counts for this query.", style="italic"), disabled=True))
        self.clear_options()
        self.add_options(options)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        facet = self._choices.get(event.option.id or "")
        if facet is not None:
            self.post_message(self.Chosen(facet))
