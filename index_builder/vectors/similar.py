"""The papers nearest to one paper: cosine of unit-length TF-IDF rows, one sparse product.

At 50,000 papers the product is a few milliseconds (``python -m tests.benchmarks.similarity``);
the words two papers share that weigh most in both are kept to show why they are near.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from index_builder.vectors.storage import PaperVectors

SHARED_WORDS = 6
"""How many shared words are kept per neighbour (the highlighted ones)."""


@dataclass(frozen=True)
class Neighbour:
    """A paper near another: its row, the cosine, and the shared words that weigh most."""

    row: int
    score: float
    words: tuple[str, ...]


@dataclass(frozen=True)
class Neighbours:
    """The nearest papers, best first, and how many papers share a word at all."""

    found: tuple[Neighbour, ...]
    total: int


def top_rows(scores: Any, limit: int) -> Any:
    """The rows of the ``limit`` highest positive ``scores``, best first (ties: lower row)."""
    import numpy as np

    positive = int(np.count_nonzero(scores > 0))
    k = min(max(limit, 0), positive)
    if k == 0:
        return np.empty(0, dtype=np.int64)
    part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    order = np.lexsort((part, -scores[part]))
    return part[order][:k]


def weighty_words(vectors: PaperVectors, row: int, weights: Any, count: int) -> tuple[str, ...]:
    """The words of paper ``row`` whose value times ``weights`` (one per word) is highest."""
    import numpy as np

    matrix = vectors.matrix
    start, end = matrix.indptr[row], matrix.indptr[row + 1]
    columns = matrix.indices[start:end]
    products = matrix.data[start:end] * weights[columns]
    keep = [i for i in np.argsort(-products, kind="stable")[:count] if products[i] > 0]
    return tuple(vectors.words[columns[i]] for i in keep)


def neighbours(vectors: PaperVectors, row: int, limit: int = 10) -> Neighbours:
    """The ``limit`` papers nearest to paper ``row`` (never itself), with their shared words."""
    matrix = vectors.matrix
    if not 0 <= row < vectors.rows or matrix.shape[1] == 0:
        return Neighbours((), 0)
    query = matrix[row].toarray().ravel()
    scores = matrix @ query
    scores[row] = 0.0
    total = int((scores > 0).sum())
    found = tuple(
        Neighbour(int(r), float(scores[r]), weighty_words(vectors, int(r), query, SHARED_WORDS))
        for r in top_rows(scores, limit)
    )
    return Neighbours(found, total)
