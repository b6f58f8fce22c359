"""The start-up work (catalogue, then index) and the messages that report it.

:meth:`Loader.run` is the body of a thread worker of the main screen. It posts
``Loader.CatalogueLoaded`` as soon as the papers are in memory (so they show at
once), then opens the index or builds it with ``Loader.IndexProgress`` updates,
and finally ``Loader.IndexReady``. Failures are posted, never raised.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from textual.message import Message

from tui.lifecycle.startup import GATE_S

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue
    from index_builder.search.engine import SearchIndex


class Loader:
    """Loads the catalogue and the index, reporting through ``post``.

    ``announce=False`` when the screen already has the catalogue (it was ready
    before the first frame): then only the index is reported. ``early`` gives what
    can be shown before the full catalogue (the first screen of papers, a first run's
    first look: ``complete`` False), each as it is read; with ``announce`` they are
    posted before the full catalogue.
    """

    class CatalogueLoaded(Message):
        """The catalogue is in memory."""

        def __init__(self, catalogue: Catalogue) -> None:
            super().__init__()
            self.catalogue = catalogue

    class IndexProgress(Message):
        """The index build has done ``done`` of ``total`` papers (``total`` 0: opening)."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done = done
            self.total = total

    class IndexReady(Message):
        """The index answers queries; ``notice`` says if it had to be rebuilt."""

        def __init__(self, index: SearchIndex, notice: str | None) -> None:
            super().__init__()
            self.index = index
            self.notice = notice

    class Failed(Message):
        """Loading ``what`` failed; the app keeps going without it."""

        def __init__(self, what: str, error: str) -> None:
            super().__init__()
            self.what = what
            self.error = error

    def __init__(
        self,
        catalogue: Callable[[], Catalogue],
        index: Callable[[], SearchIndex],
        post: Callable[[Message], Any],
        *,
        announce: bool = True,
        early: Callable[[], Iterable[Catalogue]] | None = None,
    ) -> None:
        self.catalogue = catalogue
        self.announce = announce
        self.early = early
        self.index = index
        self.post = post
        self._last = -1

    def run(self) -> None:
        """Load the catalogue, then open (or build) the index, posting each step."""
        if self.announce and self.early is not None:
            for partial in self.early():
                self.post(self.CatalogueLoaded(partial))
        try:
            cat = self.catalogue()
        except Exception as exc:  # a bad source never takes the app down
            self.post(self.Failed("papers", str(exc) or type(exc).__name__))
            return
        if self.announce:
            self.post(self.CatalogueLoaded(cat))
        try:
            search_index = self.index()
            # A build is announced only when one is certain (no index yet): a stale index
            # is usually changed in place (a join, an update), and a build due after all
            # reports its own progress from its first paper.
            certain = not search_index.is_fresh() and not search_index.on_disk()
            self.post(self.IndexProgress(0, len(cat) if certain else 0))
            notice = search_index.ensure(self._progress)
        except Exception as exc:
            self.post(self.Failed("index", str(exc) or type(exc).__name__))
            return
        self.post(self.IndexReady(search_index, notice))

    def _progress(self, done: int, total: int) -> None:
        # Builds report every paper; the screen needs one update per percent.
        percent = 100 * done // total if total else 100
        if percent != self._last:
            self._last = percent
            self.post(self.IndexProgress(done, total))


class Preload:
    """Runs ``load`` in a thread from now on; :meth:`result` waits for it.

    ``run_tui`` starts the catalogue this way before the app is built, so the papers
    are read while Textual sets up the terminal and draws its first frame. With
    ``peek``, ``peek()`` is read first (the first screen of papers, in milliseconds);
    the rest then waits until :meth:`resume` (the screen calls it once its first frame
    is drawn, :data:`GATE_S` at most), so that unpickling thousands of papers does not
    hold the interpreter while that frame is drawn. With ``quick``, ``load`` is called
    as ``load(on_cold=...)``: when there is no fresh cache (a first run), ``quick()`` is
    read first, in the same thread. :meth:`wait` hands out the best of them ready so
    far, :meth:`partials` each of them in turn.
    """

    def __init__(
        self,
        load: Callable[..., Catalogue],
        quick: Callable[[], Catalogue] | None = None,
        peek: Callable[[], Catalogue | None] | None = None,
    ) -> None:
        self._load = load
        self._quick = quick
        self._peek = peek
        self._value: Catalogue | None = None
        self._first_look: Catalogue | None = None
        self._head: Catalogue | None = None
        self._error: BaseException | None = None
        self._ready = threading.Event()
        """Something to show: the head, the first look or the catalogue."""
        self._looked = threading.Event()
        """The first look or the catalogue is there."""
        self._go = threading.Event()
        self._thread = threading.Thread(target=self._run, name="paperscope-preload", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            if self._peek is not None and self._read_peek():
                self._go.wait(GATE_S)
            if self._quick is None:
                self._value = self._load()
            else:
                self._value = self._load(on_cold=self._read_quick)
        except BaseException as exc:  # handed to whoever asks for the result
            self._error = exc
        finally:
            self._looked.set()
            self._ready.set()

    def _read_peek(self) -> bool:
        assert self._peek is not None
        try:
            self._head = self._peek()
        except Exception:  # only a peek: the full load reports what is wrong
            self._head = None
        if self._head is not None:
            self._ready.set()
        return self._head is not None

    def _read_quick(self) -> None:
        assert self._quick is not None
        try:
            self._first_look = self._quick()
        except Exception:  # only a first look: the full load reports what is wrong
            self._first_look = None
        self._looked.set()
        self._ready.set()

    @property
    def head(self) -> Catalogue | None:
        """The first screen of papers read by ``peek`` (None without one)."""
        return self._head

    def resume(self) -> None:
        """The first frame is drawn: load the rest now."""
        self._go.set()

    def wait(self, timeout: float) -> Catalogue | None:
        """The catalogue, a first look or the head, if one is ready within ``timeout`` s."""
        self._ready.wait(timeout)
        if not self._thread.is_alive():
            return self._value
        return self._first_look or self._head

    def partials(self, shown: Catalogue | None = None) -> Iterator[Catalogue]:
        """The head, then the first look, each once it is read, but ``shown`` (the one on
        screen already); nothing more once the full catalogue is loaded. The first look
        comes after :meth:`resume` (or :data:`GATE_S`) when there is a head."""
        self._ready.wait()
        if self._head is not None and self._head is not shown and self._thread.is_alive():
            yield self._head
        self._looked.wait()
        look = self._first_look
        if look is not None and look is not shown and self._thread.is_alive():
            yield look

    def result(self) -> Catalogue:
        """The loaded catalogue (waits for the thread); re-raises what the load raised."""
        self._go.set()
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._value is not None
        return self._value
