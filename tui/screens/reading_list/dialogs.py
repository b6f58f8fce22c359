"""The reading list's two dialogs: edit a note, and choose an export format and file.

BINDINGS of :class:`NoteDialog`:

| key          | action            |
|--------------|-------------------|
| ctrl+s       | save the note     |
| escape       | cancel            |

BINDINGS of :class:`ExportDialog`:

| key                  | action                               |
|----------------------|--------------------------------------|
| b / m / c / j / i    | export as BibTeX / Markdown / CSV / JSON / calendar |
| r / l                | export as RIS / CSL-JSON             |
| enter                | export in the highlighted format     |
| tab                  | edit the file name                   |
| escape               | cancel                               |
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, TextArea
from textual.widgets.option_list import Option

from index_builder.atomic import write_atomic
from index_builder.model import Paper
from index_builder.readinglist.exports import SUFFIXES, Lookup, export
from index_builder.readinglist.store import ReadingList, ReadingListError
from index_builder.times import DEFAULT_SETTING

FORMAT_CHOICES: tuple[tuple[str, str, str], ...] = (
    ("b", "bibtex", "BibTeX (.bib)"),
    ("m", "markdown", "Markdown checklist (.md)"),
    ("c", "csv", "CSV spreadsheet (.csv)"),
    ("j", "json", "JSON, for import elsewhere (.json)"),
    ("i", "ics", "Calendar of the poster sessions (.ics)"),
    ("r", "ris", "RIS, for Zotero, EndNote, Mendeley (.ris)"),
    ("l", "csljson", "CSL-JSON, for Zotero, pandoc (.csl.json)"),
)

_DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 80%; max-width: 90; height: auto; max-height: 90%;
    border: thick $primary; background: $surface; padding: 0 1;
}}
{name} Horizontal {{ height: auto; align-horizontal: right; }}
{name} Button {{ margin-left: 1; }}
"""


class NoteDialog(ModalScreen[str | None]):
    """A TextArea with the bookmark's note; dismisses with the new text, or None."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="NoteDialog") + "NoteDialog TextArea { height: 10; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", tooltip="Save the note", id="note_save"),
        Binding("escape", "cancel", "Cancel", tooltip="Close without saving", id="note_cancel"),
    ]

    def __init__(self, title: str, note: str) -> None:
        super().__init__()
        self._title = title
        self._note = note

    def compose(self) -> ComposeResult:
        """The paper's title, the editor and the buttons."""
        with Vertical():
            yield Label(Text(f"Note on: {self._title}"), id="note-title")
            yield TextArea(self._note, id="note-text", soft_wrap=True)
            with Horizontal():
                yield Button("Save (ctrl+s)", id="note-save", variant="primary")
                yield Button("Cancel (esc)", id="note-cancel")

    def on_mount(self) -> None:
        """Start typing at the end of the note."""
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    def action_save(self) -> None:
        """Dismiss with the text as edited."""
        self.dismiss(self.query_one(TextArea).text)

    def action_cancel(self) -> None:
        """Dismiss without a change."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Save or cancel by mouse."""
        event.stop()
        if event.button.id == "note-save":
            self.action_save()
        else:
            self.action_cancel()


class ExportDialog(ModalScreen[tuple[str, Path] | None]):
    """Pick a format (one key) and a file; dismisses with ``(format, path)`` or None."""

    DEFAULT_CSS = (
        _DIALOG_CSS.format(name="ExportDialog") + "ExportDialog OptionList { height: auto; }"
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(key, f"choose('{fmt}')", label, show=False)
            for key, fmt, label in FORMAT_CHOICES
        ),
        Binding(
            "escape", "cancel", "Cancel", tooltip="Close without exporting", id="export_cancel"
        ),
    ]

    def __init__(self, count: int, default_path: Path) -> None:
        super().__init__()
        self._count = count
        self._default = default_path
        self._edited = False

    def compose(self) -> ComposeResult:
        """The format list, the file name and the buttons."""
        with Vertical():
            yield Label(f"Export {self._count} bookmarks as:")
            yield OptionList(
                *(Option(f"{key}  {label}", id=fmt) for key, fmt, label in FORMAT_CHOICES),
                id="export-formats",
            )
            yield Label("to the file (tab to edit):")
            yield Input(str(self._default), id="export-path", select_on_focus=False)
            with Horizontal():
                yield Button("Cancel (esc)", id="export-cancel")

    def on_mount(self) -> None:
        """Focus the format list."""
        self.query_one(OptionList).focus()

    def _format(self) -> str:
        options = self.query_one(OptionList)
        index = options.highlighted or 0
        return FORMAT_CHOICES[index][1]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Keep the file's suffix in step with the format, unless the user typed a name."""
        if not self._edited and event.option.id:
            path = self._default.with_suffix(SUFFIXES[event.option.id])
            self.query_one(Input).value = str(path)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Remember that the user chose a name."""
        if event.input.has_focus:
            self._edited = True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Export in the chosen format."""
        event.stop()
        if event.option.id:
            self.action_choose(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the file name exports in the highlighted format."""
        event.stop()
        self.action_choose(self._format())

    def action_choose(self, fmt: str) -> None:
        """Dismiss with ``fmt`` and the file (its suffix fitted unless the user typed one)."""
        value = self.query_one(Input).value.strip()
        path = Path(value).expanduser() if value else self._default
        if not self._edited:
            path = path.with_suffix(SUFFIXES[fmt])
        self.dismiss((fmt, path))

    def action_cancel(self) -> None:
        """Dismiss without exporting."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Cancel by mouse."""
        event.stop()
        self.action_cancel()


def write_export(
    store: ReadingList,
    fmt: str,
    path: Path,
    lookup: Lookup | None,
    papers: Sequence[Paper],
    zone: str = DEFAULT_SETTING,
) -> tuple[bool, str]:
    """Export the whole list as ``fmt`` to ``path`` (atomically); (success, message to show).

    Times shown to a person (Markdown) are in ``zone``'s; the calendar stays in UTC.
    """
    try:
        bookmarks = store.all(sort="time" if fmt == "ics" else "added")
        text = export(bookmarks, fmt, lookup=lookup, all_papers=papers, timezone=zone)
        write_atomic(path, text)
    except (OSError, ReadingListError, ValueError) as exc:
        return False, f"Export failed: {exc}"
    return True, f"Exported {len(bookmarks)} bookmarks to {path}"
