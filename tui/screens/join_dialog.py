"""``J``'s two dialogs: pick what to join (the paper a lone abstract is, or the abstract of
a paper without one), or confirm taking a join back.

BINDINGS of :class:`JoinPicker` (dismisses with the picked option's id, or None):

| key          | action                              |
|--------------|-------------------------------------|
| ↑ ↓ / j k    | move between the candidates         |
| enter        | join the highlighted one            |
| escape       | cancel                              |

BINDINGS of :class:`JoinDialog` (dismisses with True to go ahead):

| key        | action              |
|------------|---------------------|
| y / enter  | go ahead            |
| n / escape | cancel              |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList
from textual.widgets.option_list import Option

from index_builder.model import Paper
from index_builder.text.safe import safe
from tui.widgets.paper_text import short_authors

AUTHORS_SHOWN = 4
"""Authors named per candidate; more are counted."""
OPENING = 240
"""Characters of the abstract shown above the candidate papers."""


def _opening(text: str, length: int) -> str:
    flat = " ".join(text.split())
    return flat[:length] + ("…" if len(flat) > length else "")


def _option(paper: Paper, detail: str, hinted: bool) -> Option:
    """One candidate: its title, then its id and ``detail``, marked when a hint names it."""
    text = Text(safe(paper.title), style="bold")
    text.append(f"\n  {safe(paper.id)} · {safe(detail)}", style="dim")
    if hinted:
        text.append("  (suggested)", style="italic")
    return Option(text, id=paper.id)


def paper_option(paper: Paper, hinted: bool) -> Option:
    """A candidate table paper: its title, then its id and authors."""
    return _option(paper, short_authors(paper.authors, AUTHORS_SHOWN), hinted)


def abstract_option(abstract: Paper, hinted: bool) -> Option:
    """A candidate lone abstract: its derived title, then its id and its first words."""
    return _option(abstract, _opening(abstract.abstract, 60), hinted)


class JoinPicker(ModalScreen[str | None]):
    """What ``J`` may join the current paper to, likeliest first; the user picks one (or none).

    For a lone abstract the options are table papers (:func:`paper_option`); for a table
    paper without an abstract, lone abstracts (:func:`abstract_option`). Dismisses with
    the picked option's id.
    """

    DEFAULT_CSS = """
    JoinPicker { align: center middle; }
    JoinPicker > Vertical {
        width: 96%; max-width: 110; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    JoinPicker #join-about { text-style: bold; }
    JoinPicker #join-context { color: $text-muted; width: 100%; max-height: 3; }
    JoinPicker OptionList, JoinPicker OptionList:focus {
        height: auto; max-height: 50vh; border: none; margin: 1 0;
    }
    JoinPicker #join-help { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", tooltip="Join nothing", id="pick_no"),
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
    ]

    def __init__(self, question: str, context: str, options: Sequence[Option]) -> None:
        super().__init__()
        self._question = question
        self._asked_of = context
        self._options = list(options)

    @classmethod
    def for_abstract(
        cls, abstract: Paper, papers: Sequence[Paper], hinted: Sequence[str]
    ) -> JoinPicker:
        """Pick the table paper a lone abstract is."""
        return cls(
            "Which paper is this abstract?",
            _opening(abstract.abstract, OPENING),
            [paper_option(p, p.id in hinted) for p in papers],
        )

    @classmethod
    def for_paper(cls, paper: Paper, abstracts: Sequence[Paper]) -> JoinPicker:
        """Pick the lone abstract that is a table paper's."""
        return cls(
            "Which abstract is this paper's?",
            f"{paper.id} · {paper.title} · {short_authors(paper.authors, AUTHORS_SHOWN)}",
            [abstract_option(a, paper.id in a.possibly_same_as) for a in abstracts],
        )

    def compose(self) -> ComposeResult:
        """What is asked, what it is asked of, the candidates and the keys."""
        with Vertical():
            yield Label(Text(self._question), id="join-about")
            yield Label(Text(safe(self._asked_of)), id="join-context")
            yield OptionList(*self._options, id="join-candidates")
            yield Label(
                "enter joins · esc leaves it alone · J on the paper undoes it", id="join-help"
            )

    def on_mount(self) -> None:
        """The likeliest paper highlighted, the list focused."""
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    def action_move(self, step: int) -> None:
        """``j``/``k``: the next or previous candidate."""
        options = self.query_one(OptionList)
        count = options.option_count
        if count:
            options.highlighted = ((options.highlighted or 0) + step) % count

    def action_cancel(self) -> None:
        """Close without a join."""
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)


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
