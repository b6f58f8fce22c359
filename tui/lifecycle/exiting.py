"""Ending the process at once, safe to call while the start is being interrupted.

Ctrl+C before the app runs lands wherever Python is: often in the middle of an import.
Python then drops the module half-built, and importing it again can fail in odd ways
(``asyncio``'s package init names submodules it no longer binds, a class body reports a
``RuntimeError`` caused by the interrupt). So this module imports nothing beyond what
the interpreter has loaded before ``tui`` runs, and :func:`leave` imports nothing at
all: it stops the children of whichever modules that start them are already loaded.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import NoReturn

INTERRUPTED = 130
"""The exit status of a process ended by Ctrl+C (128 + SIGINT), as shells report it."""

CHILD_STOPPERS = (("index_builder.search.builder", "stop_children"), ("tui.lifecycle.peek", "stop"))
"""Where the children of this process are known, and the function that kills them. A
module not loaded yet has started no child."""


def leave(status: int) -> NoReturn:
    """End the process now: stop build and peek children, flush output, skip waiting for
    threads. A second Ctrl+C on the way out is ignored."""
    with contextlib.suppress(ValueError):  # not the main thread: the handler stays
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    for module_name, function_name in CHILD_STOPPERS:
        stop = getattr(sys.modules.get(module_name), function_name, None)
        if callable(stop):
            with contextlib.suppress(Exception):  # a half-imported module: nothing to stop
                stop()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)


def is_interrupt(error: BaseException) -> bool:
    """True when ``error`` is Ctrl+C's KeyboardInterrupt or was raised because of one
    (an interrupted import can surface as another error whose cause is the interrupt)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
