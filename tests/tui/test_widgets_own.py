"""Widgets that own their behaviour, on their own (no screen): the result list pages
itself, the paper view looks up its similar papers; each drops an answer it has moved
past, and says a failed worker by a message."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from textual.app import App, ComposeResult

from index_builder.model import Hit, Paper
from tests.helpers.tui_helpers import until
from tui.widgets.paper_view import PaperView
from tui.widgets.result_list import ResultList
from tui.widgets.workers import WorkerFailed


def many(count: int, prefix: str = "") -> list[Hit]:
    return [Hit(Paper(id=f"{prefix}{i}", title=f"Paper {prefix}{i}")) for i in range(count)]


class ListApp(App[None]):
    """A result list alone, recording the failures it posts."""

    def __init__(self) -> None:
        super().__init__()
        self.failed: list[WorkerFailed] = []

    def compose(self) -> ComposeResult:
        yield ResultList()

    def on_worker_failed(self, message: WorkerFailed) -> None:
        self.failed.append(message)


async def test_the_list_fetches_its_next_pages_from_its_pager() -> None:
    every = many(1_000)
    asked: list[tuple[int, int]] = []

    def pager(start: int, limit: int) -> Sequence[Hit]:
        asked.append((start, limit))
        return every[start : start + limit]

    app = ListApp()
    async with app.run_test(size=(80, 24)) as pilot:
        rows = app.query_one(ResultList)
        rows.set_hits(every[:20], total=len(every), more=pager)
        rows.focus()
        await until(pilot, lambda: len(rows.hits) > 20, what="the page after the first")
        assert asked[0][0] == 20, "the view of 11 rows is within two pages of the end"
        await pilot.press("G")
        await until(pilot, lambda: len(rows.hits) == len(every), what="every hit")
        await until(pilot, lambda: rows.cursor == len(every) - 1, what="the cursor on the last")
        assert [h.paper.id for h in rows.hits] == [h.paper.id for h in every]


async def test_a_page_of_an_earlier_answer_is_dropped() -> None:
    release, started = threading.Event(), threading.Event()

    def slow(start: int, limit: int) -> Sequence[Hit]:
        started.set()
        release.wait(10)
        return many(limit, "old")

    app = ListApp()
    async with app.run_test(size=(80, 24)) as pilot:
        rows = app.query_one(ResultList)
        rows.set_hits(many(20, "old"), total=500, more=slow)
        await until(pilot, started.is_set, what="the list to ask for its next page")
        rows.set_hits(many(20, "new"))  # another answer as long, whole
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [h.paper.id for h in rows.hits] == [f"new{i}" for i in range(20)]


async def test_a_failing_pager_is_posted_as_a_failed_worker() -> None:
    def broken(start: int, limit: int) -> Sequence[Hit]:
        raise RuntimeError("injected failure in the pager")

    app = ListApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.query_one(ResultList).set_hits(many(20), total=500, more=broken)
        await until(pilot, lambda: bool(app.failed), what="the list to post WorkerFailed")
        assert app.failed[0].worker.group == "more"
        assert "injected failure" in str(app.failed[0].worker.error)


class ViewApp(App[None]):
    """A paper view alone."""

    def compose(self) -> ComposeResult:
        yield PaperView()


async def test_the_view_looks_up_the_similar_papers_of_the_paper_it_shows() -> None:
    held = threading.Event()

    def source(paper_id: str, count: int) -> Sequence[Hit]:
        if paper_id == "a":
            held.wait(10)  # the cursor moves on to b before a's answer comes
        return many(count, f"like-{paper_id}-")

    app = ViewApp()
    async with app.run_test(size=(100, 30)) as pilot:
        view = app.query_one(PaperView)
        view.show(Hit(Paper(id="a", title="A")))
        await pilot.pause()
        assert view.similar == (), "no source yet: nothing is looked up"
        view.similar_from(source)
        await pilot.pause()
        view.show(Hit(Paper(id="b", title="B")))
        await until(pilot, lambda: bool(view.similar), what="b's similar papers")
        held.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [h.paper.id for h in view.similar] == [f"like-b-{i}" for i in range(8)]


async def test_the_paper_is_not_wrapped_again_when_its_similar_papers_make_it_scroll() -> None:
    app = ViewApp()
    async with app.run_test(size=(100, 20)) as pilot:
        view = app.query_one(PaperView)
        body = view.query_one("#paper-body")
        view.show(Hit(Paper(id="a", title="A", abstract="words of the abstract " * 30)))
        await pilot.pause()
        assert not view.show_vertical_scrollbar, "the paper alone fits"
        width, height = body.size
        view.similar_from(lambda paper_id, count: many(count, f"like-{paper_id}-"))
        await until(pilot, lambda: view.show_vertical_scrollbar, what="the similar papers' bar")
        await pilot.pause()
        assert len(view.similar) == 8
        assert body.size == (width, height), "the paper's width kept: its lines not wrapped again"
