"""Search history: Up/Down in the search box, kept across runs, bounded, never fatal."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.tui_helpers import AppFactory, ready, settle
from tui.screens.main.history import SearchHistory
from tui.shared.background import flush


def test_history_steps_back_and_forth_and_restores_the_draft(tmp_path: Path) -> None:
    history = SearchHistory(tmp_path / "h.json")
    for query in ("massart", "proeval", "massart"):
        history.add(query)
    assert history.queries == ["proeval", "massart"]
    assert history.older("dra") == "massart"
    assert history.older("ignored") == "proeval"
    assert history.older("ignored") is None
    assert history.newer() == "massart"
    assert history.newer() == "dra"
    assert not history.browsing and history.newer() is None
    assert history.saver.wait(10)  # written off the event loop
    assert SearchHistory(tmp_path / "h.json").queries == ["proeval", "massart"]


def test_history_is_bounded_and_skips_blank_and_like_queries(tmp_path: Path) -> None:
    history = SearchHistory(tmp_path / "h.json", limit=5)
    for n in range(12):
        history.add(f"query {n}")
    history.add("   ")
    history.add("like:65133")
    assert history.queries == [f"query {n}" for n in range(7, 12)]
    assert history.saver.wait(10)
    assert json.loads((tmp_path / "h.json").read_text()) == history.queries
    assert not list(tmp_path.glob("*.tmp"))


def test_a_broken_or_unwritable_history_is_empty_and_harmless(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    for junk in ("{not json", '{"a": 1}', "\udcff", '[1, "ok", null]'):
        path.write_text(junk, errors="surrogateescape")
        assert SearchHistory(path).queries in ([], ["ok"])
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    history = SearchHistory(blocked / "h.json")
    history.add("diffusion")  # cannot be saved: kept for this run only
    assert history.queries == ["diffusion"] and history.saver.wait(10)


async def test_up_and_down_recall_queries_across_runs(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        for query in ("massart", "watermark"):
            screen.box.focus()
            screen.box.value = query
            await pilot.press("enter")
            await settle(pilot)
        screen.box.focus()
        screen.box.value = "dra"
        await pilot.press("up")
        assert screen.box.value == "watermark"
        await pilot.press("up")
        assert screen.box.value == "massart"
        await settle(pilot)
        assert screen.result is not None and screen.result.query == "massart"
        await pilot.press("down")
        assert screen.box.value == "watermark"
        await pilot.press("down")
        assert screen.box.value == "dra" and app.focused is screen.box
        await pilot.press("down")  # not browsing: Down goes to the list, as before
        assert app.focused is screen.results
    flush()  # what quitting does (tui.lifecycle.exiting.leave)
    again = make_app()
    async with again.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        screen.box.focus()
        await pilot.press("up")
        assert screen.box.value == "dra"
        await pilot.press("up")
        assert screen.box.value == "watermark"


def test_a_stored_query_with_escapes_comes_back_as_text(tmp_path: Path) -> None:
    """Issue 36.1: a hand-edited history file is outside text like any other."""
    path = tmp_path / "history.json"
    path.write_text(json.dumps(["diffusion \x1b]52;c;UFdORUQ=\x07models\x9b31m"]))
    history = SearchHistory(path)
    assert history.older("") == "diffusion models"
