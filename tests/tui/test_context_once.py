"""A run's catalogue is read once, also when two threads ask for it at once.

The TUI reads the catalogue in a thread of its own from the moment the app is made
(:class:`tui.lifecycle.loading.Preload`); the index asks the same context for it. Two
readings side by side cost a second cold build and raced each other's cache files: the
kept table papers written by one and the note of where they went by the other named two
different stamps, and the next join unpickled every stored paper (a CI failure of
``tests/tui/cli/test_join_notes.py``).
"""

from __future__ import annotations

import threading
from pathlib import Path
from types import TracebackType

import pytest

from index_builder.catalogue import load
from index_builder.paths import Paths
from tests.helpers.catalogue_data import write_lone_list
from tui.shared.context import Context

WAIT_S = 60.0
"""How long a step waits for the other thread before the test fails (it says which)."""


class _Signalling:
    """A lock that calls ``on_wait`` when a thread is about to wait for it."""

    def __init__(self, inner: threading.RLock, on_wait: threading.Event) -> None:
        self._inner, self._on_wait = inner, on_wait

    def __enter__(self) -> None:
        if not self._inner.acquire(blocking=False):
            self._on_wait.set()
            self._inner.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._inner.release()


def test_the_index_asking_while_the_catalogue_is_read_waits_for_that_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    ctx = Context(paths, [write_lone_list(tmp_path / "mine.txt")], use_bundled=False)
    readings: list[str] = []
    reading, asked_again = threading.Event(), threading.Event()
    real = load.load_catalogue

    def counted(*args: object, **kwargs: object) -> load.Catalogue:
        readings.append(threading.current_thread().name)
        if len(readings) == 1:  # the first reading goes on once the index has asked
            reading.set()
            if not asked_again.wait(WAIT_S):
                raise AssertionError("the index never asked for the catalogue")
        else:  # a second reading beside the first is itself the asking
            asked_again.set()
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(load, "load_catalogue", counted)
    lock = getattr(ctx, "_opening", None)
    if lock is not None:  # a caller that waits for the reading under way is the asking too
        ctx._opening = _Signalling(lock, asked_again)  # type: ignore[assignment]
    got: dict[str, object] = {}
    first = threading.Thread(target=lambda: got.setdefault("catalogue", ctx.catalogue()))
    first.start()
    assert reading.wait(WAIT_S), "the first thread never started reading the catalogue"
    second = threading.Thread(target=lambda: got.setdefault("index", ctx.index()))
    second.start()
    for thread in (first, second):
        thread.join(WAIT_S)
        assert not thread.is_alive(), f"{thread.name} did not end"

    assert readings == [first.name]
    index = got["index"]
    assert index is ctx.index() and got["catalogue"] is ctx.catalogue()
