"""Pilot tests: a first run (index still building), and an index that cannot be built."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from index_builder.search.engine import SearchIndex
from tests.helpers.held_index import GatedIndex
from tests.helpers.tui_helpers import AppFactory, main, settle, type_query


class BrokenIndex:
    """An index whose folder cannot be written."""

    def is_fresh(self) -> bool:
        return False

    def on_disk(self) -> bool:
        return False

    def ensure(self, progress: Callable[[int, int], None] | None = None) -> str | None:
        raise PermissionError("cache folder is read-only")


async def test_first_run_shows_papers_then_filters_simply_then_searches(
    make_app: AppFactory, tui_index_dir: Path, tui_papers: tuple
) -> None:
    gated = GatedIndex(SearchIndex(tui_index_dir / "index", tui_papers, "tui-tests"))
    app = make_app(index=gated)
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if gated.halfway.is_set() and "43%" in main(pilot).status.text:
                break
        screen = main(pilot)
        assert "building index 43%" in screen.status.text
        assert screen.status.has_class("-building")
        assert len(screen.results.hits) == len(tui_papers), "papers show before the index"
        screen = await type_query(pilot, "hopper")
        assert [h.paper.id for h in screen.results.hits] == ["t04"], "authors are filtered"
        assert "simple filter" in screen.status.text
        screen.box.value = "MASSART"
        await settle(pilot)
        assert {h.paper.id for h in screen.results.hits} == {"t01", "t02"}
        assert screen.results.hits[0].title_spans
        await pilot.press("escape", "m")
        assert screen.box.value == "MASSART", "more like this waits for the index"
        gated.release.set()
        for _ in range(100):
            await pilot.pause(0.02)
            if "index ready" in screen.status.text:
                break
        await settle(pilot)
        assert "index ready" in screen.status.text
        assert not screen.status.has_class("-building")
        assert "simple filter" not in screen.status.text
        assert {h.paper.id for h in screen.results.hits} == {"t01", "t02"}


async def test_a_broken_index_leaves_the_simple_filter(make_app: AppFactory) -> None:
    app = make_app(index=BrokenIndex())
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(50):
            await pilot.pause(0.02)
            if main(pilot).index_failed:
                break
        screen = main(pilot)
        assert screen.index_failed
        assert "no index" in screen.status.text
        screen = await type_query(pilot, "massart")
        assert {h.paper.id for h in screen.results.hits} == {"t01", "t02"}
