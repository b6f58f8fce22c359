"""Pilot tests: start-up, search as you type, stale results, did-you-mean, sort, facets."""

from __future__ import annotations

from pathlib import Path

import pytest

from index_builder.model import Hit, Paper, SearchResult
from index_builder.search.facets import FACETS, facet_values, sort_key
from tests.helpers.tui_helpers import AppFactory, main, ready, rendered_text, settle, type_query
from tests.helpers.tui_prebuilt import index_into
from tui.screens.main.screen import MainScreen
from tui.widgets.did_you_mean import DidYouMean
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.search_box import SearchBox


async def test_papers_show_at_start_with_focus_in_search_then_typed_queries_highlight(
    make_app: AppFactory,
) -> None:
    """What the start shows, then typed queries (one app: the start is the first step of
    a search, and the start's checks end with nothing typed)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert len(screen.results.hits) == len(screen.searcher.catalogue.papers)  # type: ignore[union-attr]
        assert isinstance(app.focused, SearchBox)
        assert "46 papers" in screen.status.text
        assert "index ready" in screen.status.text
        assert screen.view.paper == screen.results.hits[0].paper
        # The wide layout: the list and the view side by side.
        assert not screen.has_class("-narrow")
        assert screen.results.region.x < screen.view.region.x
        assert screen.results.region.y == screen.view.region.y
        assert main(pilot) is screen
        await pilot.press("tab")  # no suggestion offered: Tab moves the focus on
        assert app.focused is not screen.box
        assert screen.box.value == ""

        # Three queries typed in turn (each a query of the box, as in an app of its own):
        # matched words highlighted, the last word a prefix, no match said so.
        screen = await type_query(pilot, "massart noise")
        titles = [h.paper.title for h in screen.results.hits]
        assert len(titles) == 2
        assert all("Massart" in t for t in titles)
        assert screen.results.hits[0].title_spans, "matched words are highlighted"
        assert "2 papers" in screen.status.text

        screen = await type_query(pilot, "massa")
        assert {h.paper.id for h in screen.results.hits} == {"t01", "t02"}

        screen = await type_query(pilot, "zzzqqqxxx")
        assert screen.results.hits == ()
        assert "zzzqqqxxx" in screen.results.render_line(0).text
        assert screen.view.paper is None
        assert "0 papers" in main(pilot).status.text


async def test_each_keystroke_starts_a_query_and_only_the_last_counts_a_stale_one_is_dropped(
    make_app: AppFactory, tui_papers: tuple
) -> None:
    """Keys typed without waiting, then a stale answer posted after a query (one app:
    both are about which answer the list shows)."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        screen.box.focus()
        await pilot.press(*"watermark")  # no waiting between keys
        await settle(pilot)
        assert screen.result is not None and screen.result.query == "watermark"
        assert [h.paper.id for h in screen.results.hits] == ["t04"]

        screen = await type_query(pilot, "proeval")
        before = screen.results.hits
        stale = SearchResult("massart", 1, (Hit(tui_papers[0]),))
        screen.post_message(MainScreen.SearchDone("massart", screen.sort, stale, True))
        await settle(pilot)
        assert screen.results.hits == before
        assert screen.result is not None and screen.result.query == "proeval"


async def test_did_you_mean_is_offered_and_tab_accepts(make_app: AppFactory) -> None:
    """A suggestion given by the search (posted), then a real typo of the last word, in
    one app: each offered, shown and taken by Tab."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await type_query(pilot, "halfspces")
        offer = screen.query_one(DidYouMean)
        suggestion = SearchResult("halfspces", 0, (), suggestion="halfspaces")
        screen.post_message(MainScreen.SearchDone("halfspces", screen.sort, suggestion, True))
        await settle(pilot)
        assert offer.suggestion == "halfspaces"
        assert offer.display
        assert "(tab to search for it)" in rendered_text(offer)
        await pilot.press("tab")
        await settle(pilot)
        assert screen.box.value == "halfspaces"
        assert [h.paper.id for h in screen.results.hits] == ["t01"]
        assert offer.suggestion is None

        # A typo in the last word is offered its correction by the search itself.
        await type_query(pilot, "title:")
        assert offer.suggestion is None and not offer.display
        await type_query(pilot, "halfspces")
        assert screen.box.value == "halfspces"
        assert offer.suggestion == "halfspaces"
        assert "halfspaces" in rendered_text(offer)
        await pilot.press("tab")
        await settle(pilot)
        assert [h.paper.id for h in screen.results.hits] == ["t01"]


async def test_sort_cycles_and_shows_in_status(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        await pilot.press("escape", "s")
        await settle(pilot)
        assert screen.sort == "title"
        assert "sort: title" in screen.status.text
        titles = [h.paper.title.casefold() for h in screen.results.hits]
        assert titles == sorted(titles)
        await pilot.press("s")
        await settle(pilot)
        assert screen.sort == "time"
        times = [h.paper.starts_at for h in screen.results.hits if h.paper.starts_at]
        assert times == sorted(times)
        await pilot.press("s")
        await settle(pilot)
        assert screen.sort == "relevance"


async def test_an_empty_query_is_labelled_by_the_order_it_shows(
    make_app: AppFactory,
    tui_papers: tuple[Paper, ...],
    tmp_path_factory: pytest.TempPathFactory,
    tmp_path: Path,
) -> None:
    # A merged catalogue lists its papers by session time, then title (as the merge sorts).
    by_time = tuple(sorted(tui_papers, key=lambda p: sort_key("time", p)))
    index_into(tmp_path_factory, "sample-by-time", by_time, tmp_path)  # built once per run
    app = make_app(papers=by_time)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert screen.sort == "relevance"
        assert "sort: time" in screen.status.text and "relevance" not in screen.status.text
        shown = [h.paper.id for h in screen.results.hits]
        await pilot.press("escape", "s", "s")
        await settle(pilot)
        assert screen.sort == "time" and "sort: time" in screen.status.text
        assert [h.paper.id for h in screen.results.hits] == shown
        screen = await type_query(pilot, "learning")
        await pilot.press("escape", "s")
        await settle(pilot)
        assert screen.sort == "relevance" and "sort: relevance" in screen.status.text


async def test_facets_toggle_and_choice_adds_filter(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "learning")
        await pilot.press("escape", "f")
        await settle(pilot)
        panel = screen.query_one(FacetPanel)
        assert panel.shown and panel.display
        assert screen.result is not None and screen.result.facets
        before = screen.result.total
        assert panel.facets
        assert app.focused is panel
        await pilot.press("down", "enter")
        await settle(pilot)
        facet, counts = next(iter(panel.facets.items()))
        chosen = counts[0]
        assert screen.box.value == f"learning {chosen.query}"
        assert screen.result is not None and screen.result.query == screen.box.value
        # The facet filtered the hits: fewer of them, and every one has the value chosen.
        assert 0 < screen.result.total < before
        shown = [facet_values(h.paper)[FACETS.index(facet)] for h in screen.results.hits]
        assert shown and set(shown) == {chosen.value}
        await pilot.press("escape", "f")
        assert not panel.shown
