"""Escape sequences in a feed never reach a real terminal (issue 36.1), shown in tmux.

The issue's reproduction: bookmark 64188, ``update`` from a feed (64188 and 39 other
records of the ICML feed, on a home whose table is the bundled table's rows of those
papers, :func:`~tests.helpers.cli_cut.bundled_cut`: what is checked is the one changed
record, not the feed's size or the 6,628 papers each update merged again), then from a
copy where
64188's name is an OSC 52 clipboard write and an OSC 2 title (both ended by ``ESC \\``),
its session changed and its room ``Hall ESC]0;OSCTITLE BEL D``. The bare ``paperscope``
in tmux with ``set-clipboard on`` shows the "Since the last update" notice: tmux's
buffers must not hold "PWNED" and the pane's title must not change. A second start shows
a ``meta.json`` as an older version stored it (the raw sequences in its ``moved`` lines):
the notice, the one door of every toast, makes those safe too. The bookmark and the two
updates run in the test's process (``run_cli``: their output is checked, no terminal is);
only the app runs in tmux.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.cli import run_cli
from tests.helpers.cli_cut import bundled_cut, cut_flags
from tests.helpers.faults import paperscope
from tests.helpers.feed_cli import update_here
from tests.helpers.feed_data import ICML_ABSTRACTS, ICML_FEED, icml_abstracts, icml_feed
from tests.helpers.tmux import TmuxServer
from tests.helpers.waiting import wait_until, wait_until_stable

NAME = "\x1b]52;c;UFdORUQ=\x1b\\T\x1b]2;ST-TITLE\x1b\\"
ROOM = "Hall \x1b]0;OSCTITLE\x07D"
OLD_MOVED = f"64188 {NAME}: poster room Hall D → {ROOM}; \x1b]52;c;UFdORUQ=\x07"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def _write_feed(folder: Path, size: int = 40) -> Path:
    """The ICML feed cut to 64188 and the first ``size - 1`` other records, with their
    abstracts, written into ``folder``."""
    feed = icml_feed()
    results = feed["results"]
    kept = [r for r in results if r["id"] == 64188] + [r for r in results if r["id"] != 64188]
    kept = kept[:size]
    ids = {str(r["id"]) for r in kept}
    abstracts = {k: v for k, v in icml_abstracts().items() if k in ids}
    folder.mkdir(parents=True)
    page = {**feed, "count": len(kept), "results": kept}
    (folder / ICML_FEED).write_text(json.dumps(page), encoding="utf-8")
    (folder / ICML_ABSTRACTS).write_text(json.dumps(abstracts), encoding="utf-8")
    return folder


def _hostile_update(tmp_path: Path, home: Path) -> list[str]:
    """64188 bookmarked, then two updates: the second renames and moves it, hostile. The
    options that make the bundled table's rows of the feed's papers the only table."""
    first = _write_feed(tmp_path / "first")
    records = json.loads((first / ICML_FEED).read_text(encoding="utf-8"))["results"]
    flags = cut_flags(
        bundled_cut(tmp_path / "cut", {r["name"]: str(r["id"]) for r in records}.values())
    )
    assert run_cli(*flags, "reading-list", "add", "64188", home=home).returncode == 0
    done = update_here(home, *flags, "--from", str(first))
    assert done.returncode == 0, done.stderr
    feed = json.loads((first / ICML_FEED).read_text(encoding="utf-8"))
    record = next(r for r in feed["results"] if r["id"] == 64188)
    record.update(name=NAME, session="Poster Session 1", room_name=ROOM)
    second = tmp_path / "second"
    shutil.copytree(first, second)
    (second / ICML_FEED).write_text(json.dumps(feed), encoding="utf-8")
    done = update_here(home, *flags, "--from", str(second))
    assert done.returncode == 0, done.stderr
    assert "64188" in done.stdout and "\x1b" not in done.stdout + done.stderr, done.stdout
    return flags


def _notice_in_tmux(tmux: TmuxServer, home: Path, session: str, flags: list[str]) -> str:
    """Start ``paperscope FLAGS`` (the app) in a pane; the screen once the notice has shown."""
    command = " ".join(shlex.quote(x) for x in paperscope(*flags))
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "36",
         f"env {HOME_ENV}={shlex.quote(str(home))} TERM=xterm-256color {command}")  # fmt: skip
    shown = wait_until(lambda: "bookmarked paper(s) moved" in tmux.capture(session), timeout=60)
    screen = wait_until_stable(lambda: tmux.capture(session))
    assert shown, f"waited for the 'Since the last update' notice; the pane shows:\n{screen}"
    return screen


def test_a_hostile_feed_changes_no_clipboard_and_no_title(
    tmp_path: Path, tmux_server: TmuxServer
) -> None:
    home = tmp_path / "home"
    flags = _hostile_update(tmp_path, home)
    tmux = tmux_server
    tmux("new-session", "-d", "-s", "keep", "-x", "120", "-y", "36")
    tmux("set-option", "-s", "set-clipboard", "on")
    screen = _notice_in_tmux(tmux, home, "news", flags)
    meta = home / "data" / "feeds" / "icml2026" / "meta.json"
    stored = json.loads(meta.read_text(encoding="utf-8"))
    assert "PWNED" not in tmux("list-buffers")
    assert "TITLE" not in tmux("display-message", "-p", "-t", "news", "#{pane_title}")
    assert stored["moved"] and "\x1b" not in "".join(stored["moved"])
    assert "64188 T: poster session" in screen, screen  # the room is Hall D, as before

    # A set stored by an older version kept the raw sequences; the notice drops them.
    (meta.parent / "meta.json").write_text(
        json.dumps({**stored, "moved": [OLD_MOVED]}), encoding="utf-8"
    )
    (meta.parent.parent / ".icml2026" / "seen").unlink()  # shown once: show it again
    tmux("kill-session", "-t", "news")
    screen = _notice_in_tmux(tmux, home, "again", flags)
    assert "PWNED" not in tmux("list-buffers")
    titles = tmux("list-panes", "-a", "-F", "#{pane_title}")
    assert "TITLE" not in titles, titles
    assert "64188 T: poster room" in screen, screen
