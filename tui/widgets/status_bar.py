"""The status line: how many papers match (all reachable), query time, sort, index state."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Label

NARROW_STATUS = 96


class StatusBar(Horizontal):
    """One line under the panes; a progress bar appears while the index builds."""

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    StatusBar #status-text { width: 1fr; height: 1; }
    StatusBar #status-progress { width: 14; height: 1; display: none; }
    StatusBar #status-progress Bar { width: 14; }
    StatusBar.-building #status-progress { display: block; }
    StatusBar.-narrow #status-progress { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: int | None = None
        self.total = 0
        self.elapsed_ms: float | None = None
        self.sort = "relevance"
        self.index_state = "opening index"
        self.building = False
        self.note = ""
        self.hint = ""
        self.error = ""
        self._drawn: str | None = None

    def compose(self) -> ComposeResult:
        yield Label("", id="status-text")

    def set_counts(self, shown: int, total: int, elapsed_ms: float | None) -> None:
        """The papers held, how many matched (the list fetches the rest as the user
        scrolls, so the line shows the total), and how long the query took.

        A new answer clears the last error: the list is current again."""
        self.shown, self.total, self.elapsed_ms = shown, total, elapsed_ms
        self.error = ""
        self._redraw()

    def set_error(self, error: str) -> None:
        """What failed in the background, shown first until the next answer."""
        self.error = error
        self._redraw()

    def set_sort(self, sort: str) -> None:
        """The sort order in use."""
        self.sort = sort
        self._redraw()

    def set_index_state(self, state: str, progress: tuple[int, int] | None = None) -> None:
        """``state`` in words; ``progress`` (done, total) shows the build's progress bar."""
        self.index_state = state
        self.building = progress is not None
        self.set_class(self.building, "-building")
        if progress is not None:
            done, total = progress
            from textual.widgets import ProgressBar  # a first run's (or rebuild's) only

            bars = list(self.query(ProgressBar).results(ProgressBar))
            if bars:
                bars[0].update(total=max(total, 1), progress=done)
            else:  # only a first run (or a rebuild) needs one
                bar = ProgressBar(total=max(total, 1), show_eta=False, show_percentage=False)
                bar.id = "status-progress"
                self.mount(bar)
                bar.update(progress=done)
        self._redraw()

    def set_hint(self, hint: str) -> None:
        """A standing remark at the end (e.g. that abstracts are missing and how to get them)."""
        self.hint = hint
        self._redraw()

    def set_note(self, note: str) -> None:
        """A short remark after the counts (e.g. that the simple filter is in use)."""
        self.note = note
        self._redraw()

    @property
    def text(self) -> str:
        """The status line as plain text."""
        parts = [self.error] if self.error else []
        if self.shown is not None:
            parts.append(f"{self.total:,} paper" + ("" if self.total == 1 else "s"))
            if self.elapsed_ms is not None:
                parts.append(f"{self.elapsed_ms:.0f} ms")
        # A narrow line cuts the end: a build's progress comes first, the hint then, and
        # the index state once built.
        if self.building:
            parts.append(self.index_state)
        if self.hint:
            parts.append(self.hint)
        if not self.building:
            parts.append(self.index_state)
        parts.append(f"sort: {self.sort}")
        if self.note:
            parts.append(self.note)
        return " · ".join(parts)

    def on_resize(self) -> None:
        # On a narrow terminal the words ("building index 43%") carry the progress.
        self.set_class(self.size.width < NARROW_STATUS, "-narrow")

    def _redraw(self) -> None:
        # An update lays the screen out again: the same line (a note set to what it was,
        # each step of a build) is not drawn twice.
        text = self.text
        if self.is_mounted and text != self._drawn:
            self._drawn = text
            self.query_one("#status-text", Label).update(Text(text))
