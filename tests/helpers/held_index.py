"""Indexes for TUI tests whose build is held: one never finishes, one finishes when let go."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from index_builder.search.engine import SearchIndex
from tui.app import PaperScopeApp


class UnbuiltIndex:
    """An index that is never ready during the test: its build reports ``progress`` (in
    percent), then waits until :attr:`release` (``hold_s`` at most) and fails."""

    def __init__(self, *progress: int, hold_s: float = 30.0) -> None:
        self.progress = progress
        self.hold_s = hold_s
        self.asked = threading.Event()
        """Set once the app asks for the index."""
        self.release = threading.Event()

    def is_fresh(self) -> bool:
        """Never fresh: the app always starts a build."""
        return False

    def on_disk(self) -> bool:
        """Never built: a first run."""
        return False

    def ensure(self, progress: Callable[[int, int], None] | None = None) -> str | None:
        """Report the progress given, wait for :attr:`release`, then fail."""
        self.asked.set()
        if progress is not None:
            for percent in self.progress:
                progress(percent, 100)
        self.release.wait(self.hold_s)
        raise RuntimeError("not built in this test")


class GatedIndex:
    """A real index whose build reports progress, then waits for the test to let it finish."""

    def __init__(self, real: SearchIndex) -> None:
        """Wrap ``real``; the build waits on :attr:`release` (at most 10 s)."""
        self.real = real
        self.halfway = threading.Event()
        self.release = threading.Event()

    def is_fresh(self) -> bool:
        """Never fresh: the app always starts a build."""
        return False

    def on_disk(self) -> bool:
        """Never built: a first run."""
        return False

    def ensure(self, progress: Callable[[int, int], None] | None = None) -> str | None:
        """Report 43 %, wait for :attr:`release`, then build (or open) the real index."""
        if progress is not None:
            progress(0, 100)
            progress(43, 100)
        self.halfway.set()
        self.release.wait(10)
        return self.real.ensure(progress)

    def release_when(self, app: PaperScopeApp) -> None:
        """Let the held build go as soon as ``app`` is told to exit.

        The build runs in a thread of the app's event loop, which is only closed once the
        thread ends: without this a test whose app exits while the build is held (a
        snapshot of the building screen) would wait out the 10 s.
        """
        exit_app = app.exit

        def exit_and_release(*args: Any, **kwargs: Any) -> None:
            self.release.set()
            exit_app(*args, **kwargs)

        app.exit = exit_and_release  # type: ignore[method-assign]

    def __getattr__(self, name: str) -> Any:
        """Everything else is the real index's."""
        return getattr(self.real, name)
