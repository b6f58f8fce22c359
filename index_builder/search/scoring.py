"""Every match of a query with its BM25F score, from whole posting lists.

Whoosh scores one match at a time through a stack of Python matchers (several µs a
match), so an exact total for a broad query ("learning OR model" at 50,000 papers)
means scoring nearly every paper that way, and its block-quality skipping never fires
with 200 results on 128-posting blocks. Here a term's posting list is decoded a block at
a time (the codec's own pickled blocks) into doc numbers and BM25F scores, the same
formula on the same inputs as Whoosh's scorer, and cached per term. The query tree is
then combined as dicts: AND intersects and adds, OR unites and adds, NOT removes. The
result holds every match with its score: the total is exact and the top N is one heap
pass. Phrases and fuzzy terms (small match sets) are asked of Whoosh itself. Reading the
codec's blocks is :mod:`~index_builder.search.postings`'s; this module is the algebra.
"""

from __future__ import annotations

import heapq
import math
from array import array
from itertools import compress, repeat
from operator import le
from typing import Any

from whoosh import query as Q
from whoosh.query.compound import PreloadedOr
from whoosh.scoring import BM25F

from index_builder.search.kept import Kept
from index_builder.search.postings import (
    LENGTH_OF_BYTE,
    Unsupported,
    field_lengths,
    posting_values,
    postings,
)

__all__ = ["FastScorer", "Unsupported"]

Scores = dict[int, float]
CACHE_POSTINGS = 3_000_000
"""Postings kept decoded (12 bytes each), least recently used dropped first."""
CACHE_SCORES = 250_000
"""Postings kept as ready score dicts too (about 90 bytes each), for the terms used last:
a typed prefix's words and the words before it come back at every keystroke, and making
the dict is most of the work of a broad word at 50,000 papers."""
ASKED_CACHE = 32
"""Phrase and fuzzy results kept, counted as one each (their match sets are small)."""


def _best_first(ds: tuple[int, float]) -> tuple[float, int]:
    return -ds[1], ds[0]


def _tree_sum(values: list[float]) -> float:
    """Add as Whoosh's binary tree of intersection matchers adds (same rounding)."""
    if len(values) == 1:
        return values[0]
    half = len(values) // 2
    return _tree_sum(values[:half]) + _tree_sum(values[half:])


