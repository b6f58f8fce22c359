"""Stored times compare as instants (issue 29, item 8): ``…T10:00:00+09:00`` is earlier
than ``…T02:00:00Z`` though its text sorts after it. New writes are stored in UTC; rows
written before (offsets kept as imported) still sort by the moment they name."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.store import ReadingList

STAMPS = {
    "seoul": "2026-12-01T10:00:00+09:00",  # 01:00Z: the earliest
    "utc": "2026-12-01T02:00:00Z",
    "naive": "2026-12-01T01:30:00",  # no offset: read as UTC
    "berlin": "2026-12-01T04:00:00.250+01:00",  # 03:00:00.250Z: the latest
}
NEWEST_FIRST = ["berlin", "utc", "naive", "seoul"]


def marked(pid: str, stamp: str) -> Bookmark:
    """A bookmark of paper ``pid`` added and updated at ``stamp``."""
    return Bookmark(Paper(id=pid, title=f"paper {pid}"), added_at=stamp, updated_at=stamp)


def test_imported_offsets_sort_by_the_moment(tmp_path: Path) -> None:
    path = tmp_path / "rl.sqlite3"
    with ReadingList(path) as rl:
        rl.merge([marked(pid, stamp) for pid, stamp in STAMPS.items()])
        assert [b.paper_id for b in rl.all(sort="updated")] == NEWEST_FIRST
        assert [b.paper_id for b in rl.all(sort="added")] == NEWEST_FIRST
        stored = {b.paper_id: b.updated_at for b in rl.all()}
    assert stored == {
        "seoul": "2026-12-01T01:00:00Z",
        "utc": "2026-12-01T02:00:00Z",
        "naive": "2026-12-01T01:30:00Z",
        "berlin": "2026-12-01T03:00:00.250Z",
    }


def test_rows_stored_with_offsets_by_an_older_version_sort_by_the_moment(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rl.sqlite3"
    with ReadingList(path) as rl:
        rl.merge([marked(pid, "2026-01-01T00:00:00Z") for pid in STAMPS])
    # What the older version wrote: the imported text as it came, in another process.
    script = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]);"
        "[c.execute('UPDATE bookmarks SET added_at = ?, updated_at = ? WHERE paper_id = ?',"
        " (s, s, p)) for p, s in zip(sys.argv[2::2], sys.argv[3::2])]; c.commit()"
    )
    pairs = [x for item in STAMPS.items() for x in item]
    subprocess.run([sys.executable, "-c", script, str(path), *pairs], check=True)
    with sqlite3.connect(path) as raw:
        assert (
            raw.execute("SELECT updated_at FROM bookmarks WHERE paper_id = 'seoul'").fetchone()[0]
            == STAMPS["seoul"]
        )
    with ReadingList(path) as rl:
        assert [b.paper_id for b in rl.all(sort="updated")] == NEWEST_FIRST
        assert [b.paper_id for b in rl.all(sort="added")] == NEWEST_FIRST
        rl.set_note("seoul", "now the latest")
        assert rl.all(sort="updated")[0].paper_id == "seoul"


def test_text_that_is_no_time_is_kept(tmp_path: Path) -> None:
    with ReadingList(tmp_path / "rl.sqlite3") as rl:
        rl.merge([marked("odd", "sometime in May"), marked("utc", STAMPS["utc"])])
        assert rl.get("odd") is not None and rl.get("odd").updated_at == "sometime in May"  # type: ignore[union-attr]
        assert [b.paper_id for b in rl.all(sort="updated")] == ["utc", "odd"]
