"""A Ctrl+C that arrives while this process forks, where Python's at-fork hooks run.

Those hooks are Python code (logging's lock, for one), and a KeyboardInterrupt raised in
one is printed and dropped. Code that forks holds SIGINT meanwhile; the tests of it send
SIGINT from such a hook, in the parent, right after the next fork.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator

_ASKED = [False]


def _sigint_if_asked() -> None:
    if _ASKED[0]:
        _ASKED[0] = False
        # To this thread: the code under test forks from a process with one thread, where
        # a Ctrl+C can only land here (a test runner may have a thread of its own).
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)


os.register_at_fork(after_in_parent=_sigint_if_asked)


@contextlib.contextmanager
def sigint_at_next_fork() -> Iterator[None]:
    """SIGINT to this thread from an at-fork hook right after the next fork in the block,
    with Python's own Ctrl+C handler in place (``tests/conftest.py`` restores the one
    before after the test)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    _ASKED[0] = True
    try:
        yield
    finally:
        _ASKED[0] = False
