"""Bookmarks and ids through the real command line: twins after a join, imports, hostile ids.

A paper can be bookmarked under one id (an abstract's ``a`` id) and again under another
(its table row) before a change of sources joins the two. From then on the two bookmarks
are twins: every command must act on both as one, merged without losing a note or the
more advanced status. A source file must never take over an id that another paper owns.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from index_builder.readinglist.store import ReadingList
from tests.helpers.cli import run_cli

ROW = "99001"
TITLE = "Quantum Gardening for Sparse Orchards"
ABSTRACT = (
    "We study how migratory birds choose resting places along coastal routes "
    "using satellite tags and weather data."
)


def cli(home: Path, sources: list[Path], *args: str) -> subprocess.CompletedProcess[str]:
    """``paperscope --no-bundled --source ... ARGS`` on ``home``."""
    options = ["--no-bundled"]
    for source in sources:
        options += ["--source", str(source)]
    return run_cli(*options, *args, home=home)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    """stdout of a command that must succeed without a traceback."""
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def stored(home: Path) -> dict[str, tuple[str, str]]:
    """paper id -> (status, note), straight from the file."""
    with ReadingList(home / "data" / "reading_list.sqlite3") as store:
        return {b.paper_id: (b.status, b.note) for b in store.all()}


@pytest.fixture(scope="module")
def twins_made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A folder with a home whose list holds the row and the (then unjoined) abstract, each
    with a note, and the sources, since changed so that the abstract joins the row.

    Made once per module through the real command line (seven runs); each test takes a
    copy (:func:`twins`), so every test still starts from this state, untouched.
    """
    folder = tmp_path_factory.mktemp("twins")
    rows, abstracts = folder / "rows.json", folder / "abs.json"
    rows.write_text(json.dumps([{"event_id": int(ROW), "title": TITLE, "authors": ["Ada Row"]}]))
    abstracts.write_text(json.dumps([{"abstract": ABSTRACT}]))
    home, sources = folder / "home", [rows, abstracts]
    found = json.loads(ok(cli(home, sources, "search", "--json", "migratory")))
    abstract_id = found["hits"][0]["id"] if isinstance(found, dict) else found[0]["id"]
    assert abstract_id.startswith("a")
    ok(cli(home, sources, "reading-list", "add", ROW, abstract_id))
    ok(cli(home, sources, "reading-list", "note", ROW, "row note"))
    ok(cli(home, sources, "reading-list", "note", abstract_id, "abstract note"))
    ok(cli(home, sources, "reading-list", "status", abstract_id, "reading"))
    # The abstract's file now names the row's title: the abstract joins the row.
    abstracts.write_text(json.dumps([{"title": TITLE, "abstract": ABSTRACT}]))
    shown = json.loads(ok(cli(home, sources, "show", "--json", abstract_id)))
    assert shown["id"] == ROW, "the abstract did not join the row"
    return folder, abstract_id


@pytest.fixture
def twins(twins_made: tuple[Path, str], tmp_path: Path) -> tuple[Path, list[Path], str]:
    """A private copy of :func:`twins_made`: its home, its two sources and the abstract's id."""
    made, abstract_id = twins_made
    folder = shutil.copytree(made, tmp_path / "twins")
    return folder / "home", [folder / "rows.json", folder / "abs.json"], abstract_id


def test_status_by_alias_lands_on_the_merged_twins(twins: tuple[Path, list[Path], str]) -> None:
    home, sources, abstract_id = twins
    ok(cli(home, sources, "reading-list", "status", abstract_id, "read"))
    assert stored(home) == {ROW: ("read", "row note\n\nabstract note")}


def test_remove_by_alias_removes_the_paper_not_a_neighbour(
    twins: tuple[Path, list[Path], str],
) -> None:
    home, sources, abstract_id = twins
    out = ok(cli(home, sources, "reading-list", "list", "--json"))
    [merged] = json.loads(out)  # list merges the twins: one bookmark, both notes
    assert merged["paper_id"] == ROW
    assert merged["note"] == "row note\n\nabstract note"
    assert merged["status"] == "reading"  # the more advanced of to-read and reading
    assert abstract_id in merged["aliases"]
    ok(cli(home, sources, "reading-list", "remove", abstract_id))
    assert stored(home) == {}


def test_note_by_row_id_keeps_the_twin_note(twins: tuple[Path, list[Path], str]) -> None:
    home, sources, _abstract_id = twins
    ok(cli(home, sources, "reading-list", "status", ROW, "to-read"))
    # The twins were merged first (both notes, "reading"), then the status set as asked.
    assert stored(home) == {ROW: ("to-read", "row note\n\nabstract note")}


def test_import_whose_alias_is_another_bookmark_merges_twins(
    twins: tuple[Path, list[Path], str], tmp_path: Path
) -> None:
    home, _sources, abstract_id = twins
    # Without the new sources the two bookmarks are still separate rows of the file.
    assert set(stored(home)) == {ROW, abstract_id}
    entry = {"paper_id": "x-elsewhere", "aliases": [ROW, abstract_id], "note": "imported"}
    path = tmp_path / "import.json"
    path.write_text(json.dumps([entry]))
    ok(cli(home, [], "reading-list", "import", str(path)))
    [(paper_id, (status, note))] = stored(home).items()
    assert paper_id in {ROW, abstract_id}
    assert status == "reading"
    for part in ("row note", "abstract note", "imported"):
        assert part in note


def test_a_source_cannot_take_over_another_papers_id(tmp_path: Path) -> None:
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps([{"event_id": 64038, "title": TITLE, "url": "https://ok.example/"}]))
    home = tmp_path / "home"
    ok(cli(home, [rows], "reading-list", "add", "64038"))
    ok(cli(home, [rows], "reading-list", "note", "64038", "mine"))
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps([{"id": "64038", "title": "Evil", "url": "https://evil.example/"}]))
    done = cli(home, [rows, evil], "reading-list", "list", "--json")
    [bm] = json.loads(ok(done))
    assert bm["paper_id"] == "64038" and bm["title"] == TITLE and "evil" not in bm["url"]
    searched = cli(home, [rows, evil], "search", "--json", "Evil")
    assert "evil.json" in searched.stderr and "64038" in searched.stderr  # the clash is named
    evil_id = json.loads(ok(searched))
    hits = evil_id["hits"] if isinstance(evil_id, dict) else evil_id
    [other] = [h["id"] for h in hits if h["id"] != "64038"]
    # Bookmarking the hostile paper bookmarks it, and leaves the real 64038 alone.
    ok(cli(home, [rows, evil], "reading-list", "add", other))
    with ReadingList(home / "data" / "reading_list.sqlite3") as store:
        real = store.get("64038")
        assert real is not None and real.copy.title == TITLE and real.note == "mine"
        assert real.copy.url == "https://ok.example/"
        assert len(store) == 2
