"""The reading list: bookmarks in one SQLite file that nothing loses.

WAL lets two app windows and a CLI call write the same file; every write runs in
``BEGIN IMMEDIATE`` so a crash or a failed write leaves the last committed state;
a busy timeout waits for another writer. ``PRAGMA user_version`` holds the schema
version and :data:`MIGRATIONS` brings an older file up to date.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from index_builder.model import Marked, Paper
from index_builder.readinglist.bookmark import (
    STATUSES,
    Bookmark,
    Status,
    check_status,
    merge_bookmarks,
    merge_notes,
    merge_twins,
    now_iso,
    tag_set,
)
from index_builder.readinglist.database import (
    ALL_IDS,
    COLUMNS,
    FIND,
    SORT_ORDERS,
    SORT_SQL,
    ErrorKind,
    ReadingListError,
    SortOrder,
    delete_bookmark,
    in_use,
    open_database,
    put_bookmark,
    quarantine,
    row_to_bookmark,
    translate,
)
from index_builder.readinglist.migrations import MIGRATIONS, SCHEMA_VERSION

TAGGED = "SELECT paper_id, aliases, tags FROM bookmarks WHERE tags != '[]'"
"""The bookmarks with tags: id, aliases (JSON) and tags (JSON)."""

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "STATUSES",
    "Bookmark",
    "ErrorKind",
    "ReadingList",
    "ReadingListError",
    "SortOrder",
    "Status",
    "merge_notes",
    "quarantine",
]


class ReadingList:
    """The SQLite store of bookmarks at ``path`` (created on first use).

    Raises :class:`ReadingListError` when the file is not a readable database
    (``kind == "corrupt"``: the caller may :func:`quarantine` it), is locked by
    another process longer than ``timeout`` seconds, or was written by a newer
    version. Safe to share between threads.
    """

    def __init__(self, path: Path, *, timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        """How long a write waits for another process's lock, in seconds."""
        self._lock = threading.RLock()
        self._ids: Marked | None = None
        self._ids_version: tuple[int, int] = (-1, -1)
        self._conn, self.read_only = open_database(self.path, timeout)
        """``read_only``: None, or why the list can only be read (writes raise ``readonly``)."""
        self._closed = False
        in_use(self.path, +1)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Run a write in ``BEGIN IMMEDIATE``; commit on success, roll back on any error."""
        if self.read_only:
            raise ReadingListError(f"nothing was changed: {self.read_only}", "readonly")
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise translate(exc, self.path, "write") from exc
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise translate(exc, self.path, "write") from exc
                raise

    def _read(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                cur = self._conn.execute(sql, params)
                return list(cur.fetchall())
            except sqlite3.Error as exc:
                raise translate(exc, self.path, "read") from exc

    def _find(
        self, conn: sqlite3.Connection, keys: Iterable[str], prefer: Sequence[str] = ()
    ) -> Bookmark | None:
        """The one bookmark answering to ``keys``; twins are merged into it first (in the
        caller's transaction), so that no write ever picks one of them at random."""
        wanted = json.dumps(sorted({k for k in keys if k}))
        found = [row_to_bookmark(r) for r in conn.execute(FIND, (wanted, wanted)).fetchall()]
        if len(found) < 2:
            return found[0] if found else None
        merged = merge_twins(found, tuple(prefer))
        for twin in found:
            delete_bookmark(conn, twin.paper_id)
        put_bookmark(conn, merged)
        return merged

    def _view(self, keys: Iterable[str], prefer: Sequence[str]) -> Bookmark | None:
        """What :meth:`_find` would return, without writing (twins merged in memory)."""
        wanted = json.dumps(sorted({k for k in keys if k}))
        found = [row_to_bookmark(r) for r in self._read(FIND, (wanted, wanted))]
        return merge_twins(found, tuple(prefer)) if found else None

    def get(self, id_or_alias: str) -> Bookmark | None:
        """The bookmark stored under ``id_or_alias`` or having it as an alias."""
        return self._view([id_or_alias], [id_or_alias])

    def find(self, paper: Paper) -> Bookmark | None:
        """The bookmark of ``paper``, matched by its id or any alias on either side."""
        return self._view([paper.id, *paper.aliases], [paper.id])

    def is_bookmarked(self, id_or_alias: str) -> bool:
        """True when ``id_or_alias`` is on the list (as an id or an alias)."""
        return id_or_alias in self.ids()

    def ids(self) -> Marked:
        """Every id and alias on the list, with each tag's (:class:`~index_builder.model.
        Marked`, for ``tag:NAME``); cached until any connection commits a change."""
        with self._lock:
            try:
                data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.Error as exc:
                raise translate(exc, self.path, "read") from exc
            version = (data_version, self._conn.total_changes)
            if self._ids is None or version != self._ids_version:
                rows = self._read(ALL_IDS)
                tags: dict[str, set[str]] = {}
                for pid, aliases, tagged in self._read(TAGGED):
                    for tag in json.loads(tagged or "[]"):
                        tags.setdefault(str(tag).casefold(), set()).update(
                            (pid, *json.loads(aliases or "[]"))
                        )
                frozen = {tag: frozenset(ids) for tag, ids in tags.items()}
                self._ids = Marked(frozenset(r[0] for r in rows), frozen)
                self._ids_version = version
            return self._ids

    def paper_ids(self) -> list[str]:
        """The id each bookmark is stored under (no aliases), in no particular order."""
        return [r[0] for r in self._read("SELECT paper_id FROM bookmarks")]

    def add(self, paper: Paper) -> bool:
        """Bookmark ``paper``; False (and its copy refreshed) when it already was."""
        with self.transaction() as conn:
            old = self._find(conn, [paper.id, *paper.aliases], [paper.id])
            if old is None:
                put_bookmark(conn, Bookmark.from_paper(paper))
                return True
            self._rekey(conn, old, paper)
            return False

    def _rekey(self, conn: sqlite3.Connection, old: Bookmark, paper: Paper) -> bool:
        new = old.with_paper(paper)
        if new == old:
            return False
        if new.paper_id != old.paper_id:
            delete_bookmark(conn, old.paper_id)
            # The paper may also have a bookmark under its new id: keep one, losing nothing.
            twin = self._find(conn, [new.paper_id], [new.paper_id])
            if twin is not None:
                new = merge_bookmarks(twin, new)
        put_bookmark(conn, new)
        return True

    def remove(self, id_or_alias: str) -> Bookmark | None:
        """Remove the bookmark and return it (for :meth:`restore`), or None if absent."""
        with self.transaction() as conn:
            old = self._find(conn, [id_or_alias], [id_or_alias])
            if old is not None:
                old = replace(old, place=delete_bookmark(conn, old.paper_id))
            return old

    def restore(self, bookmark: Bookmark) -> None:
        """Put a removed bookmark back exactly as it was (undo), in its place if still free."""
        with self.transaction() as conn:
            put_bookmark(conn, bookmark, rowid=bookmark.place)

    def toggle(self, paper: Paper) -> bool:
        """Add ``paper`` if absent, else remove it; True when it is now bookmarked."""
        with self.transaction() as conn:
            old = self._find(conn, [paper.id, *paper.aliases], [paper.id])
            if old is None:
                put_bookmark(conn, Bookmark.from_paper(paper))
                return True
            delete_bookmark(conn, old.paper_id)
            return False

    def _update(self, id_or_alias: str, change: Callable[[Bookmark], Bookmark]) -> Bookmark:
        with self.transaction() as conn:
            old = self._find(conn, [id_or_alias], [id_or_alias])
            if old is None:
                raise KeyError(id_or_alias)
            new = replace(change(old), updated_at=now_iso())
            put_bookmark(conn, new)
            return new

    def set_status(self, id_or_alias: str, status: str) -> Bookmark:
        """Set the status; ``KeyError`` if not bookmarked, ``ValueError`` if unknown status."""
        checked = check_status(status)
        return self._update(id_or_alias, lambda b: replace(b, status=checked))

    def set_note(self, id_or_alias: str, note: str, *, shown: str | None = None) -> Bookmark:
        """Replace the note; ``KeyError`` if not bookmarked.

        ``shown`` is the note the user edited (compare-and-set): if the stored note
        changed meanwhile, nothing is overwritten and the result holds both texts.
        """

        def change(b: Bookmark) -> Bookmark:
            if shown is None or b.note.strip() == shown.strip():
                return replace(b, note=note)
            return replace(b, note=merge_notes(b.note, note))

        return self._update(id_or_alias, change)

    def tag(self, id_or_alias: str, tags: Iterable[str]) -> Bookmark:
        """Add ``tags`` to a bookmark (those it has stay); ``KeyError`` if not bookmarked,
        ``ValueError`` for a bad tag. The stored tags are read inside the write, so two
        processes tagging at once both keep their tags."""
        wanted = tag_set(tags)
        return self._update(id_or_alias, lambda b: replace(b, tags=tag_set((*b.tags, *wanted))))

    def untag(self, id_or_alias: str, tags: Iterable[str]) -> Bookmark:
        """Remove ``tags`` (compared case-insensitively) from a bookmark; ``KeyError`` if
        not bookmarked."""
        gone = {" ".join(t.split()).casefold() for t in tags}
        return self._update(
            id_or_alias,
            lambda b: replace(b, tags=tuple(t for t in b.tags if t.casefold() not in gone)),
        )

    def tags_in_use(self) -> dict[str, int]:
        """Every tag on the list and how many bookmarks carry it (spellings that differ
        only in case count as one, named as first met), most used first."""
        rows = self._read(
            "SELECT value FROM bookmarks, json_each(bookmarks.tags) ORDER BY bookmarks.rowid"
        )
        counts: dict[str, int] = {}
        names: dict[str, str] = {}
        for (tag,) in rows:
            folded = str(tag).casefold()
            names.setdefault(folded, str(tag))
            counts[folded] = counts.get(folded, 0) + 1
        order = sorted(counts, key=lambda t: (-counts[t], t))
        return {names[t]: counts[t] for t in order}

    def version(self) -> int:
        """A number that changes whenever another connection commits a change to the file."""
        return int(self._read("PRAGMA data_version")[0][0])

    def reconcile(self, papers: Iterable[Paper]) -> int:
        """Re-key bookmarks stored under an alias of a current paper and refresh their copies.

        Returns how many bookmarks changed.
        """
        changed = 0
        with self.transaction() as conn:
            for paper in papers:
                before = conn.total_changes
                old = self._find(conn, [paper.id, *paper.aliases], [paper.id])
                if old is not None:
                    self._rekey(conn, old, paper)
                    changed += conn.total_changes != before
        return changed

    def all(
        self, status: str | None = None, sort: str = "added", tag: str | None = None
    ) -> list[Bookmark]:
        """Every bookmark (only those with ``status`` and ``tag``, compared
        case-insensitively, if given), in the ``sort`` order."""
        if sort not in SORT_SQL:
            raise ValueError(f"unknown sort {sort!r}: use one of {', '.join(SORT_ORDERS)}")
        conditions, params = [], []
        if status is not None:
            conditions.append("status = ?")
            params.append(check_status(status))
        where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
        sql = f"SELECT {COLUMNS} FROM bookmarks {where} ORDER BY {SORT_SQL[sort]}"
        found = [row_to_bookmark(r) for r in self._read(sql, params)]
        if tag is None:
            return found
        wanted = " ".join(tag.split()).casefold()
        return [b for b in found if any(t.casefold() == wanted for t in b.tags)]

    def __len__(self) -> int:
        return int(self._read("SELECT count(*) FROM bookmarks")[0][0])

    def merge(self, bookmarks: Iterable[Bookmark]) -> tuple[int, int]:
        """Merge imported bookmarks in one transaction; return (added, updated).

        A known paper keeps the status of whichever side was updated last and both
        notes when they differ; aliases are united and the earlier ``added_at`` kept.
        """
        added = updated = 0
        with self.transaction() as conn:
            for theirs in bookmarks:
                mine = self._find(conn, theirs.ids, [theirs.paper_id])
                if mine is None:
                    stamp = theirs.added_at or theirs.updated_at or now_iso()
                    put_bookmark(
                        conn,
                        replace(theirs, added_at=stamp, updated_at=theirs.updated_at or stamp),
                    )
                    added += 1
                    continue
                merged = merge_bookmarks(mine, theirs)
                if merged != mine:
                    put_bookmark(conn, merged)
                    updated += 1
        return added, updated

    def close(self) -> None:
        """Close the database (further calls raise)."""
        with self._lock:
            self._conn.close()
            if not self._closed:
                self._closed = True
                in_use(self.path, -1)

    def __enter__(self) -> ReadingList:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_or_recover(path: Path, *, timeout: float = 5.0) -> tuple[ReadingList, str | None]:
    """Open the list; if the file is damaged, move it aside and start a new one.

    Returns the store and, when a file was moved aside, a notice saying where it
    went. Other errors (locked, newer schema, unwritable) are raised.
    """
    try:
        return ReadingList(path, timeout=timeout), None
    except ReadingListError as exc:
        if exc.kind != "corrupt":
            raise
        moved = quarantine(path)
        notice = f"{exc}; it was kept as {moved} and a new reading list was started"
        return ReadingList(path, timeout=timeout), notice
