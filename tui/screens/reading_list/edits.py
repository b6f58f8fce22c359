"""What the reading list screen changes: status, note, removal and its undo, exports.

:class:`Edits` belongs to :class:`~tui.screens.reading_list.screen.ReadingListScreen`
(composition: the screen's ``r n d u e`` actions call it). Every change goes through the
store, which refuses to overwrite what another process wrote meanwhile; before ``r`` and
``n`` write, the screen reloads if the file changed since it last read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from textual.app import App

from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import Lookup, default_export_path
from index_builder.readinglist.store import ReadingList, ReadingListError
from index_builder.text.safe import safe
from tui.screens.reading_list.dialogs import ExportDialog, NoteDialog, write_export
from tui.screens.reading_list.sessions import attempt

NEXT_STATUS = {"to-read": "reading", "reading": "read", "read": "to-read"}


class EditedScreen(Protocol):
    """What :class:`Edits` uses of the reading list screen."""

    store: ReadingList
    lookup: Lookup | None
    export_dir: Path
    zone_setting: str

    @property
    def app(self) -> App[Any]: ...

    def current(self) -> Bookmark | None: ...
    def check_outside_changes(self) -> bool: ...
    def show_changed(self, new: Bookmark) -> None: ...
    def forget(self, bm: Bookmark) -> None: ...
    def reload(self, keep: str | None = None) -> None: ...
    def papers(self) -> Sequence[Paper]: ...


class Edits:
    """The screen's changes to the store, and the bookmarks removed this visit (for undo)."""

    def __init__(self, screen: EditedScreen) -> None:
        self.screen = screen
        self.removed: list[Bookmark] = []

    def cycle_status(self) -> None:
        """to read → reading → read → to read."""
        screen = self.screen
        screen.check_outside_changes()
        bm = screen.current()
        if bm is None:
            return
        new = attempt(screen, lambda: screen.store.set_status(bm.paper_id, NEXT_STATUS[bm.status]))
        if new:
            screen.show_changed(new)

    def edit_note(self) -> None:
        """Edit the note in a dialog (the note as stored now; saving never drops a note
        written elsewhere meanwhile: both are kept)."""
        screen = self.screen
        screen.check_outside_changes()
        current = screen.current()
        bm = current and attempt(screen, lambda: screen.store.get(current.paper_id))
        if not bm:
            return

        def saved(text: str | None) -> None:
            if text is None:
                return
            new = attempt(screen, lambda: screen.store.set_note(bm.paper_id, text, shown=bm.note))
            if new:
                screen.show_changed(new)
                if new.note != text.strip() and new.note != text:
                    screen.app.notify(
                        "The note was changed elsewhere meanwhile: both texts were kept."
                    )
                else:
                    screen.app.notify("Note saved.")

        screen.app.push_screen(NoteDialog(safe(bm.copy.title or bm.paper_id), bm.note), saved)

    def remove(self) -> None:
        """Remove the bookmark under the cursor (u puts it back)."""
        screen = self.screen
        bm = screen.current()
        if bm is None:
            return
        gone = attempt(screen, lambda: screen.store.remove(bm.paper_id))
        if gone is None:
            return
        self.removed.append(gone)
        screen.forget(bm)
        screen.app.notify("Removed from the reading list (u to undo).")

    def undo(self) -> None:
        """Put back the last removed bookmark, as it was."""
        screen = self.screen
        if not self.removed:
            screen.app.notify("Nothing to undo.")
            return
        bm = self.removed[-1]
        try:
            screen.store.restore(bm)
        except ReadingListError as exc:
            screen.app.notify(str(exc), title="Reading list", severity="error")
            return
        self.removed.pop()
        screen.reload(keep=bm.paper_id)
        screen.app.notify("Bookmark restored.")

    def export(self) -> None:
        """Ask for a format and a file, then export in a worker."""
        screen = self.screen

        def chosen(choice: tuple[str, Path] | None) -> None:
            if choice is not None:
                self.export_to(*choice)

        default = default_export_path(screen.export_dir, "bibtex")
        screen.app.push_screen(ExportDialog(len(screen.store), default), chosen)

    def export_to(self, fmt: str, path: Path) -> None:
        """Write the export off the event loop; a notice says where it went."""
        screen = self.screen
        papers = screen.papers()
        zone = screen.zone_setting

        def write() -> None:
            ok, message = write_export(screen.store, fmt, path, screen.lookup, papers, zone)
            severity = "information" if ok else "error"
            screen.app.call_from_thread(screen.app.notify, message, severity=severity)

        # An app's worker: the export ends even if the screen is closed meanwhile.
        screen.app.run_worker(
            write, thread=True, exclusive=True, group="rl-export", exit_on_error=False
        )
