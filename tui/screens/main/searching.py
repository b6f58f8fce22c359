"""What the TUI asks when the query changes: the index once it is ready, a simple filter before.

:class:`Searcher` is plain Python (no Textual), called from the app's thread
workers. Until the index is attached it filters the catalogue by substring
(every word in the title or the authors, case-insensitive) so the list reacts
from the first keystroke of a first run; ``like:ID`` lists the papers similar
to paper ``ID`` and ``for:you`` the papers For you ranks by the reading list.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from index_builder.model import Hit, Paper, SearchResult, SortKey, Span
from index_builder.search.facets import sort_key

if TYPE_CHECKING:
    from index_builder.readinglist.library_match import LibraryMatch
    from index_builder.search.engine import SearchIndex
    from tui.services import PaperSource

LIKE_PREFIX = "like:"
FOR_YOU = "for:you"
"""The listing of the papers recommended by the reading list (``R``)."""
FOR_YOU_LIMIT = 100
LIMIT = 200
"""Hits asked of the index per page: the list asks for the next page as the user nears it."""


def like_query(paper_id: str) -> str:
    """The query text that lists the papers similar to ``paper_id``."""
    return f"{LIKE_PREFIX}{paper_id}"


class Searcher:
    """Runs queries for the UI; thread-safe like the index it wraps."""

    def __init__(self, catalogue: PaperSource, index: SearchIndex | None = None) -> None:
        self.catalogue = catalogue
        self.index = index
        self._lock = threading.Lock()
        self._all: dict[str, tuple[Hit, ...]] = {}
        self._haystacks: list[str] | None = None
        self.library: LibraryMatch | None = None
        """The user's library matched to the catalogue (For you ranks by it; ``is:library``)."""

    @property
    def ready(self) -> bool:
        """True once the index can answer queries."""
        return self.index is not None

    def attach(self, index: SearchIndex) -> None:
        """Use ``index`` from now on (it has been opened or built)."""
        self.index = index
        self.set_library(self.library)

    def set_library(self, library: LibraryMatch | None) -> None:
        """Rank For you by ``library`` too, and answer ``is:library`` with its papers."""
        self.library = library
        if self.index is not None:
            self.index.library_ids = library.paper_ids if library is not None else frozenset()

    def run(
        self,
        query: str,
        *,
        sort: SortKey = "relevance",
        bookmarked: Collection[str] = (),
        facets: bool = False,
        limit: int = LIMIT,
        offset: int = 0,
        dismissed: Collection[str] = (),
    ) -> SearchResult:
        """The result for ``query``, its hits ranked ``offset`` to ``offset + limit``.

        Never raises on the query's syntax. Lists that need no index (every paper,
        ``like:``, ``for:you``) come whole whatever the window; ``for:you`` ranks by
        ``bookmarked`` and leaves out ``dismissed``, which ``is:dismissed`` lists.
        """
        text = query.strip()
        start = time.perf_counter()
        if text.lower() == FOR_YOU:
            return self.for_you(query, bookmarked, dismissed)
        if text.lower().startswith(LIKE_PREFIX):
            return self.like(query, text[len(LIKE_PREFIX) :].strip(), offset + limit, offset)
        if self.index is not None and (text or facets):
            if not text and sort == "relevance":
                counts = self.index.search("", limit=1, facets=True).facets
                hits = self.everything(sort)
                return SearchResult(query, len(hits), hits, None, _since(start), facets=counts)
            return self.index.search(
                query,
                limit=limit,
                offset=offset,
                prefix=True,
                sort=sort,
                bookmarked=bookmarked,
                facets=facets,
                dismissed=dismissed,
            )
        if not text:
            hits = self.everything(sort)
            return SearchResult(query, len(hits), hits, elapsed_ms=_since(start))
        return self.simple_filter(query, sort=sort, limit=limit, offset=offset)

    def similar(self, paper_id: str, limit: int = 10) -> tuple[Hit, ...]:
        """Papers like ``paper_id`` (empty until the index is ready or for an unknown id)."""
        if self.index is None or not paper_id:
            return ()
        paper = self.catalogue.get(paper_id)
        if paper is None:
            return ()
        return self.index.more_like_this(paper.id, limit=limit)

    def like(self, query: str, paper_id: str, upto: int, offset: int = 0) -> SearchResult:
        """``like:ID``: the papers like ``paper_id`` ranked ``offset`` to ``upto``, of all
        that share a word with it (the list pages through them as through a search)."""
        paper = self.catalogue.get(paper_id) if paper_id else None
        if self.index is None or paper is None:
            return SearchResult(query, 0, ())
        found = self.index.similar(paper.id, upto)
        return replace(found, query=query, hits=found.hits[offset:])

    def for_you(
        self, query: str, bookmarked: Collection[str], dismissed: Collection[str]
    ) -> SearchResult:
        """The papers For you recommends, with the line that explains them (or what it needs)."""
        from index_builder.search.vector_queries import MIN_BOOKMARKS  # not before the frame
        from tui.shared.seeds import as_paper, seeds_line

        if self.index is None:
            note = "For you needs the search index, which is still being built."
            return SearchResult(query, 0, (), note=note)
        library = self.library
        found = self.index.recommend(
            bookmarked,
            dismissed,
            limit=FOR_YOU_LIMIT,
            library=library.paper_ids if library is not None else (),
            library_papers=[as_paper(e) for e in library.outside] if library is not None else (),
        )
        if found.needed:
            have = MIN_BOOKMARKS - found.needed
            note = (
                f"For you ranks papers by your bookmarks and your library: it needs "
                f"{MIN_BOOKMARKS}, you have {have}. Bookmark {found.needed} more with b, or "
                "import your library (paperscope library import FILE)."
            )
            return SearchResult(query, 0, (), note=note)
        words = ", ".join(found.explain) or "your papers"
        owned = len(library.paper_ids) + len(library.outside) if library is not None else 0
        marks = {p.id for p in map(self.catalogue.get, bookmarked) if p is not None}
        note = f"For you, {seeds_line(owned, len(marks))}: {words}"
        # Whole, like like: (the list asks for no further page of it).
        hits = found.hits
        return SearchResult(query, len(hits), hits, None, found.elapsed_ms, note=note)

    def everything(self, sort: SortKey) -> tuple[Hit, ...]:
        """Every paper as a hit, in catalogue order or sorted by ``sort``."""
        with self._lock:
            cached = self._all.get(sort)
            if cached is None:
                papers: Sequence[Paper] = self.catalogue.papers
                if sort != "relevance":
                    papers = sorted(papers, key=lambda p: sort_key(sort, p))
                cached = tuple(Hit(p) for p in papers)
                self._all[sort] = cached
            return cached

    def simple_filter(
        self, query: str, *, sort: SortKey = "relevance", limit: int = LIMIT, offset: int = 0
    ) -> SearchResult:
        """Papers whose title or authors contain every word of ``query`` (any case)."""
        start = time.perf_counter()
        words = [w for w in query.lower().replace('"', " ").split() if w]
        papers = self.catalogue.papers
        hay = self._haystack()
        found = [i for i, h in enumerate(hay) if all(w in h for w in words)]
        if sort != "relevance":
            found.sort(key=lambda i: sort_key(sort, papers[i]))
        window = found[offset : offset + limit]
        hits = tuple(Hit(papers[i], 0.0, _spans(papers[i].title, words)) for i in window)
        return SearchResult(query, len(found), hits, elapsed_ms=_since(start))

    def _haystack(self) -> list[str]:
        with self._lock:
            if self._haystacks is None:
                self._haystacks = [
                    f"{p.title}\n{'; '.join(p.authors)}".lower() for p in self.catalogue.papers
                ]
            return self._haystacks


def _spans(title: str, words: Sequence[str]) -> tuple[Span, ...]:
    """Where the words occur in ``title`` (none if lower-casing changed its length)."""
    lowered = title.lower()
    if len(lowered) != len(title):
        return ()
    spans: list[Span] = []
    for word in words:
        at = lowered.find(word)
        while at >= 0:
            spans.append((at, at + len(word)))
            at = lowered.find(word, at + len(word))
    return tuple(sorted(spans))


def _since(start: float) -> float:
    return (time.perf_counter() - start) * 1000
