"""Pilot tests: the first frame shows the first screen of papers; the rest loads after it.

A warm start shows the head of the cached catalogue, then the whole of it; a first run
shows a peek at the table, then the first look (every table paper, no abstracts), then
the full catalogue, and the simple filter searches each of them before the index is ready.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import index_builder.catalogue.merge
import tui.lifecycle.loading
import tui.screens.main.start_up
from index_builder.catalogue.first_look import PEEK_SIZE, quick_table_papers
from index_builder.catalogue.load import HEAD_SIZE, Catalogue
from index_builder.model import Paper
from index_builder.paths import Paths, bundled_sources
from tests.helpers.held_index import UnbuiltIndex
from tests.helpers.shared_builds import home_paths
from tests.helpers.tui_helpers import main, settle, type_query, until
from tui.app import PaperScopeApp
from tui.lifecycle.loading import Preload
from tui.screens.main.search_flow import SearchFlow
from tui.screens.main.searching import Searcher
from tui.shared.config import Config
from tui.shared.context import Context

pytestmark = pytest.mark.slow


@pytest.fixture
def first_frame_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first frame waits for the first papers, and the rest waits for that frame."""
    monkeypatch.setattr(tui.screens.main.start_up, "QUICK_LOAD_S", 30.0)
    monkeypatch.setattr(tui.lifecycle.loading, "GATE_S", 30.0)


def record_catalogues(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Catalogue, bool]]:
    """Every catalogue the screen uses, with whether it was a head, in order."""
    used: list[tuple[Catalogue, bool]] = []
    real = SearchFlow.use_catalogue

    def use(self: SearchFlow, catalogue: Catalogue, *, head: bool = False) -> None:
        used.append((catalogue, head))
        real(self, catalogue, head=head)

    monkeypatch.setattr(SearchFlow, "use_catalogue", use)
    return used


@pytest.mark.usefixtures("first_frame_waits")
async def test_warm_start_shows_the_head_then_the_catalogue(
    tmp_path: Path, warm_home: Path, bundled_catalogue: Catalogue, monkeypatch: pytest.MonkeyPatch
) -> None:
    used = record_catalogues(monkeypatch)
    cache = home_paths(warm_home).cache_dir
    paths = Paths(tmp_path / "config", tmp_path / "data", cache)
    paths.config_dir.mkdir()
    paths.data_dir.mkdir()
    ctx = Context(paths=paths)
    index = UnbuiltIndex(0)
    ctx._index = index  # type: ignore[assignment]
    preload = Preload(ctx.catalogue, ctx.quick_catalogue, ctx.peek_catalogue)
    held_back: list[bool] = []
    real_use = SearchFlow.use_catalogue

    def first_use(self: SearchFlow, catalogue: Catalogue, *, head: bool = False) -> None:
        if not held_back:  # the first frame's catalogue: the rest has not been read yet
            held_back.append(preload._value is None and preload._thread.is_alive())
        real_use(self, catalogue, head=head)

    monkeypatch.setattr(SearchFlow, "use_catalogue", first_use)
    app = PaperScopeApp(ctx, config=Config(path=paths.config_file), catalogue=preload)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            full = bundled_catalogue
            assert await until(pilot, lambda: len(main(pilot).results.hits) == len(full))
            await settle(pilot)
            assert held_back == [True], "the full catalogue waited for the first frame"
            assert [(len(c), c.complete, head) for c, head in used] == [
                (HEAD_SIZE, False, True),
                (len(full), True, False),
            ]
            assert list(used[0][0].papers) == list(full.papers[:HEAD_SIZE])
            screen = main(pilot)
            assert f"{len(full):,} papers" in screen.status.text
    finally:
        index.release.set()


@pytest.fixture(scope="module")
def table() -> tuple[Paper, ...]:
    """The first look at the bundled table (built once: it takes ~0.9 s of CPU)."""
    return quick_table_papers(bundled_sources()).papers


@pytest.mark.usefixtures("first_frame_waits")
@pytest.mark.parametrize("peek_late", [False, True], ids=["peek-in-frame", "peek-after-frame"])
async def test_first_run_peek_first_look_catalogue_and_substring_search(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    peek_late: bool,
    bundled_catalogue: Catalogue,
    table: tuple[Paper, ...],
) -> None:
    """``peek_late``: the peek comes after the first frame (a busy machine); it shows then."""
    used = record_catalogues(monkeypatch)
    peeked = threading.Event()
    if peek_late:
        monkeypatch.setattr(tui.screens.main.start_up, "QUICK_LOAD_S", 0.0)
    else:
        peeked.set()
    looked, build = threading.Event(), threading.Event()

    def held_build(parsed: Sequence[Any]) -> tuple[Paper, ...]:
        build.wait(30)
        return bundled_catalogue.papers  # what the build gives (the run's warm home made it)

    monkeypatch.setattr(index_builder.catalogue.merge, "build_papers", held_build)
    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    ctx = Context(paths=paths)
    index = UnbuiltIndex(0)
    ctx._index = index  # type: ignore[assignment]

    def quick() -> Catalogue:
        looked.wait(30)
        return ctx.quick_catalogue()

    def peek() -> Catalogue | None:
        peeked.wait(30)
        return ctx.peek_catalogue()

    preload = Preload(ctx.catalogue, quick, peek)
    app = PaperScopeApp(ctx, config=Config(path=paths.config_file), catalogue=preload)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            if peek_late:
                await settle(pilot)
                assert not main(pilot).results.hits, "no papers in the first frame"
                peeked.set()
            assert await until(pilot, lambda: bool(main(pilot).results.hits))
            screen = main(pilot)
            assert screen.flow.head
            assert [h.paper for h in screen.results.hits] == list(table[:PEEK_SIZE])
            assert "loading papers" in screen.status.text
            assert not re.search(r"\d papers? ·", screen.status.text), "no count for a peek"

            looked.set()
            assert await until(pilot, lambda: len(screen.results.hits) == len(table))
            assert not screen.flow.head
            assert "loading abstracts" in screen.status.text
            assert f"{len(table):,} papers" in screen.status.text
            screen = await type_query(pilot, "massart")
            first_look = {h.paper.id for h in screen.results.hits}
            assert first_look, "the first look is searched by substring"
            assert "simple filter" in screen.status.text

            build.set()
            assert await until(pilot, lambda: screen.flow.searcher is not None
                               and screen.flow.searcher.catalogue.complete)  # fmt: skip
            await settle(pilot)
            full = screen.flow.searcher.catalogue if screen.flow.searcher else None
            assert isinstance(full, Catalogue)
            expected = Searcher(full).simple_filter("massart").hits
            assert [h.paper.id for h in screen.results.hits] == [h.paper.id for h in expected]
            assert first_look <= {h.paper.id for h in expected}
            assert "simple filter" in screen.status.text
            assert "building index" in screen.status.text
            assert [(c.complete, head) for c, head in used] == [
                (False, True),
                (False, False),
                (True, False),
            ]
    finally:
        peeked.set()
        looked.set()
        build.set()
        index.release.set()
