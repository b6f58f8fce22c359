"""The first screen of papers, read on the other core while this process imports Textual.

Importing Textual and setting up the terminal take most of a start-up; reading the first
papers (a head cache, or on a first run a peek at the table: imports and a CSV pass) would
add its own time to theirs in this process, one thread at a time. :class:`ForkedPeek`
forks before Textual is imported: the child reads them and hands them back pickled
through a pipe, then ends. Where ``fork`` is missing, the read happens when asked.

The child is killed by :func:`stop` (the quit path calls it) if it is still running.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from index_builder.forking import signals_held
from tui.lifecycle.startup import TIMEOUT_S

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue

_children: set[int] = set()


class ForkedPeek:
    """``read()`` run in a child process from now on; :meth:`result` gives what it read."""

    def __init__(self, read: Callable[[], Catalogue | None]) -> None:
        self._read = read
        self._pid: int | None = None
        self._fd: int | None = None
        if not hasattr(os, "fork"):
            return
        readable, writable = os.pipe()
        # A Ctrl+C the moment the child appears was lost in the at-fork hooks, and the
        # app started on: held, it is raised here once the child is known.
        with signals_held() as held:
            pid = os.fork()
            if pid == 0:  # the child: read, write, end (never back into the caller's code)
                try:
                    signal.pthread_sigmask(signal.SIG_SETMASK, held)
                    os.close(readable)
                    data = pickle.dumps(read(), protocol=pickle.HIGHEST_PROTOCOL)
                    with os.fdopen(writable, "wb") as pipe:
                        pipe.write(data)
                finally:
                    os._exit(0)
            os.close(writable)
            self._pid, self._fd = pid, readable
            _children.add(pid)

    def result(self) -> Catalogue | None:
        """The first papers (``complete`` False), or None when there are none to show.

        A child that has not answered within :data:`TIMEOUT_S` is killed (None): the
        full load never waits on it longer than that.
        """
        if self._fd is None or self._pid is None:
            return self._read()
        data = _read_all(self._fd, time.monotonic() + TIMEOUT_S)
        self._fd = None
        if data is None:
            stop()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self._pid, 0)
        _children.discard(self._pid)
        try:
            value = pickle.loads(data) if data else None
        except Exception:  # a child that failed half-way: the full load follows
            return None
        if value is not None:
            value.complete = False  # not pickled: a peek is never the whole catalogue
        return value


def _read_all(fd: int, deadline: float) -> bytes | None:
    """Everything written to ``fd`` until it is closed; None if ``deadline`` comes first."""
    chunks: list[bytes] = []
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def stop() -> None:
    """Kill the peek children still running (the app is quitting)."""
    for pid in list(_children):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        _children.discard(pid)
