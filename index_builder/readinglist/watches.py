"""Watches: saved queries whose new matches ``paperscope update`` reports.

Kept in the reading list's SQLite file (the ``watches`` table, schema version 3). A
watch has a name (the query itself unless given one) and a query in the search syntax;
the caller checks that the query parses (``paperscope watch add`` refuses one that does
not, with one line saying why).
Which matches are new is not stored here: a paper is new while the last update of its
venue added it (:func:`index_builder.feeds.store.added_ids`, ``is:new``), so it stays
new until the next update that does not add it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from index_builder.readinglist.bookmark import now_iso
from index_builder.readinglist.store import ReadingList, ReadingListError


class WatchError(ValueError):
    """A watch that cannot be added or removed; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class Watch:
    """A saved query and the name it is shown under."""

    name: str
    query: str


class Watches:
    """The watches of ``reading_list`` (the same file, its transactions)."""

    def __init__(self, reading_list: ReadingList) -> None:
        self.reading_list = reading_list

    def all(self) -> list[Watch]:
        """Every watch, in the order they were added."""
        try:
            rows = self.reading_list._read("SELECT name, query FROM watches ORDER BY rowid")
        except ReadingListError as exc:  # a read-only list from before the table: none
            if "no such table" in str(exc):
                return []
            raise
        return [Watch(r[0], r[1]) for r in rows]

    def add(self, query: str, name: str = "") -> Watch:
        """Save ``query`` under ``name`` (default: the query); :class:`WatchError` if taken."""
        query = " ".join(query.split())
        if not query:
            raise WatchError('a watch needs a query (words, author:"…", topic:…, track:…)')
        watch = Watch(" ".join(name.split()) or query, query)
        with self.reading_list.transaction() as conn:
            try:
                conn.execute(
                    "INSERT INTO watches (name, query, added_at) VALUES (?, ?, ?)",
                    (watch.name, watch.query, now_iso()),
                )
            except sqlite3.IntegrityError as exc:
                raise WatchError(
                    f"a watch named {watch.name!r} exists already (watch remove it first)"
                ) from exc
        return watch

    def remove(self, name: str) -> bool:
        """Remove the watch named ``name``; False when there is none."""
        with self.reading_list.transaction() as conn:
            return conn.execute("DELETE FROM watches WHERE name = ?", (name,)).rowcount > 0
