"""The citation style picker behind ``Y``: one letter picks a style, with a preview.

    def action_pick_citation(self) -> None:
        paper = ...  # the paper under the cursor
        key = keys.key(paper.id)  # from index_builder.citations.styles.CitationKeys, optional
        self.app.push_screen(CitationPicker(paper, key=key), callback=self._copy_style)

    # _copy_style(style: str | None): None when the user pressed escape; else one of
    # index_builder.citations.documents.CITE_STYLES ("bibtex", "apa", ..., "csljson").

``CitationPicker(paper, key=None, default="bibtex")`` is a ``ModalScreen[str | None]``.
``b`` BibTeX, ``a`` APA, ``m`` Markdown, ``p`` plain text, ``r`` RIS, ``c`` CSL-JSON
pick and close at once;
the arrow keys move the highlight (the preview follows) and ``enter`` picks it;
``escape`` cancels. The preview is the citation exactly as it will be copied.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from index_builder.citations.documents import CITE_STYLES as STYLES
from index_builder.citations.documents import cite
from index_builder.model import Paper

CHOICES: tuple[tuple[str, str, str], ...] = (
    ("b", "bibtex", "BibTeX"),
    ("a", "apa", "APA 7"),
    ("m", "markdown", "Markdown link"),
    ("p", "plain", "Plain text"),
    ("r", "ris", "RIS (Zotero, EndNote)"),
    ("c", "csljson", "CSL-JSON (Zotero, pandoc)"),
)
"""(letter, style, label) for each choice, in the order shown."""
PREVIEW_LINES = 16
"""The preview's height at most; a longer citation scrolls."""
CHROME_LINES = 5 + len(CHOICES)
"""Rows around the preview: frame 2, title 1, the choices, the preview's rule 1, keys 1."""


class CitationPicker(ModalScreen[str | None]):
    """Pick a citation style for one paper; dismisses with the style or ``None``.

    BINDINGS: ``b``/``a``/``m``/``p``/``r``/``c`` pick a style; ``enter`` picks the highlighted
    one; ``escape`` cancels.
    """

    DEFAULT_CSS = """
    CitationPicker {
        align: center middle;
    }
    CitationPicker > #picker {
        width: 96%;
        max-width: 110;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    CitationPicker #picker-title {
        text-style: bold;
    }
    CitationPicker OptionList, CitationPicker OptionList:focus {
        height: auto;
        border: none;
    }
    CitationPicker #preview-box {
        height: auto;
        max-height: 16;
        border-top: solid $primary 50%;
    }
    CitationPicker #picker-help {
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", tooltip="Close without copying", id="picker_cancel"),
        *(
            Binding(
                letter,
                f"pick('{style}')",
                label,
                tooltip=f"Copy as {label}",
                show=False,
                id=f"picker_{style}",
            )
            for letter, style, label in CHOICES
        ),
    ]

    def __init__(self, paper: Paper, *, key: str | None = None, default: str = "bibtex") -> None:
        super().__init__()
        self.paper = paper
        self.key = key
        self.default = default if default in STYLES else STYLES[0]

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(Text("Copy the citation as…"), id="picker-title")
            yield OptionList(
                *(
                    Option(Text.assemble((f"{letter}  ", "bold"), label), id=style)
                    for letter, style, label in CHOICES
                ),
                id="styles",
            )
            with VerticalScroll(id="preview-box"):
                yield Static(id="preview", markup=False)
            yield Static(
                Text("b a m p r c pick · ↑↓ preview · enter pick · escape cancel"), id="picker-help"
            )

    def on_resize(self, event: Resize) -> None:
        # The preview gives way on a short terminal: the keys line stays on screen.
        box = self.query_one("#preview-box")
        box.styles.max_height = max(3, min(PREVIEW_LINES, event.size.height - CHROME_LINES))

    def on_mount(self) -> None:
        options = self.query_one("#styles", OptionList)
        options.highlighted = [style for _l, style, _n in CHOICES].index(self.default)
        options.focus()
        self._show(self.default)

    def citation(self, style: str) -> str:
        """The citation of the paper in ``style``, as it will be copied."""
        return cite(self.paper, style, key=self.key)

    def _show(self, style: str) -> None:
        """Put the preview of ``style`` on screen."""
        self.query_one("#preview", Static).update(Text(self.citation(style)))

    @on(OptionList.OptionHighlighted, "#styles")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self._show(event.option.id)

    @on(OptionList.OptionSelected, "#styles")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.action_pick(event.option.id or self.default)

    def action_pick(self, style: str) -> None:
        """Close the picker with ``style``."""
        self.dismiss(style)

    def action_cancel(self) -> None:
        """Close the picker without a style."""
        self.dismiss(None)
