"""Issue 36.3 and 36.13: ``J`` never reads the joins file on the event loop.

The app on a real home (a cut of the table and three bundled abstracts: see
:func:`tests.helpers.catalogue_data.write_lone_list`), built once per run by
:mod:`tests.helpers.faults_joins`: the list's abstracts get the joins and hints they get on
the whole table, and ``J`` does not merge 6,628 papers again. Every read of ``joins.jsonl``
is recorded with its thread: none may be the event loop's, where a named pipe froze the
whole app (even ``q``) and a large file stalled every ``J``. With a named pipe there,
``J`` says so in a notice and the app goes on.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from index_builder.catalogue.joins import by_hand as hand_joins
from tests.helpers.catalogue_data import LONE_ABSTRACT, LONE_HINT
from tests.helpers.faults_joins import cut_app
from tests.helpers.notices import Notices
from tests.helpers.tui_helpers import settle, until
from tests.tui.test_app_join import opened
from tui.screens.join_dialog import JoinDialog, JoinPicker

pytestmark = pytest.mark.slow


async def test_j_reads_the_joins_file_in_a_worker_only(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    joins = tmp_path / "data" / "joins.jsonl"
    readers: list[str] = []
    read = hand_joins.read_regular_file

    def recorded(path: Path, *args: object) -> bytes:
        readers.append(threading.current_thread().name)
        return read(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(hand_joins, "read_regular_file", recorded)
    app = cut_app(tmp_path_factory, tmp_path)
    loop = threading.main_thread().name
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "hierarchical vocabulary routing watermark")
        await pilot.press("J")  # a lone abstract: the candidates, then the join
        assert await until(pilot, lambda: isinstance(app.screen, JoinPicker), 60)
        await pilot.press("enter")
        assert await until(pilot, lambda: (p := screen.current_paper()) and p.id == LONE_HINT, 180)
        assert joins.is_file()
        await settle(pilot)
        await pilot.press("J")  # joined by hand: asked whether to take it back
        assert await until(pilot, lambda: isinstance(app.screen, JoinDialog), 60)
        await pilot.press("y")
        assert await until(pilot, lambda: not joins.exists(), 180)
    assert readers and loop not in readers, readers


async def test_j_with_a_named_pipe_for_the_joins_file_says_so_and_goes_on(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, notices: Notices
) -> None:
    app = cut_app(tmp_path_factory, tmp_path)
    joins = tmp_path / "data" / "joins.jsonl"
    os.mkfifo(joins)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await opened(pilot, "hierarchical vocabulary routing watermark")
        assert (p := screen.current_paper()) is not None and p.id == LONE_ABSTRACT
        await pilot.press("J")
        said = f"cannot read {joins}: not a regular file (a named pipe)"
        told = await until(pilot, lambda: any(said in m for m in notices.messages(app)), 60)
        assert told, notices.messages(app)
        assert app.screen is screen  # no picker over a file that cannot be read
    assert joins.is_fifo()
