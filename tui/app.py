"""The PaperScope Textual app: wiring, app-wide keys, settings and links.

The screens and widgets do the work (:mod:`tui.screens.main.screen` and friends); this
module takes the run's :class:`~tui.shared.context.Context` (catalogue and index are
opened in a worker after the first frame), the config, and the reading list, and
hands the screens what they need as one :class:`~tui.services.Services` object.

BINDINGS (app-wide):

| key    | id        | action              |
|--------|-----------|---------------------|
| q      | quit      | quit (exit code 0)  |
| ctrl+c | interrupt | quit (exit code 0)  |
| ?      | help      | keys and syntax     |
| ctrl+p | —         | command palette     |
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.events import Event, Key, Ready
from textual.screen import Screen
from textual.worker import Worker

from index_builder.text.safe import safe
from tui.lifecycle.failures import failed, report
from tui.lifecycle.loading import Preload
from tui.lifecycle.quitting import quit_now, run_until_quit
from tui.lifecycle.typeahead import TypeAhead
from tui.screens.main.screen import MainScreen
from tui.services import Services, open_in_browser
from tui.shared.config import Config, load_config, save_theme
from tui.widgets.search_box import alt_letter, escape_then

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.notifications import SeverityLevel

    from index_builder.catalogue.joins.by_hand import Apart, Candidates, HandJoin
    from index_builder.catalogue.load import Catalogue
    from index_builder.model import Paper
    from index_builder.readinglist.store import ReadingList
    from tui.services import PaperSource
    from tui.shared.context import Context


def action_commands() -> type[Provider]:
    """The palette's provider of the app's actions (imported when the palette opens)."""
    from tui.commands.keys import ActionCommands

    return ActionCommands


def update_commands() -> type[Provider]:
    """The palette's "Update from the conference site" (imported when the palette opens)."""
    from tui.commands.update import UpdateCommands

    return UpdateCommands


def schedule_commands() -> type[Provider]:
    """The palette's time-zone and what's-on commands (imported when the palette opens)."""
    from tui.commands.schedule import ScheduleCommands

    return ScheduleCommands


