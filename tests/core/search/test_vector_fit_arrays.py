"""The vectors' fit makes its stored matrices with numpy alone (no scipy in a build's
vectors' worker), and they are the arrays scipy's ``csr_matrix`` -> ``from_matrix`` makes:
rows with their cells out of word order, empty rows and columns, no cells at all, and
a matrix giving a cell twice (which goes through scipy)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy import sparse

from index_builder.vectors import storage, tfidf
from tests.helpers.imports import modules_after

ANALYSIS = tfidf.default_analysis()


def arrays(vectors: storage.PaperVectors) -> list[Any]:
    """Every stored array of ``vectors``, with its dtype."""
    found = [
        getattr(getattr(vectors, p), f)
        for p in storage.PARTS
        for f in storage.Compressed.__annotations__
    ]
    return [(a.dtype.str, a.tolist()) for a in [*found, vectors.idf]]


def both(data: Any, indices: Any, indptr: Any, shape: tuple[int, int]) -> tuple[Any, Any]:
    """The vectors of these CSR arrays by the fit's numpy path and by scipy's."""
    words = tuple(f"w{i}" for i in range(shape[1]))
    ids = tuple(f"p{i}" for i in range(shape[0]))
    idf = np.linspace(1.0, 2.0, shape[1], dtype=np.float32)
    # Copies each: scipy sorts a matrix's cells in place, in the arrays it was given.
    rows = tfidf.Rows(data.copy(), indices.copy(), indptr.copy(), shape)
    ours = tfidf._paper_vectors(rows, words, ids, idf, ANALYSIS)
    matrix = sparse.csr_matrix((data.copy(), indices.copy(), indptr.copy()), shape=shape)
    theirs = storage.PaperVectors.from_matrix(matrix, words, ids, idf, ANALYSIS)
    return ours, theirs


@pytest.mark.parametrize("seed", range(40))
def test_the_fits_arrays_are_scipys(seed: int) -> None:
    rng = np.random.default_rng(seed)
    papers, words = int(rng.integers(0, 25)), int(rng.integers(0, 30))
    dense = rng.random((papers, words)) * (rng.random((papers, words)) < rng.random())
    csr = sparse.csr_matrix(dense.astype(np.float32))
    data, indices = csr.data.copy(), csr.indices.copy()
    for i in range(papers):  # each row's cells in another order
        a, b = int(csr.indptr[i]), int(csr.indptr[i + 1])
        shuffled = a + rng.permutation(b - a)
        data[a:b], indices[a:b] = data[shuffled], indices[shuffled]
    ours, theirs = both(data, indices, csr.indptr, (papers, words))
    assert arrays(ours) == arrays(theirs)


def test_a_cell_given_twice_is_made_by_scipy() -> None:
    data = np.array([0.5, 0.25, 0.125], dtype=np.float32)
    indices, indptr = np.array([1, 1, 0]), np.array([0, 3, 3])
    ours, theirs = both(data, indices, indptr, (2, 2))
    assert arrays(ours) == arrays(theirs)


def test_the_fit_imports_no_scipy() -> None:
    code = (
        "from index_builder.model import Paper\n"
        "from index_builder.vectors import tfidf\n"
        "papers = [Paper(id=str(i), title=f'sparse attention kernels {i % 3}', authors=('A B',),"
        " abstract='') for i in range(12)]\n"
        "assert tfidf.compute(papers).rows == 12\n"
    )
    assert "scipy" not in {name.split(".")[0] for name in modules_after(code)}
