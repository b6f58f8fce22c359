"""How the main screen fills: the first screen of papers, then the rest, then the index.

:class:`StartUp` belongs to :class:`~tui.screens.main.screen.MainScreen`. The first frame
shows the first screen of papers: the head of the cached catalogue, or on a first run the
first table papers (a peek), ready within milliseconds. The rest loads once that frame is
drawn, in a thread worker (:class:`~tui.lifecycle.loading.Loader`): the full catalogue (a first run
shows a first look, the table's papers without abstracts, while it is built), then the
index. Opening the index imports Whoosh and the rest of the catalogue holds the
interpreter: not while the first papers are drawn.

:class:`StartUp` touches no widget: it returns the first frame's catalogue, and hands a
catalogue or an index to the screen's ``use_catalogue`` and ``use_index``, which use them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from tui.lifecycle.loading import Loader, Preload
from tui.lifecycle.startup import AFTER_FRAME_S, GATE_S, QUICK_LOAD_S

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue
    from index_builder.model import Paper
    from index_builder.search.engine import SearchIndex
    from tui.screens.main.search_flow import SearchFlow


class StartUp:
    """The screen's catalogue and index: what the first frame shows, and the rest after it."""

    def __init__(
        self,
        screen: Screen[Any],
        flow: SearchFlow,
        catalogue: Preload,
        index: Callable[[], SearchIndex],
        *,
        use_catalogue: Callable[[Catalogue, bool], None],
        use_index: Callable[[Loader.IndexReady, Paper | None], None],
    ) -> None:
        self.screen = screen
        """Runs the timers and the loader, and receives the loader's messages."""
        self.flow = flow
        self._use_catalogue = use_catalogue
        self._use_index = use_index
        self.preload = catalogue
        self.open_index = index
        self._shown: Catalogue | None = None
        """The catalogue of the first frame, until the rest is asked for."""
        self.highlight_after_swap: str | None = None
        """The paper to highlight once :meth:`swap_in` is done (a join by hand: its paper)."""

    def first_frame(self) -> None:
        """Show what can be shown at once (the screen says it is loading papers till
        then); the rest follows the first frame."""
        catalogue = self.preload.wait(QUICK_LOAD_S)
        # The list says when it has drawn the first papers (:meth:`drawn`); the timer
        # is for a screen that shows none.
        self.screen.set_timer(GATE_S, self.load_rest)
        if catalogue is not None:
            self._use_catalogue(catalogue, catalogue is self.preload.head)
            self._shown = catalogue
        else:
            self.load(True)  # the first papers are shown as soon as they are read

    def drawn(self) -> None:
        """The list drew its papers: the rest loads a moment later."""
        # The list draws a frame or two before the terminal gets the whole first screen.
        self.screen.set_timer(AFTER_FRAME_S, self.load_rest)

    def load_rest(self) -> None:
        """Once the first papers are on screen: the papers not shown yet, then the index."""
        self.preload.resume()
        shown, self._shown = self._shown, None
        if shown is not None:
            self.load(not shown.complete, shown)

    def load(self, announce: bool, shown: Catalogue | None = None) -> None:
        """Catalogue first (unless already shown), then the index (built if needed).

        With ``announce``, what can be shown before the full catalogue is posted first
        (the first screen of papers, a first run's first look), but ``shown``.
        """
        loader = Loader(
            self.preload.result,
            self.open_index,
            self.screen.post_message,
            announce=announce,
            early=lambda: self.preload.partials(shown),
        )
        self.screen.run_worker(
            loader.run, thread=True, exclusive=True, group="load", exit_on_error=False
        )

    def loaded(self, catalogue: Catalogue) -> None:
        """The loader's catalogue arrived: search it."""
        self._use_catalogue(catalogue, catalogue is self.preload.head)

    def swap_in(
        self,
        open_index: Callable[[], SearchIndex],
        catalogue: Catalogue,
        index: SearchIndex,
        notice: str | None,
    ) -> None:
        """Use a catalogue and index built after ``paperscope update`` (from the palette) or
        a join by hand (then the cursor goes to :attr:`highlight_after_swap`).

        The index searched until now is closed (unless it is ``index``).
        """
        old = self.flow.searcher.index if self.flow.searcher is not None else None
        self.open_index = open_index
        self._use_catalogue(catalogue, False)
        wanted, self.highlight_after_swap = self.highlight_after_swap, None
        paper = catalogue.get(wanted) if wanted else None
        self._use_index(Loader.IndexReady(index, notice), paper)
        if old is not None and old is not index:
            old.close()
