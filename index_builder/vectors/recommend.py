"""Recommendations from a reading list: arxiv-sanity-lite's linear SVM over TF-IDF, twice.

The bookmarked papers are the positives and every other paper a negative; a paper the
user dismissed counts as a negative :data:`DISMISSED_WEIGHT` times. ``class_weight`` is
balanced (a few positives against thousands) and ``C`` is arxiv-sanity-lite's 0.01. A
second model adds the first one's top :data:`FEEDBACK` papers as positives of half
weight (pseudo-relevance feedback). Over words and word pairs the two rank a topic's
papers at least as well as arxiv-sanity-lite's one model (``docs/discovery.md``,
``tests/benchmarks/quality.py``, ``tests/core/search/test_vectors_quality.py``).
A library (papers the user owns, :data:`LIBRARY_WEIGHT`) adds positives of lesser
weight: catalogue rows (``library_rows``, never recommended) and papers outside the
catalogue (``library_papers``, vectorized in the catalogue's feature space and added
to the rows the model is fitted on). :data:`MIN_BOOKMARKS` counts bookmarks and library
together, so a library alone is enough.

The explanation is the words with the largest weights of the model, real words. The
SVM is scikit-learn's ``LinearSVC`` model fitted with scipy (:mod:`index_builder.vectors.svm`),
so a query never imports scikit-learn.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from index_builder.vectors.similar import top_rows, weighty_words
from index_builder.vectors.storage import PaperVectors

if TYPE_CHECKING:
    from index_builder.model import Paper

MIN_BOOKMARKS = 3
"""Fewer bookmarks and library papers than this and nothing is guessed."""
LIBRARY_WEIGHT = 0.5
"""A library paper's weight as a positive (a bookmark's is 1)."""
C = 0.01
DISMISSED_WEIGHT = 3.0
FEEDBACK = 10
FEEDBACK_WEIGHT = 0.5
EXPLAIN_WORDS = 8
HIT_WORDS = 6


@dataclass(frozen=True)
class Ranked:
    """One recommended paper: its row, its score, and its words that weigh most."""

    row: int
    score: float
    words: tuple[str, ...]


@dataclass(frozen=True)
class Ranking:
    """The recommended papers best first, how many were ranked, and why (the words)."""

    found: tuple[Ranked, ...]
    total: int
    explain: tuple[str, ...]


def recommend(
    vectors: PaperVectors,
    positives: Collection[int],
    negatives: Collection[int] = (),
    limit: int = 20,
    *,
    library_rows: Collection[int] = (),
    library_papers: Sequence[Paper] = (),
) -> Ranking:
    """Rank every row not in ``positives``, ``negatives`` or ``library_rows`` by a model
    of the positives (bookmarks), the library's rows and the ``library_papers``.

    ``ValueError`` when they are fewer than :data:`MIN_BOOKMARKS` together.
    """
    import numpy as np
    from scipy import sparse

    from index_builder.vectors.svm import fit

    n = vectors.rows
    positive = sorted({r for r in positives if 0 <= r < n})
    owned = sorted({r for r in library_rows if 0 <= r < n} - set(positive))
    if len(positive) + len(owned) + len(library_papers) < MIN_BOOKMARKS:
        raise ValueError(f"at least {MIN_BOOKMARKS} bookmarks or library papers are needed")
    negative = sorted({r for r in negatives if 0 <= r < n} - set(positive) - set(owned))
    extra = len(library_papers)
    labels = np.zeros(n + extra, dtype=np.int8)
    labels[positive] = 1
    labels[owned] = 1
    labels[n:] = 1
    candidates = np.ones(n, dtype=bool)
    candidates[positive] = False
    candidates[negative] = False
    candidates[owned] = False
    total = int(candidates.sum())
    if total == 0 or not vectors.words:
        return Ranking((), total, ())
    weights = np.ones(n + extra, dtype=np.float64)
    weights[negative] = DISMISSED_WEIGHT
    weights[owned] = LIBRARY_WEIGHT
    weights[n:] = LIBRARY_WEIGHT
    matrix = vectors.matrix.astype(np.float64)  # once, not in every product
    transposed = vectors.transposed.astype(np.float64)
    if extra:
        from index_builder.vectors.tfidf import vectorize

        matrix = sparse.vstack([matrix, vectorize(vectors, library_papers)], format="csr")
        transposed = matrix.T.tocsr()
    coef, intercept = fit(matrix, labels, weights, C, transposed=transposed)
    scores = (matrix @ coef + intercept)[:n]
    feedback = top_rows(_shifted(scores, candidates), min(FEEDBACK, total // 4))
    if len(feedback):
        labels[feedback] = 1
        weights[feedback] = FEEDBACK_WEIGHT
        # Starts from the first model: the rows changed are few, a few steps reach it.
        start = np.append(coef, intercept)
        coef, intercept = fit(matrix, labels, weights, C, start, transposed)
        scores = (matrix @ coef + intercept)[:n]
    coef = coef.astype(np.float32)
    shifted = _shifted(scores, candidates)
    found = tuple(
        Ranked(int(r), float(scores[r]), weighty_words(vectors, int(r), coef, HIT_WORDS))
        for r in top_rows(shifted, limit)
    )
    shown = np.where(vectors.authors, 0.0, coef)
    best = [int(i) for i in np.argsort(-shown, kind="stable")[:EXPLAIN_WORDS] if shown[i] > 0]
    return Ranking(found, total, tuple(vectors.words[i] for i in best))


def _shifted(scores: Any, candidates: Any) -> Any:
    """``scores`` shifted so every candidate's is positive (same order), others 0."""
    import numpy as np

    return np.where(candidates, scores - scores[candidates].min() + 1.0, 0.0)
