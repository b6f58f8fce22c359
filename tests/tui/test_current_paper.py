"""Pilot tests: one current paper, the one highlighted in the list, for the view and every key."""

from __future__ import annotations

from index_builder.readinglist.store import ReadingList
from tests.helpers.tui_helpers import AppFactory, ready, settle, type_query
from tui.screens.main.screen import MainScreen
from tui.screens.reading_list.screen import ReadingListScreen


def highlighted(screen: MainScreen) -> str | None:
    """The id of the paper under the list's cursor."""
    hit = screen.results.current
    return hit.paper.id if hit is not None else None


async def test_a_paper_opened_from_the_reading_list_is_the_one_keys_act_on(
    make_app: AppFactory, tmp_path
) -> None:
    """The issue's repro: search, B, j, Enter, Esc, b acts on the highlighted paper."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        await pilot.press("escape", "b")
        await settle(pilot)
        screen = await type_query(pilot, "massart")
        await pilot.press("escape", "b")
        await settle(pilot)
        massart = highlighted(screen)
        assert {"t03", massart} == screen.bookmarked_ids()
        await pilot.press("B")
        await settle(pilot)
        rl = app.screen
        assert isinstance(rl, ReadingListScreen)
        for _ in range(3):
            if rl.current_id() == "t03":
                break
            await pilot.press("j")
        assert rl.current_id() == "t03"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert highlighted(screen) == "t03"
        assert screen.view.paper is not None and screen.view.paper.id == "t03"
        await pilot.press("escape")
        await settle(pilot)
        assert highlighted(screen) == "t03" == screen.view.paper.id
        await pilot.press("b")
        await settle(pilot)
        assert screen.bookmarked_ids() == {massart}
        await pilot.press("backspace")
        await settle(pilot)
        assert screen.box.value == "massart", "backspace goes back to the query"
    store = ReadingList(tmp_path / "data" / "reading_list.sqlite3")
    assert not store.is_bookmarked("t03") and store.is_bookmarked(massart or "")
    store.close()


async def test_a_similar_paper_opened_from_the_view_is_highlighted_and_backspace_after_m(
    make_app: AppFactory,
) -> None:
    """A similar paper opened from the view is the list's current paper; then Backspace
    after ``m`` keeps the place (one app: the second story starts with a query of its own)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "massart")
        await pilot.press("escape", "enter")
        await settle(pilot)
        similar = screen.view.similar
        assert similar, "the view lists similar papers"
        screen.view.query_one("#similar").focus()
        await pilot.press("down", "enter")
        await settle(pilot)
        assert highlighted(screen) == similar[0].paper.id
        assert screen.view.paper == similar[0].paper
        await pilot.press("escape", "b")
        await settle(pilot)
        assert screen.bookmarked_ids() == {similar[0].paper.id}

        # The repro: m on row 4, Backspace: the cursor is back on row 4, same paper.
        screen = await type_query(pilot, "learning")
        await pilot.press("escape", "j", "j", "j")
        await settle(pilot)
        assert screen.results.cursor == 3
        fourth = highlighted(screen)
        await pilot.press("m")
        await settle(pilot)
        assert screen.box.value.startswith("like:") and screen.results.cursor == 0
        await pilot.press("j", "m")  # a listing from a listing: Backspace still goes home
        await settle(pilot)
        await pilot.press("backspace")
        await settle(pilot)
        assert screen.box.value == "learning"
        assert (screen.results.cursor, highlighted(screen)) == (3, fourth)
        assert screen.view.paper is not None and screen.view.paper.id == fourth
