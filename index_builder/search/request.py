"""One search as :class:`~index_builder.search.engine.SearchIndex` answers it.

:meth:`SearchIndex.search <index_builder.search.engine.SearchIndex.search>` parses the
query once and hands this object down, instead of the same eight arguments threaded
through every step of answering.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from index_builder.model import SortKey
from index_builder.search.syntax import Node, last_word_as_prefix


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """A parsed query with its page, order and options, and when answering it started.

    ``node`` is ``None`` for an empty query (everything matches); ``fallback`` says the
    query did not parse and is read as plain words.
    """

    query: str
    node: Node | None
    offset: int = 0
    limit: int = 200
    sort: SortKey = "relevance"
    bookmarked: Collection[str] = ()
    facets: bool = False
    fallback: bool = False
    started: float = 0.0
    dismissed: Collection[str] = ()

    @property
    def window(self) -> tuple[int, int]:
        """``(offset, limit)``, neither below zero."""
        return max(self.offset, 0), max(self.limit, 0)

    def with_prefix(self) -> SearchRequest:
        """The request with its last word read as a prefix (search as you type)."""
        if self.node is None:
            return self
        return replace(self, node=last_word_as_prefix(self.node, self.query))
