"""Work kept off the event loop, and no file left half-written (issue 29, item 9).

- The search history (a write and an fsync) was saved on the event loop at every Enter
  and every Down into the list; it is now saved in a thread of its own, and a quit right
  after still keeps the query (a real process ending the app's way, ``leave``).
- The first ``y`` built the citation keys of the whole catalogue (6,628 papers, ~94 ms)
  on the event loop; they are now made in a worker.
- Quitting during an export left its ``.tmp`` beside the target; the quit now removes
  it, and a write after a killed one removes what the killed writer left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import index_builder.atomic as atomic
from index_builder.citations import styles
from tests.helpers.tui_helpers import AppFactory, main, ready, settle
from tui.shared.background import flush


def record_threads(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[bool]:
    """Patch ``owner.name`` to note, at each call, whether it ran on the main thread."""
    real = getattr(owner, name)
    seen: list[bool] = []

    def noted(*args: object, **kwargs: object) -> object:
        seen.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, noted)
    return seen


async def test_the_history_is_saved_off_the_event_loop(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_main = record_threads(monkeypatch, atomic, "write_atomic")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await ready(pilot)
        for query in ("massart", "watermark"):
            screen.box.focus()
            screen.box.value = query
            await pilot.press("enter")
            await settle(pilot)
        screen.box.focus()
        await pilot.press("down")
        flush(10)
    assert on_main and not any(on_main), "the history was written on the event loop"
    history = app.ctx.paths.data_dir / "search_history.json"
    assert "watermark" in history.read_text(encoding="utf-8")


async def test_the_first_citation_keys_are_made_off_the_event_loop(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = record_threads(monkeypatch, styles, "CitationKeys")
    copied: list[str] = []
    app = make_app()
    app.services._copy = lambda text, what: copied.append(text)  # what y copies
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        main(pilot).results.focus()
        await pilot.press("y")
        for _ in range(100):
            if copied:
                break
            await pilot.pause(0.02)
        await settle(pilot)
    assert made == [False], "the citation keys were built on the event loop"
    assert copied and copied[0].startswith("@")  # the BibTeX entry, with its key


QUIT_DURING_WRITE = """
import os, sys, threading, time
from pathlib import Path
import index_builder.atomic as atomic
from tui.lifecycle.exiting import leave

target = Path(sys.argv[1])
real_fsync = os.fsync
def slow_fsync(fd):  # a slow disk: the write is under way for a long moment
    print("writing", flush=True)
    time.sleep(30)
    real_fsync(fd)
os.fsync = slow_fsync
threading.Thread(target=atomic.write_atomic, args=(target, "x" * 100_000), daemon=True).start()
if sys.argv[2] == "quit":
    sys.stdin.readline()
    leave(0)
time.sleep(60)
"""


def writer_mid_write(target: Path, how: str) -> subprocess.Popen[str]:
    """A real process whose atomic write of ``target`` is under way (its fsync stalls)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", QUIT_DURING_WRITE, str(target), how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
    assert [p.name for p in target.parent.glob("*.tmp")], "no temp file while writing"
    return proc


def test_quitting_during_a_write_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "papers.bib"
    proc = writer_mid_write(target, "quit")
    assert proc.stdin is not None
    proc.stdin.write("\n")
    proc.stdin.flush()
    assert proc.wait(timeout=30) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_write_after_a_killed_writer_removes_its_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "papers.bib"
    proc = writer_mid_write(target, "kill")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert len(list(tmp_path.glob("*.tmp"))) == 1  # what kill -9 leaves
    atomic.write_atomic(target, "@misc{x}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["papers.bib"]


def test_a_running_writers_temp_file_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "papers.bib"
    proc = writer_mid_write(target, "kill")
    try:
        atomic.write_atomic(target, "@misc{x}\n")
        assert len(list(tmp_path.glob("*.tmp"))) == 1  # still being written by its owner
    finally:
        proc.kill()
        proc.wait(timeout=30)
