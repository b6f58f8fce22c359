"""Answering queries: :class:`SearchIndex`, the one entry point the app and CLI use.

The index's life (build, open, swap, rebuild) is :mod:`~index_builder.search.store`'s,
which this class extends; the query language is parsed by
:mod:`~index_builder.search.syntax`, turned into a Whoosh query by
:mod:`~index_builder.search.whoosh_query` and scored by
:mod:`~index_builder.search.scoring` (every match, for exact totals). Highlighting,
facets and sort orders are pure Python (``highlight``, ``facets``, ``ordering``).
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import replace
from functools import partial

from index_builder.model import FacetCount, Hit, Marked, SearchResult, SortKey
from index_builder.search.facets import tag_facet
from index_builder.search.highlight import MatchTerms, spans
from index_builder.search.request import SearchRequest
from index_builder.search.schema import CombinedTokenizer, SearchTokenizer, stem
from index_builder.search.scoring import FastScorer
from index_builder.search.store import DAMAGED_NOTICE
from index_builder.search.syntax import Node, QuerySyntaxError, parse
from index_builder.search.syntax import plain_words as plain_words_query
from index_builder.search.vector_queries import MIN_BOOKMARKS, Recommendation, VectorQueries
from index_builder.search.whoosh_query import QueryBuilder, suggest

HELD_SETS = 8
"""How many id sets' current ids :meth:`SearchIndex._current` keeps (the reading list,
the dismissed, the new and the library's papers, and a few earlier versions of them)."""

__all__ = [
    "DAMAGED_NOTICE",
    "MIN_BOOKMARKS",
    "CombinedTokenizer",
    "Recommendation",
    "SearchIndex",
    "SearchTokenizer",
    "stem",
]


