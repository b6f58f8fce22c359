"""The watches pane: each saved query with how many papers it matches and how many are new.

Opened by ``W`` or the palette's "Watches". The counts are computed in a thread worker
over the search index (:func:`tui.shared.watching.count_watches`); Enter closes the pane
with the chosen watch's query limited to its new matches (``(QUERY) is:new``), which the
main screen lists. Watches are added from the command line (``paperscope watch add``).

BINDINGS:

| key    | action                               |
|--------|--------------------------------------|
| enter  | list the chosen watch's new matches  |
| escape | close                                |
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from index_builder.readinglist.watches import Watch
from index_builder.text.safe import safe
from tui.shared.watching import WatchCount, count_watches, new_query

if TYPE_CHECKING:
    from index_builder.search.engine import SearchIndex

EMPTY = 'No watches yet: paperscope watch add QUERY [--name NAME] (e.g. author:"Yann LeCun")'


class WatchesScreen(ModalScreen[str | None]):
    """The watches and their counts; dismissed with the query to list, or None."""

    DEFAULT_CSS = """
    WatchesScreen { align: center middle; }
    WatchesScreen > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    WatchesScreen #watches-title { text-style: bold; }
    WatchesScreen OptionList { height: auto; max-height: 20; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", tooltip="Back", id="watches_close"),
    ]

    def __init__(self, watches: Sequence[Watch], index: SearchIndex) -> None:
        super().__init__()
        self.watches = tuple(watches)
        self.index = index
        self.counts: tuple[WatchCount, ...] = ()
        """Each watch's counts, once the worker has them."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Watches: new since the last update (Enter lists them)", id="watches-title")
            yield OptionList(*self._options(), id="watches-list")

    def _options(self) -> list[Option]:
        if not self.watches:
            return [Option(EMPTY, disabled=True)]
        if not self.counts:
            return [
                Option(Text(f"{safe(w.name)}  …"), id=str(n)) for n, w in enumerate(self.watches)
            ]
        return [Option(self._line(c), id=str(n)) for n, c in enumerate(self.counts)]

    @staticmethod
    def _line(count: WatchCount) -> Text:
        text = Text(safe(count.watch.name), style="bold" if count.new else "")
        text.append(f"  {len(count.new)} new", style="bold" if count.new else "dim")
        text.append(f" · {count.total} paper{'s' if count.total != 1 else ''}", style="dim")
        if count.watch.name != count.watch.query:
            text.append(f"  ({safe(count.watch.query)})", style="dim")
        return text

    def on_mount(self) -> None:
        """Count in a worker; the names are listed meanwhile."""
        self.query_one(OptionList).focus()
        if self.watches:
            self.run_worker(self._count, thread=True, group="watches", exit_on_error=False)

    def _count(self) -> None:
        counts = tuple(count_watches(self.index, self.watches))
        self.app.call_from_thread(self._counted, counts)

    def _counted(self, counts: tuple[WatchCount, ...]) -> None:
        self.counts = counts
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(self._options())
        options.highlighted = highlighted

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter: close with the chosen watch's new matches as the query."""
        if event.option.id is None:
            return
        watch = self.watches[int(event.option.id)]
        self.dismiss(new_query(watch.query))

    def action_close(self) -> None:
        """Close without listing anything."""
        self.dismiss(None)
