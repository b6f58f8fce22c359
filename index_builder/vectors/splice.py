"""Rows of the paper vectors replaced, added, removed and moved, spliced into the stored
matrices with numpy alone.

A change in place leaves the rows of a few papers to write
(:mod:`index_builder.search.pending_rows`), and
:meth:`~index_builder.vectors.storage.PaperVectors.with_rows` writes them. Making both
matrices again from every row (20,030 rows and 2.1 million cells at three venues, the
matrix by word through a sort of all of them) cost 1.4 s and 94 MB beside the 40 MB read
from ``vectors.bin``. A splice sorts nothing and holds no array of every cell beside the
two it makes:

- the papers kept in the same order keep their rows, copied in runs;
- a paper written again, added, or moved (kept, but no longer in order with the others:
  the longest increasing run of kept papers stays, the rest move) is a new row;
- the matrix by word loses the cells of the rows that went and gains the new rows' cells,
  each put in its word's column where its paper's row falls, found by bisection; the
  kept cells' paper rows are renumbered as they are copied.

The result is exactly the matrices made from every row, each word's papers in order
(``tests/core/search/test_vectors_splice.py`` compares them with scipy's on random
changes). Matrices are ``(values, positions, starts)`` arrays, as
:class:`~index_builder.vectors.storage.Compressed` holds them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any

from index_builder.vectors.rows import line_of

Parts = tuple[Any, Any, Any]
"""A compressed matrix's ``(values, positions, starts)``."""
CHUNK = 1 << 16
"""Cells of the matrix by word copied at a time: what the copy holds beside the matrices."""


def spliced(
    by_paper: Parts,
    by_word: Parts,
    ids: Sequence[str],
    changes: Mapping[str, Any],
    order: Sequence[str],
    width: int,
) -> tuple[Parts, Parts]:
    """The matrices by paper and by word of the papers ``order``: the rows of ``changes``
    (``None``: removed) written, the others taken from ``by_paper``/``by_word`` (the rows
    of ``ids``, ``width`` features). ``KeyError`` for an id of ``order`` with no row."""
    import numpy as np

    source, lines = _sources(by_paper, ids, changes, order, width)
    renumber = np.full(len(ids), -1, np.int32)
    stays = source >= 0
    renumber[source[stays]] = np.flatnonzero(stays)
    return _by_paper(by_paper, source, lines), _by_word(by_paper, by_word, source, lines, renumber)


def _sources(
    by_paper: Parts,
    ids: Sequence[str],
    changes: Mapping[str, Any],
    order: Sequence[str],
    width: int,
) -> tuple[Any, dict[int, tuple[Any, Any]]]:
    """Each new row's old row (``-1``: a new row), and the new rows' ``(positions, values)``."""
    import numpy as np

    row_of = {pid: i for i, pid in enumerate(ids)}
    source = np.full(len(order), -1, np.int64)
    lines: dict[int, tuple[Any, Any]] = {}
    for j, pid in enumerate(order):
        if changes.get(pid) is not None:
            lines[j] = line_of(changes[pid], width, pid)
        elif pid in changes or pid not in row_of:
            raise KeyError(f"no row for {pid}")
        else:
            source[j] = row_of[pid]
    for j in _moved(source):
        begin, end = int(by_paper[2][source[j]]), int(by_paper[2][source[j] + 1])
        lines[j] = (by_paper[1][begin:end], by_paper[0][begin:end])
        source[j] = -1
    return source, lines


def _moved(source: Any) -> list[int]:
    """The new rows of kept papers outside the longest run of old rows in increasing
    order: these papers changed places with others, so they are written again."""
    import numpy as np

    kept = np.flatnonzero(source >= 0)
    if len(kept) < 2 or bool(np.all(np.diff(source[kept]) > 0)):
        return []
    # Patience sorting: tails[k] is the smallest last old row of an increasing run of k + 1.
    tails: list[int] = []
    tail_at: list[int] = []
    before = [-1] * len(kept)
    for n, old in enumerate(source[kept].tolist()):
        k = bisect_left(tails, old)
        before[n] = tail_at[k - 1] if k else -1
        if k == len(tails):
            tails.append(old)
            tail_at.append(n)
        else:
            tails[k], tail_at[k] = old, n
    stay = set()
    n = tail_at[-1]
    while n >= 0:
        stay.add(n)
        n = before[n]
    return [int(kept[n]) for n in range(len(kept)) if n not in stay]


