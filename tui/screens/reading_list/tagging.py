"""Tags in the reading list screen: ``t`` edits the tags of a bookmark, ``T`` shows one tag's
bookmarks, ``Z`` sends the bookmarks shown to Zotero desktop.

The prompt takes tags separated by commas; a tag with a ``-`` in front is removed
(``thesis, -baselines``). It completes the tag being typed from the tags in use.

BINDINGS of :class:`TagDialog`:

| key     | action                                    |
|---------|-------------------------------------------|
| right   | accept the completion (Textual's Input)   |
| enter   | apply                                     |
| escape  | cancel                                    |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Label

from index_builder.readinglist.bookmark import tag_set


def parse_tag_edit(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(added, removed)`` from ``"thesis, -baselines"``; ``ValueError`` for a bad tag."""
    added, removed = [], []
    for part in text.split(","):
        word = " ".join(part.split())
        if word.startswith("-"):
            if gone := " ".join(word[1:].split()):
                removed.append(gone)
        elif word:
            added.append(word.lstrip("+").strip())
    return tag_set(a for a in added if a), tuple(removed)


class TagSuggester(Suggester):
    """Completes the last comma-separated tag from ``known`` (case-insensitively)."""

    def __init__(self, known: Sequence[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.known = list(known)

    async def get_suggestion(self, value: str) -> str | None:
        """``value`` with its last tag completed, or None."""
        head, _, last = value.rpartition(",")
        lead = last[: len(last) - len(last.lstrip(" -+"))]
        typed = last.lstrip(" -+").casefold()
        if not typed:
            return None
        for tag in self.known:
            if tag.casefold().startswith(typed) and tag.casefold() != typed:
                return f"{head}{',' if head else ''}{lead}{tag}"
        return None


class TagDialog(ModalScreen[str | None]):
    """A one-line prompt with tag completion; dismisses with the text typed, or None."""

    DEFAULT_CSS = """
    TagDialog { align: center middle; }
    TagDialog > Vertical {
        width: 80%; max-width: 80; height: auto;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    TagDialog .help { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", tooltip="Close without a change", id="tag_cancel"),
    ]

    def __init__(self, title: str, prompt: str, known: Sequence[str], value: str = "") -> None:
        super().__init__()
        self._title, self._prompt, self._known, self._value = title, prompt, known, value

    def compose(self) -> ComposeResult:
        """The title, the prompt, the input and the tags in use."""
        in_use = ", ".join(self._known[:12]) or "none yet"
        with Vertical():
            yield Label(Text(self._title), id="tag-title")
            yield Label(Text(self._prompt), classes="help")
            yield Input(self._value, suggester=TagSuggester(self._known), id="tag-input")
            yield Label(Text(f"In use: {in_use}"), classes="help", id="tag-known")

    def on_mount(self) -> None:
        """Type at once."""
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter applies."""
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Close without a change."""
        self.dismiss(None)
