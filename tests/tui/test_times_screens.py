"""Pilot tests of session times on screen: the paper view, rows sorted by time, the planner
(``p``), what's on (``w``), the palette's time-zone commands and the config's ``timezone``.

The TUI fixtures force ``TZ=UTC``: what the venue's zone shows must not depend on it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static

from index_builder.model import Event, Paper
from index_builder.readinglist.store import ReadingList
from tests.helpers.notices import Notices
from tests.helpers.tui_helpers import (
    AppFactory,
    highlighted_command,
    ready,
    rendered_text,
    settle,
    type_query,
    until,
)
from tests.helpers.tui_prebuilt import index_into
from tui.screens.main.screen import MainScreen
from tui.screens.whats_on import WhatsOnScreen
from tui.shared.config import load_config

PS3 = ("2026-07-07T18:30:00-07:00", "2026-07-07T20:15:00-07:00")
POSTER = Event("poster", "Poster Session 3", *PS3, 62980, "Hall C", "#2504")
TALK = Event("oral", "Oral 3A Theory", "2026-07-07T19:00:00-07:00", "2026-07-07T19:15:00-07:00", 9)
ORAL_POSTER = Event("poster", "Poster Session 4", "2026-07-08T00:00:00-07:00", "", 501)


def view_text(screen: MainScreen) -> str:
    """The paper view's text, lines joined and spaces squeezed (it wraps at any width)."""
    return " ".join(rendered_text(screen.view.query_one("#paper-body")).split())


TZ_PAPERS = (
    Paper(
        id="62980", title="Faults in Our Formal Benchmarking", authors=("Pawan A",),
        session=POSTER.session, starts_at=PS3[0], ends_at=PS3[1], event_id=62980,
        events=(POSTER,), venue="ICML 2026",
    ),
    Paper(
        id="501", title="Spectral theory of talks", authors=("Tia B",), oral=True,
        session=ORAL_POSTER.session, starts_at=ORAL_POSTER.starts_at, event_id=501,
        events=(ORAL_POSTER, TALK), venue="ICML 2026",
    ),
    Paper(id="700", title="Undated work", authors=("Una C",), venue="ICML 2026"),
)  # fmt: skip


