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

from index_builder.model import Hit, SearchResult, SortKey
from index_builder.search.highlight import MatchTerms, spans
from index_builder.search.schema import CombinedTokenizer, SearchTokenizer, stem
from index_builder.search.scoring import FastScorer
from index_builder.search.store import DAMAGED_NOTICE
from index_builder.search.syntax import Node, QuerySyntaxError, last_word_as_prefix, parse
from index_builder.search.syntax import plain_words as plain_words_query
from index_builder.search.vector_queries import MIN_BOOKMARKS, Recommendation, VectorQueries
from index_builder.search.whoosh_query import QueryBuilder, suggest

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
    ) -> SearchResult:
        """Run ``query``; never raises on syntax (malformed queries are read as plain words).

        ``hits`` holds the matches ranked ``offset`` to ``offset + limit``, so a caller can
        fetch every match a page at a time: the order is total (ties by document number).
        """
        started = time.perf_counter()
        fallback, reason = False, ""
        node: Node | None
        try:
            node = parse(query) if query.strip() else None
        except QuerySyntaxError as exc:
            node, fallback, reason = plain_words_query(query), True, str(exc)
        result = self._answer(
            query, node, (offset, limit), prefix, sort, bookmarked, facets, fallback, started
        )
        return replace(result, fallback_reason=reason) if fallback else result

    def _answer(
        self,
        query: str,
        node: Node | None,
        page: tuple[int, int],
        prefix: bool,
        sort: SortKey,
        bookmarked: Collection[str],
        facets: bool,
        fallback: bool,
        started: float,
    ) -> SearchResult:
        """Answer a parsed query (or everything when it has no node)."""
        if node is not None and prefix:
            node = last_word_as_prefix(node, query)
        if node is None:
            return self._everything(query, page, sort, facets, fallback, started)
        window = (max(page[0], 0), max(page[1], 0))
        self._ready()
        try:
            with self._lock:
                return self._run(query, node, window, sort, bookmarked, facets, fallback, started)
        except Exception:  # any failure of the index is damage: rebuild (DAMAGE_ERRORS & more)
            self._recover()
        with self._lock:
            return self._run(query, node, window, sort, bookmarked, facets, fallback, started)

    def _run(
        self,
        query: str,
        node: Node,
        window: tuple[int, int],
        sort: SortKey,
        bookmarked: Collection[str],
        facets: bool,
        fallback: bool,
        started: float,
    ) -> SearchResult:
        searcher = self._current_searcher()
        # Bookmarks may hold an earlier id of a paper (an alias): search by current ids.
        marked = {self.papers[self._by_id[b]].id for b in bookmarked if b in self._by_id}
        builder = QueryBuilder(searcher.reader(), self._vocab, marked)
        built = builder.build(node)
        if built is None:
            return self._everything(query, window, sort, facets, fallback, started)
        # Every match with its score: the total is exact and the top N one heap pass.
        matches = self._scorer.matches(built)
        total = len(matches)
        offset, limit = window
        if sort == "relevance":
            scored = FastScorer.top(matches, offset + limit)[offset:]
        else:
            ranked = self._ranks.first(sort, matches.keys(), offset + limit)
            scored = [(d, 0.0) for d in ranked[offset:]]
        terms = builder.terms
        terms.surface = self._forms(terms.stems)
        hits = tuple(self._hit(self._doc_paper[d], score, terms) for d, score in scored)
        suggestion = None
        if total <= 2:
            reader = searcher.reader()
            count = self._scorer.count
            suggestion = suggest(reader, self._vocab, query, node, total, bookmarked, count)
        return SearchResult(
            query=query,
            total=total,
            hits=hits,
            suggestion=suggestion,
            elapsed_ms=(time.perf_counter() - started) * 1000,
            fallback=fallback,
            facets=self._ranks.facets(matches.keys()) if facets else {},
        )

    def _hit(self, index: int, score: float, terms: MatchTerms) -> Hit:
        paper = self.papers[index]
        return Hit(
            paper=paper,
            score=float(score),
            title_spans=spans(paper.title, terms, stem),
            marks=partial(spans, terms=terms, stem=stem),
        )

    def _everything(
        self,
        query: str,
        window: tuple[int, int],
        sort: SortKey,
        facets: bool,
        fallback: bool,
        started: float,
    ) -> SearchResult:
        """Every paper, in catalogue order (or ``sort``), with no index needed."""
        order = self._paper_ranks.order(sort)
        offset, limit = max(window[0], 0), max(window[1], 0)
        hits = tuple(Hit(self.papers[i]) for i in order[offset : offset + limit])
        return SearchResult(
            query=query,
            total=len(self.papers),
            hits=hits,
            elapsed_ms=(time.perf_counter() - started) * 1000,
            fallback=fallback,
            facets=self._paper_ranks.facets(None) if facets else {},
        )
