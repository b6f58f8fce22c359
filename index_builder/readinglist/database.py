"""The reading list's file: opening it (identified, migrated, or read-only), its queries,
errors and the quarantine of a bad file. Migrations are in
:mod:`~index_builder.readinglist.migrations`.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark, check_status, utc_iso
from index_builder.readinglist.identify import (
    APPLICATION_ID,
    ForeignDatabase,
    connect_read_only,
    identify,
)
from index_builder.readinglist.migrations import SCHEMA_VERSION, migrate
from index_builder.text.safe import safe

ErrorKind = Literal["corrupt", "locked", "write", "readonly", "full", "newer", "foreign", "io"]
_SQLITE_MAGIC = b"SQLite format 3\x00"
COLUMNS = (
    "paper_id, aliases, added_at, updated_at, status, note, title, authors, "
    "url, openreview_url, session, starts_at, ends_at, title_derived, tags"
)


SortOrder = Literal["added", "title", "status", "time", "updated"]
SORT_ORDERS: tuple[SortOrder, ...] = ("added", "title", "status", "time", "updated")
SORT_SQL: dict[str, str] = {
    # julianday() reads the offset: instants compare, not their text (+09:00 vs Z).
    "added": "julianday(added_at) DESC, rowid DESC",
    "title": "title COLLATE NOCASE, paper_id",
    "status": (
        "CASE status WHEN 'reading' THEN 0 WHEN 'to-read' THEN 1 ELSE 2 END, "
        "julianday(added_at) DESC"
    ),
    "time": "julianday(starts_at) IS NULL, julianday(starts_at), title COLLATE NOCASE",
    "updated": "julianday(updated_at) DESC, updated_at DESC, paper_id",
}
FIND = (
    f"SELECT {COLUMNS} FROM bookmarks WHERE paper_id IN (SELECT value FROM json_each(?) UNION"
    " SELECT paper_id FROM bookmark_aliases WHERE alias IN (SELECT value FROM json_each(?)))"
    " ORDER BY added_at, paper_id"
)
ALL_IDS = "SELECT paper_id FROM bookmarks UNION SELECT alias FROM bookmark_aliases"


class ReadingListError(RuntimeError):
    """The reading list cannot be used as asked; ``kind`` says why, the message says how."""

    def __init__(self, message: str, kind: ErrorKind = "io", reason: str = "") -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.reason = reason or message
        """The cause in a few words (``read-only``, ``disk full``...)."""


def translate(exc: BaseException, path: Path, doing: str) -> ReadingListError:
    """A readable :class:`ReadingListError` for a SQLite or OS error met while ``doing``."""
    text = str(exc)
    # An OSError's text ends with the file's name: a folder named "full" or "locked" is
    # not the cause, so the cause is read from the error's own words alone.
    low = (exc.strerror if isinstance(exc, OSError) and exc.strerror else text).lower()
    if "locked" in low or "busy" in low:
        return ReadingListError(f"{path} is locked by another process; try again", "locked")
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return ReadingListError(
            f"{path} is damaged or not a reading-list database ({text})", "corrupt"
        )
    if "no such column" in low or "no such table" in low:
        # Another program's SQLite file: the migration was rolled back, its tables kept.
        return ReadingListError(
            f"{path} is not a PaperScope reading list ({text}); its tables were left as they "
            "are: move it away or set PAPERSCOPE_HOME",
            "io",
        )
    if "readonly" in low or "read-only" in low or isinstance(exc, PermissionError):
        return ReadingListError(
            f"cannot {doing} {path}: the file or its folder is read-only; nothing was changed",
            "readonly",
            "the file or its folder is read-only",
        )
    if "full" in low or (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)):
        return ReadingListError(
            f"cannot {doing} {path}: the disk is full; nothing was changed", "full", "disk full"
        )
    if doing == "write":
        return ReadingListError(f"cannot write {path} ({text}); nothing was changed", "write")
    return ReadingListError(f"cannot {doing} {path} ({text})", "io")


_in_use: Counter[str] = Counter()
_in_use_lock = threading.Lock()


def in_use(path: Path, change: int) -> None:
    """Count a connection of this process to ``path`` opened (+1) or closed (-1)."""
    key = os.path.realpath(path)
    with _in_use_lock:
        _in_use[key] += change
        if _in_use[key] <= 0:
            del _in_use[key]


def check_header(path: Path) -> None:
    """Raise a ``corrupt`` :class:`ReadingListError` if ``path`` exists and is not SQLite.

    Skipped while this process has the list open: closing any file handle on it drops
    every POSIX lock the process holds there (SQLite's included), and another process
    closing its connection would then take the list for unused and remove its ``-wal``
    and ``-shm`` under the open connection ("disk I/O error" at its next read).
    """
    with _in_use_lock:
        if os.path.realpath(path) in _in_use:
            return
    try:
        with path.open("rb") as fh:
            head = fh.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise translate(exc, path, "open") from exc
    if head and head != _SQLITE_MAGIC:
        raise ReadingListError(
            f"{path} is not a reading-list database (unrecognised content)", "corrupt"
        )


def open_database(path: Path, timeout: float) -> tuple[sqlite3.Connection, str | None]:
    """Connect to ``path`` in WAL mode, check it and bring its schema up to date.

    The file is first identified read-only (:mod:`~index_builder.readinglist.identify`):
    another program's database is refused untouched. When the file can be read but not
    written (read-only file or folder, full disk), it is opened read-only and the second
    value says so. Raises :class:`ReadingListError` (``corrupt``, ``newer``, ``foreign``,
    ``locked``, ``readonly``, ``io``...).

    The ``timeout`` covers the whole opening: SQLite does not wait by itself for some of
    its steps (switching a new file to WAL, reading a file another process is creating),
    so a step that meets a lock is tried again until the time is up.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            return _open_once(path, max(deadline - time.monotonic(), 0.05))
        except ReadingListError as exc:
            if exc.kind != "locked" or time.monotonic() >= deadline:
                raise
        time.sleep(0.02)


def _open_once(path: Path, timeout: float) -> tuple[sqlite3.Connection, str | None]:
    """One attempt of :func:`open_database`."""
    if path.is_dir():
        raise ReadingListError(f"{path} is a folder, not a reading list", "io")
    check_header(path)
    try:
        kind = identify(path, timeout, SCHEMA_VERSION)
    except ForeignDatabase as exc:
        raise ReadingListError(
            f"{path} is not a PaperScope reading list ({exc}); it was left untouched: "
            "move it away or set PAPERSCOPE_HOME",
            "foreign",
        ) from exc
    except sqlite3.Error as exc:
        raise translate(exc, path, "open") from exc
    if kind == "newer":
        raise ReadingListError(
            f"{path} was written by a newer PaperScope (its schema is newer than "
            f"{SCHEMA_VERSION}, the one this version knows); it was left untouched",
            "newer",
        )
    try:
        return _open_writable(path, timeout, kind), None
    except ReadingListError as exc:
        if kind not in ("ours", "unmarked") or exc.kind not in ("readonly", "full", "io"):
            raise
        conn = _open_read_only(path, timeout, exc)
        writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)
        reason = exc.reason if writable else "the file or its folder is read-only"
        return conn, f"{path} can only be read ({reason}): changes cannot be saved"


