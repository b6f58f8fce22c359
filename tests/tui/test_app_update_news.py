"""The TUI's update after a command-line one (issue 29.17), its deadline (29.14), and what
an update changed shown once (27.5). The command-line update is a real process.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers.feed_cli import update_cli
from tests.helpers.feed_data import ICML_FEED, good_files
from tests.helpers.feed_server import Answer, serve
from tests.helpers.notices import Notices
from tests.helpers.tui_fixtures import AppFactory
from tests.tui.test_app_update import papers_shown, until
from tui.app import PaperScopeApp
from tui.widgets.status_bar import StatusBar


def home_of(app: object) -> object:
    return app.ctx.paths.data_dir.parent  # type: ignore[attr-defined]


@pytest.mark.usefixtures("first_three_index")
async def test_the_tui_update_shows_what_a_cli_update_stored(
    make_app: AppFactory, tui_papers: tuple, notices: Notices
) -> None:
    with serve(good_files()) as site:
        app = make_app(papers=tui_papers[:3])
        async with app.run_test(size=(120, 36)) as pilot:
            await until(pilot, lambda: papers_shown(app) == 3)
            done = update_cli(home_of(app), "--from", site.url)  # type: ignore[arg-type]
            assert done.returncode == 0, done.stderr
            await app.run_action("update_feeds")
            await until(pilot, lambda: papers_shown(app) == 40)
            messages = notices.messages(app)
        answered = [h["x-answered"] for _, h in site.requests]
    assert answered == ["200", "200", "304", "304"]
    assert not any("unchanged" in m for m in messages), messages


@pytest.mark.usefixtures("first_three_index")
async def test_the_tui_update_meets_the_deadline(
    make_app: AppFactory, tui_papers: tuple, monkeypatch: pytest.MonkeyPatch, notices: Notices
) -> None:
    monkeypatch.setenv("PAPERSCOPE_DOWNLOAD_DEADLINE", "2")
    files = good_files()
    files[ICML_FEED] = Answer(files[ICML_FEED].body, trickle=0.5)
    with serve(files) as site:
        app = make_app(papers=tui_papers[:3])
        with serve(good_files()) as first:
            update_cli(home_of(app), "--from", first.url)  # type: ignore[arg-type]
        meta = app.ctx.paths.data_dir / "feeds" / "icml2026" / "meta.json"
        meta.write_text(json.dumps({**json.loads(meta.read_text()), "base": site.url}))
        async with app.run_test(size=(120, 36)) as pilot:
            status = app.screen.query_one(StatusBar)
            # Every text the status line shows is kept: "downloading" lasts as long as the
            # deadline, which a poll of the screen at a loaded moment can miss.
            shown: list[str] = []
            redraw = status._redraw
            monkeypatch.setattr(status, "_redraw", lambda: (shown.append(status.text), redraw()))
            await until(pilot, lambda: papers_shown(app) >= 3)
            await app.run_action("update_feeds")
            try:
                await until(pilot, lambda: any("downloading" in text for text in shown))
                await until(
                    pilot,
                    lambda: any("within the 2 s" in m for m in notices.messages(app)),
                )
            finally:  # a download that no deadline stops would hold the app's exit
                app.update_cancel.set()


@pytest.mark.usefixtures("first_three_index")
async def test_what_an_update_changed_is_shown_once(
    make_app: AppFactory, tui_papers: tuple, notices: Notices
) -> None:
    with serve(good_files()) as site:
        app = make_app(papers=tui_papers[:3])
        assert update_cli(home_of(app), "--from", site.url).returncode == 0  # type: ignore[arg-type]
    shown: list[list[str]] = []
    for _ in range(2):
        shown.append(await notices_at_start(make_app(papers=tui_papers[:3]), notices))
    assert any("40 papers added, 0 removed" in m for m in shown[0]), shown
    assert not any("papers added" in m for m in shown[1]), shown


async def notices_at_start(app: PaperScopeApp, notices: Notices) -> list[str]:
    """The notices of a start, once the look at what the last update changed ended."""
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: papers_shown(app) == 3)
        await until(pilot, lambda: news_done(app))
        return notices.messages(app)


def news_done(app: PaperScopeApp) -> bool:
    """True once the app's look at what the last update changed has ended."""
    worker = getattr(app, "news_check", None)
    return worker is not None and worker.is_finished
