"""Forking with Ctrl+C held: a signal that comes while a child is forked is not lost.

Python runs its at-fork hooks (``logging``'s lock, for one) as Python code, and an
exception raised in one is printed and dropped: a Ctrl+C landing there was lost and the
work went on. Held while forking, the signal is delivered once the fork is over and the
caller knows its child (so the quit path can end it).
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

HELD_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
"""The signals held while forking."""


@contextlib.contextmanager
def signals_held() -> Iterator[set[int | signal.Signals]]:
    """Hold :data:`HELD_SIGNALS` for the block, then restore the mask; yields the mask as it
    was, for a forked child to restore before its own work.

    The mask is read first (a signal already caught is raised there, before any change),
    then changed: blocking can raise too, and the ``finally`` restores it then.
    """
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
        yield held
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
