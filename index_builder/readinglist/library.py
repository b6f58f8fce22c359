"""The user's own library (papers owned, from a Zotero, Mendeley or JabRef export).

Kept in the reading list's SQLite file beside the bookmarks (the ``library`` table,
schema version 3, :mod:`~index_builder.readinglist.migrations`), not as bookmarks:
one row per paper by its :attr:`~index_builder.readinglist.library_entry.LibraryEntry.key`,
so importing the same export twice, or the same paper from two formats, keeps it once
(the copy that says more wins). A list that can only be read and was written before
version 3 simply has no library.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

from index_builder.readinglist.bookmark import now_iso
from index_builder.readinglist.library_entry import LibraryEntry
from index_builder.readinglist.store import ReadingList, ReadingListError

_COLUMNS = "key, title, authors, abstract, doi, arxiv, openreview, year, source"


class Library:
    """The library of ``reading_list`` (the same file, its transactions)."""

    def __init__(self, reading_list: ReadingList) -> None:
        self.reading_list = reading_list

    def _rows(self, where: str = "", params: tuple[str, ...] = ()) -> list[sqlite3.Row]:
        sql = f"SELECT {_COLUMNS} FROM library {where} ORDER BY title COLLATE NOCASE, key"
        try:
            return self.reading_list._read(sql, params)
        except ReadingListError as exc:  # a read-only list from before the table: empty
            if "no such table" in str(exc):
                return []
            raise

    def entries(self) -> list[LibraryEntry]:
        """Every entry, by title."""
        return [_entry(r) for r in self._rows()]

    def count(self) -> int:
        """How many papers the library holds."""
        return len(self._rows())

    def add(self, entries: Iterable[LibraryEntry]) -> tuple[int, int]:
        """Add ``entries`` in one transaction; (how many were new, how many were known).

        A known paper keeps the copy that says more (an abstract, more authors).
        """
        new = known = 0
        with self.reading_list.transaction() as conn:
            for entry in entries:
                row = conn.execute(
                    f"SELECT {_COLUMNS} FROM library WHERE key = ?", (entry.key,)
                ).fetchone()
                if row is None:
                    new += 1
                else:
                    known += 1
                    entry = _entry(row).richer(entry)
                conn.execute(
                    f"INSERT OR REPLACE INTO library ({_COLUMNS}, added_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        entry.key,
                        entry.title,
                        json.dumps(list(entry.authors), ensure_ascii=False),
                        entry.abstract,
                        entry.doi,
                        entry.arxiv,
                        entry.openreview,
                        entry.year,
                        entry.source,
                        now_iso(),
                    ),
                )
        return new, known

    def remove(self, keys: Iterable[str]) -> int:
        """Remove the entries with these keys; how many were removed."""
        with self.reading_list.transaction() as conn:
            before = conn.total_changes
            conn.executemany("DELETE FROM library WHERE key = ?", [(k,) for k in keys])
            return conn.total_changes - before

    def clear(self) -> int:
        """Remove every entry; how many there were."""
        with self.reading_list.transaction() as conn:
            return conn.execute("DELETE FROM library").rowcount


def _entry(row: tuple[str, ...] | sqlite3.Row) -> LibraryEntry:
    key, title, authors, abstract, doi, arxiv, openreview, year, source = row
    del key
    return LibraryEntry(
        title=title,
        authors=tuple(json.loads(authors or "[]")),
        abstract=abstract,
        doi=doi,
        arxiv=arxiv,
        openreview=openreview,
        year=year,
        source=source,
    )
