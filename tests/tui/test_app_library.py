"""Pilot tests: b (bookmark badge), B (reading list screen), y (copy), Y (pick a format)."""

from __future__ import annotations

import threading

import pytest

import tui.shared.clipboard
from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.store import ReadingList
from tests.helpers.tui_helpers import (
    AppFactory,
    main,
    ready,
    rendered_text,
    settle,
    type_query,
    until,
)
from tui.shared.config import Config


@pytest.fixture
def copied(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What reached the native clipboard (pyperclip is replaced)."""
    seen: list[str] = []
    monkeypatch.setattr(tui.shared.clipboard, "_pyperclip_copy", seen.append)
    return seen


async def test_b_toggles_the_bookmark_badge_and_is_bookmarked_lists_it_and_B_opens_the_list(
    make_app: AppFactory, tmp_path
) -> None:
    """``b`` on, ``is:bookmarked`` (the reading list's filter), ``b`` off, then ``B`` on a
    list holding one paper and Enter back to it, in one app."""
    from tui.screens.reading_list.screen import ReadingListScreen

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        await pilot.press("escape", "b")
        await settle(pilot)
        assert "t03" in screen.bookmarked_ids()
        assert "★" in screen.results.render_line(1).text
        assert "in your reading list" in rendered_text(screen.view.query_one("#paper-body"))
        await type_query(pilot, "is:bookmarked")
        assert [h.paper.id for h in screen.results.hits] == ["t03"]
        await type_query(pilot, "proeval")
        await pilot.press("escape", "b")
        await settle(pilot)
        assert "t03" not in screen.bookmarked_ids()
        assert "★" not in screen.results.render_line(1).text

        # B opens the reading list (its one paper now), Enter comes back to that paper.
        screen = await type_query(pilot, "massart")
        await pilot.press("escape", "j", "b", "g", "B")
        await settle(pilot)
        assert isinstance(app.screen, ReadingListScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert screen.results.cursor == 1
    store = ReadingList(tmp_path / "data" / "reading_list.sqlite3")
    assert not store.is_bookmarked("t03")
    store.close()


async def test_is_bookmarked_follows_a_bookmark_that_lands_after_its_answer(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``b`` then ``is:bookmarked`` typed at once: the bookmark is written off the event
    loop (a locked list waits), so the answer can come first; the list then follows."""
    release = threading.Event()
    toggle = ReadingList.toggle

    def held_toggle(self: ReadingList, paper: Paper) -> bool:
        assert release.wait(20)
        return toggle(self, paper)

    monkeypatch.setattr(ReadingList, "toggle", held_toggle)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        await pilot.press("escape", "b")
        screen.box.value = "is:bookmarked"  # while the bookmark is still being written
        assert await until(
            pilot, lambda: screen.result is not None and screen.result.query == "is:bookmarked"
        )
        assert screen.results.hits == ()
        release.set()
        assert await until(pilot, lambda: "t03" in screen.bookmarked_ids())
        await settle(pilot)
        assert [h.paper.id for h in screen.results.hits] == ["t03"]


async def test_unbookmarking_in_is_bookmarked_drops_the_paper_and_keeps_the_row(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = main(pilot)
        with ReadingList(app.ctx.paths.reading_list) as store:
            store.merge(Bookmark.from_paper(p) for p in app.ctx.catalogue().papers[:3])
        screen.library.load()
        await type_query(pilot, "is:bookmarked")
        listed = [h.paper.id for h in screen.results.hits]
        assert len(listed) == 3
        await pilot.press("escape", "j")
        await settle(pilot)
        await pilot.press("b")  # the second row's bookmark removed
        await settle(pilot)
        assert [h.paper.id for h in screen.results.hits] == [listed[0], listed[2]]
        assert screen.results.cursor == 1  # the row it was on: now the next paper
        assert screen.view.hit is screen.results.current


async def test_y_copies_the_default_style_and_Y_picks_a_format(
    make_app: AppFactory, copied: list[str], tmp_path
) -> None:
    from tui.screens.citation_picker import CitationPicker

    app = make_app(config=Config(citation_style="bibtex", path=tmp_path / "c.toml"))
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await type_query(pilot, "proeval")
        await pilot.press("escape", "y")
        await settle(pilot)
        assert len(copied) == 1
        assert copied[0].startswith("@inproceedings{huang2026proeval,")
        assert "Huang, Yizheng and Zeng, Wenjun" in copied[0]
        await pilot.press("Y")
        await settle(pilot)
        assert isinstance(app.screen, CitationPicker)
        await pilot.press("a")
        await settle(pilot)
        assert not isinstance(app.screen, CitationPicker)
        assert len(copied) == 2 and copied[1].startswith("Huang, Y.")
