"""The help screen: every key as it is bound now (remaps included) and the query syntax."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tui.commands.keys import KeyEntry, shown_entries

QUERY_SYNTAX: tuple[tuple[str, str], ...] = (
    ("diffusion language", "both words (AND); the last word also matches as a prefix"),
    ("transformer OR attention", "either word"),
    ('"optimal transport" NOT diffusion', "a phrase, without a word"),
    ('author:"Zi Wang"', "a field: title, author, abstract, topic, institution"),
    ('session:"Poster Session 1"', "papers in one session (what the session facet inserts)"),
    ('area:"Deep Learning"', "papers in one topic area (what the topic facet inserts)"),
    ("is:oral  is:spotlight", "orals, spotlights"),
    ("has:abstract  has:code", "papers with an abstract, with a code link"),
    ("is:bookmarked", "papers in your reading list"),
    ("is:dismissed", "papers you dismissed from For you (x; u takes one back)"),
    ("is:unjoined", "abstracts of your lists left on their own (J joins them)"),
    ("is:library", "papers your imported library already holds"),
    ("is:new", "papers the last update added (watches: W)"),
    ("watermark*", "words that start with watermark"),
    ("*former  *former*", "words that end with former, that hold it"),
    ("robustnes~", "fuzzy: words spelled nearly so"),
    ("like:64393", "papers similar to paper 64393 (what m shows)"),
)


def merged_rows(
    entries: Iterable[KeyEntry],
) -> list[tuple[tuple[str, ...], list[KeyEntry]]]:
    """One row per set of keys: two bindings of one key (``tab``) share a row."""
    rows: dict[tuple[str, ...], list[KeyEntry]] = {}
    for entry in entries:
        rows.setdefault(entry.keys, []).append(entry)
    return list(rows.items())


class HelpScreen(ModalScreen[None]):
    """Keys and query syntax; any of escape, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,q,question_mark", "dismiss", "Close", tooltip="Close the help", id="close_help"
        ),
    ]

    def __init__(self, below: Screen[object]) -> None:
        super().__init__()
        self.below = below
        """The screen whose keys are listed."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(
                Text("PaperScope keys (the last column: the id to remap it by)", style="bold"),
                classes="help-title",
            )
            yield Static(self._keys_table(), id="help-keys")
            yield Static(Text("Query syntax", style="bold"), classes="help-title")
            yield Static(self._syntax_table(), id="help-syntax")
            yield Static(Text("Press escape to close.", style="italic"), classes="help-foot")

    def _keys_table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        table.add_column(style="dim")
        table.add_column(style="italic")
        keymap = getattr(self.app, "keymap", {})
        for keys, entries in merged_rows(
            e for _n, e in shown_entries(self.app, self.below, keymap)
        ):
            table.add_row(
                Text(" / ".join(keys)),
                Text(", else ".join(e.description for e in entries)),
                Text("; ".join(e.tooltip for e in entries)),
                Text(" / ".join(e.binding_id for e in entries)),
            )
        palette = Binding(self.app.COMMAND_PALETTE_BINDING, "command_palette")
        table.add_row(
            Text(self.app.get_key_display(palette)),
            Text("Command palette"),
            Text("Every action by name, with its key"),
            Text(""),
        )
        return table

    @staticmethod
    def _syntax_table() -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for example, meaning in QUERY_SYNTAX:
            table.add_row(Text(example), Text(meaning))
        return table
