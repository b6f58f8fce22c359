"""Inputs that raised tracebacks: session times in year 1, 5 or 9999, hostile import files,
and a standard output that only takes ASCII. Each gives one clear line or "time unknown",
the documented exit status, and nothing half-written (real processes, real files).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from index_builder.model import Paper
from tests.helpers.faults import paperscope, run
from tests.helpers.faults_cli import run_forked
from tests.helpers.shared_builds import build_once
from tui.widgets.paper_text import session_rows

TIMES = {
    "88005": ("0001-01-01T00:30:00+07:00", "0001-01-01T01:00:00+07:00"),
    "88006": ("9999-12-31T23:00:00-07:00", "9999-12-31T23:30:00-07:00"),
    "88007": ("0005-03-01T10:00:00+00:00", "0005-03-01T11:00:00+00:00"),
    "88008": ("2026-07-07T10:00:00-07:00", "2026-07-07T11:00:00-07:00"),
}


def _build_timed(folder: Path) -> None:
    """``years.json`` and ``home``, whose list holds its four papers (real command line)."""
    folder.mkdir(parents=True)
    source = folder / "years.json"
    records = [
        {"event_id": int(i), "title": f"Paper {i} café", "session": f"S{i}",
         "starts_at": s, "ends_at": e}
        for i, (s, e) in TIMES.items()
    ]  # fmt: skip
    source.write_text(json.dumps(records))
    argv = paperscope("--no-bundled", "--source", str(source))
    done = run_forked(folder / "home", [*argv, "reading-list", "add", *TIMES])
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def timed_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of :func:`_build_timed`, made once per test run (read only)."""
    return build_once(tmp_path_factory, "faults-tracebacks-timed", _build_timed)


@pytest.fixture
def timed(timed_built: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    """A private copy of a home whose list holds four papers, three with impossible
    session years, and the argv of its source (which stays where the home was made from
    it: its path is in the catalogue's fingerprint)."""
    home = Path(shutil.copytree(timed_built / "home", tmp_path / "home", symlinks=True))
    return home, paperscope("--no-bundled", "--source", str(timed_built / "years.json"))


def test_ics_export_with_impossible_years(timed: tuple[Path, list[str]]) -> None:
    home, argv = timed
    done = run_forked(home, [*argv, "reading-list", "export", "--format", "ics"])
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    starts = [line for line in done.stdout.splitlines() if line.startswith("DTSTART")]
    assert starts == ["DTSTART:20260707T170000Z"]  # only the real time; no "50301T..."


@pytest.mark.parametrize("paper_id", ["88005", "88006"])
def test_paper_view_times_outside_the_calendar_are_unknown(paper_id: str) -> None:
    starts, ends = TIMES[paper_id]
    paper = Paper(id=paper_id, title="x", session="S", starts_at=starts, ends_at=ends)
    assert session_rows(paper) == [("Poster", "S · time unknown")]


def test_import_nested_too_deep_and_lone_surrogate(
    timed: tuple[Path, list[str]], tmp_path: Path
) -> None:
    home, argv = timed
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    surrogate = tmp_path / "surrogate.json"
    surrogate.write_text('[{"paper_id": "x\\ud800y", "note": "a"}]')
    db = home / "data" / "reading_list.sqlite3"
    for path in (deep, surrogate):
        done = run_forked(home, [*argv, "reading-list", "import", str(path)])
        assert done.returncode == 1
        assert "Traceback" not in done.stderr and path.name in done.stderr
    listed = run_forked(home, [*argv, "reading-list", "list", "--json"])
    assert sorted(b["paper_id"] for b in json.loads(listed.stdout)) == sorted(TIMES)
    assert db.exists()


def test_ascii_only_standard_output(timed: tuple[Path, list[str]]) -> None:
    home, argv = timed
    for command in (["reading-list", "list"], ["search", "café"], ["show", "88008"]):
        done = run(home, [*argv, *command], env={"PYTHONIOENCODING": "ascii"})
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert "Paper 88008 caf" in done.stdout
