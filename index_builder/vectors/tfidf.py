"""TF-IDF vectors of papers (words and word pairs of the title and abstract, and the
authors as people).

The weighting is arxiv-sanity-lite's (sublinear tf, smooth idf, ``max_df`` 0.1,
``min_df`` 5, 20,000 word features, rows of unit length), with ``min_df``/``max_df``
eased for small catalogues and catalogues of titles (:func:`settings`), and the
authors as one feature each, weighed apart (:mod:`index_builder.vectors.analysis`). The
vocabulary, the idf and the settings are stored with the vectors, so :func:`vectorize`
gives a paper that is not in the catalogue (a library entry) its row in the same space,
with numpy and scipy alone: the catalogue's rows are computed by the same function.
What won and what lost is in ``docs/discovery.md`` (``tests/benchmarks/quality.py``).

They are stored in the index folder by :mod:`index_builder.vectors.storage`.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from index_builder.vectors.analysis import Analysis
from index_builder.vectors.storage import Compressed, PaperVectors, author_mask

if TYPE_CHECKING:
    from index_builder.model import Paper

AUTHOR_MIN_DF = 2
"""An author on one paper alone links nothing: not a feature."""
AUTHOR_WEIGHT = 0.35
"""The authors' part of a row against the words' (a ninth of its squared length)."""
PAIRS = True


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
    """The analysis a build uses (scikit-learn's English stop words)."""
    return Analysis(english_stop_words(), PAIRS, author_weight=AUTHOR_WEIGHT)


@cache
def english_stop_words() -> tuple[str, ...]:
    """scikit-learn's English stop words, sorted, read from their own module alone.

    Importing ``sklearn`` for them took 1.9 s of each full build (it imports scipy and
    joblib); their module imports nothing, so it is loaded from its file by itself.
    Where scikit-learn is laid out otherwise, it is imported as before."""
    import importlib.util

    found = importlib.util.find_spec("sklearn")
    places = list(found.submodule_search_locations or []) if found else []
    for place in places:
        path = Path(place) / "feature_extraction" / "_stop_words.py"
        spec = importlib.util.spec_from_file_location("_paperscope_stop_words", path)
        if spec is None or spec.loader is None or not path.is_file():
            continue
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        words = getattr(module, "ENGLISH_STOP_WORDS", None)
        if isinstance(words, frozenset) and words:
            return tuple(sorted(words))
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return tuple(sorted(ENGLISH_STOP_WORDS))


def compute(papers: Sequence[Paper], analysis: Analysis | None = None) -> PaperVectors:
    """The vectors of ``papers`` (a catalogue with no usable term gets no features)."""
    import numpy as np

    from index_builder.vectors.counting import kept_counts

    analysis = analysis or default_analysis()
    min_df, max_df = settings(len(papers), sum(1 for p in papers if p.abstract))
    kept = kept_counts(analysis, papers, min_df=min_df, max_df=max_df, author_min_df=AUTHOR_MIN_DF)
    idf = np.array([_idf(analysis, len(papers), df) for df in kept.df], np.float32)
    counts = Rows(kept.data, kept.indices, kept.indptr, kept.shape)
    rows = _weighed(counts, idf, analysis, author_mask(kept.features))
    return _paper_vectors(rows, kept.features, tuple(p.id for p in papers), idf, analysis)


def _paper_vectors(
    rows: Any, words: Sequence[str], ids: Sequence[str], idf: Any, analysis: Analysis
) -> PaperVectors:
    """:meth:`PaperVectors.from_matrix` of a matrix given as CSR arrays (``rows.data``,
    ``.indices``, ``.indptr``, ``.shape``): the same arrays, each paper's cells in word
    order and each word's in paper order (a stable sort of the cells: scipy's ``tocsc``
    order). A matrix that gives a cell twice, where scipy orders them its own way, is
    made by scipy. The build's vectors' worker imported scipy for this alone (0.1 s of
    CPU at the build's end)."""
    import numpy as np

    papers, features = rows.shape
    data = np.asarray(rows.data, dtype="<f4")
    at = np.asarray(rows.indices, dtype=np.int64)
    start = np.asarray(rows.indptr, dtype="<i8")
    paper = np.repeat(np.arange(papers, dtype=np.int64), np.diff(start))
    by_paper, by_word = np.lexsort((at, paper)), np.lexsort((paper, at))
    cells = paper[by_paper] * max(features, 1) + at[by_paper]
    if bool(np.any(cells[1:] == cells[:-1])):
        from scipy import sparse

        matrix = sparse.csr_matrix((rows.data, rows.indices, rows.indptr), shape=rows.shape)
        return PaperVectors.from_matrix(matrix, words, ids, idf, analysis)
    word_start = np.zeros(features + 1, dtype="<i8")
    np.cumsum(np.bincount(at, minlength=features), out=word_start[1:])
    by_papers = Compressed(data[by_paper], at[by_paper].astype("<i4"), start)
    by_words = Compressed(data[by_word], paper[by_word].astype("<i4"), word_start)
    weights = np.asarray(idf, dtype="<f4")
    return PaperVectors(by_papers, by_words, tuple(words), tuple(ids), weights, analysis)


def vectorize(vectors: PaperVectors, papers: Sequence[Paper]) -> Any:
    """Rows for ``papers`` in the stored feature space, unit length (or empty), as a
    ``scipy.sparse.csr_matrix`` of float32: a catalogue paper's row is its stored one."""
    return _csr(vectorize_lines(vectors, papers))


def vectorize_lines(vectors: PaperVectors, papers: Sequence[Paper]) -> Rows:
    """:func:`vectorize`'s rows as plain numpy arrays (scipy is not imported: a change in
    place of a few papers would spend more on importing it than on their rows)."""
    counts = _counts(vectors.analysis, papers, vectors.column)
    return _weighed(counts, vectors.idf, vectors.analysis, vectors.authors)


class Rows(NamedTuple):
    """A sparse matrix's rows as scipy's CSR arrays, with numpy alone."""

    data: Any
    indices: Any
    indptr: Any
    shape: tuple[int, int]

    def line(self, i: int) -> tuple[Any, Any]:
        """The positions and values of row ``i``."""
        begin, end = int(self.indptr[i]), int(self.indptr[i + 1])
        return self.indices[begin:end], self.data[begin:end]


def _csr(rows: Rows) -> Any:
    """``rows`` as a ``scipy.sparse.csr_matrix``."""
    from scipy import sparse

    return sparse.csr_matrix((rows.data, rows.indices, rows.indptr), shape=rows.shape)


def _idf(analysis: Analysis, papers: int, df: int) -> float:
    if analysis.idf == "bm25":
        return math.log(1.0 + (papers - df + 0.5) / (df + 0.5))
    return math.log((1 + papers) / (1 + df)) + 1.0


def _counts(analysis: Analysis, papers: Sequence[Paper], vocabulary: dict[str, int]) -> Rows:
    """The papers' term counts (CSR arrays, columns in order) over ``vocabulary``'s
    columns; a term not in it is dropped."""
    import numpy as np

    at = array("q")
    start = [0]
    for paper in papers:
        words, authors = analysis.terms(paper)
        at.extend([i for t in words + authors if (i := vocabulary.get(t)) is not None])
        start.append(len(at))
    columns = np.frombuffer(at, dtype=np.int64) if len(at) else np.zeros(0, np.int64)
    rows = np.repeat(np.arange(len(papers), dtype=np.int64), np.diff(start))
    width = max(len(vocabulary), 1)
    # Each (row, column) once, with how often it came: sorted by row, then column.
    cells, counts = np.unique(rows * width + columns, return_counts=True)
    indptr = np.zeros(len(papers) + 1, np.int64)
    np.cumsum(np.bincount(cells // width, minlength=len(papers)), out=indptr[1:])
    indices = (cells % width).astype(np.int32)
    return Rows(counts.astype(np.float64), indices, indptr, (len(papers), len(vocabulary)))


def _weighed(counts: Any, idf: Any, analysis: Analysis, authors: Any) -> Rows:
    """Counts (CSR arrays) made rows: tf (:attr:`Analysis.tf`) times idf, the words' and
    the authors' parts (``authors``: which features are authors, :func:`author_mask`)
    each of unit length, the authors' scaled by ``author_weight``, then the row of unit
    length; float32, no stored zeros."""
    import numpy as np

    # In place where it can be (the same operations, in the same order, so the same
    # values): at 20,000 papers each temporary array is 17 MB, and there were a dozen.
    n = counts.shape[0]
    values = np.array(counts.data, np.float64)
    if analysis.tf == "log":
        np.log(values, out=values)
        values += 1.0
    elif analysis.tf == "bm25":
        values = values * (analysis.tf_k + 1.0) / (values + analysis.tf_k)
    values *= np.asarray(idf, np.float64)[counts.indices]
    author = np.asarray(authors, dtype=bool)[counts.indices]
    rows = np.repeat(
        np.arange(n, dtype=np.int32 if n < 2**31 else np.int64), np.diff(counts.indptr)
    )
    squares = values * values
    words_sq = np.bincount(rows[~author], squares[~author], minlength=n)
    authors_sq = np.bincount(rows[author], squares[author], minlength=n)
    del squares
    # Each part of unit length, the authors' scaled (a word's value times 1.0 is itself).
    values[author] *= analysis.author_weight
    norms = np.sqrt(words_sq)[rows]
    norms[author] = np.sqrt(authors_sq)[rows[author]]
    _divide(values, norms)
    del norms
    squares = values * values
    total = np.sqrt(np.bincount(rows, squares, minlength=n))[rows]
    del squares
    _divide(values, total)
    del total
    values = values.astype(np.float32)
    kept = values != 0
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(rows[kept], minlength=n), out=indptr[1:])
    shape = (int(counts.shape[0]), int(counts.shape[1]))
    return Rows(values[kept], np.asarray(counts.indices)[kept], indptr, shape)


def _divide(values: Any, by: Any) -> None:
    """``values`` divided by ``by`` in place, 0 where ``by`` is 0."""
    import numpy as np

    zero = by == 0
    np.divide(values, by, out=values, where=~zero)
    values[zero] = 0.0