@pytest.fixture
def tz_index(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Path:
    """The index of the three papers in the test's cache, built once per run (the tests
    here are about times on screen, not the index's build)."""
    return index_into(tmp_path_factory, "tz-papers", TZ_PAPERS, tmp_path)


@pytest.mark.usefixtures("tz_index")
async def test_rows_and_the_paper_view_show_the_seoul_time_and_the_palette_changes_it(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """Rows show times only when sorted by time; the view shows each session's time; the
    palette's time-zone command changes it (one app)."""
    app = make_app(papers=TZ_PAPERS)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        assert "KST" not in screen.results.render_line(1).text
        screen.results.focus()
        await pilot.press("s", "s")
        await settle(pilot)
        assert screen.sort == "time"
        assert [h.paper.id for h in screen.results.hits] == ["62980", "501", "700"]
        lines = [screen.results.render_line(y).text for y in (1, 3, 5)]
        assert "Wed 8 Jul, 10:30–12:15 KST · " in lines[0]
        assert "Wed 8 Jul, 11:00–11:15 KST · " in lines[1]  # its talk, before its 16:00 poster
        assert "time unknown · " in lines[2]
        await pilot.press("s")
        await settle(pilot)
        assert "KST" not in screen.results.render_line(1).text

        screen = await type_query(pilot, "faults")
        body = view_text(screen)
        assert "Poster Session 3 · Wed 8 Jul, 10:30–12:15 KST · board #2504, Hall C" in body
        assert "18:30" not in body and "01:30" not in body  # TZ=UTC changes nothing here

        screen = await type_query(pilot, "spectral")
        body = view_text(screen)
        assert "Talk Oral 3A Theory · Wed 8 Jul, 11:00–11:15 KST" in body
        assert "Poster Poster Session 4 · Wed 8 Jul, 16:00 KST" in body

        await pilot.press("ctrl+p")
        await pilot.pause()
        app.screen.query_one(Input).value = "Time zone: UTC"  # one search, not one per key
        assert await until(pilot, lambda: "time zone: utc" in highlighted_command(app))
        await pilot.press("enter")
        await settle(pilot)
        assert app.zone_setting == "UTC"
        body = view_text(screen)
        assert "Oral 3A Theory · Wed 8 Jul, 02:00–02:15 UTC" in body
    assert load_config(tmp_path / "config" / "config.toml").timezone == "UTC"


@pytest.mark.usefixtures("tz_index")
async def test_an_unknown_zone_in_the_config_is_named_and_venue_used(
    make_app: AppFactory, tmp_path: Path, notices: Notices
) -> None:
    path = tmp_path / "config" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('timezone = "Nowhere/Nope"\n', encoding="utf-8")
    config = load_config(path)
    assert len(config.problems) == 1 and "Nowhere/Nope" in config.problems[0]
    app = make_app(papers=TZ_PAPERS, config=config)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        screen = await type_query(pilot, "faults")
        assert "10:30–12:15 KST" in view_text(screen)
        shown = notices.messages(app)
        assert any(m.startswith("config: timezone = 'Nowhere/Nope'") for m in shown)


@pytest.mark.usefixtures("tz_index")
async def test_planner_and_whats_on(make_app: AppFactory, tmp_path: Path) -> None:
    store = ReadingList(tmp_path / "data" / "reading_list.sqlite3")
    for paper in TZ_PAPERS:
        store.add(paper)
    store.close()
    app = make_app(papers=TZ_PAPERS)
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        await pilot.press("escape", "B")
        await settle(pilot)
        await pilot.press("p")
        await pilot.pause()
        table = app.screen.query_one("#rl-sessions", DataTable)
        lines = [table.get_cell(row.key, "plan").plain for row in table.ordered_rows]
        assert lines == [
            "Wednesday 8 July 2026",
            "  10:30–12:15 KST  Poster Session 3",
            "    clash: Oral 3A Theory, 11:00–11:15 KST",
            "      [ ] Faults in Our Formal Benchmarking  · board #2504, Hall C",
            "  11:00–11:15 KST  Oral 3A Theory",
            "    clash: Poster Session 3, 10:30–12:15 KST",
            "      [ ] Spectral theory of talks (talk)",
            "  16:00 KST  Poster Session 4",
            "      [ ] Spectral theory of talks",
            "Without a session time",
            "      [ ] Undated work",
        ]
        assert table.cursor_row == 3  # on the first paper, not on a heading
        header = app.screen.query_one("#rl-header", Static).render()
        assert str(header).startswith("Planner: 3 bookmarked papers by day and session")

        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, WhatsOnScreen)
        app.screen.query_one(Input).value = "2026-07-08 11:05"
        await pilot.press("enter")
        await pilot.pause()
        text = str(app.screen.query_one("#wo-body", Static).render())
        assert "At Wed 8 Jul 2026, 11:05 KST:" in text
        assert "now: Poster Session 3, 10:30–12:15 KST" in text
        assert "now: Oral 3A Theory, 11:00–11:15 KST" in text
        assert "next: Poster Session 4, Wed 8 Jul, 16:00 KST (1 bookmarked paper)" in text
        app.screen.query_one(Input).value = "8 July"
        await pilot.press("enter")
        await pilot.pause()
        text = str(app.screen.query_one("#wo-body", Static).render())
        assert "is not a day and hour like wed 10:30" in text
        # a day by name, as day:wed in a query; then a bare hour on the day shown
        for typed, at in (
            ("wed 11:05", "Wed 8 Jul 2026, 11:05"),
            ("16:05", "Wed 8 Jul 2026, 16:05"),
        ):
            app.screen.query_one(Input).value = typed
            await pilot.press("enter")
            await pilot.pause()
            text = str(app.screen.query_one("#wo-body", Static).render())
            assert f"At {at} KST:" in text, (typed, text)
        await pilot.press("escape", "w")  # opened again: the day shown is today's
        await pilot.pause()
        app.screen.query_one(Input).value = "11:05"
        await pilot.press("enter")
        await pilot.pause()
        text = str(app.screen.query_one("#wo-body", Static).render())
        # not today's date, months from the conference: its only day here, Wed 8 July
        assert "At Wed 8 Jul 2026, 11:05 KST:" in text, text
        assert "now: Oral 3A Theory, 11:00–11:15 KST" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, WhatsOnScreen)
