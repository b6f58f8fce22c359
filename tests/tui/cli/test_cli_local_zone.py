"""``--timezone local`` is this computer's zone with its rules, in a real process with a real
``TZ`` (issue 29, item 6): with ``TZ=Europe/Berlin`` a December session is in CET and a July
one in CEST, and a typed December hour is read in CET, whatever the first session's offset.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.paths import HOME_ENV
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.store import ReadingList
from tests.helpers.cli_cut import bundled_cut, cut_flags

WINTER = Paper(
    id="990001",
    title="A winter workshop paper",
    session="Winter Session",
    starts_at="2026-12-08T09:00:00+00:00",  # 10:00-12:00 CET
    ends_at="2026-12-08T11:00:00+00:00",
)


FLAGS: list[str] = []
"""The global options of every command of a test (``berlin_home``: its source)."""


@pytest.fixture
def berlin_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home whose list holds a July poster (Seoul) and a December session; its only
    source is the bundled table's rows of that poster (:mod:`tests.helpers.cli_cut`: each
    process reads them, not the whole catalogue's cache)."""
    root = tmp_path / "home"
    cut = bundled_cut(tmp_path / "cut", ["62980"])
    monkeypatch.setattr(f"{__name__}.FLAGS", cut_flags(cut))
    with ReadingList(root / "data" / "reading_list.sqlite3") as rl:
        rl.merge([Bookmark.from_paper(WINTER)])
    assert paperscope(root, "reading-list", "add", "62980").returncode == 0
    return root


def paperscope(
    home: Path, *argv: str, tz: str = "Europe/Berlin"
) -> subprocess.CompletedProcess[str]:
    """``paperscope ARGV`` in a real process with ``TZ=tz`` (and the test's global options)."""
    env = {**os.environ, HOME_ENV: str(home), "TZ": tz}
    return subprocess.run(
        [sys.executable, "-m", "tui", *FLAGS, *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_local_zone_keeps_its_rules_in_the_agenda(berlin_home: Path) -> None:
    done = paperscope(
        berlin_home, "--timezone", "local", "agenda", "--day", "2026-12-08", "--at", "10:30"
    )
    assert done.returncode == 0, done.stderr
    assert "At Tue 8 Dec 2026, 10:30 CET:" in done.stdout
    assert "  now: Winter Session, 10:00–12:00 CET" in done.stdout
    data = json.loads(
        paperscope(
            berlin_home, "--timezone", "local", "agenda", "--json", "--at", "10:30",
            "--day", "2026-12-08",
        ).stdout
    )  # fmt: skip
    assert data["moment"] == "2026-12-08T10:30:00+01:00"
    assert [s["name"] for s in data["running"]] == ["Winter Session"]
    whole = paperscope(berlin_home, "--timezone", "local", "agenda").stdout
    assert "Wednesday 8 July 2026\n  Poster Session 3, 03:30–05:15 CEST\n" in whole
    assert "Tuesday 8 December 2026\n  Winter Session, 10:00–12:00 CET\n" in whole


def test_local_zone_in_show_follows_the_date(berlin_home: Path) -> None:
    done = paperscope(berlin_home, "--timezone", "local", "show", "62980")
    assert "Wed 8 Jul, 03:30–05:15 CEST" in done.stdout, done.stdout
    other = paperscope(berlin_home, "--timezone", "local", "show", "62980", tz="America/New_York")
    assert "Tue 7 Jul, 21:30–23:15 EDT" in other.stdout, other.stdout
