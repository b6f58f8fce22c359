"""What the reading list screen changes: status, note, tags, removal and its undo, exports,
and the bookmarks it sends to Zotero.

:class:`Edits` belongs to :class:`~tui.screens.reading_list.screen.ReadingListScreen`
(composition: the screen's ``r n d u e`` actions call it). Every change goes through the
store, which refuses to overwrite what another process wrote meanwhile; before ``r`` and
``n`` write, the screen reloads if the file changed since it last read it. The writes run
off the event loop, in order (:mod:`~tui.screens.reading_list.writes`): a list locked by
another process never freezes the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from textual.app import App

from index_builder.model import Paper
from index_builder.readinglist.bookmark import Bookmark
from index_builder.readinglist.exports import Lookup, default_export_path
from index_builder.readinglist.store import ReadingList
from index_builder.text.safe import safe
from tui.screens.reading_list.dialogs import ExportDialog, NoteDialog, write_export
from tui.screens.reading_list.sessions import attempt
from tui.screens.reading_list.tagging import TagDialog, parse_tag_edit
from tui.screens.reading_list.writes import Writes

NEXT_STATUS = {"to-read": "reading", "reading": "read", "read": "to-read"}


class EditedScreen(Protocol):
    """What :class:`Edits` uses of the reading list screen."""

    store: ReadingList
    lookup: Lookup | None
    export_dir: Path
    zone_setting: str
    tag_filter: str | None
    zotero_url: str
    bookmarks: list[Bookmark]

    @property
    def app(self) -> App[Any]: ...

    def current(self) -> Bookmark | None: ...
    def check_outside_changes(self) -> bool: ...
    def show_changed(self, new: Bookmark) -> None: ...
    def forget(self, bm: Bookmark) -> None: ...
    def reload(self, keep: str | None = None) -> None: ...
    @property
    def is_attached(self) -> bool: ...
    def papers(self) -> Sequence[Paper]: ...


class Edits:
    """The screen's changes to the store, and the bookmarks removed this visit (for undo)."""

    def __init__(self, screen: EditedScreen) -> None:
        self.screen = screen
        self.removed: list[Bookmark] = []
        self.writes = Writes(screen, screen.store)

    def cycle_status(self) -> None:
        """to read → reading → read → to read (from the status stored when it is written)."""
        screen = self.screen
        screen.check_outside_changes()
        bm = screen.current()
        if bm is None:
            return

        def change(store: ReadingList) -> Bookmark:
            now = store.get(bm.paper_id)
            if now is None:
                raise KeyError(bm.paper_id)
            return store.set_status(now.paper_id, NEXT_STATUS[now.status])

        self.writes.submit(change, screen.show_changed)

    def edit_note(self) -> None:
        """Edit the note in a dialog (the note as stored now; saving never drops a note
        written elsewhere meanwhile: both are kept)."""
        screen = self.screen
        screen.check_outside_changes()
        current = screen.current()
        bm = current and attempt(screen, lambda: screen.store.get(current.paper_id))
        if not bm:
            return

        def written(text: str, new: Bookmark) -> None:
            screen.show_changed(new)
            if new.note != text.strip() and new.note != text:
                screen.app.notify("The note was changed elsewhere meanwhile: both texts were kept.")
            else:
                screen.app.notify("Note saved.")

        def saved(text: str | None) -> None:
            if text is None:
                return
            self.writes.submit(
                lambda store: store.set_note(bm.paper_id, text, shown=bm.note),
                lambda new: written(text, new),
            )

        screen.app.push_screen(NoteDialog(safe(bm.copy.title or bm.paper_id), bm.note), saved)

    def remove(self) -> None:
        """Remove the bookmark under the cursor (u puts it back).

        The row goes at once (the next ``d`` acts on the next row); if the write fails,
        the list is shown again as it is.
        """
        screen = self.screen
        bm = screen.current()
        if bm is None:
            return
        self.removed.append(bm)
        screen.forget(bm)

        def gone(old: Bookmark | None) -> None:
            if old is None:  # removed elsewhere meanwhile: nothing to undo
                self._drop(bm)
                return
            if bm in self.removed:  # undo restores it as it was stored
                self.removed[self.removed.index(bm)] = old
            here = screen.current()  # the list as written (the planner redraws from it)
            screen.reload(keep=here.paper_id if here else None)
            screen.app.notify("Removed from the reading list (u to undo).")

        def failed() -> None:
            self._drop(bm)
            screen.reload(keep=bm.paper_id)

        self.writes.submit(lambda store: store.remove(bm.paper_id), gone, failed)

    def _drop(self, bm: Bookmark) -> None:
        if bm in self.removed:
            self.removed.remove(bm)

    def undo(self) -> None:
        """Put back the last removed bookmark, as it was."""
        screen = self.screen
        if not self.removed:
            screen.app.notify("Nothing to undo.")
            return
        bm = self.removed.pop()

        def restored(_: None) -> None:
            screen.reload(keep=bm.paper_id)
            screen.app.notify("Bookmark restored.")

        def failed() -> None:
            self.removed.append(bm)

        self.writes.submit(lambda store: store.restore(bm), restored, failed)

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

    def edit_tags(self) -> None:
        """Add or remove tags of the bookmark under the cursor (``thesis, -baselines``)."""
        screen = self.screen
        screen.check_outside_changes()
        bm = screen.current()
        known = attempt(screen, screen.store.tags_in_use)
        if bm is None or known is None:
            return

        def typed(text: str | None) -> None:
            if text is None:
                return
            try:
                added, removed = parse_tag_edit(text)
            except ValueError as exc:
                screen.app.notify(str(exc), severity="error")
                return

            def change(store: ReadingList) -> Bookmark:
                if added:
                    store.tag(bm.paper_id, added)
                return store.untag(bm.paper_id, removed)

            self.writes.submit(change, lambda new: self._tagged(new))

        title = (
            f"Tags of: {safe(bm.copy.title or bm.paper_id)} (now: {', '.join(bm.tags) or 'none'})"
        )
        prompt = "Tags separated by commas; -tag removes one:"
        screen.app.push_screen(TagDialog(title, prompt, list(known)), typed)

    def _tagged(self, new: Bookmark) -> None:
        self.screen.reload(keep=new.paper_id)
        self.screen.app.notify(f"Tags: {', '.join(new.tags) or 'none'}.")

    def filter_tag(self) -> None:
        """Show only the bookmarks with one tag (an empty answer shows them all)."""
        screen = self.screen
        known = attempt(screen, screen.store.tags_in_use)
        if known is None:
            return

        def typed(text: str | None) -> None:
            if text is not None:
                screen.tag_filter = " ".join(text.split()) or None
                screen.reload()

        prompt = "Show the bookmarks with this tag (empty: all):"
        title = f"Filter by tag (now: {screen.tag_filter or 'none'})"
        dialog = TagDialog(title, prompt, list(known))
        screen.app.push_screen(dialog, typed)

    def send_to_zotero(self) -> None:
        """Send the bookmarks shown to Zotero desktop, off the event loop; a notice says how
        it went (how many Zotero took, or why it took none)."""
        from index_builder.readinglist.zotero import ZoteroConnector, ZoteroError, send_bookmarks

        screen = self.screen
        marks, papers, app = list(screen.bookmarks), screen.papers(), screen.app
        if not marks:
            app.notify("Nothing to send: no bookmark is shown.")
            return
        connector = ZoteroConnector(screen.zotero_url)

        def send() -> None:
            try:
                made = send_bookmarks(connector, marks, screen.lookup, papers)
            except ZoteroError as exc:
                app.call_from_thread(app.notify, str(exc), title="Zotero", severity="error")
                return
            text = f"Zotero imported {made} of {len(marks)} paper{'s' if len(marks) != 1 else ''}."
            app.call_from_thread(app.notify, text, title="Zotero")

        app.notify(f"Sending {len(marks)} paper{'s' if len(marks) != 1 else ''} to Zotero…")
        app.run_worker(send, thread=True, exclusive=True, group="rl-zotero", exit_on_error=False)