class SearchIndex(VectorQueries):
    """A Whoosh index of ``papers`` in ``index_dir``, tagged with the catalogue ``fingerprint``.

    Thread-safe: one searcher is shared under a lock; a build writes elsewhere and only
    takes the lock to swap the finished index in. Similar papers and recommendations
    come from the paper vectors (:class:`~index_builder.search.vector_queries.VectorQueries`).
    """

    # -- searching --------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 200,
        offset: int = 0,
        prefix: bool = False,
        sort: SortKey = "relevance",
        bookmarked: Collection[str] = (),
        facets: bool = False,
        dismissed: Collection[str] = (),
    ) -> SearchResult:
        """Run ``query``; never raises on syntax (malformed queries are read as plain words).

        ``hits`` holds the matches ranked ``offset`` to ``offset + limit``, so a caller can
        fetch every match a page at a time: the order is total (ties by document number).
        ``bookmarked`` and ``dismissed`` are the ids ``is:bookmarked`` and ``is:dismissed`` match.
        """
        started = time.perf_counter()
        fallback, reason = False, ""
        node: Node | None
        try:
            node = parse(query) if query.strip() else None
        except QuerySyntaxError as exc:
            node, fallback, reason = plain_words_query(query), True, str(exc)
        request = SearchRequest(
            query, node, offset, limit, sort, bookmarked, facets, fallback, started, dismissed
        )
        result = self._answer(request.with_prefix() if prefix else request)
        return replace(result, fallback_reason=reason) if fallback else result

    def _answer(self, request: SearchRequest) -> SearchResult:
        """Answer a parsed query (or everything when it has no node)."""
        if request.node is None:
            return self._everything(request)
        self._ready()
        try:
            with self._lock:
                return self._run(request, request.node)
        except Exception:
            if not self.damaged():  # the files are as built: a bug, not damage; no rebuild
                raise
            self._recover()
        with self._lock:
            return self._run(request, request.node)

    def _current(self, marked: Collection[str]) -> Marked:
        """The reading list's ids, and each tag's, as the current papers' ids (bookmarks
        may hold an earlier id of a paper, an alias).

        A frozenset's answer is kept while this index is open (the papers cannot change):
        every keystroke passes the same sets, and the papers an update added are thousands
        after a venue is added (20,000 at three venues: 15 ms a keystroke to map again)."""
        held = self._held_current.get(id(marked))
        if held is not None and held[0] is marked:
            return held[1]

        def now(ids: Collection[str]) -> frozenset[str]:
            return frozenset(self.papers[self._by_id[i]].id for i in ids if i in self._by_id)

        tags: dict[str, frozenset[str]] = getattr(marked, "tags", {})
        found = Marked(now(marked), {tag: now(ids) for tag, ids in tags.items()})
        if isinstance(marked, frozenset):  # immutable: its answer cannot go stale
            while len(self._held_current) >= HELD_SETS:
                self._held_current.pop(next(iter(self._held_current)))
            self._held_current[id(marked)] = (marked, found)
        return found

    def _run(self, request: SearchRequest, node: Node) -> SearchResult:
        searcher = self._current_searcher()
        # Bookmarks may hold an earlier id of a paper (an alias): search by current ids.
        bookmarked = request.bookmarked
        marked, dismissed = self._current(bookmarked), self._current(request.dismissed)
        # is:new: the papers the last ``paperscope update`` added (set by the owner).
        new = self._current(self.new_ids)
        # is:library: the catalogue papers the user's library holds (set by the owner).
        owned = self._current(self.library_ids)
        builder = QueryBuilder(searcher.reader(), self._vocab, marked, new, dismissed, owned)
        built = builder.build(node)
        if built is None:
            return self._everything(request)
        # Every match with its score: the total is exact and the top N one heap pass.
        matches = self._scorer.matches(built)
        total = len(matches)
        offset, limit = request.window
        if request.sort == "relevance":
            scored = FastScorer.top(matches, offset + limit)[offset:]
        else:
            ranked = self._ranks.first(request.sort, matches.keys(), offset + limit)
            scored = [(d, 0.0) for d in ranked[offset:]]
        terms = builder.terms
        terms.surface = self._forms(terms.stems)
        hits = tuple(self._hit(self._doc_paper[d], score, terms) for d, score in scored)
        suggestion = None
        if total <= 2:
            reader = searcher.reader()
            count = self._scorer.count
            query = request.query
            suggestion = suggest(reader, self._vocab, query, node, total, bookmarked, count)
        return SearchResult(
            query=request.query,
            total=total,
            hits=hits,
            suggestion=suggestion,
            elapsed_ms=(time.perf_counter() - request.started) * 1000,
            fallback=request.fallback,
            facets=self._facets(request, marked, matches.keys()),
        )

    def _facets(
        self, request: SearchRequest, marked: Marked, docs: Collection[int]
    ) -> dict[str, tuple[FacetCount, ...]]:
        """The facet counts of the matched ``docs`` when asked, the reading list's tags too."""
        if not request.facets:
            return {}
        counts = self._ranks.facets(docs)
        if marked.tags:
            ids = (self.papers[self._doc_paper[d]].id for d in docs)
            counts["tag"] = tag_facet(marked.tags, ids)
        return counts

    def _hit(self, index: int, score: float, terms: MatchTerms) -> Hit:
        paper = self.papers[index]
        return Hit(
            paper=paper,
            score=float(score),
            title_spans=spans(paper.title, terms, stem),
            marks=partial(spans, terms=terms, stem=stem),
        )

    def _all_facets(self, request: SearchRequest) -> dict[str, tuple[FacetCount, ...]]:
        """The facet counts of every paper when asked, the reading list's tags too."""
        if not request.facets:
            return {}
        counts = self._paper_ranks.facets(None)
        marked = self._current(request.bookmarked)
        if marked.tags:
            counts["tag"] = tag_facet(marked.tags, (p.id for p in self.papers))
        return counts

    def _everything(self, request: SearchRequest) -> SearchResult:
        """Every paper, in catalogue order (or the request's sort), with no index needed."""
        order = self._paper_ranks.order(request.sort)
        offset, limit = request.window
        hits = tuple(Hit(self.papers[i]) for i in order[offset : offset + limit])
        return SearchResult(
            query=request.query,
            total=len(self.papers),
            hits=hits,
            elapsed_ms=(time.perf_counter() - request.started) * 1000,
            fallback=request.fallback,
            facets=self._all_facets(request),
        )
