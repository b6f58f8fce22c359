"""The reading list screen (``B``): bookmarks by status, notes, undo, export, sessions.

The screen is given its store and a catalogue lookup; it dismisses with the id of
the paper to open (``Enter``), or None. A bookmark whose paper left the data is
shown from its stored copy and marked so.

Its keys are its ``BINDINGS`` (the footer, ``?`` and the README list them): status,
note, removal and undo (:mod:`~tui.screens.reading_list.edits`), sort and filter, export,
the planner and what's on (:mod:`~tui.screens.reading_list.sessions`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable, Static
from textual.worker import Worker

from index_builder.model import Paper
from index_builder.readinglist.bookmark import STATUSES, Bookmark
from index_builder.readinglist.exports import Lookup, paper_of
from index_builder.readinglist.store import ReadingList
from index_builder.readinglist.upcoming import ordered
from index_builder.times import DEFAULT_SETTING
from tui.lifecycle.failures import failed, report
from tui.screens.reading_list.edits import Edits
from tui.screens.reading_list.rows import (
    COLUMNS,
    STATUS_LABELS,
    add_columns,
    fill_list,
    note_text,
    rooms,
    row_cells,
)
from tui.screens.reading_list.sessions import PlanTable, Sessions, attempt
from tui.screens.reading_list.watch import ChangeWatch, ListChanged
from tui.shared.config import ZOTERO_URL
from tui.widgets.keys_footer import KeysFooter

SORTS = ("time", "added", "title", "status")
"""``time``: by each paper's next presentation (the Next column), the first order."""
SORT_NAMES = {"time": "next presentation"}
FILTERS: tuple[str | None, ...] = (None, *STATUSES)