def _by_paper(old: Parts, source: Any, lines: dict[int, tuple[Any, Any]]) -> Parts:
    """The matrix by paper: runs of old rows copied whole, the new rows put between them."""
    import numpy as np

    values, at, start = old
    sizes = np.zeros(len(source), np.int64)
    stays = source >= 0
    sizes[stays] = start[source[stays] + 1] - start[source[stays]]
    for j, (cells, _) in lines.items():
        sizes[j] = len(cells)
    starts = np.zeros(len(source) + 1, np.int64)
    np.cumsum(sizes, out=starts[1:])
    out_values = np.empty(int(starts[-1]), "<f4")
    out_at = np.empty(int(starts[-1]), "<i4")
    # A run begins where a row's old row does not follow the row before's.
    follows = np.zeros(len(source), bool)
    follows[1:] = stays[1:] & stays[:-1] & (source[1:] == source[:-1] + 1)
    for first, last in _runs(np.flatnonzero(stays & ~follows), follows):
        begin, end = int(start[source[first]]), int(start[source[last] + 1])
        out_values[starts[first] : starts[last + 1]] = values[begin:end]
        out_at[starts[first] : starts[last + 1]] = at[begin:end]
    for j, (cells, weights) in lines.items():
        out_values[starts[j] : starts[j + 1]] = weights
        out_at[starts[j] : starts[j + 1]] = cells
    return out_values, out_at, starts


def _runs(firsts: Any, follows: Any) -> list[tuple[int, int]]:
    """``(first, last)`` row of each run beginning at ``firsts`` (``follows``: the row
    continues the run before it)."""
    import numpy as np

    ends = np.append(np.flatnonzero(~follows[1:]), len(follows) - 1)
    lasts = ends[np.searchsorted(ends, firsts)]
    return list(zip(firsts.tolist(), lasts.tolist(), strict=True))


def _by_word(
    by_paper: Parts, old: Parts, source: Any, lines: dict[int, tuple[Any, Any]], renumber: Any
) -> Parts:
    """The matrix by word: the gone rows' cells left out, the new rows' cells inserted in
    their columns in row order, the kept cells' rows renumbered."""
    import numpy as np

    values, at, start = old
    width = len(start) - 1
    gone = np.flatnonzero(renumber < 0)
    sizes = by_paper[2][gone + 1] - by_paper[2][gone]
    gone_columns = _cells_of(by_paper, gone)
    dropped = np.sort(_positions(old, gone_columns, np.repeat(gone, sizes), right=False))
    new_rows = np.fromiter(lines, np.int64, len(lines))
    line_sizes = np.fromiter((len(c) for c, _ in lines.values()), np.int64, len(lines))
    columns = _joined([c for c, _ in lines.values()], np.int64)
    weights = _joined([w for _, w in lines.values()], np.float32)
    rows = np.repeat(new_rows, line_sizes)
    # The old row of the last kept row before each new one: its cells go after that row's.
    kept_before = np.maximum.accumulate(np.where(source >= 0, source, -1))
    places = _positions(old, columns, kept_before[rows], right=True)
    order = np.lexsort((rows, columns, places))
    places, columns, rows, weights = places[order], columns[order], rows[order], weights[order]
    counts = np.diff(start) - np.bincount(gone_columns, minlength=width)
    counts += np.bincount(columns, minlength=width)
    starts = np.zeros(width + 1, np.int64)
    np.cumsum(counts, out=starts[1:])
    out_values = np.empty(int(starts[-1]), "<f4")
    out_at = np.empty(int(starts[-1]), "<i4")
    # Each inserted cell goes before the old cell at its place: shifted by the cells
    # dropped before that place and by the cells inserted before it.
    put = places - np.searchsorted(dropped, places) + np.arange(len(places))
    out_values[put], out_at[put] = weights, rows
    kept = np.ones(len(at), bool)
    kept[dropped] = False
    # The kept cells fill the rest in order, a block of old cells at a time (no array of
    # every cell beside the matrices).
    for begin in range(0, len(at), CHUNK):
        end = min(begin + CHUNK, len(at))
        bounds = np.array([begin, end])
        to = bounds - np.searchsorted(dropped, bounds) + np.searchsorted(places, bounds)
        free = np.ones(int(to[1] - to[0]), bool)
        free[put[(put >= to[0]) & (put < to[1])] - to[0]] = False
        here = kept[begin:end]
        out_values[to[0] : to[1]][free] = values[begin:end][here]
        out_at[to[0] : to[1]][free] = renumber[at[begin:end][here]]
    return out_values, out_at, starts


def _cells_of(matrix: Parts, rows: Any) -> Any:
    """The positions of every cell of ``rows`` of ``matrix``, row after row."""
    import numpy as np

    _, at, start = matrix
    return _joined([at[start[i] : start[i + 1]] for i in rows.tolist()], np.int64)


def _joined(arrays: list[Any], kind: Any) -> Any:
    """``arrays`` end to end, as ``kind`` (an empty array for none)."""
    import numpy as np

    return np.concatenate(arrays).astype(kind) if arrays else np.zeros(0, kind)


def _positions(matrix: Parts, lines: Any, keys: Any, *, right: bool) -> Any:
    """For each line of ``matrix`` and key, where the key falls among the line's positions
    (sorted): before the equal ones, or after them (``right``). A bisection of all at once."""
    import numpy as np

    _, at, start = matrix
    low, high = start[lines].astype(np.int64), start[lines + 1].astype(np.int64)
    while True:
        open_ = low < high
        if not open_.any():
            return low
        middle = (low + high) // 2
        seen = at[np.where(open_, middle, 0)]
        up = open_ & ((seen <= keys) if right else (seen < keys))
        low = np.where(up, middle + 1, low)
        high = np.where(open_ & ~up, middle, high)
