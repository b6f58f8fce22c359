"""Small files written off the event loop: the newest content wins, and nothing is lost on
quitting.

The search history was written and fsynced on the event loop at every Enter (and every
``↓`` into the list). :class:`LatestWrite` hands the write to a thread of its own: a new
content replaces one not yet written (ten quick searches make one or two writes, the last
always among them), and :func:`flush` waits a moment for writes still pending when the
app quits (:func:`tui.lifecycle.exiting.leave` calls it). Textual-free.
"""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
from collections.abc import Callable

FLUSH_S = 0.5
"""The longest :func:`flush` waits for pending writes (a disk that hangs must not keep
the quit)."""

_writers: weakref.WeakSet[LatestWrite] = weakref.WeakSet()


class LatestWrite:
    """Writes the newest content given to :meth:`submit` with ``write``, in a thread.

    ``write`` may raise ``OSError`` (a read-only folder): the content is then dropped.
    """

    def __init__(self, write: Callable[[str], object]) -> None:
        self._write = write
        self._pending: str | None = None
        self._busy = False
        self._idle = threading.Condition()
        _writers.add(self)

    def submit(self, content: str) -> None:
        """Write ``content`` soon (a content submitted later replaces it if not yet written)."""
        with self._idle:
            self._pending = content
            if self._busy:
                return
            self._busy = True
        threading.Thread(target=self._run, name="paperscope-save", daemon=True).start()

    def _run(self) -> None:
        while True:
            with self._idle:
                content, self._pending = self._pending, None
                if content is None:
                    self._busy = False
                    self._idle.notify_all()
                    return
            with contextlib.suppress(OSError):
                self._write(content)

    def wait(self, timeout: float) -> bool:
        """Wait until nothing is pending or being written; False if ``timeout`` came first."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True


def flush(timeout: float = FLUSH_S) -> None:
    """Wait (``timeout`` in all at most) for every pending background write to be done."""
    deadline = time.monotonic() + timeout
    for writer in list(_writers):
        writer.wait(max(deadline - time.monotonic(), 0.0))
