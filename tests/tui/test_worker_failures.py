"""Background failures are said and logged, and only damage rebuilds the index (issue 29,
item 4). A real failure is injected inside the engine (its query builder raises) while the
real index is on disk and intact: the old app treated it as damage, rebuilt the index,
said "damaged", and failed again; or, in the other workers, said nothing at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.search.engine import SearchIndex
from index_builder.search.whoosh_query import QueryBuilder
from tests.helpers.tui_helpers import AppFactory, ready, settle, type_query
from tests.helpers.tui_prebuilt import copy_index
from tui.lifecycle import failures
from tui.lifecycle.failures import LOG_NAME, log_error


async def test_a_failing_search_is_said_and_logged_and_rebuilds_nothing(
    make_app: AppFactory,
    tui_papers: tuple[Paper, ...],
    tui_index_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copy_index(tui_index_dir, tmp_path)  # the index on disk and intact, the test's own
    app = make_app(papers=tui_papers)
    builds: list[str] = []
    real_build = SearchIndex.build

    def counted(self: SearchIndex, *args: object, **kwargs: object) -> None:
        builds.append(str(self.index_dir))
        real_build(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchIndex, "build", counted)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        screen = await type_query(pilot, "massart")
        before = screen.results.hits
        built = len(builds)

        def broken(self: QueryBuilder, node: object) -> object:
            raise RuntimeError("injected failure in the query builder")

        monkeypatch.setattr(QueryBuilder, "build", broken)
        await type_query(pilot, "diffusion")
        await settle(pilot)
        said = "search failed: RuntimeError: injected failure in the query builder"
        assert said in screen.status.text
        assert screen.results.hits == before  # what is shown is the last answer, and says so
        assert len(builds) == built, "an error with intact files rebuilt the index"
        index = app.ctx.index()
        assert index.notice is None or "damaged" not in index.notice
        log = (tmp_path / "cache" / LOG_NAME).read_text(encoding="utf-8")
        assert said in log and "Traceback" in log and "broken" in log
        monkeypatch.undo()
        screen = await type_query(pilot, "learning")
        assert "failed" not in screen.status.text  # the next answer clears it


async def test_a_failing_similar_papers_worker_is_said(
    make_app: AppFactory,
    tui_papers: tuple[Paper, ...],
    tui_index_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copy_index(tui_index_dir, tmp_path)
    app = make_app(papers=tui_papers)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)

        def broken(self: SearchIndex, paper_id: str, limit: int = 10) -> object:
            raise RuntimeError("injected failure in more_like_this")

        monkeypatch.setattr(SearchIndex, "more_like_this", broken)
        await pilot.press("escape", "j")
        await settle(pilot)
        assert "similar papers failed: RuntimeError" in screen.status.text
        log = (tmp_path / "cache" / LOG_NAME).read_text(encoding="utf-8")
        assert "injected failure in more_like_this" in log


def test_the_log_is_capped_and_rotated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(failures, "MAX_BYTES", 1000)
    for n in range(100):
        log_error(tmp_path, f"failure {n:03d} " + "x" * 80)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [LOG_NAME, f"{LOG_NAME}.1", f"{LOG_NAME}.2"]
    assert all(p.stat().st_size <= 1000 for p in tmp_path.iterdir())
    assert "failure 099" in (tmp_path / LOG_NAME).read_text(encoding="utf-8")
