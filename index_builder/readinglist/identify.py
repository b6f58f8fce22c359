"""Telling PaperScope's own reading list from another program's SQLite file, read-only.

A file is PaperScope's when it carries :data:`APPLICATION_ID` (``PRAGMA
application_id``), or, for files written before the id existed, when its schema is
exactly PaperScope's (the v1 tables, or the prototype's ``bookmarks(paper_id,
added_at)``). A database with no schema objects at all holds nothing to lose and is
taken as new. Anything else is another program's file: it is refused, and since it
was only ever opened read-only (``mode=ro``), not one byte of it has changed.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Literal
from urllib.parse import quote

Kind = Literal["new", "ours", "unmarked", "prototype", "newer"]
APPLICATION_ID = 0x5053524C
"""``PRAGMA application_id`` of a PaperScope reading list ("PSRL")."""

V1_TABLES = {
    "bookmarks": (
        "paper_id", "aliases", "added_at", "updated_at", "status", "note", "title", "authors",
        "url", "openreview_url", "session", "starts_at", "ends_at", "title_derived",
    ),
    "bookmark_aliases": ("alias", "paper_id"),
}  # fmt: skip
PROTOTYPE_TABLES = {"bookmarks": ("paper_id", "added_at")}


class ForeignDatabase(Exception):
    """The file is a SQLite database of another program (the message says what it holds)."""


def read_only_uri(path: Path) -> str:
    """The ``file:`` URI that opens ``path`` read-only, whatever characters it holds."""
    return f"file:{quote(str(path.absolute()))}?mode=ro"


def connect_read_only(path: Path, timeout: float) -> sqlite3.Connection:
    """A read-only connection that has answered a first read, even where no ``-shm`` can
    be made (a read-only folder, a full disk); the last ``sqlite3.Error`` if none can."""
    wal = Path(f"{path}-wal")
    tries = [(read_only_uri(path), "NORMAL"), (read_only_uri(path), "EXCLUSIVE")]
    if not wal.exists() or wal.stat().st_size == 0:
        # Everything is in the main file; where no -shm can be made nobody else can
        # write it either, so it is read as immutable.
        tries.append((read_only_uri(path) + "&immutable=1", "NORMAL"))
    failure: sqlite3.Error | None = None
    for uri, locking in tries:
        conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                               check_same_thread=False)  # fmt: skip
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            conn.execute(f"PRAGMA locking_mode = {locking}")  # EXCLUSIVE: WAL index in memory
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.Error as exc:
            conn.close()
            failure = exc
            text = str(exc)
            # Locked by another process: waited for by the caller. Never fall back to
            # EXCLUSIVE then: closing such a connection removes the -shm that every other
            # connection to the list shares, and their next read is a "disk I/O error".
            if "not a database" in text or "malformed" in text or "locked" in text:
                break
    assert failure is not None
    raise failure


def identify(path: Path, timeout: float, schema_version: int) -> Kind:
    """What ``path`` is, decided without writing; raises :class:`ForeignDatabase`.

    ``sqlite3.Error`` (not a database, locked...) is left to the caller.
    """
    try:
        if path.stat().st_size == 0:
            return "new"
    except FileNotFoundError:
        return "new"
    conn = connect_read_only(path, timeout)
    try:
        # One read transaction, so the reads below see one snapshot: read one statement at
        # a time, a list another process was creating could show the id it had before its
        # first commit beside the tables after it, and be refused as another program's.
        conn.execute("BEGIN")
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        objects = conn.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall()
        tables = {
            name: tuple(row[1] for row in conn.execute(f"PRAGMA table_info({_quoted(name)})"))
            for kind, name in objects
            if kind == "table"
        }
    finally:
        conn.close()
    if app not in (0, APPLICATION_ID):
        raise ForeignDatabase(f"it belongs to another program (application id {app:#x})")
    if version > schema_version:
        return "newer"
    if app == APPLICATION_ID:
        return "ours"
    if not objects and version == 0:
        return "new"
    if version == 1 and tables == V1_TABLES:
        return "unmarked"
    if version == 0 and tables == PROTOTYPE_TABLES:
        return "prototype"
    names = ", ".join(sorted(tables)) or "no tables"
    raise ForeignDatabase(f"its tables ({names}) are not PaperScope's")


def _quoted(name: str) -> str:
    """``name`` as a quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'
