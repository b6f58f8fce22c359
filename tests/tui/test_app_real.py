"""The app on the real bundled catalogue and index (one warm home per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tui.widgets.paper_view
from index_builder.catalogue.load import Catalogue
from index_builder.model import SortKey
from index_builder.paths import Paths
from tests.helpers.tui_helpers import ready, rendered_text, settle, type_query
from tui.app import PaperScopeApp
from tui.shared.config import Config
from tui.shared.context import Context

pytestmark = pytest.mark.slow


def real_app(warm_home: Path, tmp_path: Path, loaded: Catalogue | None = None) -> PaperScopeApp:
    """The app on the bundled data, sharing the session's built cache.

    ``loaded``: the session's bundled catalogue (``bundled_catalogue``, loaded from the same
    cache), handed to the app as a start after the first load would have it, where the test
    is about searching and paging the bundled papers, not about reading them: the app then
    skips reading the 6,628 papers from the cache at its start (~0.3 s of CPU a start).
    ``test_massart_on_the_bundled_data`` still starts from the cache, as does the warm
    start of ``test_app_first_screen.py``.
    """
    paths = Paths(tmp_path / "config", tmp_path / "data", warm_home / "cache").ensure()
    ctx = Context(paths=paths)
    if loaded is not None:
        ctx._catalogue = loaded
    return PaperScopeApp(ctx, config=Config(path=paths.config_file))


async def test_massart_on_the_bundled_data(warm_home: Path, tmp_path: Path) -> None:
    app = real_app(warm_home, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert len(screen.results.hits) > 6000
        screen = await type_query(pilot, "massart noise")
        titles = [h.paper.title for h in screen.results.hits]
        assert len(titles) == 2 and all("Massart" in t for t in titles)
        first, second = screen.results.hits
        assert screen.view.paper == first.paper
        assert first.paper.authors[0] in rendered_text(screen.view.query_one("#paper-body"))
        await pilot.press("escape", "j")
        await settle(pilot)
        assert screen.view.paper == second.paper
        body = rendered_text(screen.view.query_one("#paper-body"))
        assert f"Authors      {second.paper.authors[0]}," in body
        assert first.paper.authors[0] not in body
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_proeval_first_and_similar(
    warm_home: Path, tmp_path: Path, bundled_catalogue: Catalogue
) -> None:
    app = real_app(warm_home, tmp_path, bundled_catalogue)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "proeval")
        assert screen.results.hits[0].paper.title.startswith("ProEval")
        await pilot.press("escape", "m")
        await settle(pilot)
        assert screen.box.value.startswith("like:")
        assert len(screen.results.hits) > 3


@pytest.mark.parametrize("sort", ["relevance", "title", "time"])
async def test_every_hit_of_diffusion_is_reachable(
    warm_home: Path,
    tmp_path: Path,
    sort: SortKey,
    monkeypatch: pytest.MonkeyPatch,
    bundled_catalogue: Catalogue,
) -> None:
    app = real_app(warm_home, tmp_path, bundled_catalogue)
    # A tall terminal: a page is ~40 rows, so paging to the end takes a dozen keys, not 30.
    async with app.run_test(size=(120, 90)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "diffusion")
        assert screen.searcher is not None and screen.searcher.index is not None
        every = screen.searcher.index.search("diffusion", limit=10_000, prefix=True, sort=sort)
        assert every.total > 400  # more than one page of hits
        while screen.sort != sort:
            await pilot.press("escape", "s")
            await settle(pilot)
        assert f"{every.total} papers" in screen.status.text
        assert len(screen.results.hits) < every.total  # the list starts with a page
        await pilot.press("escape", "G")
        await settle(pilot)
        await settle(pilot)
        reached = [h.paper.id for h in screen.results.hits]
        assert reached == [h.paper.id for h in every.hits]
        assert screen.results.cursor == every.total - 1
        assert screen.results.current is not None
        assert screen.results.current.paper.id == every.hits[-1].paper.id
        if sort != "relevance":
            return  # the list is whole now: paging it does not depend on the order
        # Paging down from the top also reaches the end. Similar papers wait for the cursor
        # to rest, as in the app, so the pages passed over are not looked up.
        monkeypatch.setattr(tui.widgets.paper_view, "SIMILAR_DELAY_S", 0.12)
        await pilot.press("g")
        for _ in range(every.total // 10):
            await pilot.press("pagedown")
            if screen.results.cursor == every.total - 1:
                break
        assert screen.results.cursor == every.total - 1


async def test_scrolling_fetches_the_next_page(
    warm_home: Path, tmp_path: Path, bundled_catalogue: Catalogue
) -> None:
    app = real_app(warm_home, tmp_path, bundled_catalogue)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "diffusion")
        first = len(screen.results.hits)
        screen.results.scroll_to(y=(first - 5) * 2, animate=False)
        await settle(pilot)
        await settle(pilot)
        assert len(screen.results.hits) > first
