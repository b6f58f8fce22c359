"""The papers nearest to one paper: cosine of unit-length TF-IDF rows, with numpy alone.

The cosines come from the papers of the paper's own words (the matrix by word), a
fraction of the matrix: well under a millisecond at 6,628 papers, a few at 50,000
(``python -m tests.benchmarks.similarity``); no scipy to import for the first one. The
words two papers share that weigh most in both are kept to show why they are near.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from index_builder.vectors.storage import PaperVectors

SHARED_WORDS = 6
"""How many shared words are kept per neighbour (the highlighted ones)."""
EXPAND = 3
"""Pseudo-relevance feedback: the paper's nearest this many papers are added to it."""
EXPAND_WEIGHT = 0.5
"""Their weight together against the paper's own (1)."""
POOL = 200
"""The papers the feedback re-ranks: the paper's nearest by its own words."""


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
    """The words of paper ``row`` whose value times ``weights`` (one per word) is highest
    (words and word pairs: an author is never one)."""
    import numpy as np

    columns, values = vectors.by_paper.line(row)
    products = np.where(vectors.authors[columns], 0.0, values * weights[columns])
    keep = [i for i in np.argsort(-products, kind="stable")[:count] if products[i] > 0]
    return tuple(vectors.words[columns[i]] for i in keep)


def _entries(start: Any, lines: Any) -> tuple[Any, Any]:
    """Where the entries of ``lines`` (of a matrix compressed with ``start``) are, and each
    entry's line (its place in ``lines``): every line's range, joined without a loop."""
    import numpy as np

    begins, lengths = start[lines], start[lines + 1] - start[lines]
    shift = np.repeat(begins - np.cumsum(lengths) + lengths, lengths)
    return shift + np.arange(int(lengths.sum())), np.repeat(np.arange(len(lines)), lengths)


def cosines(vectors: PaperVectors, row: int) -> Any:
    """Every paper's cosine with paper ``row``: the papers of its words, weighed, summed.

    Reads only the entries of the paper's own words (by word), not the whole matrix.
    """
    import numpy as np

    columns, values = vectors.by_paper.line(row)
    entries, line = _entries(vectors.by_word.start, columns)
    weights = vectors.by_word.values[entries] * values[line]
    return np.bincount(vectors.by_word.at[entries], weights=weights, minlength=vectors.rows)


def expanded(vectors: PaperVectors, scores: Any, expand: int, weight: float) -> Any:
    """``scores`` (cosines with a paper) plus, weighed ``weight`` together, the cosines
    with its ``expand`` nearest papers, for its :data:`POOL` nearest (others 0).

    A cosine is linear in the query, so this ranks by the paper and its nearest papers
    together (pseudo-relevance feedback), at the cost of products with the pool alone.
    """
    import numpy as np

    near, pool = top_rows(scores, expand), top_rows(scores, POOL)
    out = np.zeros_like(scores)
    if not len(near):
        return out
    entries, line = _entries(vectors.by_paper.start, pool)
    at, values = vectors.by_paper.at[entries], vectors.by_paper.values[entries]
    dense = np.zeros(len(vectors.words), dtype=np.float64)
    extra = np.zeros(len(pool), dtype=np.float64)
    for r in near:
        columns, weights = vectors.by_paper.line(int(r))
        dense[columns] = weights
        extra += np.bincount(line, weights=dense[at] * values, minlength=len(pool))
        dense[columns] = 0.0
    out[pool] = scores[pool] + extra * (weight / len(near))
    return out


def neighbours(
    vectors: PaperVectors,
    row: int,
    limit: int = 10,
    expand: int = EXPAND,
    weight: float = EXPAND_WEIGHT,
) -> Neighbours:
    """The ``limit`` papers nearest to paper ``row`` (never itself), with their shared words.

    With ``expand``, the paper's ``expand`` nearest papers are added to it (weighing
    ``weight`` together) and its :data:`POOL` nearest papers re-ranked (:func:`expanded`).
    """
    import numpy as np

    if not 0 <= row < vectors.rows or not vectors.words:
        return Neighbours((), 0)
    scores = cosines(vectors, row)
    scores[row] = 0.0
    total = int((scores > 0).sum())
    if expand > 0:
        scores = expanded(vectors, scores, expand, weight)
    query = np.zeros(len(vectors.words), dtype=np.float32)
    columns, values = vectors.by_paper.line(row)
    query[columns] = values
    found = tuple(
        Neighbour(int(r), float(scores[r]), weighty_words(vectors, int(r), query, SHARED_WORDS))
        for r in top_rows(scores, limit)
    )
    return Neighbours(found, total)
