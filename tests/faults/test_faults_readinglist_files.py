"""The reading-list file: another program's SQLite database, and a list that can only be read.

Another program's database where the list should be is refused and not one byte of it
changes (no tables added, no ``user_version``, no switch to WAL). A list that cannot be
written (read-only folder, full disk) is still listed and exported, with a line saying
that changes cannot be saved. Read-only folders and full disks are made in a private
mount namespace (root ignores file modes) and skipped, with the reason, where it cannot be.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from index_builder.readinglist.identify import APPLICATION_ID
from index_builder.readinglist.migrations import SCHEMA_VERSION
from index_builder.readinglist.store import ReadingList
from tests.helpers.faults import in_namespace, namespace_problem, paperscope, run
from tests.helpers.faults_cli import run_forked
from tests.helpers.shared_builds import build_once, copy_listed

PAPER_ID = "88001"
NO_NAMESPACE = namespace_problem()
needs_namespace = pytest.mark.skipif(NO_NAMESPACE is not None, reason=str(NO_NAMESPACE))


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    """A one-paper source."""
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([{"event_id": int(PAPER_ID), "title": "A Paper To Keep"}]))
    return path


def rl(rows: Path, *args: str) -> list[str]:
    """argv of ``paperscope --no-bundled --source ROWS reading-list ARGS``."""
    return paperscope("--no-bundled", "--source", str(rows), "reading-list", *args)


def db(home: Path) -> Path:
    """The reading-list file of ``home``."""
    return home / "data" / "reading_list.sqlite3"


def folder_digest(folder: Path) -> dict[str, str]:
    """name -> SHA-256 of every file in ``folder``."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


FOREIGN = {
    "other-tables": ["CREATE TABLE notes (body TEXT)", "INSERT INTO notes VALUES ('theirs')"],
    "bookmarks-of-a-browser": [
        "CREATE TABLE bookmarks (paper_id TEXT, added_at TEXT, url TEXT, title TEXT, folder TEXT)",
        "INSERT INTO bookmarks VALUES ('1', 'then', 'https://example.org', 'Ex', 'news')",
    ],
    "another-application-id": [
        "PRAGMA application_id = 1234",
        "CREATE TABLE bookmarks (paper_id TEXT PRIMARY KEY, added_at TEXT)",
    ],
}


@pytest.mark.parametrize("case", sorted(FOREIGN))
def test_another_programs_database_is_refused_and_unchanged(
    case: str, rows: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    db(home).parent.mkdir(parents=True)
    with sqlite3.connect(db(home)) as conn:
        for sql in FOREIGN[case]:
            conn.execute(sql)
    conn.close()
    before = folder_digest(db(home).parent)
    for action in (["add", PAPER_ID], ["list"], ["note", PAPER_ID, "x"]):
        done = run_forked(home, rl(rows, *action))
        assert done.returncode == 1, done.stdout
        assert "Traceback" not in done.stderr
        assert "not a PaperScope reading list" in done.stderr and "untouched" in done.stderr
    assert folder_digest(db(home).parent) == before  # same bytes, no -wal or -shm beside it


def test_a_list_from_before_the_application_id_is_still_ours(rows: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = run_forked(home, rl(rows, "add", PAPER_ID))
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db(home)) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        conn.execute("PRAGMA application_id = 0")  # as an earlier PaperScope wrote it:
        conn.execute("DROP TABLE dismissed")  # schema version 1, from before For you
        conn.execute("ALTER TABLE bookmarks DROP COLUMN tags")  # and before tags (version 4)
        for later in ("library", "watches"):  # nor the library and watches of version 3
            conn.execute(f"DROP TABLE IF EXISTS {later}")
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    done = run_forked(home, rl(rows, "note", PAPER_ID, "still", "mine"))
    assert done.returncode == 0, done.stderr
    with ReadingList(db(home)) as store:
        bm = store.get(PAPER_ID)
        assert bm is not None and bm.note == "still mine"
    with sqlite3.connect(db(home)) as conn:  # migrated to the current schema on the way
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT count(*) FROM dismissed").fetchone()[0] == 0
    conn.close()


def _build_listed(folder: Path) -> None:
    """``rows.json`` and ``home``, whose list holds the paper with a note, folded into
    the main file (real command line)."""
    folder.mkdir(parents=True)
    rows = folder / "rows.json"
    rows.write_text(json.dumps([{"event_id": int(PAPER_ID), "title": "A Paper To Keep"}]))
    home = folder / "home"
    for action in (["add", PAPER_ID], ["note", PAPER_ID, "keep", "me"]):
        done = run_forked(home, rl(rows, *action))
        assert done.returncode == 0, done.stderr
    with sqlite3.connect(db(home)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


@pytest.fixture(scope="module")
def listed_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of :func:`_build_listed`, made once per test run (read only)."""
    return build_once(tmp_path_factory, "faults-reading-list-files-listed", _build_listed)


@pytest.fixture
def listed(listed_built: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of a home whose list holds the paper with a note, and its source."""
    return copy_listed(listed_built, tmp_path)


@needs_namespace
def test_read_only_data_folder_still_lists_and_exports(listed: tuple[Path, Path]) -> None:
    home, rows = listed
    data = db(home).parent
    ro = f"mount --bind -o ro {data} {data}"
    for action in (["list"], ["export", "--format", "markdown"]):
        done = run(home, in_namespace(ro, rl(rows, *action)))
        assert done.returncode == 0, done.stderr
        assert "A Paper To Keep" in done.stdout
        assert "changes cannot be saved" in done.stderr
    done = run(home, in_namespace(ro, rl(rows, "note", PAPER_ID, "lost?")))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "read-only" in done.stderr
    with ReadingList(db(home)) as store:
        bm = store.get(PAPER_ID)
        assert bm is not None and bm.note == "keep me"


FULL = """
set -e
data="$1"; shift
cp -a "$data" "$data.copy"
mount -t tmpfs -o size=200k tmpfs "$data"
cp -a "$data.copy/." "$data/"
rm -f "$data"/*-shm "$data"/*-wal
dd if=/dev/zero of="$data/filler" bs=4k 2>/dev/null || true
exec "$@"
"""


@needs_namespace
def test_full_disk_still_lists(listed: tuple[Path, Path]) -> None:
    home, rows = listed
    data = db(home).parent
    argv = ["unshare", "-m", "--propagation", "private", "sh", "-c", FULL, "sh", str(data)]
    done = run(home, [*argv, *rl(rows, "list")])
    shutil.rmtree(f"{data}.copy", ignore_errors=True)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "A Paper To Keep" in done.stdout and "keep me" in done.stdout
