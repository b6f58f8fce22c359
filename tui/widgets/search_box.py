"""The search box: an Input that reports every change; the screen runs the queries.

The box owns the search history: Up recalls the previous query, Down the next one (and
past the newest, the text typed before). Enter, or Down when not stepping through the
history, takes the query: the box remembers it and posts :class:`SearchBox.Submitted`
(the screen moves on to the result list).
``?`` typed into the empty box opens the help (as the placeholder says); typed
after other text it is a character of the query.

Keys read in one go (a fast typist over SSH, a busy moment) keep their order: the box's
own editing keys act when they come, not after the letters that follow them.

``Esc`` then a letter sent together reach the app as one Alt+letter (the terminal
sends both as the same bytes: ``Esc`` pressed quickly before ``j`` over SSH, inside
tmux, or before the app reads its first keys). The box has no Alt keys of its own,
so it acts on them as the two keys they were: back to the list, then the letter.
"""

from __future__ import annotations

from typing import Protocol

from textual import events
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Input


class Recall(Protocol):
    """The search history as the box steps through it (the main screen's ``SearchHistory``)."""

    @property
    def browsing(self) -> bool:
        """True while Up has stepped into the history."""
        ...

    def older(self, current: str) -> str | None:
        """The query before the one shown, or None at the oldest."""
        ...

    def newer(self) -> str | None:
        """The query after the one shown (past the newest, the draft), or None."""
        ...

    def reset(self) -> None:
        """Stop stepping through the history."""
        ...

    def add(self, query: str) -> None:
        """Remember ``query`` as the newest."""
        ...


def alt_letter(event: events.Key) -> str:
    """The letter of an Alt+letter key (``Esc`` and a letter read together), else ``""``."""
    letter = event.character or ""
    return letter if event.key.startswith("alt+") and len(letter) == 1 and letter.isalnum() else ""


async def escape_then(node: DOMNode, letter: str) -> None:
    """Act on ``Esc`` as bound where ``node`` is, then on ``letter`` where that leads."""
    app = node.app
    escape = node.screen.active_bindings.get("escape")
    if escape is not None and escape.enabled:
        await app.run_action(escape.binding.action, escape.node)
    # Queued after the focus change Esc asked for (made the same way), so it comes first.
    app.call_later(app.post_message, events.Key(letter, letter))


EDITING = frozenset(
    key.strip() for b in Input.BINDINGS if isinstance(b, Binding) for key in b.key.split(",")
)
"""The keys Textual's Input binds itself (editing, moving the cursor, Enter); not the
scrolling keys it inherits, which the screen answers (Down moves to the list)."""

PLACEHOLDER = 'Search papers: words, "phrases", author:name, is:oral, has:code…  (? for help)'


class SearchBox(Input):
    """Where the query is typed; letters typed here never trigger the app's keys."""

    DEFAULT_CSS = """
    SearchBox { margin: 0; }
    """

    class Submitted(Input.Submitted):
        """The query was taken (Enter, or Down out of the box) and is in the history."""

    def __init__(self, history: Recall, *, id: str | None = None) -> None:
        super().__init__(placeholder=PLACEHOLDER, id=id, select_on_focus=False)
        self.history = history
        """Passed in by the screen, so widgets never import the history's file handling."""
        self._leaving = False
        """An Alt+letter was read: keys read with it wait until Esc has moved the focus."""

    def _left(self) -> None:
        self._leaving = False

    async def action_submit(self) -> None:
        """Remember the query, then post :class:`SearchBox.Submitted`."""
        self.history.add(self.value)
        await super().action_submit()

    def _recall(self, query: str) -> None:
        self.value = query
        self.cursor_position = len(query)

    async def _on_key(self, event: events.Key) -> None:
        if self._leaving:  # read together with an Esc that is taking the focus away
            event.stop()
            event.prevent_default()
            self.app.call_later(self.app.post_message, events.Key(event.key, event.character))
            return
        if letter := alt_letter(event):
            event.stop()
            event.prevent_default()
            self._leaving = True
            await escape_then(self, letter)
            self.app.call_later(self._left)
            return
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
        if event.key == "up":
            event.stop()
            event.prevent_default()
            older = self.history.older(self.value)
            if older is not None:
                self._recall(older)
            return
        if event.key == "down":
            event.stop()
            event.prevent_default()
            if not self.history.browsing:
                await self.action_submit()
            elif (newer := self.history.newer()) is not None:
                self._recall(newer)
            return
        self.history.reset()
        # The box's own editing keys (Backspace, Ctrl+U, Ctrl+W, arrows…) act here, in the
        # order typed. Textual runs a focused widget's bindings only once the key has gone
        # up to the app, after the letters read with it were inserted: "ab", Backspace,
        # "cd" read in one go gave "abc", and Ctrl+U ate the letters typed after it.
        bound = self.screen.active_bindings.get(event.key) if event.key in EDITING else None
        if bound is not None and bound.node is self and not bound.binding.priority:
            event.stop()
            event.prevent_default()
            if bound.enabled:
                await self.run_action(bound.binding.action)
            return
        await super()._on_key(event)
