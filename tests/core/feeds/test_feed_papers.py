"""The real feed's records become papers: one paper per paper, tracks, and the quirks.

Each test runs the command line (in this process) against a site on 127.0.0.1 serving
:func:`tests.helpers.feed_data.real_shapes_feed` (orals and spotlights as rows of their
own, the three tracks, null fields, mixed offsets, escaped entities, ``;`` in a name).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import run_cli
from tests.helpers.feed_data import real_shapes_files
from tests.helpers.feed_server import serve


def paperscope(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``paperscope --no-bundled ARGS`` on ``home`` (in this process)."""
    return run_cli("--no-bundled", *args, home=home, env={"COLUMNS": "100"})


def shown(home: Path, paper_id: str) -> dict[str, Any]:
    """``paperscope show ID --json``."""
    done = paperscope(home, "show", paper_id, "--json")
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A home that ran ``paperscope update`` against the served feed."""
    home = tmp_path_factory.mktemp("feed-papers") / "home"
    with serve(real_shapes_files()) as site:
        done = paperscope(home, "update", "--from", site.url)
    assert done.returncode == 0, done.stderr
    yield home


def test_rows_of_one_paper_are_one_paper_under_every_id(home: Path) -> None:
    """The Oral row shares the poster's uid, the Spotlight row its forum id: one paper,
    its id the poster's, the talks' ids aliases that ``show`` resolves."""
    papers = [shown(home, i) for i in ("91001", "91002", "91003")]
    assert all(p == papers[0] for p in papers)
    paper = papers[0]
    assert paper["id"] == "91001" and {"91002", "91003"} <= set(paper["aliases"])
    assert sorted((e["event_id"], e["kind"]) for e in paper["events"]) == [
        (91001, "poster"),
        (91002, "oral"),
        (91003, "oral"),
    ]
    assert paper["oral"] is True
    done = paperscope(home, "search", "walking orders poster halls", "--json")
    assert [h["id"] for h in json.loads(done.stdout)["hits"]] == ["91001"]


def test_a_bookmark_under_a_talk_id_finds_the_paper(home: Path) -> None:
    assert paperscope(home, "reading-list", "add", "91003").returncode == 0
    listed = json.loads(paperscope(home, "reading-list", "list", "--json").stdout)
    assert [b["paper_id"] for b in listed] in (["91003"], ["91001"])
    assert paperscope(home, "reading-list", "remove", "91003").returncode == 0


def test_tracks_from_the_openreview_group(home: Path) -> None:
    tracks = {i: shown(home, i)["track"] for i in ("91001", "91010", "91020", "91030")}
    assert tracks == {
        "91001": "main",
        "91010": "position",
        "91020": "journal",
        "91030": "datasets and benchmarks",
    }
    for query, expected in (
        ("track:position", ["91010"]),
        ("track:journal", ["91020"]),
        ('track:"datasets and benchmarks"', ["91030"]),
    ):
        done = paperscope(home, "search", query, "--json")
        assert [h["id"] for h in json.loads(done.stdout)["hits"]] == expected, query
    mains = json.loads(paperscope(home, "search", "track:main", "--json").stdout)
    assert {h["id"] for h in mains["hits"]} == {"91001", "91040", "91050", "91060"}
    text = paperscope(home, "show", "91010").stdout
    assert "Track:        position" in text


def test_citations_name_a_track_other_than_main(home: Path) -> None:
    position = paperscope(home, "cite", "91010", "--style", "bibtex").stdout
    assert "note = {Position Paper Track}" in position
    journal = paperscope(home, "cite", "91020", "--style", "apa").stdout
    assert "Journal Track." in journal
    main = paperscope(home, "cite", "91001", "--style", "bibtex").stdout
    assert "Track" not in main and "@inproceedings" in main


def test_null_fields_entities_and_semicolons_in_names(home: Path) -> None:
    paper = shown(home, "91040")
    assert paper["authors"] == ["Bo; Li", "Ravi D'souza"]
    assert paper["institutions"] == ["Texas A&M University", "Seoul & Co"]
    assert (paper["abstract"], paper["decision"], paper["session"], paper["topic"]) == (
        "",
        "",
        "",
        "",
    )
    assert paper["starts_at"] == "" and paper["ends_at"] == ""
    assert paper["events"][0]["poster_position"] == ""
    text = paperscope(home, "show", "91040")
    assert text.returncode == 0 and "Bo; Li" in text.stdout


def test_decisions_mark_orals_and_spotlights(home: Path) -> None:
    assert shown(home, "91010")["spotlight"] is True
    assert shown(home, "91001")["decision"] == "Accept (oral)"
    assert shown(home, "91020")["spotlight"] is False
    assert shown(home, "91030")["oral"] is True and shown(home, "91020")["oral"] is False
    done = paperscope(home, "search", "is:oral", "--json")
    assert {h["id"] for h in json.loads(done.stdout)["hits"]} == {"91001", "91030"}
    done = paperscope(home, "search", "is:spotlight", "--json")
    assert {h["id"] for h in json.loads(done.stdout)["hits"]} == {"91001", "91010"}


def test_mixed_offsets_are_one_session_in_walking_order(home: Path) -> None:
    """91050 says 10:30+09:00, 91060 18:30-07:00 the day before: the same moment. They are
    one session (no clash), in board order #301 then #2504, whatever the titles say."""
    assert paperscope(home, "reading-list", "add", "91060", "91050").returncode == 0
    try:
        done = paperscope(home, "agenda", "--json")
        assert done.returncode == 0, done.stderr
        days = json.loads(done.stdout)["days"]
        sessions = [s for d in days for s in d["sessions"]]
        assert len(sessions) == 1 and sessions[0]["clashes_with"] == []
        assert [p["id"] for p in sessions[0]["papers"]] == ["91050", "91060"]
        assert [p["board"] for p in sessions[0]["papers"]] == ["#301", "#2504"]
        text = paperscope(home, "agenda").stdout
        assert text.index("91050") < text.index("91060")
        assert "Wednesday 8 July 2026\n  Poster Session 3, 10:30–12:15 KST" in text
    finally:
        paperscope(home, "reading-list", "remove", "91060", "91050")


def test_update_counts_papers_as_the_catalogue_does(tmp_path: Path) -> None:
    """The Oral and Spotlight rows of 91001 are not papers of their own in update's summary
    nor in what it records as added (is:new): the same 7 papers the catalogue holds."""
    home = tmp_path / "home"
    with serve(real_shapes_files()) as site:
        done = paperscope(home, "update", "--from", site.url)
    assert done.returncode == 0, done.stderr
    dumped = paperscope(home, "dump", "--format", "jsonl").stdout.splitlines()
    ids = sorted(json.loads(line)["id"] for line in dumped)
    assert len(ids) == 7
    assert f"{len(ids)} papers ({len(ids)} added, 0 removed)" in done.stdout, done.stdout
    meta = json.loads((home / "data" / "feeds" / "icml2026" / "meta.json").read_text())
    assert sorted(meta["added"]) == ids
