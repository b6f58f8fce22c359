"""The rows of the reading list's two tables: the bookmarks, and the poster sessions.

Every cell is a ``rich.text.Text`` made with :func:`index_builder.text.render.safe`, so
titles and notes show as text: no markup, no escape sequences.

In the sessions view, rows are a day heading, then each session (name and local time) with its
bookmarked papers; a session that overlaps another session holding a bookmark is
marked ``clash`` and names it. Heading rows have keys starting with ``#``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import Lookup, paper_of
from index_builder.readinglist.schedule import SessionGroup, group_sessions
from index_builder.text.safe import safe

STATUS_MARKS = {"to-read": "[ ]", "reading": "[~]", "read": "[x]"}


STATUS_LABELS = {"to-read": "to read", "reading": "reading", "read": "read"}
GONE = " (no longer in the data)"
DERIVED = " (title derived from the abstract)"
COLUMNS = ("status", "title", "authors", "added")
"""Column keys of the bookmark table."""
AUTHORS_ROOM = 32
TITLE_ROOM = 64
"""The title's and the authors' room on a wide screen; a narrower one shares what is left."""
FIXED_COLUMNS = 8 + 10 + 2 * len(COLUMNS) + 3
"""The status and added columns, each column's padding, the scrollbar and a margin."""


def rooms(width: int) -> tuple[int, int]:
    """Cells for the title and the authors so that the Added column shows at ``width``."""
    free = width - FIXED_COLUMNS
    authors = min(AUTHORS_ROOM, max(12, free // 3))
    return max(12, min(TITLE_ROOM, free - authors)), authors


def cell(text: str, style: str = "", limit: int = 160) -> Text:
    """A table cell that shows data as text (no markup, no escapes), cut at ``limit``."""
    clean = " ".join(safe(text).split())
    if len(clean) > limit:
        clean = clean[: limit - 1] + "…"
    return Text(clean, style=style)


def short_authors(authors: Sequence[str]) -> str:
    """The first two authors and how many more, or "authors unknown"."""
    if not authors:
        return "authors unknown"
    more = len(authors) - 2
    return ", ".join(authors[:2]) + (f" +{more}" if more > 0 else "")


def add_columns(bookmarks: DataTable[Text], sessions: DataTable[Text]) -> None:
    """The columns of the bookmark table (:data:`COLUMNS`) and of the sessions table."""
    for key, label, width in zip(
        COLUMNS, ("Status", "Title", "Authors", "Added"), (8, None, None, 10), strict=True
    ):
        bookmarks.add_column(label, key=key, width=width)
    for key in ("when", "paper", "clash"):
        sessions.add_column(key.title(), key=key)


def note_text(bm: Bookmark | None, lookup: Lookup | None) -> Text:
    """The line under the table: the note of ``bm``, and whether its paper left the data."""
    if bm is None:
        return Text("")
    note = f"Note: {bm.note}" if bm.note else "No note (n to add one)"
    if lookup is not None and paper_of(bm, lookup) is None:
        note = "This paper is no longer in the data; shown from the stored copy. " + note
    return Text(safe(note))


def row_cells(
    bm: Bookmark, lookup: Lookup | None, room: tuple[int, int] = (TITLE_ROOM, AUTHORS_ROOM)
) -> tuple[Text, Text, Text, Text]:
    """The cells of one bookmark in the order of :data:`COLUMNS`; the title (with its
    marks) and the authors cut to ``room`` so that every column shows (Enter shows all)."""
    title_room, authors_room = room
    gone = lookup is not None and paper_of(bm, lookup) is None
    title = (
        cell(bm.title or bm.paper_id, limit=title_room)
        + Text(DERIVED if bm.title_derived else "", style="italic")
        + Text(GONE if gone else "", style="italic dim")
    )
    title.truncate(title_room, overflow="ellipsis")
    return (
        cell(STATUS_LABELS[bm.status], style="bold" if bm.status == "reading" else ""),
        title,
        cell(short_authors(bm.authors), limit=authors_room),
        cell(bm.added_at[:10]),
    )


def fill_list(
    table: DataTable[Text],
    bookmarks: Sequence[Bookmark],
    lookup: Lookup | None,
    room: tuple[int, int] = (TITLE_ROOM, AUTHORS_ROOM),
) -> None:
    """Fill ``table`` (columns :data:`COLUMNS`), one row per bookmark."""
    table.clear()
    for bm in bookmarks:
        table.add_row(*row_cells(bm, lookup, room), key=bm.paper_id)


def day_label(group: SessionGroup) -> str:
    """``Monday 6 July 2026`` (the conference's local day), or the no-time heading."""
    if group.starts is None:
        return "Without a session time"
    s = group.starts
    return f"{s:%A} {s.day} {s:%B %Y}"


def clashcell(group: SessionGroup) -> Text:
    """``clash: Oral 1A …`` naming the overlapping sessions, or nothing."""
    if not group.clashes_with:
        return Text("")
    names = "; ".join(group.clashes_with[:2])
    more = len(group.clashes_with) - 2
    return cell(f"clash: {names}" + (f" +{more}" if more > 0 else ""), style="bold red")


def fill_sessions(
    table: DataTable[Text], bookmarks: Sequence[Bookmark], lookup: Lookup | None
) -> int:
    """Fill ``table`` (columns When, Paper, Clash); returns how many sessions clash."""
    table.clear()
    clashing = 0
    day = None
    groups = group_sessions(bookmarks)
    for n, group in enumerate(groups):
        label = day_label(group)
        if label != day:
            day = label
            table.add_row(cell(label, "bold underline"), Text(""), Text(""), key=f"#day{n}")
        clashing += bool(group.clashes_with)
        when = group.label if group.starts else "(no time)"
        for i, bm in enumerate(group.bookmarks):
            gone = lookup is not None and paper_of(bm, lookup) is None
            title = cell(f"{STATUS_MARKS[bm.status]} {bm.title or bm.paper_id}")
            if gone:
                title.append(GONE, style="italic dim")
            table.add_row(
                cell(when if i == 0 else "", "bold" if group.clashes_with else ""),
                title,
                clashcell(group) if i == 0 else Text(""),
                key=bm.paper_id,
            )
    if not groups:
        table.add_row(Text("No bookmarks yet."), Text(""), Text(""), key="#empty")
    return clashing
