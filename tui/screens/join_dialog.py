"""The dialog that asks before a join by hand is made or taken back (``J``).

BINDINGS:

| key        | action              |
|------------|---------------------|
| y / enter  | make the join (or take it back) |
| n / escape | cancel              |
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from index_builder.text.safe import safe


class JoinDialog(ModalScreen[bool]):
    """A question and two buttons; dismisses with True to go ahead."""

    DEFAULT_CSS = """
    JoinDialog { align: center middle; }
    JoinDialog > Vertical {
        width: 80%; max-width: 90; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    JoinDialog Label { width: 100%; margin-bottom: 1; }
    JoinDialog Horizontal { height: auto; align-horizontal: right; }
    JoinDialog Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes", tooltip="Go ahead", id="join_yes"),
        Binding("n,escape", "answer(False)", "Cancel", tooltip="Leave it as it is", id="join_no"),
    ]

    def __init__(self, question: str, detail: str, verb: str) -> None:
        super().__init__()
        self._question = question
        self._detail = detail
        self._verb = verb

    def compose(self) -> ComposeResult:
        """The question, what it does, and the buttons."""
        with Vertical():
            yield Label(Text(safe(self._question), style="bold"), id="join-question")
            yield Label(Text(safe(self._detail)), id="join-detail")
            with Horizontal():
                yield Button(f"{self._verb} (y)", id="join-yes", variant="primary")
                yield Button("Cancel (n)", id="join-no")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Answer by mouse."""
        event.stop()
        self.dismiss(event.button.id == "join-yes")
