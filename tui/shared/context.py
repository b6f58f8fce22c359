"""What every command (and the TUI) needs: the per-user paths and the chosen sources.

The catalogue and the index are opened lazily, once, so a command that needs
neither (``--version``, ``doctor`` on a broken home) pays for neither. Once also holds
across threads: the TUI reads the catalogue in a thread of its own while it starts
(:class:`~tui.lifecycle.loading.Preload`), and a caller that asks meanwhile waits for
that read instead of building the same catalogue beside it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from index_builder.paths import Paths, bundled_sources

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue
    from index_builder.search.engine import SearchIndex
    from tui.shared.config import Config


@dataclass
class Context:
    """Paths and sources for one run, with the catalogue and index opened on demand."""

    paths: Paths
    extra_sources: list[Path] = field(default_factory=list)
    use_bundled: bool = True
    build_in_child: bool = False
    """Build the index in a child process (the TUI: quitting never waits for a build)."""
    timezone: str | None = None
    """The zone setting given for this run (``--timezone``); None: the config's."""
    zone_problem: str = ""
    """Why the config's ``timezone`` was refused ('' when it was not), once it is read."""
    venue_problems: dict[str, str] = field(default_factory=dict)
    """Why each refused ``[venues.KEY]`` of the config was refused, by key, once it is read."""
    _config: Config | None = field(default=None, repr=False)
    _catalogue: Catalogue | None = field(default=None, repr=False)
    _index: SearchIndex | None = field(default=None, repr=False)
    _opening: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)
    """Held while the catalogue or the index is opened (the index opens the catalogue)."""

    @property
    def sources(self) -> list[Path]:
        """Every source of this run: the bundled ones, the stored feeds, then ``--source`` files.

        Feeds stored by ``paperscope update`` and the joins made by hand
        (``paperscope join``) are the user's own data: they are read with or without
        ``--no-bundled``.
        """
        from index_builder.feeds.store import stored_sources

        self.config()  # its venues decide which stored feeds are a venue's
        bundled = bundled_sources() if self.use_bundled else []
        joins = self.paths.hand_joins
        mine = [joins] if joins.is_file() else []
        return [*bundled, *stored_sources(self.paths), *self.extra_sources, *mine]

    def config(self) -> Config:
        """The config file, read once; its ``[venues.KEY]`` (and the venues an ``update
        --host`` remembered) are then known to every part (:func:`index_builder.venues.declare`).
        """
        if self._config is None:
            from index_builder import venues
            from index_builder.feeds.remembered import remembered
            from tui.shared.config import load_config

            self._config = load_config(self.paths.config_file)
            mine = {v.key for v in self._config.venues} | set(self._config.venue_problems)
            kept = [v for v in remembered(self.paths) if v.key not in mine]
            venues.declare([*kept, *self._config.venues])
            self.venue_problems = dict(self._config.venue_problems)
        return self._config

    def zone_setting(self) -> str:
        """``venue``, ``local`` or an IANA name: ``--timezone``, else the config's, else venue."""
        if self.timezone is None:
            config = self.config()
            self.timezone, self.zone_problem = config.timezone, config.timezone_problem
        return self.timezone

    def catalogue(self, on_cold: Callable[[], None] | None = None) -> Catalogue:
        """The merged catalogue (loaded once; cached on disk between runs).

        ``on_cold`` is called before a build from the sources (no fresh cache).
        """
        with self._opening:
            if self._catalogue is None:
                from index_builder.catalogue.load import load_catalogue

                self._catalogue = load_catalogue(
                    self.sources, cache_dir=self.paths.cache_dir, on_cold=on_cold
                )
            return self._catalogue

    def quick_catalogue(self) -> Catalogue:
        """A first look: the table papers alone, without abstracts (``complete`` False)."""
        from index_builder.catalogue.first_look import quick_table_papers

        return quick_table_papers(self.sources)

    def peek_catalogue(self) -> Catalogue | None:
        """The first screen of papers, in milliseconds: the head of the cached catalogue, or
        on a first run the first table papers (``complete`` False; None if neither)."""
        from index_builder.catalogue.load import read_head

        sources = self.sources
        head = read_head(sources, self.paths.cache_dir)
        if head is None:
            from index_builder.catalogue.first_look import peek_table_papers

            head = peek_table_papers(sources)
        return head

    def index(self) -> SearchIndex:
        """The search index over the catalogue (not yet opened or built)."""
        with self._opening:
            if self._index is None:
                from index_builder.search.engine import SearchIndex

                cat = self.catalogue()
                self._index = SearchIndex(self.paths.index_dir, cat.papers, cat.fingerprint)
                self._index.build_in_child = self.build_in_child
                from index_builder.feeds.store import added_ids

                self._index.new_ids = added_ids(self.paths)
            return self._index
