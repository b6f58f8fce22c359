"""The "did you mean …" line under the search box (or what a listing is, e.g. For you's words)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tui.widgets.one_line import fit_words
from tui.widgets.paper_text import clean


class DidYouMean(Static):
    """Offers the core's spelling suggestion; hidden when there is none."""

    DEFAULT_CSS = """
    DidYouMean { height: 1; padding: 0 1; color: $text-muted; display: none; }
    DidYouMean.-shown { display: block; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.suggestion: str | None = None
        self.key_hint = "tab"
        """The key that accepts (the screen sets it from the live bindings)."""
        self.line = ""
        """The listing's explanation in full (the line shows what fits of it)."""

    def offer(self, suggestion: str | None) -> None:
        """Show ``suggestion`` (or hide the line when None)."""
        self.suggestion = suggestion or None
        self.set_class(self.suggestion is not None, "-shown")
        if self.suggestion is not None:
            text = Text("Did you mean ")
            text.append(clean(self.suggestion), style="bold italic")
            text.append(f"?  ({self.key_hint} to search for it)")
            self.update(text)
        else:
            self.update("")

    def say(self, line: str) -> None:
        """Show ``line`` (a listing's explanation) where a suggestion would be; "" hides it."""
        self.line = clean(line)
        if self.suggestion is not None:
            return
        self.set_class(bool(line), "-shown")
        self._fit()

    def _fit(self) -> None:
        # One line: what does not fit is cut at a word, never left with a dangling comma.
        width = self.content_size.width or self.app.size.width - 2
        self.update(Text(fit_words(self.line, width)) if self.line else "")

    def on_resize(self) -> None:
        if self.suggestion is None and self.line:
            self._fit()
