"""Fixtures of the TUI tests: sample papers, one index built per session, an app factory.

Imported by the conftest of each folder whose tests drive the app (``tests/tui``,
``tests/faults``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from index_builder.model import Paper
from index_builder.paths import Paths
from tests.helpers.shared_builds import build_once
from tests.helpers.tui_helpers import AppFactory
from tests.helpers.tui_papers import PaperShelf, sample_papers
from tui.app import PaperScopeApp
from tui.shared.config import Config
from tui.shared.context import Context

IDLE_CHECK_S = 0.005
"""How often Pilot looks whether the app went idle (Textual's own default: 0.02 s)."""


@pytest.fixture(autouse=True)
def tui_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC in every TUI test, so the session times on screen are fixed."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture(autouse=True)
def tui_no_similar_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Similar papers are looked up at once (the app waits for the cursor to rest)."""
    import tui.widgets.paper_view

    monkeypatch.setattr(tui.widgets.paper_view, "SIMILAR_DELAY_S", 0.0)


@pytest.fixture(scope="session", autouse=True)
def tui_quick_idle_checks() -> Iterator[None]:
    """Pilot checks for an idle app every 5 ms instead of every 20 ms (private, see below).

    After each key (and in ``pause()``) Textual's Pilot waits until the process is idle:
    a check of ``SLEEP_GRANULARITY`` seconds in which it used under 1/20 of that on the
    CPU (``textual._wait``). The condition is kept (same 1/20); only the check is finer,
    so that a Pilot test no longer spends about a third of its time asleep after the app
    has gone idle. It is the same harness: messages and workers are awaited as before.

    Textual has no public way to set this: ``Pilot.press`` calls ``App._press_keys``,
    which waits ``textual._wait.wait_for_idle(0)`` twice per key, and ``Pilot.pause()``
    once; both read the module's ``SLEEP_GRANULARITY`` and ``SLEEP_IDLE``, and neither
    ``App.run_test`` nor ``Pilot`` takes a granularity. ``Pilot.pause(delay)`` sleeps a
    fixed time instead, a wait on the clock, which is worse.
    """
    import textual._wait as wait

    saved = wait.SLEEP_GRANULARITY, wait.SLEEP_IDLE
    wait.SLEEP_GRANULARITY = IDLE_CHECK_S
    wait.SLEEP_IDLE = IDLE_CHECK_S / 20
    yield
    wait.SLEEP_GRANULARITY, wait.SLEEP_IDLE = saved


@pytest.fixture(scope="session")
def tui_papers() -> tuple[Paper, ...]:
    """The sample papers."""
    return sample_papers()


@pytest.fixture(scope="session")
def tui_index_dir(tmp_path_factory: pytest.TempPathFactory, tui_papers: tuple[Paper, ...]) -> Path:
    """A cache folder whose index of the sample papers is built once per test run.

    Shared by all workers (:func:`~tests.helpers.shared_builds.build_once`): read only.
    """

    def build(cache: Path) -> None:
        from index_builder.search.engine import SearchIndex

        index = SearchIndex(cache / "index", tui_papers, "tui-tests")
        index.ensure()
        index.close()

    return build_once(tmp_path_factory, "tui-cache", build)


@pytest.fixture
def make_app(tmp_path: Path, tui_papers: tuple[Paper, ...], tui_index_dir: Path) -> AppFactory:
    """Build the app on a private home with the sample papers and the shared index.

    ``index=`` replaces the index (e.g. one that builds slowly); ``papers=`` the papers
    (then the index is built for them in the test's own cache); ``config=`` the config.
    """

    def factory(
        *,
        papers: tuple[Paper, ...] | None = None,
        index: Any = None,
        config: Config | None = None,
        **kwargs: Any,
    ) -> PaperScopeApp:
        from index_builder.search.engine import SearchIndex

        chosen = tui_papers if papers is None else papers
        cache = tui_index_dir if papers is None else tmp_path / "cache"
        paths = Paths(tmp_path / "config", tmp_path / "data", cache).ensure()
        shelf = PaperShelf(chosen)
        if index is None:
            index = SearchIndex(paths.index_dir, shelf.papers, shelf.fingerprint)
        ctx = Context(paths=paths, use_bundled=False)
        ctx._catalogue = shelf  # type: ignore[assignment]
        ctx._index = index
        opened: list[str] = kwargs.pop("opened", [])

        def record(url: str) -> bool:
            opened.append(url)
            return True

        return PaperScopeApp(
            ctx, config=config or Config(path=paths.config_file), open_url=record, **kwargs
        )

    return factory
