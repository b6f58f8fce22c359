"""A new row of the paper vectors, as the stored rows are: positions sorted, numpy alone.

A change in place (:mod:`index_builder.search.in_place`) writes the rows of a few papers
(:meth:`~index_builder.vectors.storage.PaperVectors.with_rows`, spliced by
:mod:`~index_builder.vectors.splice`): importing scipy for them would cost more than the
rows, so a row given as a scipy matrix is read through its own arrays.
"""

from __future__ import annotations

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