def _open_writable(path: Path, timeout: float, kind: str) -> sqlite3.Connection:
    """A read-write connection, checked, in WAL mode, marked and migrated."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise translate(exc, path, "open") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        _quick_check(conn, path)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")  # a committed bookmark survives power loss too
        if kind == "unmarked":  # a list written before the application id existed
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        # A new list, and one of an earlier schema (v1 lists get For you's table): a write
        # transaction only when there is something to migrate.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if kind in ("new", "prototype") or version < SCHEMA_VERSION:
            migrate(conn)
    except (sqlite3.Error, ReadingListError) as exc:
        conn.close()
        if isinstance(exc, ReadingListError):
            raise
        raise translate(exc, path, "open") from exc
    return conn


def _open_read_only(path: Path, timeout: float, why: ReadingListError) -> sqlite3.Connection:
    """A read-only connection to a list that cannot be written; ``why`` if not even that."""
    try:
        conn = connect_read_only(path, timeout)
        _quick_check(conn, path)
    except sqlite3.Error as exc:
        raise why from exc
    return conn


def _quick_check(conn: sqlite3.Connection, path: Path) -> None:
    """Raise a ``corrupt`` error unless SQLite's quick check passes."""
    row = conn.execute("PRAGMA quick_check").fetchone()
    if row is None or row[0] != "ok":
        raise ReadingListError(f"{path} is damaged ({row[0] if row else 'no answer'})", "corrupt")


