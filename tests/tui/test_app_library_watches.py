"""Pilot tests: the library's papers badged in the list and the view, ``is:library``, For
you from a library with no bookmark, and the watches pane (W, the palette; Enter lists a
watch's new papers)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from index_builder.paths import Paths
from index_builder.readinglist.library import Library
from index_builder.readinglist.library_entry import LibraryEntry
from index_builder.readinglist.store import ReadingList
from index_builder.readinglist.watches import Watches
from tests.helpers.tui_helpers import AppFactory, main, ready, rendered_text, settle, type_query
from tui.screens.watches import WatchesScreen
from tui.widgets.did_you_mean import DidYouMean

OWNED = LibraryEntry(
    "Efficiently learning drifting halfspaces with Massart noise",
    ("Ilias Diakonikolas",),
)
"""The sample paper t01, by its title (another case) and a shared author."""
OUTSIDE = (
    LibraryEntry("Robust learning of halfspaces under Massart noise", ("A. Person",),
                 "Learning halfspaces with Massart noise in polynomial time.", arxiv="2001.00001"),
    LibraryEntry("Agnostic learning of halfspaces with noise", ("B. Person",),
                 "Noise tolerant learning of halfspaces.", arxiv="2001.00002"),
)  # fmt: skip
"""Owned papers no sample paper is."""


def _reading_list(tmp_path: Path) -> Path:
    """Where the app of ``make_app`` keeps its reading list."""
    return Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").reading_list


def _own(tmp_path: Path, *entries: LibraryEntry) -> None:
    path = _reading_list(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with ReadingList(path) as store:
        Library(store).add(entries)


async def test_library_papers_are_badged_is_library_lists_them_and_R_ranks_by_them(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """The library's papers badged, ``is:library``, then R from the library alone (no
    bookmark), in one app on the same library."""
    _own(tmp_path, OWNED, *OUTSIDE)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert screen.results.owned == frozenset({"t01"})
        await type_query(pilot, "is:library")
        assert [h.paper.id for h in screen.results.hits] == ["t01"]
        assert "LIB" in rendered_text(screen.results)
        assert "in your library" in rendered_text(screen.view.query_one("#paper-body"))
        await type_query(pilot, "massart NOT is:library")
        listed = [h.paper.id for h in screen.results.hits]
        assert listed and "t01" not in listed

        await pilot.press("escape", "R")
        await settle(pilot)
        listed = [h.paper.id for h in screen.results.hits]
        assert listed and "t01" not in listed  # owned: never recommended
        assert listed[0] == "t02"  # the other Massart-noise paper
        line = rendered_text(screen.query_one(DidYouMean))
        assert "For you, by your library (3): " in line


async def test_W_lists_the_watches_and_enter_lists_the_new_papers(
    make_app: AppFactory, tmp_path: Path
) -> None:
    with ReadingList(_reading_list(tmp_path)) as store:
        Watches(store).add("massart", "Massart")
        Watches(store).add('author:"Steve Hanneke"')
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert screen.searcher is not None and screen.searcher.index is not None
        screen.searcher.index.new_ids = frozenset({"t02"})  # as the last update added it
        await pilot.press("escape", "W")
        await settle(pilot)
        pane = pilot.app.screen
        assert isinstance(pane, WatchesScreen)
        counts = {c.watch.name: (c.total, c.new) for c in pane.counts}
        assert counts["Massart"][1] == ("t02",) and counts["Massart"][0] >= 2
        assert counts['author:"Steve Hanneke"'] == (1, ("t02",))
        assert "Massart  1 new" in rendered_text(pane.query_one(OptionList))
        await pilot.press("enter")
        await settle(pilot)
        screen = main(pilot)
        assert pilot.app.screen is screen
        assert screen.box.value == "(massart) is:new"
        assert [h.paper.id for h in screen.results.hits] == ["t02"]


async def test_watches_from_the_palette_and_none_yet(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(70, 22)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"Watches")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        pane = pilot.app.screen
        assert isinstance(pane, WatchesScreen)
        assert "No watches yet: paperscope watch add" in rendered_text(pane.query_one(OptionList))
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is main(pilot)
