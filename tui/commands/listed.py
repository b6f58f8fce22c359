"""The one shape of the palette's providers: a list of named commands, matched by name.

A provider lists ``(name, help, run)`` in :meth:`ListedCommands.commands`; the palette
shows them all before anything is typed and those whose name matches after.
:meth:`ListedCommands.more_hits` adds hits beyond the list (the time zones).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

Command = tuple[str, str, Callable[[], Any]]
"""A command's name, its help (palette markup) and what runs it."""


class ListedCommands(Provider):
    """A palette provider over a list of named commands."""

    def commands(self) -> Iterable[Command]:
        """The commands offered now."""
        raise NotImplementedError

    def more_hits(self, query: str) -> Iterator[Hit]:
        """Hits for ``query`` beyond the listed commands (none by default)."""
        return iter(())

    async def discover(self) -> Hits:
        """Every listed command, for the palette before anything is typed."""
        for name, help_text, run in self.commands():
            yield DiscoveryHit(name, run, help=help_text)

    async def search(self, query: str) -> Hits:
        """The listed commands whose name matches ``query``, then :meth:`more_hits`."""
        matcher = self.matcher(query)
        for name, help_text, run in self.commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, text=name, help=help_text)
        for hit in self.more_hits(query):
            yield hit
