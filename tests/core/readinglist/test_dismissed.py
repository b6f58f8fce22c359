"""Dismissed papers ("not interested", For you): schema version 2 of the reading list."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from index_builder.model import Paper
from index_builder.readinglist.dismissed import Dismissals
from index_builder.readinglist.exports import export, read_dismissed
from index_builder.readinglist.migrations import SCHEMA_VERSION
from index_builder.readinglist.store import ReadingList


def version_1_list(path: Path) -> None:
    """A list as the version before For you wrote it: its own (application id), v1."""
    with ReadingList(path) as store:
        store.add(Paper("p1", "A paper"))
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE dismissed")
    conn.execute("ALTER TABLE bookmarks DROP COLUMN tags")  # version 3's
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()


def test_a_version_1_list_gets_the_table_and_keeps_its_bookmarks(tmp_path: Path) -> None:
    path = tmp_path / "reading_list.sqlite3"
    version_1_list(path)
    with ReadingList(path) as store:
        assert store.is_bookmarked("p1")
        assert Dismissals(store).add("p9")
        assert Dismissals(store).ids() == {"p9"}
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 2
    conn.close()


def test_add_remove_and_merge(tmp_path: Path) -> None:
    with ReadingList(tmp_path / "list.sqlite3") as store:
        dismissed = Dismissals(store)
        assert dismissed.add("p1", at="2026-07-01T00:00:00Z") and not dismissed.add("p1")
        assert dismissed.remove("p1") and not dismissed.remove("p1")
        assert dismissed.merge([{"paper_id": "p2"}, {"paper_id": 3}, "junk", {"x": 1}]) == 1
        assert dismissed.merge([{"paper_id": "p2"}]) == 0
        assert [d["paper_id"] for d in dismissed.all()] == ["p2"]


def test_the_json_export_holds_them_and_reads_back(tmp_path: Path) -> None:
    with ReadingList(tmp_path / "list.sqlite3") as store:
        Dismissals(store).add("p7", at="2026-07-01T00:00:00Z")
        text = export(store.all(), "json", dismissed=Dismissals(store).all())
    assert read_dismissed(text) == [{"paper_id": "p7", "dismissed_at": "2026-07-01T00:00:00Z"}]
    assert read_dismissed("[]") == [] and read_dismissed("not json") == []
