"""``J`` in the app: the lone abstract joined to its "possibly" paper, and taken back.

The app runs on a real home with the real table and a list of two bundled abstracts (one
joins by itself, one stays on its own with a right hint); the join is written to the data
folder's ``joins.jsonl`` and the rebuilt papers are swapped in.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from index_builder.paths import Paths
from tests.helpers.catalogue_data import (
    JOINED_ROW,
    LONE_ABSTRACT,
    LONE_HINT,
    TABLE,
    write_lone_list,
)
from tests.helpers.tui_helpers import main, rendered_text, settle, type_query, until
from tui.app import PaperScopeApp
from tui.screens.join_dialog import JoinDialog
from tui.screens.main.screen import MainScreen
from tui.shared.config import Config
from tui.shared.context import Context

pytestmark = pytest.mark.slow


def join_app(tmp_path: Path) -> PaperScopeApp:
    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    listed = write_lone_list(tmp_path / "mine.txt")
    ctx = Context(paths=paths, extra_sources=[TABLE, listed], use_bundled=False)
    return PaperScopeApp(ctx, config=Config(path=paths.config_file))


async def opened(pilot: Pilot[int], query: str) -> MainScreen:
    """Wait for the index, search ``query`` and move to the list."""
    screen = main(pilot)
    assert await until(pilot, lambda: screen.searcher is not None and screen.searcher.ready, 180)
    screen = await type_query(pilot, query)
    await pilot.press("escape")
    await settle(pilot)
    return screen


def current_id(screen: MainScreen) -> str | None:
    paper = screen.current_paper()
    return paper.id if paper is not None else None


async def test_j_joins_the_lone_abstract_and_j_again_takes_it_back(tmp_path: Path) -> None:
    app = join_app(tmp_path)
    joins = tmp_path / "data" / "joins.jsonl"
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "hierarchical vocabulary routing watermark")
        assert current_id(screen) == LONE_ABSTRACT
        body = " ".join(rendered_text(screen.view.query_one("#paper-body")).split())
        assert f"the same paper as id {LONE_HINT} (not joined; J joins them)" in body

        await pilot.press("J")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, JoinDialog)
        question = rendered_text(dialog.query_one("#join-question"))
        assert f"Join this abstract to {LONE_HINT}" in question
        await pilot.press("n")  # cancel: nothing written
        await pilot.pause()
        assert app.screen is screen and not joins.exists()

        await pilot.press("J", "y")
        assert await until(pilot, lambda: current_id(screen) == LONE_HINT, 180)
        assert json.loads(joins.read_text(encoding="utf-8"))["event_id"] == int(LONE_HINT)
        paper = screen.current_paper()
        assert paper is not None and paper.authors and LONE_ABSTRACT in paper.aliases
        await settle(pilot)
        assert "Xuyang Chen" in rendered_text(screen.view.query_one("#paper-body"))

        await pilot.press("J")
        await pilot.pause()
        assert "Take back your join" in rendered_text(app.screen.query_one("#join-question"))
        await pilot.press("y")
        assert await until(pilot, lambda: current_id(screen) == LONE_ABSTRACT, 180)
        assert not joins.exists()


async def test_j_on_a_table_paper_says_what_it_is_for(tmp_path: Path) -> None:
    app = join_app(tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "proeval")
        assert current_id(screen) == JOINED_ROW
        await pilot.press("J")
        await pilot.pause()
        assert app.screen is screen
        said = [str(n.message) for n in app._notifications]
        assert any("J joins an abstract that stands on its own" in m for m in said), said
        assert not (tmp_path / "data" / "joins.jsonl").exists()