class PaperScopeApp(App[int]):
    """Search, browse and read the papers; everything the app needs comes in through ``ctx``."""

    CSS_PATH = "app.tcss"
    TITLE = "PaperScope"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit_app", "Quit", tooltip="Quit PaperScope", id="quit"),
        # Ctrl+C quits, as in any terminal program, even from the search box (priority).
        Binding(
            "ctrl+c",
            "quit_app",
            "Quit",
            tooltip="Quit PaperScope at once",
            id="interrupt",
            show=False,
            priority=True,
        ),
        Binding(
            "question_mark", "help", "Help", tooltip="Every key and the query syntax", id="help"
        ),
    ]
    COMMANDS = App.COMMANDS | {action_commands, update_commands, schedule_commands}

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
        self.services = Services(
            self,
            paths=ctx.paths,
            config=self.config,
            copy=self.copy_and_report,
            store=store,
            open_url=open_url,
            zone=ctx.timezone,
        )
        """What the screens need, handed to each screen the app creates."""
        self.preload = (
            catalogue if catalogue is not None else Preload(ctx.catalogue, ctx.quick_catalogue)
        )
        self.update_cancel = threading.Event()
        """Set on quit: a download under way stops at once."""
        self._candidates: tuple[PaperSource, Candidates] | None = None
        """``J``'s candidate papers, indexed for the catalogue shown (built on first use)."""
        if self.config.theme and self.config.theme in self.available_themes:
            self.theme = self.config.theme
        self.typeahead = TypeAhead(super().on_event, self.call_later)
        """Keys typed before the first frame, handed on once it is drawn."""

    @property
    def keymap(self) -> dict[str, str]:
        """The user's key remaps (binding id -> keys)."""
        return self.config.keymap

    def get_default_screen(self) -> Screen[Any]:
        """The main screen is the first screen: no blank screen is drawn before it."""
        return MainScreen(self.services, self.preload, self.ctx.index)

    async def on_event(self, event: Event) -> None:
        """Every key typed before the first frame is kept (see :mod:`tui.lifecycle.typeahead`)."""
        if isinstance(event, Key) and not event.is_forwarded and self.typeahead.hold(event):
            return
        if isinstance(event, Ready):
            self.typeahead.ready()
        await super().on_event(event)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker of this app that failed is reported (:mod:`tui.lifecycle.failures`)."""
        if failed(event):
            report(self.app, event.worker)

    def on_mount(self) -> None:
        self.set_keymap(self.config.keymap)
        if self.config.problems:
            self.notify("\n".join(self.config.problems), title="Config", severity="warning")
        if (self.ctx.paths.data_dir / "feeds").is_dir():
            self.call_after_refresh(self._start_news)

    def _start_news(self) -> None:
        self.news_check = self._news_worker()
        """The look at what the last update changed (its worker)."""

    @work(thread=True, group="news", exit_on_error=False)
    def _news_worker(self) -> None:
        """What the last ``paperscope update`` changed, shown once."""
        from tui.commands.update import show_news

        show_news(self, self.ctx)

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
        """A toast, always as plain, terminal-safe text.

        Messages quote data (URLs, titles, file paths, error text); read as markup,
        ``[@click=app.quit]`` in a URL would become a live link. ``markup`` is accepted
        for Textual's callers and ignored. A new toast replaces the ones before it
        (eight bookmarks make one toast, not eight); an error stays until it times out.
        """
        for old in list(self._notifications):
            if old.severity != "error":
                self._unnotify(old, refresh=False)
        # The one door of every notice: what it quotes (a feed's room, a stored "moved"
        # line, a file name) may hold escape sequences, which must not reach the terminal.
        message, title = safe(message), safe(title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's palette commands, without its Quit (the app's own Quit is listed)."""
        for command in super().get_system_commands(screen):
            if command.title != "Quit":
                yield command

    def copy_and_report(self, text: str, what: str) -> None:
        """Copy ``text`` in a worker; say how it went, or show it to select by hand."""
        from tui.screens.copy_fallback import copy_and_report

        self.run_worker(copy_and_report(self, text, what=what), group="copy", exit_on_error=False)

    @property
    def zone_setting(self) -> str:
        """Where session times are shown: ``venue``, ``local`` or an IANA zone."""
        return self.services.zone_setting

    def set_time_zone(self, setting: str) -> None:
        """Show session times in ``setting``'s zone everywhere, and save it to the config."""
        from index_builder.times import check_setting, normal_setting
        from tui.shared.config import save_timezone

        problem = check_setting(setting)
        if problem is not None:
            self.notify(problem, severity="warning")
            return
        self.services.zone_setting = self.config.timezone = normal_setting(setting)
        for screen in self.screen_stack:
            refresh = getattr(screen, "show_times_in", None)
            if callable(refresh):
                refresh(self.zone_setting)
        saved = ""
        if self.config.path is not None:
            try:
                save_timezone(self.config.path, self.zone_setting)
                saved = " (saved)"
            except OSError as exc:
                saved = f" (not saved: {exc.strerror or exc})"
        self.notify(f"Session times: {self.zone_setting}{saved}", title="Time zone")

    def action_whats_on(self) -> None:
        """Show the bookmarked sessions running now, the next one, and the day's plan."""
        from index_builder.readinglist.store import ReadingListError
        from tui.screens.whats_on import WhatsOnScreen

        store = self.services.reading_list()
        if store is None:
            self.notify("The reading list cannot be opened.", severity="error")
            return
        try:
            bookmarks = store.all(sort="time")
        except ReadingListError as exc:
            self.notify(f"Reading list unavailable: {exc}", severity="error")
            return
        catalogue = self.preload.wait(0)
        lookup = catalogue.get if catalogue is not None else None
        self.push_screen(WhatsOnScreen(bookmarks, lookup, self.zone_setting))

    async def on_key(self, event: Key) -> None:
        """Alt+letter that no widget took: ``Esc`` then the letter, read together."""
        if letter := alt_letter(event):
            event.stop()
            event.prevent_default()
            await escape_then(self.screen.focused or self.screen, letter)

    # -- actions ----------------------------------------------------------------------------

    def action_quit_app(self) -> None:
        """Quit with status 0 at once (:func:`~tui.lifecycle.quitting.quit_now`); stop downloads."""
        self.update_cancel.set()
        quit_now(self, 0)

    def action_update_feeds(self) -> None:
        """Download the conference's feeds and swap in the new catalogue (palette only)."""
        if any(w.group == "update" and w.is_running for w in self.workers):
            self.notify("An update is already running.", title="Update")
            return
        self.notify("Downloading from the conference site…", title="Update")
        self._update_worker()

    @work(thread=True, exclusive=True, group="update", exit_on_error=False)
    def _update_worker(self) -> None:
        from tui.commands.update import update_in_worker

        screen = self._main_screen()
        update_in_worker(
            self,
            self.ctx,
            self.update_cancel,
            adopt=self._adopt,
            show_state=screen.flow.status.set_index_state,
            swap_in=screen.start_up.swap_in,
        )

    def action_join_by_hand(self) -> None:
        """``J``: pick the paper a lone abstract is, or the abstract of a table paper without
        one (the likeliest listed, a hint's first), or take back a join made so (asked
        first), or take apart a join the automatic join made (asked first); the papers are
        then rebuilt in a worker. What ``J`` does is worked out in a worker too: the joins
        file is never read on the event loop."""
        screen = self._main_screen()
        paper, catalogue = screen.current_paper(), screen.catalogue()
        if paper is None or catalogue is None:
            return
        if any(w.group in ("update", "join") and w.is_running for w in self.workers):
            self.notify("The papers are being rebuilt; try again when they are.", title="Join")
            return
        self._plan_worker(paper, catalogue)

    @work(thread=True, exclusive=True, group="join", exit_on_error=False)
    def _plan_worker(self, paper: Paper, catalogue: PaperSource) -> None:
        """What ``J`` does for ``paper``, then ask (or rank the candidates) on the loop."""
        from index_builder.catalogue.joins.by_hand import JoinRefused, plan_apart
        from tui.commands.join import what_j_does

        what = what_j_does(paper, self.ctx)
        if what == "apart":
            try:  # refused before asking (a join by hand, the conference's own text)
                change = plan_apart(catalogue.get, paper.id, self.ctx.paths.hand_joins)
            except JoinRefused as exc:
                self.call_from_thread(self.notify, str(exc), title="Join", severity="error")
                return
            self.call_from_thread(self._ask_apart, paper, change)
        elif what in ("paper", "abstract"):
            self._rank_candidates(paper, catalogue, what == "abstract")
        elif what == "undo":
            self.call_from_thread(self._ask_undo, paper)
        else:
            self.call_from_thread(self.notify, what, title="Join")

    def _ask_undo(self, paper: Paper) -> None:
        from tui.commands.join import undo_question
        from tui.screens.join_dialog import JoinDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self._join_worker(paper.id)

        self.push_screen(JoinDialog(*undo_question(paper, self.ctx), "Take back"), answered)

    def _ask_apart(self, paper: Paper, change: Apart) -> None:
        from tui.commands.join import apart_question
        from tui.screens.join_dialog import JoinDialog

        def apart(yes: bool | None) -> None:
            if yes:
                self._join_worker(change)

        self.push_screen(JoinDialog(*apart_question(paper, self.ctx), "Take apart"), apart)

    def _rank_candidates(self, paper: Paper, catalogue: PaperSource, for_paper: bool) -> None:
        """Rank the candidates (the titles are indexed once per catalogue), then ask.

        Run in a worker: the separations are read from the joins file once per catalogue.
        """
        from index_builder.catalogue.joins.by_hand import Candidates, JoinRefused, read_aparts

        held = self._candidates
        if held is None or held[0] is not catalogue:
            try:
                aparts = read_aparts(self.ctx.paths.hand_joins, strict=True)
            except JoinRefused as exc:
                self.call_from_thread(self.notify, str(exc), title="Join", severity="error")
                return
            held = self._candidates = (catalogue, Candidates(catalogue.papers, aparts))
        found = held[1].abstracts_for(paper) if for_paper else held[1].of(paper)
        self.call_from_thread(self._pick, paper, catalogue, found, for_paper)

    def _pick(
        self, paper: Paper, catalogue: PaperSource, found: list[Paper], for_paper: bool
    ) -> None:
        from index_builder.catalogue.joins.by_hand import JoinRefused, plan_join
        from tui.screens.join_dialog import JoinPicker

        if not found:
            self.notify(
                "No abstract standing on its own shares a word with this paper's title."
                if for_paper
                else "No paper of the table without an abstract shares a word with this one; "
                f"paperscope join {paper.id} PAPER_ID joins it to one you name.",
                title="Join",
            )
            return

        def picked(other: str | None) -> None:
            if other is None:
                return
            abstract, row = (other, paper.id) if for_paper else (paper.id, other)
            try:
                join = plan_join(catalogue.get, abstract, row)
            except JoinRefused as exc:
                self.notify(str(exc), title="Join", severity="error")
                return
            self._join_worker(join)

        if for_paper:
            self.push_screen(JoinPicker.for_paper(paper, found), picked)
        else:
            self.push_screen(JoinPicker.for_abstract(paper, found, paper.possibly_same_as), picked)

    @work(thread=True, exclusive=True, group="join", exit_on_error=False)
    def _join_worker(self, change: HandJoin | Apart | str) -> None:
        from tui.commands.join import join_in_worker

        screen = self._main_screen()
        join_in_worker(
            self,
            self.ctx,
            change,
            self.update_cancel,
            adopt=self._adopt,
            show_state=screen.flow.status.set_index_state,
            swap_in=screen.start_up.swap_in,
            show_paper=screen.show_after_swap,
        )

    def _main_screen(self) -> MainScreen:
        return next(s for s in self.screen_stack if isinstance(s, MainScreen))

    def _adopt(self, ctx: Context) -> None:
        """Use ``ctx`` (the sources after an update) from now on."""
        self.ctx = ctx

    def action_help(self) -> None:
        """Show every key and the query syntax."""
        from tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))


def run_tui(ctx: Context, peek: Callable[[], Catalogue | None] | None = None) -> NoReturn:
    """Run the app for ``ctx`` until the user quits, then end the process with its status.

    ``peek`` gives the first screen of papers (default: ``ctx.peek_catalogue``).
    """
    ctx.build_in_child = True
    # Read the first screen of papers while the terminal is set up (the rest after it).
    preload = Preload(ctx.catalogue, ctx.quick_catalogue, peek or ctx.peek_catalogue)
    app = PaperScopeApp(ctx, catalogue=preload)
    # Ends the process as soon as the terminal is restored: a build, an export or a hung
    # clipboard still running in a thread never holds the user's shell.
    run_until_quit(app)
