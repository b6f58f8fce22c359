"""Pilot tests: b (bookmark badge), B (reading list screen), y (copy), Y (pick a format)."""

from __future__ import annotations

import pytest

import tui.clipboard
from index_builder.readinglist.store import ReadingList
from tests.helpers.tui_helpers import AppFactory, ready, rendered_text, settle, type_query
from tui.config import Config


@pytest.fixture
def copied(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What reached the native clipboard (pyperclip is replaced)."""
    seen: list[str] = []
    monkeypatch.setattr(tui.clipboard, "_pyperclip_copy", seen.append)
    return seen


async def test_b_toggles_the_bookmark_badge(make_app: AppFactory, tmp_path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        await pilot.press("escape", "b")
        await settle(pilot)
        assert "t03" in screen.bookmarked_ids()
        assert "★" in screen.results.render_line(1).text
        assert "in your reading list" in rendered_text(screen.view.query_one("#paper-body"))
        await pilot.press("b")
        await settle(pilot)
        assert "t03" not in screen.bookmarked_ids()
        assert "★" not in screen.results.render_line(1).text
    store = ReadingList(tmp_path / "data" / "reading_list.sqlite3")
    assert not store.is_bookmarked("t03")
    store.close()


async def test_is_bookmarked_filter_uses_the_reading_list(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        await pilot.press("escape", "b")
        await type_query(pilot, "is:bookmarked")
        assert [h.paper.id for h in screen.results.hits] == ["t03"]


async def test_B_opens_the_reading_list_and_enter_comes_back_to_the_paper(
    make_app: AppFactory,
) -> None:
    from tui.screens.reading_list.screen import ReadingListScreen

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "massart")
        await pilot.press("escape", "j", "b", "g", "B")
        await settle(pilot)
        assert isinstance(app.screen, ReadingListScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert screen.results.cursor == 1


async def test_y_copies_the_default_style(
    make_app: AppFactory, copied: list[str], tmp_path
) -> None:
    app = make_app(config=Config(citation_style="bibtex", path=tmp_path / "c.toml"))
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await type_query(pilot, "proeval")
        await pilot.press("escape", "y")
        await settle(pilot)
        assert len(copied) == 1
        assert copied[0].startswith("@inproceedings{huang2026proeval,")
        assert "Huang, Yizheng and Zeng, Wenjun" in copied[0]


async def test_Y_picks_a_format(make_app: AppFactory, copied: list[str]) -> None:
    from tui.screens.citation_picker import CitationPicker

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await type_query(pilot, "proeval")
        await pilot.press("escape", "Y")
        await settle(pilot)
        assert isinstance(app.screen, CitationPicker)
        await pilot.press("a")
        await settle(pilot)
        assert not isinstance(app.screen, CitationPicker)
        assert copied and copied[0].startswith("Huang, Y.")
