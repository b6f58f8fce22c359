"""``J`` in the app: the lone abstract joined to the paper picked for it, and taken back.

The app runs on a real home with the real table and a list of three bundled abstracts (one
joins by itself, one stays on its own with a right hint, one without), its catalogue and
index built once per test run and copied (:mod:`tests.helpers.join_homes`); the join is written
to the data folder's ``joins.jsonl`` and the new papers are swapped in, the index changed
in place (the joined paper and the abstract alone written, no rebuild).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList

from index_builder.model import Paper
from index_builder.paths import Paths
from index_builder.search.folder import read_marker
from index_builder.sources.records import abstract_id
from tests.helpers.catalogue_data import (
    JOINED_ABSTRACT,
    JOINED_ROW,
    LONE_ABSTRACT,
    LONE_HINT,
    TABLE,
    UNHINTED_ABSTRACT,
    UNHINTED_ROW,
)
from tests.helpers.change_spies import count_derived, count_digests, count_unpickled
from tests.helpers.join_homes import JoinApp, home_app
from tests.helpers.notices import Notices
from tests.helpers.tui_helpers import (
    main,
    rebuilt,
    record_index_states,
    rendered_text,
    settle,
    states_at_catalogue_builds,
    type_query,
    until,
)
from tui.app import PaperScopeApp
from tui.commands.update import LOADING
from tui.screens.join_dialog import JoinDialog, JoinPicker
from tui.screens.main.screen import MainScreen
from tui.shared.context import Context

pytestmark = pytest.mark.slow


async def opened(pilot: Pilot[int], query: str) -> MainScreen:
    """Wait for the index, search ``query`` and move to the list."""
    screen = main(pilot)
    assert await until(pilot, lambda: screen.searcher is not None and screen.searcher.ready, 180)
    screen = await type_query(pilot, query)
    await pilot.press("escape")
    await settle(pilot)
    return screen


async def shown(pilot: Pilot[int], kind: type[Screen[Any]]) -> Screen[Any]:
    """Wait for a screen of ``kind`` on top (the picker waits for its candidates)."""
    assert await until(pilot, lambda: isinstance(pilot.app.screen, kind), 30)
    await pilot.pause()
    return pilot.app.screen


def current_id(screen: MainScreen) -> str | None:
    paper = screen.current_paper()
    return paper.id if paper is not None else None


async def test_j_joins_the_lone_abstract_and_j_again_takes_it_back(
    join_app: JoinApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picker offered on a search (cancelled), the join made from ``is:unjoined`` (the
    list keeps its query, the joined paper on top), then taken back from a search.

    One app for the story: each join merges the 6,628 papers again (~3 s of CPU), and the
    join from ``is:unjoined`` is the same join as the one from the search.
    """
    app = join_app()
    joins = tmp_path / "data" / "joins.jsonl"
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "hierarchical vocabulary routing watermark")
        states = record_index_states(screen, monkeypatch)
        merging = states_at_catalogue_builds(screen, monkeypatch)
        assert current_id(screen) == LONE_ABSTRACT
        body = " ".join(rendered_text(screen.view.query_one("#paper-body")).split())
        assert f"the same paper as id {LONE_HINT} (not joined; J joins them)" in body

        await pilot.press("J")
        picker = await shown(pilot, JoinPicker)
        options = picker.query_one(OptionList)
        assert options.option_count == 5 and options.highlighted == 0
        first = str(options.get_option_at_index(0).prompt)
        assert first.startswith("Selective Disclosure Watermarking for Large Language Models")
        assert f"{LONE_HINT} · Xuyang Chen" in first and first.endswith("(suggested)")
        await pilot.press("escape")  # cancel: nothing written
        await pilot.pause()
        assert app.screen is screen and not joins.exists()

        screen = await opened(pilot, "is:unjoined")
        # From here, what the change costs: as ``paperscope join``, the rows it left are
        # served from the papers shown (none of the kept file unpickled), and the index's
        # change in place digests the papers the join noted alone (not all 6,628).
        digested, unpickled = count_digests(monkeypatch), count_unpickled(monkeypatch)
        derived = count_derived(monkeypatch)
        listed = [h.paper.id for h in screen.results.hits]
        assert sorted(listed) == sorted([LONE_ABSTRACT, UNHINTED_ABSTRACT])
        await pilot.press(*(["j"] if listed[0] != LONE_ABSTRACT else []))
        assert current_id(screen) == LONE_ABSTRACT
        await pilot.press("J")
        await shown(pilot, JoinPicker)
        await pilot.press("j", "k", "enter")  # down and back up: the suggested paper
        assert await until(pilot, lambda: current_id(screen) == LONE_HINT, 180)
        assert json.loads(joins.read_text(encoding="utf-8"))["event_id"] == int(LONE_HINT)
        paper = screen.current_paper()
        assert paper is not None and paper.authors and LONE_ABSTRACT in paper.aliases
        await settle(pilot)
        # The joined paper on top of the listing it was joined from, which stays.
        assert [h.paper.id for h in screen.results.hits] == [LONE_HINT, UNHINTED_ABSTRACT]
        assert screen.box.value == "is:unjoined" and screen.results.cursor == 0
        body = " ".join(rendered_text(screen.view.query_one("#paper-body")).split())
        assert "Xuyang Chen" in body and paper.abstract and paper.abstract[:40] in body
        assert unpickled == [] and digested and set(digested) <= {LONE_ABSTRACT, LONE_HINT}
        assert derived == [True]  # made from the papers shown: no source merged again
        digested.clear()
        # No rebuild: the paper is written again and the lone abstract deleted, in place,
        # and the status line never showed a build.
        assert changed_in_place(tmp_path) == {"written": 1, "removed": 2}
        assert states and rebuilt(states) == [] and states[-1] == ("index ready", None)
        # While the papers were merged again, the status line said so.
        assert merging == [LOADING]
        states.clear()

        screen = await opened(pilot, "hierarchical vocabulary routing watermark")
        assert current_id(screen) == LONE_HINT
        await pilot.press("J")
        dialog = await shown(pilot, JoinDialog)
        assert "Take back your join" in rendered_text(dialog.query_one("#join-question"))
        await pilot.press("y")
        assert await until(pilot, lambda: current_id(screen) == LONE_ABSTRACT, 180)
        assert not joins.exists()
        await settle(pilot)
        assert changed_in_place(tmp_path) == {"written": 2, "removed": 1}
        # The undo's catalogue is the one before the join (kept): the join's note serves.
        assert unpickled == [] and digested and set(digested) <= {LONE_ABSTRACT, LONE_HINT}
        assert states and rebuilt(states) == []


