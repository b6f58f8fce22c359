"""The search box: an Input that reports every change; the screen runs the queries.

``?`` typed into the empty box opens the help (as the placeholder says); typed
after other text it is a character of the query.
"""

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
        # The placeholder promises "? for help": in an empty box "?" opens it.
        if event.character == "?" and not self.value:
            event.stop()
            event.prevent_default()
            await self.run_action("app.help")
            return
        await super()._on_key(event)
