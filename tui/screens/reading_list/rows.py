"""The rows of the reading list's two tables: the bookmarks, and the poster sessions.

Every cell is a ``rich.text.Text`` made with :func:`index_builder.text.render.safe`, so
titles and notes show as text: no markup, no escape sequences.

The sessions view (the planner) reads like ``paperscope agenda``, in one column so that it
fits any width: a conference day heading (in the chosen zone; a day per site for a
conference in several cities); under it each session, its
time first (poster sessions and talks); under a session that overlaps another session
holding a bookmark, a ``clash`` line naming that one; then the session's bookmarked papers
with their poster board and room where known. Every line is cut to the screen's width.
Heading lines (day, session, clash) have keys starting with ``#``; a paper's first row has
its id as key, a later one (its talk, say) ``id#n``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from rich.text import Text
from textual.widgets import DataTable

from index_builder.readinglist.agenda import MARKS, by_day, day_heading
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import Lookup, paper_of
from index_builder.readinglist.schedule import SessionGroup, Slot, group_sessions
from index_builder.readinglist.upcoming import next_presentation
from index_builder.text.safe import safe
from index_builder.times import DEFAULT_SETTING, clock_span, zone_label

STATUS_LABELS = {"to-read": "to read", "reading": "reading", "read": "read"}
GONE = " (no longer in the data)"
DERIVED = " (title derived from the abstract)"
COLUMNS = ("status", "title", "authors", "next")
"""Column keys of the bookmark table (``next``: the paper's next presentation)."""
NEXT_WIDTH = 16
"""``Wed 10:30 #2504``, ``Mon 18:15 talk``."""
AUTHORS_ROOM = 32
TITLE_ROOM = 64
"""The title's and the authors' room on a wide screen; a narrower one shares what is left."""
FIXED_COLUMNS = 8 + NEXT_WIDTH + 2 * len(COLUMNS) + 3
"""The status and next columns, each column's padding, the scrollbar and a margin."""
PLAN = "plan"
"""The one column of the sessions table."""
PLAN_MARGIN = 5
"""The sessions column's padding, the scrollbar and a margin."""


def rooms(width: int) -> tuple[int, int]:
    """Cells for the title and the authors so that the Next column shows at ``width``."""
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
        COLUMNS, ("Status", "Title", "Authors", "Next"), (8, None, None, NEXT_WIDTH), strict=True
    ):
        bookmarks.add_column(label, key=key, width=width)
    sessions.add_column("Sessions", key=PLAN)


def note_text(bm: Bookmark | None, lookup: Lookup | None) -> Text:
    """The line under the table: the note of ``bm``, and whether its paper left the data."""
    if bm is None:
        return Text("")
    note = f"Note: {bm.note}" if bm.note else "No note (n to add one)"
    if bm.tags:
        note = f"Tags: {', '.join(bm.tags)} · {note}"
    if lookup is not None and paper_of(bm, lookup) is None:
        note = "This paper is no longer in the data; shown from the stored copy. " + note
    return Text(safe(note))


def row_cells(
    bm: Bookmark,
    lookup: Lookup | None,
    room: tuple[int, int] = (TITLE_ROOM, AUTHORS_ROOM),
    setting: str = DEFAULT_SETTING,
    now: datetime | None = None,
) -> tuple[Text, Text, Text, Text]:
    """The cells of one bookmark in the order of :data:`COLUMNS`; the title (with its
    marks) and the authors cut to ``room`` so that every column shows (Enter shows all);
    the next presentation in the zone ``setting`` picks, dim once they are all past."""
    title_room, authors_room = room
    gone = lookup is not None and paper_of(bm, lookup) is None
    title = (
        cell(bm.copy.title or bm.paper_id, limit=title_room)
        + Text(DERIVED if bm.copy.title_derived else "", style="italic")
        + Text(GONE if gone else "", style="italic dim")
    )
    title.truncate(title_room, overflow="ellipsis")
    return (
        cell(STATUS_LABELS[bm.status], style="bold" if bm.status == "reading" else ""),
        title,
        cell(short_authors(bm.copy.authors), limit=authors_room),
        next_cell(bm, lookup, setting, now or datetime.now(UTC)),
    )