async def test_the_app_started_after_a_join_in_a_shell_changes_its_index_in_place(
    join_app: JoinApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A join written by ``paperscope join``, then the app: its start changes the index in
    place, and the status line never announces a build (it did, before a change in place)."""
    from index_builder.catalogue.joins.by_hand import add_join, plan_join
    from tui.widgets.status_bar import StatusBar

    # The home's index is built (a copy of the shared build): no first run of the app.
    first = join_app()
    joins = first.ctx.paths.hand_joins
    add_join(joins, plan_join(first.ctx.catalogue().get, LONE_ABSTRACT, LONE_HINT))
    seen: list[tuple[str, tuple[int, int] | None]] = []
    shown = StatusBar.set_index_state

    def recording(bar: StatusBar, state: str, progress: tuple[int, int] | None = None) -> None:
        seen.append((state, progress))
        shown(bar, state, progress)

    monkeypatch.setattr(StatusBar, "set_index_state", recording)
    app = home_app(tmp_path, list(first.ctx.extra_sources))  # the same home, started again
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "hierarchical vocabulary routing watermark")
        assert current_id(screen) == LONE_HINT
    assert changed_in_place(tmp_path) == {"written": 1, "removed": 2}
    assert seen and rebuilt(seen) == [] and seen[-1] == ("index ready", None)


def changed_in_place(home: Path) -> object:
    """What the last change of the home's index wrote in place (absent after a full build)."""
    marker = read_marker(home / "cache" / "index") or {}
    return marker.get("changed_in_place")


async def test_j_on_a_paper_without_abstract_offers_the_lone_abstracts(join_app: JoinApp) -> None:
    app = join_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "polyak sharpness scheduler")
        assert current_id(screen) == UNHINTED_ROW  # the table paper, listed first
        await pilot.press("J")
        picker = await shown(pilot, JoinPicker)
        assert "Which abstract is this paper's?" in rendered_text(picker.query_one("#join-about"))
        first = str(picker.query_one(OptionList).get_option_at_index(0).prompt)
        assert f"{UNHINTED_ABSTRACT} · Sharpness-Aware Minimization" in first
        await pilot.press("enter")
        assert await until(pilot, lambda: app.ctx.paths.hand_joins.exists(), 30)
        assert await until(
            pilot, lambda: screen.current_paper() is not None
            and UNHINTED_ABSTRACT in screen.current_paper().aliases, 180,  # type: ignore[union-attr]
        )  # fmt: skip
        assert current_id(screen) == UNHINTED_ROW


