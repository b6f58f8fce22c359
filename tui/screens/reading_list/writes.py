"""The reading list screen's writes: off the event loop, one at a time, in the order asked.

A write waits up to its busy timeout (5 s) when another process holds the list; on the
event loop that froze the screen for the whole wait. :class:`Writes` runs each change in
a thread worker, strictly after the ones asked before it (``r r`` cycles twice, ``d``
then ``u`` removes then restores), and hands the result back to the event loop. A write
still waiting after :data:`WAIT_NOTICE_S` says so; a failed one says why.

The worker writes through a connection of its own: the screen's store keeps answering
the screen's reads meanwhile (a connection waiting for a lock holds it for everyone who
shares it).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from textual.app import App

from index_builder.readinglist.store import ReadingList, ReadingListError

T = TypeVar("T")
WAIT_NOTICE_S = 0.5
"""A write not done after this long says the list is busy (another process holds it)."""


class Owner(Protocol):
    """What :class:`Writes` needs of its screen."""

    @property
    def app(self) -> App[Any]: ...

    @property
    def is_attached(self) -> bool: ...


class Writes:
    """A queue of store changes, run in order by one thread worker at a time."""

    def __init__(self, owner: Owner, store: ReadingList) -> None:
        self._owner = owner
        self._path, self._timeout = store.path, store.timeout
        Job = tuple[Callable[[ReadingList], Any], Callable[[Any], None], Callable[[], None]]
        self._queue: deque[Job] = deque()
        self._lock = threading.Lock()
        self._running = False
        self.asked = 0
        """How many writes were asked for."""
        self.done = 0
        """How many have ended (written or failed)."""

    @property
    def idle(self) -> bool:
        """True when every write asked for has ended."""
        return self.done == self.asked

    def submit(
        self,
        change: Callable[[ReadingList], T],
        then: Callable[[T], None],
        failed: Callable[[], None] = lambda: None,
    ) -> None:
        """Run ``change(store)`` after the writes before it; ``then(result)`` on the event
        loop. ``store`` is the worker's own connection to the list.

        A ``ReadingListError`` or ``KeyError`` is said in a notice, then ``failed()`` runs
        (to put the screen back as the list is).
        """
        app = self._owner.app
        with self._lock:
            self._queue.append((change, then, failed))
            self.asked += 1
            number = self.asked
            start = not self._running
            self._running = True
        if start:
            # An app's worker: a write ends even if the screen is closed meanwhile.
            app.run_worker(self._drain, thread=True, group="rl-write", exit_on_error=False)
        app.set_timer(WAIT_NOTICE_S, lambda: self._still_waiting(number))

    def _still_waiting(self, number: int) -> None:
        if self.done < number and self._owner.is_attached:
            self._owner.app.notify(
                "Waiting for the reading list: another PaperScope is writing it…",
                title="Reading list",
            )

    def _drain(self) -> None:
        """The worker: run the queued changes in order until none is left."""
        app = self._owner.app
        writer: ReadingList | None = None
        try:
            while True:
                with self._lock:
                    if not self._queue:
                        self._running = False
                        return
                    change, then, failed = self._queue.popleft()
                try:
                    if writer is None:
                        writer = ReadingList(self._path, timeout=self._timeout)
                    result = change(writer)
                except (ReadingListError, KeyError) as exc:
                    app.call_from_thread(self._failed, str(exc), failed)
                else:
                    app.call_from_thread(self._then, then, result)
        finally:
            if writer is not None:
                writer.close()

    def _then(self, then: Callable[[Any], None], result: Any) -> None:
        self.done += 1
        if self._owner.is_attached:
            then(result)

    def _failed(self, message: str, failed: Callable[[], None]) -> None:
        self.done += 1
        self._owner.app.notify(message, title="Reading list", severity="error")
        if self._owner.is_attached:
            failed()
