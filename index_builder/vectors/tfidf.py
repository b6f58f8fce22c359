"""TF-IDF vectors of papers (words of the title and abstract, and the authors as people).

The weighting is arxiv-sanity-lite's (sublinear tf, smooth idf, ``max_df`` 0.1,
``min_df`` 5, 20,000 word features, rows of unit length), with ``min_df``/``max_df``
eased for small catalogues and catalogues of titles (:func:`settings`), and the
authors as one feature each, weighed apart (:mod:`index_builder.vectors.analysis`). The
vocabulary, the idf and the settings are stored with the vectors, so :func:`vectorize`
gives a paper that is not in the catalogue (a library entry) its row in the same space,
with numpy and scipy alone: the catalogue's rows are computed by the same function.

They are stored in the index folder by :mod:`index_builder.vectors.storage`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from index_builder.vectors.analysis import Analysis, is_author
from index_builder.vectors.storage import PaperVectors

if TYPE_CHECKING:
    from index_builder.model import Paper

MAX_FEATURES = 20_000
"""Word features kept at most (the most frequent); authors are not counted in it."""
AUTHOR_MIN_DF = 2
"""An author on one paper alone links nothing: not a feature."""
AUTHOR_WEIGHT = 0.5
"""The authors' part of a row against the words' (a fifth of a row's squared length)."""
PAIRS = False


def settings(count: int, with_abstract: int) -> tuple[int, float]:
    """``(min_df, max_df)`` for ``count`` papers of which ``with_abstract`` have one.

    arxiv-sanity-lite's from 2,000 papers with abstracts. Where most papers are titles
    alone (the bundled data: 76 abstracts for 6,628 papers) a word two titles share is
    the best link they have, so it is kept; a small catalogue keeps nearly every word.
    """
    if count < 200:
        return 1, 0.5
    if with_abstract * 2 < count:
        return 2, 0.1
    if count >= 2000:
        return 5, 0.1
    return 2, 0.2


def default_analysis() -> Analysis:
    """The analysis a build uses (scikit-learn's English stop words, imported here only)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return Analysis(tuple(sorted(ENGLISH_STOP_WORDS)), PAIRS, True, AUTHOR_WEIGHT)


def compute(papers: Sequence[Paper], analysis: Analysis | None = None) -> PaperVectors:
    """The vectors of ``papers`` (a catalogue with no usable term gets no features)."""
    import numpy as np

    analysis = analysis or default_analysis()
    ids = tuple(p.id for p in papers)
    counted = [_counted(analysis, p) for p in papers]
    min_df, max_df = settings(len(papers), sum(1 for p in papers if p.abstract))
    df: Counter[str] = Counter()
    for terms in counted:
        df.update(terms.keys())
    most = max_df * len(papers)
    words = [t for t, n in df.items() if not is_author(t) and min_df <= n <= most]
    if len(words) > MAX_FEATURES:
        words = sorted(words, key=lambda t: (-df[t], t))[:MAX_FEATURES]
    authors = [t for t, n in df.items() if is_author(t) and n >= AUTHOR_MIN_DF]
    features = tuple(sorted(words + authors))
    n = len(papers)
    idf = np.array([math.log((1 + n) / (1 + df[t])) + 1.0 for t in features], np.float32)
    column = {t: i for i, t in enumerate(features)}
    matrix = _weighed(_counts(counted, column), idf, analysis, features)
    return PaperVectors.from_matrix(matrix, features, ids, idf, analysis)


def vectorize(vectors: PaperVectors, papers: Sequence[Paper]) -> Any:
    """Rows for ``papers`` in the stored feature space, unit length (or empty), as a
    ``scipy.sparse.csr_matrix`` of float32: a catalogue paper's row is its stored one."""
    counted = [_counted(vectors.analysis, p) for p in papers]
    counts = _counts(counted, vectors.column)
    return _weighed(counts, vectors.idf, vectors.analysis, vectors.words)


def _counted(analysis: Analysis, paper: Paper) -> Counter[str]:
    words, authors = analysis.terms(paper)
    return Counter(words + authors)


def _counts(counted: Sequence[Counter[str]], column: dict[str, int]) -> Any:
    """The papers' term counts over the features ``column`` names (others dropped)."""
    import numpy as np
    from scipy import sparse

    at: list[int] = []
    values: list[float] = []
    start = [0]
    for terms in counted:
        for term, count in terms.items():
            i = column.get(term)
            if i is not None:
                at.append(i)
                values.append(count)
        start.append(len(at))
    parts = (np.array(values, np.float64), np.array(at, np.int32), np.array(start, np.int64))
    matrix = sparse.csr_matrix(parts, shape=(len(counted), len(column)))
    matrix.sort_indices()
    return matrix


def _weighed(counts: Any, idf: Any, analysis: Analysis, features: Sequence[str]) -> Any:
    """Counts made rows: tf (sublinear) times idf, the words' and the authors' parts each
    of unit length, the authors' scaled by ``author_weight``, then the row of unit length."""
    import numpy as np
    from scipy import sparse

    values = counts.data.copy()
    if analysis.sublinear:
        values = 1.0 + np.log(values)
    values *= np.asarray(idf, np.float64)[counts.indices]
    author = np.array([is_author(t) for t in features], dtype=bool)[counts.indices]
    rows = np.repeat(np.arange(counts.shape[0]), np.diff(counts.indptr))
    squares = values * values
    words_sq = np.bincount(rows[~author], squares[~author], minlength=counts.shape[0])
    authors_sq = np.bincount(rows[author], squares[author], minlength=counts.shape[0])
    scale = np.where(author, analysis.author_weight, 1.0)
    norms = np.where(author, np.sqrt(authors_sq)[rows], np.sqrt(words_sq)[rows])
    values = np.divide(values * scale, norms, out=np.zeros_like(values), where=norms > 0)
    total = np.sqrt(np.bincount(rows, values * values, minlength=counts.shape[0]))
    values = np.divide(values, total[rows], out=np.zeros_like(values), where=total[rows] > 0)
    out = sparse.csr_matrix(
        (values.astype(np.float32), counts.indices, counts.indptr), shape=counts.shape
    )
    out.eliminate_zeros()
    return out