def next_cell(bm: Bookmark, lookup: Lookup | None, setting: str, now: datetime) -> Text:
    """The paper's next presentation (:mod:`index_builder.readinglist.upcoming`)."""
    found = next_presentation(bm, lookup, now)
    if found is None:
        return Text("no time", style="dim")
    return cell(found.label(setting), style="dim" if found.past else "", limit=NEXT_WIDTH)


def fill_list(
    table: DataTable[Text],
    bookmarks: Sequence[Bookmark],
    lookup: Lookup | None,
    room: tuple[int, int] = (TITLE_ROOM, AUTHORS_ROOM),
    setting: str = DEFAULT_SETTING,
    now: datetime | None = None,
) -> None:
    """Fill ``table`` (columns :data:`COLUMNS`), one row per bookmark."""
    table.clear()
    moment = now or datetime.now(UTC)
    rows = [row_cells(bm, lookup, room, setting, moment) for bm in bookmarks]
    # Sized to these cells: a column would keep its widest cell of an earlier fill, and a
    # narrowed screen would push Authors and Next off it.
    for i, column in enumerate(table.ordered_columns):
        if column.auto_width:
            column.content_width = max([column.label.cell_len, *(r[i].cell_len for r in rows)])
    for bm, cells in zip(bookmarks, rows, strict=True):
        table.add_row(*cells, key=bm.paper_id)


def session_line(group: SessionGroup) -> Text:
    """``10:30–12:15 KST  Poster Session 3``: the time first, so a cut keeps it."""
    if group.starts is None:
        return cell(group.name, "bold")
    span = f"{clock_span(group.starts, group.ends)} {zone_label(group.starts)}"
    return cell(span, "bold") + Text("  ") + cell(group.name or "Session", "bold")


def clash_text(group: SessionGroup) -> str:
    """``clash: Oral 1A …, 11:00–11:15 KST`` naming the overlapping sessions, or ``""``."""
    if not group.clashes_with:
        return ""
    more = len(group.clashes_with) - 2
    return "clash: " + "; ".join(group.clashes_with[:2]) + (f" +{more}" if more > 0 else "")


def paper_line(slot: Slot, lookup: Lookup | None) -> Text:
    """``[ ] Title (talk)  · board #2504, Hall C``, and a mark when it left the data."""
    bm = slot.bookmark
    line = cell(f"{MARKS[bm.status]} {bm.copy.title or bm.paper_id}", limit=400)
    if slot.event.kind == "oral":
        line.append(" (talk)", style="italic")
    if slot.place:
        line.append("  · ", style="dim")
        line.append_text(cell(slot.place, "dim"))
    if lookup is not None and paper_of(bm, lookup) is None:
        line.append(GONE, style="italic dim")
    return line


def fill_sessions(
    table: DataTable[Text],
    bookmarks: Sequence[Bookmark],
    lookup: Lookup | None,
    setting: str = DEFAULT_SETTING,
    width: int = 120,
) -> dict[str, Bookmark]:
    """Fill ``table`` (column :data:`PLAN`), each line cut to ``width`` (the screen's).

    Returns the bookmark of each paper row, by row key.
    """
    table.clear()
    room = max(12, width - PLAN_MARGIN)
    rows: dict[str, Bookmark] = {}

    def line(text: Text, key: str) -> None:
        text.truncate(room, overflow="ellipsis")
        table.add_row(text, key=key)

    groups = group_sessions(bookmarks, lookup, setting)
    n = 0
    for day, day_groups in by_day(groups):
        line(cell(day_heading(day, day_groups), "bold underline"), f"#day{n}")
        n = _fill_day(line, rows, day_groups, lookup, n)
    if not groups:
        line(Text("No bookmarks yet."), "#empty")
    return rows


def _fill_day(
    line: Callable[[Text, str], None],
    rows: dict[str, Bookmark],
    groups: Sequence[SessionGroup],
    lookup: Lookup | None,
    first: int,
) -> int:
    """The lines of one day's sessions, numbered from ``first``; the next number."""
    n = first
    for n, group in enumerate(groups, start=first):
        if group.starts is not None or group.name:  # not the day heading again
            line(Text("  ") + session_line(group), f"#session{n}")
        if clash := clash_text(group):
            line(Text("    ") + cell(clash, "bold red"), f"#clash{n}")
        for slot in group.slots:
            bm = slot.bookmark
            key = bm.paper_id
            while key in rows:
                key = f"{bm.paper_id}#{len(rows)}"
            rows[key] = bm
            line(Text("      ") + paper_line(slot, lookup), key)
    return n + 1
