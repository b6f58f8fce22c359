"""Similar papers and recommendations, served from the index's paper vectors.

:class:`VectorQueries` adds them to the index store: the vectors
(:mod:`index_builder.vectors`) are read from the index folder the first time one is
asked for, outside the search lock, so a search never waits for numpy to load. A vectors
file that cannot be read, or that holds other papers, is damage: the index is rebuilt.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import partial

from index_builder.model import Hit, Paper, SearchResult
from index_builder.search.highlight import MatchTerms, spans
from index_builder.search.pending_rows import load_vectors
from index_builder.search.schema import stem
from index_builder.search.store import DAMAGED_NOTICE, IndexStore
from index_builder.vectors.storage import PaperVectors

MIN_BOOKMARKS = 3
"""Fewer bookmarks than this and :meth:`VectorQueries.recommend` guesses nothing."""


def like_words(paper_id: str) -> str:
    """What a count of similar papers counts, in the words the browser and the CLI share."""
    return f"papers like {paper_id} (sharing a word with it), most similar first"


@dataclass(frozen=True)
class Recommendation:
    """Papers ranked for a reading list, and the words the ranking weighs most.

    ``needed`` is how many more bookmarks it takes before anything is ranked (then
    ``hits`` is empty); ``total`` how many papers were ranked.
    """

    hits: tuple[Hit, ...]
    total: int
    explain: tuple[str, ...]
    needed: int = 0
    elapsed_ms: float = 0.0


class VectorQueries(IndexStore):
    """The vector side of :class:`~index_builder.search.engine.SearchIndex`."""

    def _paper_vectors(self) -> PaperVectors:
        """This index's vectors, read on first use (rebuilding the index when damaged)."""
        self._ready()
        found = self._vectors
        if found is not None:
            return found
        # The app asks from a new worker for each paper shown, and a worker replaced by
        # another still runs: each reading the file and splicing its pending rows would
        # hold the vectors twice or more at once (the TUI's peak memory).
        with self._vectors_lock:
            found = self._vectors
            if found is not None:
                return found
            ids = tuple(p.id for p in self.papers)
            try:
                found = load_vectors(self.index_dir, self.papers)
                if found.ids != ids:
                    raise ValueError("the vectors file holds other papers")
            except Exception:  # unreadable in any way (zip, npz, shape): damage, rebuilt
                with self._build_lock:
                    self._recover()
                self.notice = DAMAGED_NOTICE
                found = load_vectors(self.index_dir, self.papers)
            with self._lock:
                self._vectors = found
        return found

    def _vector_hits(self, found: Sequence[tuple[int, float, Sequence[str]]]) -> tuple[Hit, ...]:
        """Hits of ``(row, score, words)``, highlighting every hit's words in each.

        The vectors' words are whole words or word pairs (not stems), matched exactly. One set of
        words for all the hits (compiled once: one per hit cost 10 ms a list); a word
        highlighted in a hit is still one it shares with the paper (or one the
        recommendation weighs), since each listed word is.
        """
        # A word pair ("language model") is highlighted as its two words.
        exact = {part for _, _, words in found for w in words for part in w.split()}
        terms = MatchTerms(exact=exact, surface=set())
        marks = partial(spans, terms=terms, stem=stem)
        return tuple(
            Hit(self.papers[row], score, spans(self.papers[row].title, terms, stem), marks)
            for row, score, _ in found
        )

    def similar(self, paper_id: str, limit: int = 10) -> SearchResult:
        """The papers nearest to ``paper_id`` (an id or alias) by their vectors.

        ``total`` is how many papers share a word with it (the note says so in words:
        :func:`like_words`); hits highlight the shared words that weigh most. An unknown
        id finds nothing.
        """
        from index_builder.vectors.similar import neighbours

        started = time.perf_counter()
        row = self._by_id.get(paper_id)
        if row is None:
            return SearchResult(query=paper_id, total=0, hits=())
        near = neighbours(self._paper_vectors(), row, max(limit, 0))
        hits = self._vector_hits([(n.row, n.score, n.words) for n in near.found])
        elapsed = (time.perf_counter() - started) * 1000
        note = f"{near.total:,} {like_words(paper_id)}"
        return SearchResult(paper_id, near.total, hits, elapsed_ms=elapsed, note=note)

    def more_like_this(self, paper_id: str, limit: int = 10) -> tuple[Hit, ...]:
        """The papers most similar to this one (not itself), best first."""
        return self.similar(paper_id, limit).hits

    def recommend(
        self,
        bookmarked: Collection[str],
        dismissed: Collection[str] = (),
        limit: int = 20,
        *,
        library: Collection[str] = (),
        library_papers: Sequence[Paper] = (),
    ) -> Recommendation:
        """Every paper not bookmarked, dismissed or in the library, ranked by a model of
        the bookmarks and the library (``library``: catalogue ids of owned papers;
        ``library_papers``: owned papers outside the catalogue, weighing less).

        Ids may be aliases; ids of papers not in the catalogue are ignored.
        """
        from index_builder.vectors.recommend import recommend

        started = time.perf_counter()
        positives = {self._by_id[b] for b in bookmarked if b in self._by_id}
        owned = {self._by_id[b] for b in library if b in self._by_id} - positives
        have = len(positives) + len(owned) + len(library_papers)
        if have < MIN_BOOKMARKS:
            return Recommendation((), 0, (), needed=MIN_BOOKMARKS - have)
        negatives = {self._by_id[d] for d in dismissed if d in self._by_id}
        ranking = recommend(
            self._paper_vectors(),
            positives,
            negatives,
            max(limit, 0),
            library_rows=owned,
            library_papers=library_papers,
        )
        hits = self._vector_hits([(r.row, r.score, r.words) for r in ranking.found])
        elapsed = (time.perf_counter() - started) * 1000
        return Recommendation(hits, ranking.total, ranking.explain, elapsed_ms=elapsed)
