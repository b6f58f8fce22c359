"""Rows of the paper vectors replaced, added and removed with numpy alone.

A change in place (:mod:`index_builder.search.in_place`) writes the rows of a few papers
(:meth:`~index_builder.vectors.storage.PaperVectors.with_rows`): importing scipy for them
would cost more than the rows. The matrix by paper is the kept rows and the new ones in
the catalogue's order; the matrix by word is that matrix sorted by word, each word's
papers in order (what scipy's ``tocsc`` and ``sort_indices`` make, which
``tests/core/search/test_vectors_numpy.py`` checks). Matrices are ``(values, positions,
starts)`` arrays, as :class:`~index_builder.vectors.storage.Compressed` holds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def line_of(row: Any, width: int, pid: str) -> tuple[Any, Any]:
    """A new row's positions (sorted) and values, from a 1-row sparse matrix of ``width``
    columns or a ``(positions, values)`` pair; ``ValueError`` for a matrix of another shape."""
    import numpy as np

    if isinstance(row, tuple):
        at, values = (np.asarray(part) for part in row)
    else:
        if row.shape != (1, width):
            raise ValueError(f"the row of {pid} is not one row of {width}")
        line = row.tocsr()
        at, values = np.asarray(line.indices), np.asarray(line.data)
    order = np.argsort(at, kind="stable")
    return at[order].astype("<i4"), values[order].astype("<f4")


def stacked(lines: Sequence[tuple[Any, Any]]) -> tuple[Any, Any, Any]:
    """The matrix whose rows are ``lines`` (each ``(positions, values)``)."""
    import numpy as np

    start = np.zeros(len(lines) + 1, np.int64)
    np.cumsum([len(at) for at, _ in lines], out=start[1:])
    at = np.concatenate([a for a, _ in lines]).astype("<i4") if lines else np.zeros(0, "<i4")
    values = np.concatenate([v for _, v in lines]).astype("<f4") if lines else at.astype("<f4")
    return values, at, start


def by_word(values: Any, at: Any, start: Any, words: int) -> tuple[Any, Any, Any]:
    """The matrix by word of a matrix by paper, each word's papers in order."""
    import numpy as np

    papers = len(start) - 1
    rows = np.repeat(np.arange(papers, dtype=np.int64), np.diff(start))
    order = np.argsort(at, kind="stable")
    starts = np.zeros(words + 1, np.int64)
    np.cumsum(np.bincount(at, minlength=words), out=starts[1:])
    return values[order], rows[order].astype("<i4"), starts
