"""The PaperScope Textual app: wiring, app-wide keys, settings and links.

The screens and widgets do the work (:mod:`tui.screens.main.screen` and friends); this
module takes the run's :class:`~tui.context.Context` (catalogue and index are
opened in a worker after the first frame), the config, and the reading list.

BINDINGS (app-wide):

| key    | id      | action              |
|--------|---------|---------------------|
| q      | quit    | quit (exit code 0)  |
| ?      | help    | keys and syntax     |
| ctrl+p | —       | command palette     |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType

from tui.config import Config, load_config, save_theme
from tui.loading import Preload
from tui.screens.main.screen import MainScreen
from tui.widgets.paper_view import is_web_link

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.notifications import SeverityLevel

    from index_builder.citations.styles import CitationKeys
    from index_builder.model import Paper
    from index_builder.readinglist.store import ReadingList
    from tui.context import Context
    from tui.searching import PaperSource


def action_commands() -> type[Provider]:
    """The palette's provider of the app's actions (imported when the palette opens)."""
    from tui.keys import ActionCommands

    return ActionCommands


def open_in_browser(url: str) -> bool:
    """Open ``url`` with the system's browser; True if one took it."""
    import webbrowser

    return webbrowser.open(url)


class PaperScopeApp(App[int]):
    """Search, browse and read the papers; everything the app needs comes in through ``ctx``."""

    CSS_PATH = "app.tcss"
    TITLE = "PaperScope"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit_app", "Quit", tooltip="Quit PaperScope", id="quit"),
        Binding(
            "question_mark", "help", "Help", tooltip="Every key and the query syntax", id="help"
        ),
    ]
    COMMANDS = App.COMMANDS | {action_commands}

    def __init__(
        self,
        ctx: Context,
        *,
        config: Config | None = None,
        store: ReadingList | None = None,
        open_url: Callable[[str], bool] = open_in_browser,
        catalogue: Preload | None = None,
    ) -> None:
        super().__init__()
        self.ctx = ctx
        self.config = config if config is not None else load_config(ctx.paths.config_file)
        self._store = store
        self._store_error: str | None = None
        self._open_url = open_url
        self.preload = (
            catalogue if catalogue is not None else Preload(ctx.catalogue, ctx.quick_catalogue)
        )
        self._citation_keys: CitationKeys | None = None
        self._keyed: PaperSource | None = None
        if self.config.theme and self.config.theme in self.available_themes:
            self.theme = self.config.theme

    @property
    def keymap(self) -> dict[str, str]:
        """The user's key remaps (binding id -> keys)."""
        return self.config.keymap

    def on_mount(self) -> None:
        self.set_keymap(self.config.keymap)
        self.push_screen(MainScreen(self.preload, self.ctx.index))
        for problem in self.config.problems:
            self.notify(problem, title="Config", severity="warning")

    def watch_theme(self, theme: str) -> None:
        if self.config.path is None or theme == self.config.theme:
            return
        self.config.theme = theme
        try:
            save_theme(self.config.path, theme)
        except OSError as exc:
            self.notify(f"Could not save the theme: {exc}", severity="warning")

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A toast, always as plain text.

        Messages quote data (URLs, titles, file paths, error text); read as markup,
        ``[@click=app.quit]`` in a URL would become a live link. ``markup`` is accepted
        for Textual's callers and ignored.
        """
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    # -- actions ----------------------------------------------------------------------------

    def action_quit_app(self) -> None:
        """Quit with exit status 0."""
        self.exit(0)

    def action_help(self) -> None:
        """Show every key and the query syntax."""
        from tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    # -- services for the screens -----------------------------------------------------------

    def reading_list(self) -> ReadingList | None:
        """The reading list store, opened on first use (None if it cannot be opened)."""
        if self._store is None and self._store_error is None:
            from index_builder.readinglist.store import ReadingList

            try:
                self._store = ReadingList(self.ctx.paths.reading_list)
            except Exception as exc:  # corrupt or locked: say so, keep browsing
                self._store_error = str(exc)
                self.notify(f"Reading list unavailable: {exc}", severity="error", timeout=8)
        return self._store

    def open_link(self, url: str, what: str) -> None:
        """Open ``url`` in the browser if it is http(s); say what was opened."""
        if not is_web_link(url):
            self.notify(
                f"Not opening {what}: only http and https links are opened.", severity="warning"
            )
            return
        self._open_in_browser(url, what)

    @work(thread=True, group="browser", exit_on_error=False)
    def _open_in_browser(self, url: str, what: str) -> None:
        try:
            opened = self._open_url(url)
        except Exception:
            opened = False
        message = f"Opened the {what}: {url}" if opened else f"No browser to open {url}"
        self.call_from_thread(self.notify, message, severity="information" if opened else "warning")

    def citation_key(self, paper: Paper, catalogue: PaperSource | None) -> str | None:
        """The paper's BibTeX key, unique over the whole catalogue (None before it loads)."""
        if catalogue is None:
            return None
        if self._citation_keys is None or self._keyed is not catalogue:
            from index_builder.citations.styles import CitationKeys

            # Keys depend on every paper: a first run's first look gets its own.
            self._citation_keys = CitationKeys(catalogue.papers)
            self._keyed = catalogue
        return self._citation_keys.key(paper.id)

    def copy_citation(self, paper: Paper, style: str, catalogue: PaperSource | None) -> None:
        """Copy ``paper``'s citation in ``style``; the user is told how it went."""
        from index_builder.citations.styles import cite
        from tui.clipboard import copy_and_report

        text = cite(paper, style, key=self.citation_key(paper, catalogue))
        names = {"bibtex": "BibTeX", "apa": "APA", "markdown": "Markdown", "plain": "plain text"}
        what = f"{names.get(style, style)} citation"
        self.run_worker(copy_and_report(self, text, what=what), group="copy", exit_on_error=False)


def run_tui(ctx: Context) -> int:
    """Run the app for ``ctx`` until the user quits; returns the exit status."""
    # Read the papers while the terminal is set up.
    preload = Preload(ctx.catalogue, ctx.quick_catalogue)
    app = PaperScopeApp(ctx, catalogue=preload)
    result = app.run()
    return int(result or 0) if app.return_code in (None, 0) else int(app.return_code or 1)