async def test_j_on_a_paper_joined_by_itself_asks_then_takes_it_apart(
    join_app: JoinApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = join_app()
    joins = tmp_path / "data" / "joins.jsonl"
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "proeval")
        states = record_index_states(screen, monkeypatch)
        digested, unpickled = count_digests(monkeypatch), count_unpickled(monkeypatch)
        assert current_id(screen) == JOINED_ROW
        await pilot.press("J")
        dialog = await shown(pilot, JoinDialog)
        assert "Take them apart?" in rendered_text(dialog.query_one("#join-question"))
        await pilot.press("escape")  # declined: nothing written
        await pilot.pause()
        assert app.screen is screen and not joins.exists()

        await pilot.press("J")
        await shown(pilot, JoinDialog)
        await pilot.press("y")
        assert await until(pilot, lambda: current_id(screen) == JOINED_ABSTRACT, 180)
        assert json.loads(joins.read_text(encoding="utf-8"))["apart"] is True
        paper = screen.current_paper()
        assert paper is not None and paper.event_id is None and paper.abstract
        row = app.ctx.catalogue().get(JOINED_ROW)
        assert row is not None and not row.abstract
        await settle(pilot)
        assert paper.abstract[:40] in " ".join(
            rendered_text(screen.view.query_one("#paper-body")).split()
        )
        # In place: the paper without its abstract and the abstract alone written, the
        # joined paper's document removed; no build shown.
        assert changed_in_place(tmp_path) == {"written": 2, "removed": 1}
        assert states and rebuilt(states) == [] and states[-1] == ("index ready", None)
        # As ``paperscope join --apart``: served from the papers shown, the two noted.
        assert unpickled == [] and digested and set(digested) <= {JOINED_ROW, JOINED_ABSTRACT}


def test_j_on_a_paper_with_its_own_abstract_says_what_it_is_for(tmp_path: Path) -> None:
    from tui.commands.join import what_j_does

    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    ctx = Context(paths=paths, extra_sources=[TABLE], use_bundled=False)
    official = Paper("62850", "T", abstract_raw="The feed's abstract.", event_id=62850)
    assert "J joins an abstract that stands on its own" in what_j_does(official, ctx)
    listed = replace(official, aliases=(JOINED_ABSTRACT,))
    assert what_j_does(listed, ctx) == "apart"
    same = replace(listed, aliases=(abstract_id("The  feed's ABSTRACT."),))
    assert what_j_does(same, ctx) == "apart"  # the same text, but no conference's feed gave it
    certain = replace(same, sources=("icml-2026-abstracts.json", "mine.txt:1"))
    assert "the join is certain and stays" in what_j_does(certain, ctx)
    assert what_j_does(replace(certain, aliases=(JOINED_ABSTRACT,)), ctx) == "apart"


async def test_j_on_the_conference_own_abstract_says_it_stays_without_asking(
    certain_app: Callable[[bool], PaperScopeApp], notices: Notices
) -> None:
    app = certain_app(False)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "proeval")
        assert current_id(screen) == JOINED_ROW
        await pilot.press("J")
        said = "the same text as your list's: the join is certain and stays."
        assert await until(pilot, lambda: any(said in m for m in notices.messages(app)), 10)
        assert app.screen is screen and not app.ctx.paths.hand_joins.exists()


async def test_j_cannot_take_apart_the_conference_own_abstract_and_says_so(
    certain_app: Callable[[bool], PaperScopeApp], notices: Notices
) -> None:
    app = certain_app(True)  # the same text once markup is set aside
    paths = app.ctx.paths
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "proeval")
        assert current_id(screen) == JOINED_ROW
        await pilot.press("J")
        await shown(pilot, JoinDialog)  # not told before the rebuild: found after it
        await pilot.press("y")
        said = "The conference's own abstract of this paper is the same text: it stays joined."
        assert await until(pilot, lambda: any(said in m for m in notices.messages(app)), 180)
        assert not paths.hand_joins.exists() and current_id(screen) == JOINED_ROW
