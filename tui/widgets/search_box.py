"""The search box: an Input that reports every change; the screen runs the queries."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

PLACEHOLDER = 'Search papers: words, "phrases", author:name, is:oral, has:code…  (? for help)'


class SearchBox(Input):
    """Where the query is typed; letters typed here never trigger the app's keys."""

    DEFAULT_CSS = """
    SearchBox { margin: 0; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder=PLACEHOLDER, id=id, select_on_focus=False)

    async def _on_key(self, event: events.Key) -> None:
        # "/" is the key that focuses the box; typed into an empty box it would only
        # start the query with a stray character.
        if event.character == "/" and not self.value:
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)
