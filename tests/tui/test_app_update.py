"""The palette's "Update from the conference site": download in a worker, swap in the papers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.command import CommandList
from textual.pilot import Pilot

from index_builder.feeds.update import update
from index_builder.paths import Paths
from index_builder.search.folder import read_marker
from index_builder.venues import DEFAULT
from tests.helpers.feed_data import ICML_ABSTRACTS, good_files, marker, small_feed
from tests.helpers.feed_server import Answer, serve
from tests.helpers.notices import Notices
from tests.helpers.tui_fixtures import AppFactory
from tests.helpers.tui_helpers import (
    rebuilt,
    record_index_states,
    rendered_text,
    settle,
    states_at_catalogue_builds,
    type_query,
)
from tui.app import PaperScopeApp
from tui.commands.update import LOADING
from tui.shared.config import Config
from tui.shared.context import Context
from tui.widgets.result_list import ResultList
from tui.widgets.status_bar import StatusBar


async def until(pilot: Pilot[int], condition: object) -> None:
    """Let the app run until ``condition()`` holds (bounded, so a failure ends the test)."""
    for _ in range(1200):
        if condition():  # type: ignore[operator]
            return
        await pilot.pause(0.05)
    raise AssertionError(f"the condition never held: {condition}")


def offered(app: PaperScopeApp) -> bool:
    """True when the palette lists the update command first."""
    lists = list(app.screen.query(CommandList).results(CommandList))
    if not lists or not lists[0].option_count:
        return False
    first = lists[0].get_option_at_index(0)
    return "Update from the conference site" in str(first.prompt)


async def update_from_palette(pilot: Pilot[object], app: PaperScopeApp) -> None:
    """Open the palette, type the update command's name, wait for it to be offered first,
    and run it (as a user does)."""
    await pilot.press("ctrl+p")
    await pilot.press(*"Update from the conf")
    await until(pilot, lambda: offered(app))
    await pilot.press("enter")


def papers_shown(app: PaperScopeApp) -> int:
    searcher = app.screen.flow.searcher  # type: ignore[attr-defined]
    return len(searcher.catalogue.papers) if searcher is not None else 0


@pytest.mark.usefixtures("first_three_index")
async def test_update_from_the_palette_swaps_in_the_papers(
    make_app: AppFactory, tui_papers: tuple
) -> None:
    _, abstracts = small_feed()
    with serve(good_files()) as site:
        site.files[ICML_ABSTRACTS] = Answer(json.dumps(dict(list(abstracts.items())[:10])).encode())
        app = make_app(papers=tui_papers[:3])
        update(DEFAULT, app.ctx.paths, source=site.url)  # as `paperscope update --from` did
        site.files[ICML_ABSTRACTS] = Answer(json.dumps(abstracts).encode(), etag='"a2"')
        async with app.run_test(size=(120, 36)) as pilot:
            status = app.screen.query_one(StatusBar)
            await until(pilot, lambda: status.index_state == "index ready")
            await update_from_palette(pilot, app)
            await until(pilot, lambda: papers_shown(app) == 40)
            await until(pilot, lambda: status.index_state == "index ready")
            catalogue = app.screen.flow.searcher.catalogue  # type: ignore[attr-defined]
            assert all(p.abstract for p in catalogue.papers)
            assert "paperscope update" not in status.text
            assert app.screen.query_one(ResultList).hits
        answered = [h["x-answered"] for _, h in site.requests]
    assert answered == ["200", "200", "304", "200"]


@pytest.mark.usefixtures("first_three_index")
async def test_a_failed_update_says_so_and_keeps_the_papers(
    make_app: AppFactory, tui_papers: tuple, notices: Notices
) -> None:
    with serve({}) as site:
        app = make_app(papers=tui_papers[:3])
        with serve(good_files()) as first:
            update(DEFAULT, app.ctx.paths, source=first.url)
        meta = app.ctx.paths.data_dir / "feeds" / "icml2026" / "meta.json"
        data = json.loads(meta.read_text())
        meta.write_text(json.dumps({**data, "base": site.url}))
        site.files["icml-2026-orals-posters.json"] = Answer(
            b"<html>bot check</html>", content_type="text/html"
        )
        async with app.run_test(size=(120, 36)) as pilot:
            await until(pilot, lambda: papers_shown(app) == 3)
            await app.run_action("update_feeds")
            await until(pilot, lambda: any("HTML page" in m for m in notices.messages(app)))
            assert papers_shown(app) == 3


@pytest.mark.usefixtures("first_three_index")
async def test_an_update_that_adds_papers_names_the_watches_with_new_ones(
    make_app: AppFactory, tui_papers: tuple, notices: Notices
) -> None:
    from index_builder.readinglist.store import ReadingList
    from index_builder.readinglist.watches import Watches
    from tests.helpers.feed_data import ICML_FEED, icml_abstracts, icml_feed, marker

    results = icml_feed()["results"]
    first = {"count": 40, "next": None, "previous": None, "results": results[:40]}
    later = {"count": 46, "next": None, "previous": None, "results": results[:46]}
    with serve(good_files()) as site:
        site.files[ICML_FEED] = Answer(json.dumps(first).encode(), etag='"f1"')
        app = make_app(papers=tui_papers[:3])
        update(DEFAULT, app.ctx.paths, source=site.url)
        with ReadingList(app.ctx.paths.reading_list) as store:
            Watches(store).add(" OR ".join(marker(r["id"]) for r in results[40:46]), "fresh")
        site.files[ICML_FEED] = Answer(json.dumps(later).encode(), etag='"f2"')
        ids = {str(r["id"]) for r in results[:46]}
        texts = {k: v for k, v in icml_abstracts().items() if k in ids}
        site.files[ICML_ABSTRACTS] = Answer(json.dumps(texts).encode(), etag='"a2"')
        async with app.run_test(size=(120, 36)) as pilot:
            status = app.screen.query_one(StatusBar)
            await until(pilot, lambda: status.index_state == "index ready")
            await update_from_palette(pilot, app)

            def told() -> list[str]:
                return notices.messages(app, title="Watches")

            await until(pilot, told)
    count, said = told()[0].split(" ", 1)
    assert int(count) >= 1 and said == "new for fresh (W lists them)"


async def test_an_update_changing_a_few_papers_changes_the_index_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rewritten abstracts of 40: written in place, shown at once, no build on screen."""
    feed, abstracts = small_feed()
    posters = [
        r
        for r in feed["results"]
        if not r["related_events_ids"] and marker(r["id"]) in abstracts[str(r["id"])]
    ]  # posters without a talk whose abstract is the feed's own (its marker word)
    first, second = (str(r["id"]) for r in posters[:2])
    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    with serve(good_files()) as site:
        update(DEFAULT, paths, source=site.url)  # as `paperscope update --from` did
        rewritten = {**abstracts, first: abstracts[first] + " Rewritten: quorvantile.",
                     second: abstracts[second] + " Rewritten too."}  # fmt: skip
        site.files[ICML_ABSTRACTS] = Answer(json.dumps(rewritten).encode(), etag='"a2"')
        ctx = Context(paths=paths, use_bundled=False)
        app = PaperScopeApp(ctx, config=Config(path=paths.config_file))
        async with app.run_test(size=(120, 36)) as pilot:
            status = app.screen.query_one(StatusBar)
            await until(pilot, lambda: status.index_state == "index ready")
            screen = await type_query(pilot, marker(int(first)))
            await pilot.press("escape")
            await settle(pilot)
            assert screen.current_paper() is not None
            assert "quorvantile" not in rendered_text(screen.view.query_one("#paper-body"))
            states = record_index_states(screen, monkeypatch)
            merging = states_at_catalogue_builds(screen, monkeypatch)
            await update_from_palette(pilot, app)
            await until(pilot, lambda: len(states) > 1 and states[-1] == ("index ready", None))
            await settle(pilot)
            marked = read_marker(paths.index_dir) or {}
            assert marked.get("changed_in_place") == {"written": 2, "removed": 2}
            assert rebuilt(states) == []
            assert merging == [LOADING]  # said while the papers were merged again
            paper = screen.current_paper()
            assert paper is not None and str(paper.event_id) == first
            assert "quorvantile" in rendered_text(screen.view.query_one("#paper-body"))
