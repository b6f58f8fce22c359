"""Keys typed before the first frame: held, then handed on one by one, in order.

A person starts ``paperscope`` and types at once. The terminal keeps those keys and
Textual reads them as soon as its input thread runs, but that is before the main screen
has mounted and its search box has taken the focus: a key handled then reaches no widget
and is gone (``proeval`` typed 0.1–0.4 s after launch showed ``val``, or nothing).

:class:`TypeAhead` holds every key that arrives before Textual's ``Ready`` (sent once the
first frame is on screen), then hands them to the app one per turn of the event loop, so
that what one key does (``Esc`` moving the focus to the list) is done before the next key
is read: each key reaches the widget that has the focus by then, as if typed later. Keys
that arrive while the held ones are handed on wait behind them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable

from textual.events import Key


class TypeAhead:
    """The keys typed before the first frame, and their hand-over once it is drawn.

    ``deliver`` handles one key as the app would have (the app's own ``on_event``);
    ``later`` runs a callable on a later turn of the event loop (``App.call_later``).
    """

    def __init__(
        self,
        deliver: Callable[[Key], Awaitable[None]],
        later: Callable[[Callable[[], Awaitable[None]]], object],
    ) -> None:
        self._deliver = deliver
        self._later = later
        self._held: deque[Key] = deque()
        self._open = False
        """True once the first frame is drawn and every held key has been handed on."""
        self._ready = False

    @property
    def holding(self) -> bool:
        """True while keys are still held back (before the first frame, or being handed on)."""
        return not self._open

    def hold(self, key: Key) -> bool:
        """Keep ``key`` for later if keys are still held; False when it may go on now."""
        if self._open:
            return False
        self._held.append(key)
        return True

    def ready(self) -> None:
        """The first frame is drawn: start handing the held keys on."""
        if not self._ready:
            self._ready = True
            self._later(self._next)

    async def _next(self) -> None:
        """Hand on the oldest held key; the next one on a later turn, after its effects."""
        if not self._held:
            self._open = True
            return
        await self._deliver(self._held.popleft())
        self._later(self._next)
