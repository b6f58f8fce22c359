"""Pilot test: a first run shows the table's titles while the full catalogue is still built."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import index_builder.catalogue.merge
from index_builder.catalogue.load import Catalogue
from index_builder.model import Paper
from index_builder.paths import Paths
from tests.helpers.held_index import UnbuiltIndex
from tests.helpers.tui_helpers import main, rendered_text, settle
from tui.app import PaperScopeApp
from tui.shared.config import Config
from tui.shared.context import Context

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("first_frame_wait", [0.0, 10.0], ids=["after-frame", "in-frame"])
async def test_first_run_shows_titles_then_abstracts(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    first_frame_wait: float,
    bundled_catalogue: Catalogue,
) -> None:
    """The first look shows whether it is ready before the first frame or after it."""
    import tui.screens.main.start_up

    monkeypatch.setattr(tui.screens.main.start_up, "QUICK_LOAD_S", first_frame_wait)
    full = bundled_catalogue  # what the app builds cold (here from the run's shared cache)
    table = [p for p in full.papers if p.event_id is not None]
    target = next(i for i, p in enumerate(table) if p.abstract and i > 5)

    phase2 = threading.Event()
    built = threading.Event()

    def held_build(parsed: Sequence[Any]) -> tuple[Paper, ...]:
        phase2.wait(10)
        papers = full.papers  # what the build gives (the run's warm home made it)
        built.set()
        return papers

    monkeypatch.setattr(index_builder.catalogue.merge, "build_papers", held_build)
    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    index = UnbuiltIndex(hold_s=10)
    ctx = Context(paths=paths)
    ctx._index = index  # type: ignore[assignment]
    app = PaperScopeApp(ctx, config=Config(path=paths.config_file))
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if main(pilot).results.hits:
                    break
            screen = main(pilot)
            assert not built.is_set(), "the full catalogue is still held"
            assert [h.paper.id for h in screen.results.hits] == [p.id for p in table]
            assert [h.paper.title for h in screen.results.hits] == [p.title for p in table]
            assert "loading abstracts" in screen.status.text
            screen.results.cursor = target
            await settle(pilot)
            body = screen.view.query_one("#paper-body")
            assert screen.view.paper is not None and screen.view.paper.id == table[target].id
            assert "Loading abstracts…" in rendered_text(body)
            assert not index.asked.is_set(), "the index waits for the full catalogue"

            phase2.set()
            for _ in range(300):
                await pilot.pause(0.02)
                shown = screen.view.paper
                if index.asked.is_set() and shown is not None and shown.abstract:
                    break
            await settle(pilot)
            assert built.is_set()
            assert len(screen.results.hits) == len(full.papers)
            assert screen.results.cursor == target, "the cursor stays on the paper"
            shown = screen.view.paper
            assert shown is not None and shown.id == table[target].id
            assert shown.abstract == table[target].abstract
            text = rendered_text(body)
            assert "Loading abstracts…" not in text
            assert table[target].abstract.split()[0] in text
    finally:
        index.release.set()
