"""The text to copy by hand, for when no clipboard may have taken it.

    app.push_screen(CopyFallback(text, reason))   # ModalScreen[None]; escape closes

:func:`copy_and_report` copies (:mod:`tui.shared.clipboard`) and pushes it by itself
when neither OSC 52 nor the system clipboard may have worked. The text fills the
screen, with no frame, in a read-only ``TextArea`` (all of it selected), so that a
terminal selection holds only the text; the hint says how (hold Shift, or Option on macOS, while
dragging: the app has the mouse).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from tui.shared.clipboard import CopyOutcome, copy_text

HINT = (
    "Select the text with your terminal: hold Shift (Option on macOS) and drag, "
    "then copy as your terminal does. Escape closes."
)


class CopyFallback(ModalScreen[None]):
    """A read-only view of ``text`` to select by hand, with the reason copying failed.

    BINDINGS: ``escape`` closes.
    """

    # Full width and no border around the text: a terminal selection of whole rows
    # then holds the text alone, with no frame characters.
    DEFAULT_CSS = """
    CopyFallback {
        background: $surface;
    }
    CopyFallback > #fallback {
        width: 100%;
        height: 100%;
    }
    CopyFallback #fallback-reason {
        text-style: bold;
        color: $warning;
        padding-bottom: 1;
    }
    CopyFallback TextArea {
        height: 1fr;
        border: none;
        padding: 0;
    }
    CopyFallback TextArea:focus {
        border: none;
    }
    /* A notice (a toast, bottom right) would cover the hint or the text to select:
       none shows here (Textual sets the rack's own display, so its holders are hidden). */
    CopyFallback ToastHolder {
        display: none;
    }
    CopyFallback #fallback-hint {
        color: $text-muted;
        padding-top: 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", tooltip="Close this dialog", id="fallback_close"),
    ]

    def __init__(self, text: str, reason: str = "Could not copy") -> None:
        super().__init__()
        self.text = text
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="fallback"):
            yield Static(Text(self.reason), id="fallback-reason")
            yield TextArea(self.text, read_only=True, soft_wrap=True, id="fallback-text")
            yield Static(Text(HINT), id="fallback-hint")

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.select_all()

    def action_close(self) -> None:
        """Close the dialog."""
        self.dismiss(None)


async def copy_and_report(app: App[Any], text: str, *, what: str = "Text") -> CopyOutcome:
    """Copy, then tell the user what worked, or show the text to select when nothing may have."""
    outcome = await copy_text(app, text, what=what)
    if outcome.show_fallback:
        app.push_screen(CopyFallback(text, outcome.message))
    else:
        app.notify(
            outcome.message, title="Copy", severity="information" if outcome.native else "warning"
        )
    return outcome
