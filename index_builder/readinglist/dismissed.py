"""Papers the user dismissed ("not interested"), kept in the reading list's database.

For you (:meth:`SearchIndex.recommend <index_builder.search.engine.SearchIndex.recommend>`)
leaves them out and counts them against the papers like them. They live in the
``dismissed`` table (schema version 2, :mod:`~index_builder.readinglist.migrations`) of
the same SQLite file as the bookmarks, written in its transactions; a list that can only
be read and was written before version 2 simply has none.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from index_builder.readinglist.bookmark import now_iso
from index_builder.readinglist.store import ReadingList, ReadingListError


class Dismissals:
    """The dismissed papers of ``reading_list`` (ids as they were when dismissed)."""

    def __init__(self, reading_list: ReadingList) -> None:
        self.reading_list = reading_list

    def _rows(self) -> list[sqlite3.Row]:
        try:
            return self.reading_list._read(
                "SELECT paper_id, dismissed_at FROM dismissed ORDER BY dismissed_at, paper_id"
            )
        except ReadingListError as exc:  # a read-only list from before the table: none
            if "no such table" in str(exc):
                return []
            raise

    def ids(self) -> frozenset[str]:
        """Every dismissed paper id."""
        return frozenset(r[0] for r in self._rows())

    def all(self) -> list[dict[str, Any]]:
        """``{"paper_id", "dismissed_at"}`` for each, oldest first (the JSON export's form)."""
        return [{"paper_id": r[0], "dismissed_at": r[1]} for r in self._rows()]

    def add(self, paper_id: str, *, at: str | None = None) -> bool:
        """Dismiss ``paper_id``; False when it already was."""
        with self.reading_list.transaction() as conn:
            cur = conn.execute(
                "INSERT OR IGNORE INTO dismissed (paper_id, dismissed_at) VALUES (?, ?)",
                (paper_id, at or now_iso()),
            )
            return cur.rowcount > 0

    def remove(self, paper_id: str) -> bool:
        """Take ``paper_id`` back (undo); False when it was not dismissed."""
        with self.reading_list.transaction() as conn:
            cur = conn.execute("DELETE FROM dismissed WHERE paper_id = ?", (paper_id,))
            return cur.rowcount > 0

    def merge(self, items: Iterable[dict[str, Any]]) -> int:
        """Add the dismissals of an import (``paper_id``, ``dismissed_at``); how many were new."""
        rows = [
            (str(item["paper_id"]), str(item.get("dismissed_at") or now_iso()))
            for item in items
            if isinstance(item, dict) and isinstance(item.get("paper_id"), str)
        ]
        if not rows:
            return 0
        with self.reading_list.transaction() as conn:
            before = conn.total_changes
            conn.executemany(
                "INSERT OR IGNORE INTO dismissed (paper_id, dismissed_at) VALUES (?, ?)", rows
            )
            return conn.total_changes - before