class ReadingListScreen(Screen[str | None]):
    """The bookmarks in a table, with their status, note, removal, undo and export."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape", "back", "Back", tooltip="Back to the list, then the papers", id="rl_back"
        ),
        Binding("q", "close", "Back", show=False, tooltip="Back to the papers", id="rl_close"),
        Binding("r", "cycle_status", "Status", tooltip="to read → reading → read", id="rl_status"),
        Binding("n", "edit_note", "Note", tooltip="Edit the note", id="rl_note"),
        Binding("d", "remove", "Remove", tooltip="Remove the bookmark", id="rl_remove"),
        Binding("u", "undo", "Undo", tooltip="Put back the last removed bookmark", id="rl_undo"),
        Binding(
            "s",
            "cycle_sort",
            "Sort",
            tooltip="next presentation, added, title, status",
            id="rl_sort",
        ),
        Binding("f", "cycle_filter", "Filter", tooltip="Next status filter", id="rl_filter"),
        Binding("e", "export", "Export", tooltip="Export to a file", id="rl_export"),
        Binding("p", "toggle_sessions", "Sessions", tooltip="Sessions, clashes", id="rl_sessions"),
        Binding("w", "whats_on", "What's on", tooltip="Sessions running now", id="rl_now"),
        Binding("t", "edit_tags", "Tags", tooltip="Add or remove tags", id="rl_tags"),
        Binding("T", "filter_tag", "Tag filter", tooltip="Show one tag's", show=False, id="rl_tag"),
        Binding("Z", "send_zotero", "Zotero", tooltip="Send the shown to Zotero", id="rl_zotero"),
        Binding("0", "filter('')", "All", show=False),
        Binding("1", "filter('to-read')", "To read", show=False),
        Binding("2", "filter('reading')", "Reading", show=False),
        Binding("3", "filter('read')", "Read", show=False),
        Binding("j", "cursor('down')", "Down", show=False),
        Binding("k", "cursor('up')", "Up", show=False),
    ]

    def __init__(
        self,
        store: ReadingList,
        lookup: Lookup | None = None,
        *,
        papers: Sequence[Paper] | Callable[[], Sequence[Paper]] = (),
        export_dir: Path | None = None,
        start: str | None = None,
        zone: str = DEFAULT_SETTING,
        zotero_url: str = ZOTERO_URL,
    ) -> None:
        super().__init__()
        self.zone_setting = zone
        self.zotero_url = zotero_url
        self.tag_filter: str | None = None
        self.store = store
        self.lookup = lookup
        self._papers = papers
        self.export_dir = export_dir or store.path.parent
        self.status_filter: str | None = None
        self.sort = SORTS[0]
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        """What time it is: the Next column and the time sort look from it."""
        self.bookmarks: list[Bookmark] = []
        self.sessions = Sessions(self, store, lookup, zone, self.papers)
        self.edits = Edits(self)
        self.changes = ChangeWatch(self, self._reader, lambda: self.bookmarks)
        self._seen_version: int | None = None
        self._start = start
        """``"export"`` or ``"sessions"``: what to open once shown (the main screen's e, p)."""

    def compose(self) -> ComposeResult:
        """Header line, the list and the sessions view, the note preview, the footer."""
        yield Static(id="rl-header")
        with ContentSwitcher(initial="rl-table"):
            yield DataTable(id="rl-table", cursor_type="row", zebra_stripes=True)
            yield PlanTable(id="rl-sessions", cursor_type="row", show_header=False)
        yield Static(id="rl-note")
        yield KeysFooter()

    def on_mount(self) -> None:
        """Set up the columns and load the bookmarks."""
        add_columns(self.table, self.query_one("#rl-sessions", DataTable))
        self.reload()
        self.table.focus()
        # Another process (a CLI call, a second window) may change the file meanwhile:
        # the watch reloads the rows each second, off the event loop; r and n also
        # check the file's data_version before they write.
        self.changes.start()
        if self._start == "export":
            self.edits.export()
        elif self._start == "sessions":
            self.action_toggle_sessions()

    def check_outside_changes(self) -> bool:
        """Reload when another process committed a change since the last read; True if so."""
        version = attempt(self, self.store.version)
        if version is None or version == self._seen_version:
            return False
        self.reload()
        return True

    def _reader(self) -> Callable[[], list[Bookmark]]:
        """The read the watch runs in its thread: the bookmarks this view would show now."""
        store, status, sort, tag, lookup, now = (
            self.store, self.status_filter, self.sort, self.tag_filter, self.lookup, self.clock()
        )  # fmt: skip
        return lambda: ordered(store.all(status=status, sort=sort, tag=tag), sort, lookup, now)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker of this screen that failed is reported (:mod:`tui.lifecycle.failures`)."""
        if failed(event):
            report(self.app, event.worker)

    def on_list_changed(self, message: ListChanged) -> None:
        message.stop()
        # While this screen's own writes wait (another process holds the list), the
        # store still has what they change: a reload would bring back a removed row.
        # Each write reloads when it lands, and the next look sees any other change.
        if self.edits.writes.idle:
            self.reload()

    def on_screen_resume(self) -> None:
        self.changes.check()

    def on_resize(self) -> None:
        if self.bookmarks and self.is_mounted:
            self.reload()

    def papers(self) -> Sequence[Paper]:
        """Every paper of the data (for exports that look up sessions)."""
        return self._papers() if callable(self._papers) else self._papers

    @property
    def table(self) -> DataTable[Text]:
        """The list of bookmarks."""
        return self.query_one("#rl-table", DataTable)

    def reload(self, keep: str | None = None) -> None:
        """Read the store again and redraw, keeping the cursor on ``keep`` (or where it was)."""
        table = self.table
        current = keep or self.current_id()
        row = table.cursor_row
        version = attempt(self, self.store.version)
        rows = attempt(self, self._reader())
        if rows is None:
            return
        self._seen_version = version
        self.bookmarks = rows
        room = rooms(self.size.width or 120)
        fill_list(table, rows, self.lookup, room, self.zone_setting, self.clock())
        ids = [b.paper_id for b in self.bookmarks]
        if current in ids:
            table.move_cursor(row=ids.index(current))
        elif ids:
            table.move_cursor(row=min(row, len(ids) - 1))
        if self.sessions.shown:
            self.sessions.fill()
        self._header()
        self._preview()

    def _header(self) -> None:
        if self.sessions.shown:
            n = self.sessions.count
            text = f"Planner: {n} bookmarked paper{'' if n == 1 else 's'} by day and session"
            text += " (every status)"
        else:
            shown = STATUS_LABELS.get(self.status_filter or "", "all")
            shown += f", tag {self.tag_filter}" if self.tag_filter else ""
            order = SORT_NAMES.get(self.sort, self.sort)
            text = f"Reading list: {len(self.bookmarks)} shown ({shown}), sorted by {order}"
        if self.edits.removed:
            text += "  ·  u: undo removal"
        self.query_one("#rl-header", Static).update(Text(text))

    def _preview(self) -> None:
        self.query_one("#rl-note", Static).update(note_text(self.current(), self.lookup))

    def current(self) -> Bookmark | None:
        """The bookmark under the cursor of the visible view (None on a heading)."""
        if self.sessions.shown:
            return self.sessions.current()
        row = self.table.cursor_row
        return self.bookmarks[min(row, len(self.bookmarks) - 1)] if self.bookmarks else None

    def current_id(self) -> str | None:
        """The id of the bookmark under the cursor."""
        bm = self.current()
        return bm.paper_id if bm else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the note of the highlighted bookmark."""
        self._preview()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter opens the paper (in either view)."""
        event.stop()
        key = event.row_key.value
        bm = next((b for b in self.bookmarks if b.paper_id == key), None)
        bm = bm or self.sessions.bookmarks.get(key or "")
        if bm is None and key and not key.startswith("#"):
            bm = attempt(self, lambda: self.store.get(key))
        if bm is not None:
            self.open(bm)

    def open(self, bm: Bookmark) -> None:
        """Dismiss with the paper's current id, or say it left the data."""
        if self.lookup is None:
            self.dismiss(bm.paper_id)
            return
        paper = paper_of(bm, self.lookup)
        if paper is None:
            self.notify("This paper is no longer in the data; only its stored copy is left.")
            return
        self.dismiss(paper.id)

    def show_changed(self, new: Bookmark) -> None:
        """Redraw one changed bookmark in place, or reload when it may move or leave the view."""
        ids = [b.paper_id for b in self.bookmarks]
        if (
            self.status_filter
            or self.sort == "status"
            or self.sessions.shown
            or new.paper_id not in ids
        ):
            self.reload(keep=new.paper_id)
            return
        self.bookmarks[ids.index(new.paper_id)] = new
        room = rooms(self.size.width or 120)
        cells = row_cells(new, self.lookup, room, self.zone_setting, self.clock())
        for column, value in zip(COLUMNS, cells, strict=True):
            self.table.update_cell(new.paper_id, column, value)
        self._preview()

    def action_toggle_sessions(self) -> None:
        """Switch between the list and the poster sessions."""
        self.sessions.toggle()
        self._header()
        self._preview()

    def show_times_in(self, setting: str) -> None:
        """Show session times in ``setting``'s zone from now on (the list and planner redraw)."""
        self.zone_setting = setting
        self.sessions.show_times_in(setting)
        if self.is_mounted:
            self.reload()

    def action_whats_on(self) -> None:
        """What's on now among the bookmarks (a day and hour can be typed), and the next."""
        self.sessions.whats_on()

    def action_back(self) -> None:
        """Back one step: from the planner opened here to the list, else to the papers."""
        if self.sessions.shown and self._start != "sessions":
            self.action_toggle_sessions()
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        """Back to the papers."""
        self.dismiss(None)

    def action_cursor(self, direction: str) -> None:
        """j/k move the cursor in the visible table."""
        switcher = self.query_one(ContentSwitcher)
        table = self.query_one(f"#{switcher.current}", DataTable)
        table.action_cursor_down() if direction == "down" else table.action_cursor_up()

    def action_cycle_status(self) -> None:
        """to read → reading → read → to read."""
        self.edits.cycle_status()

    def action_edit_note(self) -> None:
        """Edit the note in a dialog."""
        self.edits.edit_note()

    def action_remove(self) -> None:
        """Remove the bookmark under the cursor (u puts it back)."""
        self.edits.remove()

    def action_undo(self) -> None:
        """Put back the last removed bookmark, as it was."""
        self.edits.undo()

    def forget(self, bm: Bookmark) -> None:
        """Take a removed bookmark off the screen."""
        if self.sessions.shown or bm not in self.bookmarks:
            self.reload()
            return
        self.bookmarks.remove(bm)
        self.table.remove_row(bm.paper_id)
        self._header()
        self._preview()

    def action_cycle_sort(self) -> None:
        """Next sort order."""
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.reload()

    def action_filter(self, status: str) -> None:
        """Show only one status ('' for all)."""
        self.status_filter = status or None
        self.reload()

    def action_cycle_filter(self) -> None:
        """Next status filter."""
        self.action_filter(FILTERS[(FILTERS.index(self.status_filter) + 1) % len(FILTERS)] or "")

    def action_export(self) -> None:
        """Ask for a format and a file, then export in a worker."""
        self.edits.export()

    def action_edit_tags(self) -> None:
        """Add or remove tags of the bookmark under the cursor."""
        self.edits.edit_tags()

    def action_filter_tag(self) -> None:
        """Show only one tag's bookmarks (``tag:NAME``); empty shows all."""
        self.edits.filter_tag()

    def action_send_zotero(self) -> None:
        """Send the bookmarks shown to Zotero desktop."""
        self.edits.send_to_zotero()
