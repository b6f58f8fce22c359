"""Waiting for a condition instead of sleeping a fixed time."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(predicate: Callable[[], bool], timeout: float = 20.0, every: float = 0.05) -> bool:
    """Poll ``predicate`` until it holds (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(every)


def wait_until_stable(read: Callable[[], str], timeout: float = 20.0, every: float = 0.2) -> str:
    """Poll ``read`` until two readings in a row agree (or ``timeout`` passes); return the last.

    For a screen that is still being drawn: it is settled once it stops changing.
    """
    deadline = time.monotonic() + timeout
    last = read()
    while time.monotonic() < deadline:
        time.sleep(every)
        now = read()
        if now == last:
            return now
        last = now
    return last
