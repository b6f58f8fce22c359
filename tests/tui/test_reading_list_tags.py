"""The reading list screen's tags (``t``, ``T``) and its send to Zotero (``Z``), by key."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rispy
from textual.widgets import Input, Static

from index_builder.readinglist.store import ReadingList
from tests.helpers.zotero_server import fake_zotero
from tests.tui.test_reading_list_screen import SCREEN_PAPERS, ListApp, rl_store, table_ids, written
from tui.screens.reading_list.screen import ReadingListScreen
from tui.screens.reading_list.tagging import TagDialog, parse_tag_edit

__all__ = ["rl_store"]  # the fixture, shared with the screen's other tests


class NoticedApp(ListApp):
    """The test app, keeping every notice it shows."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.notices: list[str] = []

    def notify(self, message: str, **kwargs: Any) -> None:
        self.notices.append(message)
        super().notify(message, **kwargs)


async def until(pilot: Any, holds: Callable[[], bool], what: str) -> None:
    """Let the app run until ``holds()``; fail naming ``what`` after 2,000 turns."""
    for _ in range(2000):
        if holds():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"gave up waiting for {what}")


def test_the_prompt_reads_added_and_removed_tags() -> None:
    assert parse_tag_edit(" thesis ,-baselines, +to  discuss,") == (
        ("thesis", "to discuss"),
        ("baselines",),
    )


async def test_t_adds_with_completion_and_removes(rl_store: ReadingList, tmp_path: Path) -> None:
    rl_store.tag("p1", ["zotero"])
    app = ListApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")  # cursor on p3
        assert isinstance(app.screen, TagDialog)
        await pilot.press(*"thesis, zo")
        field = app.screen.query_one(Input)
        await until(pilot, lambda: field._suggestion == "thesis, zotero", "the completion")
        await pilot.press("right", "enter")
        await written(pilot)
        assert rl_store.get("p3").tags == ("thesis", "zotero")  # type: ignore[union-attr]
        assert "Tags: thesis, zotero" in str(app.screen.query_one("#rl-note", Static).render())
        await pilot.press("t", *"-thesis", "enter")
        await written(pilot)
        assert rl_store.get("p3").tags == ("zotero",)  # type: ignore[union-attr]
        await pilot.press("t", *"a,b", "escape")
        await pilot.pause()
        assert rl_store.get("p3").tags == ("zotero",)  # type: ignore[union-attr]


async def test_T_shows_one_tag_and_Z_sends_them(rl_store: ReadingList, tmp_path: Path) -> None:
    rl_store.tag("p1", ["zotero"])
    rl_store.tag("p3", ["Zotero", "thesis"])
    app = NoticedApp(rl_store, SCREEN_PAPERS, tmp_path)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.press("T", *"zotero", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ReadingListScreen)
        assert table_ids(app) == ["p3", "p1"]
        assert "tag zotero" in str(app.screen.query_one("#rl-header", Static).render())
        with fake_zotero() as fake:
            app.screen_obj.zotero_url = fake.url
            await pilot.press("Z")
            await until(pilot, lambda: bool(fake.imports()), "the import at the fake Zotero")
            await until(
                pilot,
                lambda: "Zotero imported 2 of 2 papers." in app.notices,
                "the notice of the import",
            )
        sent = fake.imports()[0].body.decode("utf-8").replace("\r\n", "\n")
        titles = sorted(e["title"] for e in rispy.load(io.StringIO(sent)))
        assert titles[0].startswith("Alpha") and titles[1] == "Gamma"
        await pilot.press("T", "enter")  # empty: every bookmark again
        await pilot.pause()
        assert table_ids(app) == ["p3", "p2", "p1"]
