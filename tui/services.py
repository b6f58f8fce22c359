"""What the screens need from outside them, handed to each screen when it is created.

The app builds one :class:`Services` and passes it to the screens it creates; a
screen passes it on to the screens it opens. No screen or widget names the app
class: the services hold the reading list, the citation keys, the clipboard copy,
the link opener and the config, and reach the running Textual app only through
the ``App`` they are given (for toasts and workers); ``copy`` (copy a text and
tell the user how it went) comes from the app, which knows the fallback screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tui.widgets.paper_view import is_web_link

if TYPE_CHECKING:
    from textual.app import App

    from index_builder.citations.styles import CitationKeys
    from index_builder.model import Paper
    from index_builder.paths import Paths
    from index_builder.readinglist.store import ReadingList
    from tui.shared.config import Config

STYLE_NAMES = {
    "bibtex": "BibTeX", "apa": "APA", "markdown": "Markdown", "plain": "plain text",
    "ris": "RIS", "csljson": "CSL-JSON",
}  # fmt: skip
"""How a citation style is named in the toasts."""


class PaperSource(Protocol):
    """What the searcher and the citation keys need of a catalogue."""

    @property
    def papers(self) -> tuple[Paper, ...]:
        """Every paper in display order."""
        ...

    def get(self, id_or_alias: str) -> Paper | None:
        """The paper with this id or alias."""
        ...


def open_in_browser(url: str) -> bool:
    """Open ``url`` with the system's browser; True if one took it."""
    import webbrowser

    return webbrowser.open(url)


class Services:
    """The reading list, citations, clipboard, link opener and config, for the screens."""

    def __init__(
        self,
        app: App[Any],
        *,
        paths: Paths,
        config: Config,
        copy: Callable[[str, str], None],
        store: ReadingList | None = None,
        open_url: Callable[[str], bool] = open_in_browser,
        zone: str | None = None,
    ) -> None:
        self._app = app
        self.paths = paths
        self.config = config
        self.zone_setting = zone or config.timezone
        """Where session times are shown: ``venue``, ``local`` or an IANA zone."""
        self._store = store
        self._store_error: str | None = None
        self._open_url = open_url
        self._copy = copy
        self._keys: tuple[PaperSource, CitationKeys] | None = None
        """The citation keys and the catalogue they were made for."""
        self._keys_lock = threading.Lock()

    @property
    def keymap(self) -> dict[str, str]:
        """The user's key remaps (binding id -> keys)."""
        return self.config.keymap

    def reading_list(self) -> ReadingList | None:
        """The reading list store, opened on first use (None if it cannot be opened)."""
        if self._store is None and self._store_error is None:
            from index_builder.readinglist.store import ReadingList

            try:
                self._store = ReadingList(self.paths.reading_list)
                if self._store.read_only:
                    self._app.notify(f"Reading list: {self._store.read_only}", severity="warning")
            except Exception as exc:  # corrupt or locked: say so, keep browsing
                self._store_error = str(exc)
                self._app.notify(f"Reading list unavailable: {exc}", severity="error", timeout=8)
        return self._store

    def open_link(self, url: str, what: str) -> None:
        """Open ``url`` in the browser if it is http(s); say what was opened."""
        if not is_web_link(url):
            self._app.notify(
                f"Not opening {what}: only http and https links are opened.", severity="warning"
            )
            return
        self._app.run_worker(
            lambda: self._open_in_browser(url, what),
            thread=True,
            group="browser",
            exit_on_error=False,
        )

    def _open_in_browser(self, url: str, what: str) -> None:
        try:
            opened = self._open_url(url)
        except Exception:
            opened = False
        message = f"Opened the {what}: {url}" if opened else f"No browser to open {url}"
        severity = "information" if opened else "warning"
        self._app.call_from_thread(self._app.notify, message, severity=severity)

    def citation_key(self, paper: Paper, catalogue: PaperSource | None) -> str | None:
        """The paper's BibTeX key, unique over the whole catalogue (None before it loads).

        The first call for a catalogue makes every key (~0.1 s for 6,628 papers): call it
        off the event loop, or through :meth:`with_citation_key`.
        """
        if catalogue is None:
            return None
        with self._keys_lock:
            made = self._keys
            if made is None or made[0] is not catalogue:
                from index_builder.citations.styles import CitationKeys

                # Keys depend on every paper: a first run's first look gets its own.
                made = self._keys = (catalogue, CitationKeys(catalogue.papers))
            return made[1].key(paper.id)

    def with_citation_key(
        self, paper: Paper, catalogue: PaperSource | None, then: Callable[[str | None], None]
    ) -> None:
        """``then(key)`` on the event loop; the keys are made in a worker when not made yet."""
        made = self._keys  # one reference, read at once: the worker may be replacing it
        if catalogue is None or (made is not None and made[0] is catalogue):
            then(made[1].key(paper.id) if made is not None and catalogue is not None else None)
            return

        def make() -> None:
            key = self.citation_key(paper, catalogue)
            self._app.call_from_thread(then, key)

        self._app.run_worker(make, thread=True, group="cite", exit_on_error=False)

    def copy_citation(self, paper: Paper, style: str, catalogue: PaperSource | None) -> None:
        """Copy ``paper``'s citation in ``style``; the user is told how it went."""
        from index_builder.citations.documents import cite

        def copy(key: str | None) -> None:
            text = cite(paper, style, key=key)
            self._copy(text, f"{STYLE_NAMES.get(style, style)} citation")

        self.with_citation_key(paper, catalogue, copy)
