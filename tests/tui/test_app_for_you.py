"""Pilot tests: For you (R, ``for:you`` in the box), x (not interested) and its undo u,
and the paper view's similar papers (from the paper vectors, after the list is drawn)."""

from __future__ import annotations

from textual.pilot import Pilot

from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.dismissed import Dismissals
from index_builder.readinglist.store import ReadingList
from tests.helpers.notices import Notices
from tests.helpers.tui_helpers import (
    AppFactory,
    main,
    ready,
    rendered_text,
    settle,
    type_query,
    until,
)
from tui.screens.main.screen import MainScreen
from tui.widgets.did_you_mean import DidYouMean


def bookmark(screen: MainScreen, count: int) -> list[str]:
    """Bookmark the first ``count`` papers of the catalogue (as another window would)."""
    catalogue = screen.catalogue()
    assert catalogue is not None
    papers = catalogue.papers[:count]
    with ReadingList(screen.services.paths.reading_list) as store:
        store.merge(Bookmark.from_paper(p) for p in papers)
    screen.library.load()
    return [p.id for p in papers]


async def test_the_view_lists_the_papers_most_like_the_one_shown_and_R_says_what_is_needed(
    make_app: AppFactory,
) -> None:
    """The view's similar papers follow the cursor; then, with two bookmarks, R says what
    For you needs (one app: the second part starts in the list, as R is pressed there)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("escape")
        await settle(pilot)
        shown = screen.view.paper
        assert shown is not None
        index = screen.searcher.index  # type: ignore[union-attr]
        expected = [h.paper.id for h in index.more_like_this(shown.id, 8)]
        assert expected
        assert await until(pilot, lambda: [h.paper.id for h in screen.view._similar] == expected)
        await pilot.press("j")  # the cursor moves on: the view's list follows the new paper
        await settle(pilot)
        moved = screen.view.paper
        assert moved is not None and moved.id != shown.id
        again = [h.paper.id for h in index.more_like_this(moved.id, 8)]
        assert await until(pilot, lambda: [h.paper.id for h in screen.view._similar] == again)
        assert main(pilot) is screen

        bookmark(screen, 2)
        await pilot.press("escape", "R")
        await settle(pilot)
        assert screen.box.value == "for:you"
        assert screen.results.hits == ()
        line = rendered_text(screen.query_one(DidYouMean))
        assert "needs 3, you have 2" in line
        assert "Bookmark 1 more" in screen.results.empty_message


async def test_R_lists_papers_ranked_by_the_bookmarks_with_the_words(
    make_app: AppFactory,
) -> None:
    """R, Backspace, then ``for:you`` typed in the box: the same listing as R's."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        marked = bookmark(screen, 4)
        await pilot.press("escape", "R")
        await settle(pilot)
        listed = [h.paper.id for h in screen.results.hits]
        assert listed and not set(listed) & set(marked)
        expected = screen.searcher.index.recommend(marked, limit=100)  # type: ignore[union-attr]
        assert listed == [h.paper.id for h in expected.hits]
        line = rendered_text(screen.query_one(DidYouMean))
        assert f"For you, by 4 bookmarks: {expected.explain[0]}" in line
        assert screen.focused is screen.results
        await pilot.press("backspace")  # back to the query before the listing
        await settle(pilot)
        assert screen.box.value == ""
        assert not screen.query_one(DidYouMean).has_class("-shown")

        await type_query(pilot, "for:you")
        assert [h.paper.id for h in screen.results.hits] == [h.paper.id for h in expected.hits]


async def dismiss_the_first_recommendation(pilot: Pilot[object], screen: MainScreen) -> str:
    """Bookmark four papers, open For you (R), dismiss its first paper (x) and wait until it
    is dismissed; its id."""
    bookmark(screen, 4)
    await pilot.press("escape", "R")
    await settle(pilot)
    first = screen.results.hits[0].paper.id
    await pilot.press("x")
    assert await until(pilot, lambda: first in screen.for_you.dismissed())
    return first


async def test_x_hides_a_paper_from_for_you_and_u_brings_it_back(
    make_app: AppFactory, notices: Notices
) -> None:
    """u with nothing to undo points to ``is:dismissed``; then x hides a paper, u undoes it."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("escape", "u")
        await pilot.pause()
        notes = notices.messages(app)
        assert any("is:dismissed" in n for n in notes), notes

        first = await dismiss_the_first_recommendation(pilot, screen)
        await settle(pilot)
        assert first not in [h.paper.id for h in screen.results.hits]
        with ReadingList(screen.services.paths.reading_list) as store:
            assert first in Dismissals(store).ids()  # kept in the reading list's database
        await pilot.press("u")
        assert await until(pilot, lambda: first not in screen.for_you.dismissed())
        await settle(pilot)
        assert screen.results.hits[0].paper.id == first
        with ReadingList(screen.services.paths.reading_list) as store:
            assert Dismissals(store).ids() == frozenset()


async def test_a_paper_dismissed_before_a_restart_is_found_marked_and_taken_back(
    make_app: AppFactory,
) -> None:
    """The issue's repro: R, x, q, restart, then the paper is found (is:dismissed),
    marked in the view, and u takes it back."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        first = await dismiss_the_first_recommendation(pilot, screen)
        await pilot.press("q")
    app = make_app()  # a restart on the same home
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        # read with the bookmarks once the papers are in: the view marks it found any way
        assert await until(pilot, lambda: first in screen.for_you.known())
        await type_query(pilot, "is:dismissed")
        assert [h.paper.id for h in screen.results.hits] == [first]
        await pilot.press("escape")
        await settle(pilot)
        assert screen.view.paper is not None and screen.view.paper.id == first
        assert screen.view.dismissed
        assert "not interested" in rendered_text(screen.view.query_one("#paper-body"))
        await pilot.press("u")
        assert await until(pilot, lambda: first not in screen.for_you.dismissed())
        await settle(pilot)
        assert screen.results.hits == ()
        with ReadingList(screen.services.paths.reading_list) as store:
            assert Dismissals(store).ids() == frozenset()
        await type_query(pilot, "is:dismissed")
        assert screen.results.hits == ()