def quarantine(path: Path, *, now: datetime | None = None) -> Path:
    """Move a bad reading list (and its ``-wal``/``-shm``) aside; return the new path.

    The new name says why and when (``reading_list.sqlite3.corrupt-20261202T193000``);
    nothing is deleted and no existing file is overwritten.
    """
    path = Path(path)
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S")
    base = path.with_name(f"{path.name}.corrupt-{stamp}")
    target, n = base, 1
    while any(Path(f"{target}{s}").exists() for s in ("", "-wal", "-shm")):
        target = base.with_name(f"{base.name}-{n}")
        n += 1
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        side = Path(f"{path}{suffix}")
        if side.exists():
            side.rename(Path(f"{target}{suffix}"))
    return target


def row_to_bookmark(row: tuple[str, ...] | sqlite3.Row) -> Bookmark:
    """A :class:`Bookmark` from a row selected as :data:`COLUMNS`."""
    (
        pid,
        aliases,
        added,
        updated,
        status,
        note,
        title,
        authors,
        url,
        orurl,
        sess,
        start,
        end,
        derived,
        tags,
    ) = row
    # Made terminal-safe as they leave the file: a list written by an older version (or
    # by hand) may hold a title or note with escape sequences; ids stay as keys.
    copy = Paper(
        id=pid,
        title=safe(title),
        aliases=tuple(json.loads(aliases or "[]")),
        authors=tuple(safe(a) for a in json.loads(authors or "[]")),
        url=safe(url),
        openreview_url=safe(orurl),
        session=safe(sess),
        starts_at=safe(start),
        ends_at=safe(end),
        title_derived=bool(derived),
    )
    return Bookmark(
        copy,
        check_status(status),
        safe(note),
        added_at=added,
        updated_at=updated,
        tags=tuple(safe(t) for t in json.loads(tags or "[]")),
    )


_UPSERT = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS.split(", ")[1:])


def put_bookmark(conn: sqlite3.Connection, bm: Bookmark, *, rowid: int | None = None) -> None:
    """Insert or replace ``bm`` (inside the caller's transaction).

    ``rowid``: the row to insert it as (an undone removal goes back where it stood), used
    only when that row is free.
    """
    copy = bm.copy
    if (
        rowid is not None
        and conn.execute("SELECT 1 FROM bookmarks WHERE rowid = ?", (rowid,)).fetchone()
    ):
        rowid = None
    conn.execute(
        f"INSERT INTO bookmarks (rowid, {COLUMNS}) VALUES ({', '.join('?' * 16)}) "
        f"ON CONFLICT (paper_id) DO UPDATE SET {_UPSERT}",
        (
            rowid,
            copy.id,
            json.dumps(list(copy.aliases)),
            utc_iso(bm.added_at),
            utc_iso(bm.updated_at),
            bm.status,
            bm.note,
            copy.title,
            json.dumps(list(copy.authors), ensure_ascii=False),
            copy.url,
            copy.openreview_url,
            copy.session,
            copy.starts_at,
            copy.ends_at,
            int(copy.title_derived),
            json.dumps(list(bm.tags), ensure_ascii=False),
        ),
    )
    conn.execute("DELETE FROM bookmark_aliases WHERE paper_id = ?", (copy.id,))
    conn.executemany(
        "INSERT OR REPLACE INTO bookmark_aliases (alias, paper_id) VALUES (?, ?)",
        [(alias, copy.id) for alias in copy.aliases if alias != copy.id],
    )


def delete_bookmark(conn: sqlite3.Connection, paper_id: str) -> int | None:
    """Delete the bookmark stored under ``paper_id`` and its aliases; return its rowid."""
    row = conn.execute("SELECT rowid FROM bookmarks WHERE paper_id = ?", (paper_id,)).fetchone()
    conn.execute("DELETE FROM bookmarks WHERE paper_id = ?", (paper_id,))
    conn.execute("DELETE FROM bookmark_aliases WHERE paper_id = ?", (paper_id,))
    return int(row[0]) if row else None