class FastScorer:
    """Scores and counts Whoosh queries for one open searcher (use under its lock)."""

    def __init__(
        self,
        searcher: Any,
        cache_postings: int = CACHE_POSTINGS,
        cache_scores: int = CACHE_SCORES,
    ) -> None:
        self.searcher = searcher
        self.reader = searcher.reader()
        self.doc_count = self.reader.doc_count_all()
        # An index changed in place keeps deleted documents until Whoosh merges them;
        # they are left out of every statistic (see _statistics).
        self.deletions = self.reader.has_deletions()
        self.live = list(self.reader.all_doc_ids()) if self.deletions else range(self.doc_count)
        self._live_lengths: dict[str, float] = {}
        self._terms: Kept[tuple[array[int], array[float]]] = Kept(cache_postings)
        self._scores: Kept[Scores] = Kept(cache_scores)
        self._lengths: dict[str, bytes] = {}
        self._asked_cache: Kept[Scores] = Kept(ASKED_CACHE)

    # -- whole queries ----------------------------------------------------------------

    def scores(self, q: Any) -> Scores:
        """Every document ``q`` matches, with its score; raises :class:`Unsupported`."""
        if not isinstance(self.searcher.weighting, BM25F):
            raise Unsupported("not BM25F")
        return self._eval(q)

    def matches(self, q: Any) -> Scores:
        """Every match of ``q`` with its score, by Whoosh itself for unsupported shapes."""
        if not self.doc_count:  # nothing to match; and Whoosh's idf would take log(0)
            return {}
        try:
            return self.scores(q)
        except Unsupported:
            return self._whoosh(q)

    def count(self, q: Any) -> int:
        """How many documents ``q`` matches."""
        return len(self.matches(q))

    @staticmethod
    def top(scores: Scores, limit: int) -> list[tuple[int, float]]:
        """The ``limit`` best ``(doc, score)``: score descending, then doc number (as Whoosh).

        The cut (the ``limit``-th best score) is found among the scores alone, and the
        documents at or above it are picked in one C-level pass; ties at the cut are
        settled by doc number, as Whoosh's collector does."""
        if limit <= 0 or not scores:
            return []
        if len(scores) <= limit:
            return sorted(scores.items(), key=_best_first)
        cut = heapq.nlargest(limit, scores.values())[-1]
        picked = compress(scores.keys(), map(le, repeat(cut), scores.values()))
        ranked = sorted(((d, scores[d]) for d in picked), key=_best_first)
        return ranked[:limit]

    # -- the tree ---------------------------------------------------------------------

    def _eval(self, q: Any) -> Scores:
        if isinstance(q, Q.Term):
            if q.boost != 1.0:
                raise Unsupported("boost")
            return self._term_scores(q.fieldname, q.text)
        if q is Q.NullQuery or type(q).__name__ == "_NullQuery":
            return {}
        if isinstance(q, Q.Every):
            if q.fieldname or q.boost != 1.0:
                raise Unsupported("every with a field")
            return dict.fromkeys(self.live, 1.0)
        if isinstance(q, Q.And) and type(q) is Q.And:
            return self._and(q.subqueries)
        if isinstance(q, Q.Or | PreloadedOr) and type(q) in (Q.Or, PreloadedOr):
            if q.boost != 1.0 or getattr(q, "scale", None) or getattr(q, "minmatch", 0) > 1:
                raise Unsupported("scaled or")
            return self._or(q.subqueries)
        if type(q) is Q.Not:
            return self._not(q)
        if isinstance(q, Q.Phrase | Q.FuzzyTerm):
            return self._asked(q)
        raise Unsupported(type(q).__name__)

    def _and(self, subqueries: list[Any]) -> Scores:
        positive = [s for s in subqueries if not isinstance(s, Q.Not)]
        negative = [s for s in subqueries if isinstance(s, Q.Not)]
        if not positive:
            raise Unsupported("and without a positive part")
        parts = [self._eval(s) for s in positive]
        parts.sort(key=len)
        out = parts[0]
        for other in parts[1:]:
            out = {d: s + other[d] for d, s in out.items() if d in other}
            if not out:
                return out
        for sub in negative:
            # Whoosh intersects with an inverse matcher, which adds its weight to the score.
            excluded, weight = self._eval(sub.query), float(sub.boost)
            out = {d: s + weight for d, s in out.items() if d not in excluded}
        return out

    def _or(self, subqueries: list[Any]) -> Scores:
        parts = sorted((self._eval(s) for s in subqueries), key=len, reverse=True)
        if not parts:
            return {}
        out = dict(parts[0])
        get = out.get
        for part in parts[1:]:
            for d, s in part.items():
                before = get(d)
                out[d] = s if before is None else before + s
        return out

    def _not(self, q: Any) -> Scores:
        """Every document the child misses, each with the inverse matcher's weight."""
        excluded, weight = self._eval(q.query), float(q.boost)
        return {d: weight for d in self.live if d not in excluded}

    def _phrase(self, field: str, words: list[str]) -> Scores:
        """Documents with ``words`` at consecutive positions, scored as Whoosh scores them.

        Candidates are the intersection of the words' cached documents; positions are
        decoded (by the field's own format) for those candidates only.
        """
        schema = self.searcher.schema
        if field not in schema or not schema[field].format.supports("positions"):
            raise Unsupported("no positions")
        terms = [self._term(field, w) for w in words]
        shared = set(min(terms, key=lambda term: len(term[0]))[0])
        for ids, _ in terms:
            shared.intersection_update(ids)
        if not shared:
            return {}
        decode = schema[field].format.decode_positions
        values = [posting_values(self.reader, field, w, shared) for w in dict.fromkeys(words)]
        by_word = dict(zip(dict.fromkeys(words), values, strict=True))
        scores = [dict(zip(ids, sc, strict=True)) for ids, sc in terms]
        out: Scores = {}
        for d in shared:
            first, *rest = (by_word[w][d] for w in words)
            later = [set(decode(v)) for v in rest]
            if any(all(p + k in pos for k, pos in enumerate(later, 1)) for p in decode(first)):
                out[d] = _tree_sum([sc[d] for sc in scores])
        return out

    def _asked(self, q: Any) -> Scores:
        """The matches of a phrase or fuzzy term, kept for the next keystroke."""
        found = self._asked_cache.get(repr(q))
        if found is None:
            simple = type(q) is Q.Phrase and q.slop == 1 and q.boost == 1.0 and len(q.words) > 1
            found = self._phrase(q.fieldname, q.words) if simple else self._whoosh(q)
            self._asked_cache.put(repr(q), found, 1)
        return found

    def _whoosh(self, q: Any) -> Scores:
        results = self.searcher.search(q, limit=None, optimize=False)
        return {hit.docnum: hit.score for hit in results}

    # -- one term ---------------------------------------------------------------------

    def _term_scores(self, field: str, text: str) -> Scores:
        """A term's documents and scores as a dict (shared: never change it)."""
        found = self._scores.get((field, text))
        if found is None:
            ids, values = self._term(field, text)
            found = dict(zip(ids, values, strict=True))
            self._scores.put((field, text), found, len(found))
        return found

    def _term(self, field: str, text: str) -> tuple[array[int], array[float]]:
        found = self._terms.get((field, text))
        if found is None:
            ids, weights = postings(self.reader, field, text)
            found = (ids, self._score(field, text, ids, weights))
            self._terms.put((field, text), found, len(ids))
        return found

    def _score(self, field: str, text: str, ids: array[int], weights: list[float]) -> array[float]:
        if not self.searcher.schema[field].scorable:
            return array("d", weights)
        weighting = self.searcher.weighting
        B = weighting._field_B.get(field, weighting.B)
        K1 = weighting.K1
        idf, avgfl = self._statistics(field, text, len(ids))
        lengths = self._field_lengths(field)
        table = LENGTH_OF_BYTE
        # whoosh.scoring.bm25, written out with the same operations in the same order.
        return array(
            "d",
            [
                idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * table[lengths[d]] / avgfl)))
                for d, tf in zip(ids, weights, strict=True)
            ],
        )

    def _statistics(self, field: str, text: str, found: int) -> tuple[float, float]:
        """A term's idf and its field's average length, as Whoosh computes them.

        Whoosh counts deleted documents in both until their segment is merged; here they
        are left out (``found`` is the term's live documents), so an index changed in
        place scores as a fresh build of the same papers: the average length is exact but
        for the deleted documents' lengths, known only as Whoosh's one-byte encoding.
        """
        if not self.deletions:
            return self.searcher.idf(field, text), self.searcher.avg_field_length(field) or 1
        live = len(self.live)
        idf = math.log(live / (found + 1)) + 1  # whoosh.scoring.WeightingModel.idf
        avgfl = self._live_lengths.get(field)
        if avgfl is None:
            lengths = self._field_lengths(field)
            deleted = set(range(self.doc_count)).difference(self.live)
            # LENGTH_OF_BYTE stands 1 for an empty field: only real lengths are taken off.
            gone = sum(LENGTH_OF_BYTE[lengths[d]] for d in deleted if lengths[d])
            total = self.searcher.field_length(field) - gone
            avgfl = self._live_lengths[field] = total / (live or 1) or 1
        return idf, avgfl

    def _field_lengths(self, field: str) -> bytes:
        """One length byte per document (:func:`~index_builder.search.postings.field_lengths`)."""
        found = self._lengths.get(field)
        if found is not None:
            return found
        found = field_lengths(self.reader, field, self.doc_count)
        self._lengths[field] = found
        return found
