"""Waiting for a condition instead of sleeping a fixed time.

Every wait here that gives up fails the test and says what it waited for: a test never
goes on past a condition that did not come, and a slow machine only makes it wait longer.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def describe(predicate: Callable[[], object]) -> str:
    """A name for ``predicate`` in a failure message (its qualified name)."""
    return getattr(predicate, "__qualname__", repr(predicate))


def wait_until(
    predicate: Callable[[], bool],
    timeout: float = 20.0,
    every: float = 0.05,
    what: str | Callable[[], str] = "",
) -> bool:
    """Poll ``predicate`` until it holds (True); after ``timeout`` seconds fail, saying ``what``
    (a text, or a function that gives it at that moment: what a screen shows, say)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            said = what() if callable(what) else what
            raise AssertionError(
                f"gave up after {timeout:g} s waiting for {said or describe(predicate)}"
            )
        time.sleep(every)


def wait_until_stable(read: Callable[[], str], timeout: float = 20.0, every: float = 0.2) -> str:
    """Poll ``read`` until two readings in a row agree; return it (fail after ``timeout``).

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
    raise AssertionError(
        f"gave up after {timeout:g} s waiting for {describe(read)} to settle:\n{last}"
    )
