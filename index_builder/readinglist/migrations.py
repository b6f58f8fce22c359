"""The reading list's schema versions and the migrations between them.

Each schema version has one migration function in :data:`MIGRATIONS`; :func:`migrate`
runs them in order inside one transaction, then sets ``PRAGMA user_version`` and the
application id that marks the file as PaperScope's. Version 0 is a new file, or the
early prototype's ``bookmarks(paper_id, added_at)`` table, whose rows are kept. Version
2 adds ``dismissed``: the papers a user said "not interested" to (For you leaves them out).
Version 3 adds ``library`` (the papers of the user's own library export) and ``watches``
(saved queries whose new matches ``update`` reports).
Version 4 adds the bookmarks' ``tags`` (a JSON array of strings, ``[]`` for every
existing bookmark).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from index_builder.readinglist.identify import APPLICATION_ID

SCHEMA_VERSION = 4


def migrate(conn: sqlite3.Connection) -> None:
    """Run every migration from the file's version to :data:`SCHEMA_VERSION` in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        for target in range(current + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[target](conn)
            conn.execute(f"PRAGMA user_version = {target}")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


_V1_TABLE = """
CREATE TABLE bookmarks (
    paper_id       TEXT PRIMARY KEY NOT NULL,
    aliases        TEXT NOT NULL DEFAULT '[]',
    added_at       TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    status         TEXT NOT NULL DEFAULT 'to-read'
                   CHECK (status IN ('to-read', 'reading', 'read')),
    note           TEXT NOT NULL DEFAULT '',
    title          TEXT NOT NULL DEFAULT '',
    authors        TEXT NOT NULL DEFAULT '[]',
    url            TEXT NOT NULL DEFAULT '',
    openreview_url TEXT NOT NULL DEFAULT '',
    session        TEXT NOT NULL DEFAULT '',
    starts_at      TEXT NOT NULL DEFAULT '',
    ends_at        TEXT NOT NULL DEFAULT '',
    title_derived  INTEGER NOT NULL DEFAULT 0
)
"""


def _to_v1(conn: sqlite3.Connection) -> None:
    """Create the v1 table; carry over the rows of a v0 prototype ``bookmarks`` table."""
    legacy = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bookmarks'"
    ).fetchone()
    if legacy:
        conn.execute("ALTER TABLE bookmarks RENAME TO bookmarks_v0")
    conn.execute(_V1_TABLE)
    conn.execute("CREATE INDEX bookmarks_status ON bookmarks (status)")
    # The aliases column is the record; this table makes "find by alias" an index lookup.
    conn.execute(
        "CREATE TABLE bookmark_aliases (alias TEXT PRIMARY KEY NOT NULL, paper_id TEXT NOT NULL)"
    )
    conn.execute("CREATE INDEX bookmark_aliases_paper ON bookmark_aliases (paper_id)")
    if legacy:
        conn.execute(
            "INSERT OR IGNORE INTO bookmarks (paper_id, added_at, updated_at) "
            "SELECT paper_id, added_at, added_at FROM bookmarks_v0 WHERE paper_id IS NOT NULL"
        )
        conn.execute("DROP TABLE bookmarks_v0")


def _to_v2(conn: sqlite3.Connection) -> None:
    """Add the ``dismissed`` table (paper id and when it was dismissed)."""
    conn.execute(
        "CREATE TABLE dismissed (paper_id TEXT PRIMARY KEY NOT NULL, dismissed_at TEXT NOT NULL)"
    )


def _to_v3(conn: sqlite3.Connection) -> None:
    """Add ``library`` (one row per owned paper, by its key) and ``watches`` (saved queries)."""
    # IF NOT EXISTS: a list whose version number was set back keeps its rows and opens.
    conn.execute(
        "CREATE TABLE IF NOT EXISTS library (key TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, "
        "authors TEXT NOT NULL DEFAULT '[]', abstract TEXT NOT NULL DEFAULT '', "
        "doi TEXT NOT NULL DEFAULT '', arxiv TEXT NOT NULL DEFAULT '', "
        "openreview TEXT NOT NULL DEFAULT '', year TEXT NOT NULL DEFAULT '', "
        "source TEXT NOT NULL DEFAULT '', added_at TEXT NOT NULL)"
    )
    conn.execute(
        "CREATE TABLE IF NOT EXISTS watches (name TEXT PRIMARY KEY NOT NULL, query TEXT NOT NULL, "
        "added_at TEXT NOT NULL)"
    )


def _to_v4(conn: sqlite3.Connection) -> None:
    """Add the ``tags`` column to ``bookmarks``: every bookmark starts with none."""
    conn.execute("ALTER TABLE bookmarks ADD COLUMN tags TEXT NOT NULL DEFAULT '[]'")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _to_v1,
    2: _to_v2,
    3: _to_v3,
    4: _to_v4,
}
"""``MIGRATIONS[n]`` turns a version ``n - 1`` file into version ``n``."""
