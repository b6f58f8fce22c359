"""Sort orders and facet values of the papers, computed once per catalogue (pure Python).

A query's matches are document numbers; ordering them by title or time is a look-up in
a precomputed rank array and a scan of a flag array, never a sort of papers per query.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence

from index_builder.model import FacetCount, Paper, SortKey
from index_builder.search.facets import FACETS, facet_values, facets_from_counts, sort_key


class Ranks:
    """Per-document sort ranks and facet values for papers in document order."""

    def __init__(self, papers: Sequence[Paper], doc_paper: Sequence[int]) -> None:
        self.papers = papers
        self.doc_paper = doc_paper
        self._order: dict[str, list[int]] = {}
        self._rank: dict[str, list[int]] = {}
        self._facets: list[list[str]] | None = None

    def order(self, sort: SortKey) -> list[int]:
        """Document numbers ordered by ``sort`` ("relevance" is document order)."""
        found = self._order.get(sort)
        if found is None:
            docs = range(len(self.doc_paper))
            if sort == "relevance":
                found = list(docs)
            else:
                papers, doc_paper = self.papers, self.doc_paper
                found = sorted(docs, key=lambda d: sort_key(sort, papers[doc_paper[d]]))
            self._order[sort] = found
        return found

    def first(self, sort: SortKey, docs: Collection[int], limit: int) -> list[int]:
        """The first ``limit`` of ``docs`` in ``sort`` order."""
        if limit <= 0 or not docs:
            return []
        order = self.order(sort)
        rank = self._rank.get(sort)
        if rank is None:
            rank = [0] * len(order)
            for r, d in enumerate(order):
                rank[d] = r
            self._rank[sort] = rank
        flags = bytearray(len(order))
        for r in map(rank.__getitem__, docs):
            flags[r] = 1
        out: list[int] = []
        at = flags.find(1)
        while at >= 0 and len(out) < limit:
            out.append(order[at])
            at = flags.find(1, at + 1)
        return out

    def facets(self, docs: Iterable[int] | None) -> dict[str, tuple[FacetCount, ...]]:
        """Facet counts over ``docs`` (every document when ``None``)."""
        if self._facets is None:
            values = [facet_values(self.papers[p]) for p in self.doc_paper]
            self._facets = [[v[i] for v in values] for i in range(len(FACETS))]
        columns = self._facets
        if docs is None:
            counters = [Counter(c) for c in columns]
        else:
            chosen = list(docs)
            counters = [Counter(map(c.__getitem__, chosen)) for c in columns]
        return facets_from_counts(*counters)
