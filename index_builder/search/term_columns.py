"""A field's encoded terms as a few columns: handed between processes and joined whole.

A share of a split build (:mod:`~index_builder.search.parallel`) encodes some 30,000
terms at 6,630 papers. Held as a tuple a term (its bytes, its blocks, a tuple of eight
statistics, its key's hash), the worker's share was pickled and unpickled object by
object, and the two shares were joined term by term, all on the build's path to its
end. :class:`FieldTerms` keeps a field's terms as five columns (the terms' bytes, every
term's blocks in one string, their sizes, the statistics as one array, the keys' hashes),
which pickle as a few buffers; :func:`join_fields` joins two shares' columns with a
few numpy operations and one pass over the terms. The blocks and statistics are those
a term at a time gave (``tests/core/search/test_segment.py``).

numpy is imported inside the functions: the build's processes alone use this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC
from whoosh.system import _INT_SIZE

from index_builder.search.blocks import TermStats

STATS_WIDTH = 8
"""Numbers in a term's statistics (:data:`~index_builder.search.blocks.TermStats`)."""
_MAGIC = len(WHOOSH3_HEADER_MAGIC)
_WEIGHT, _DF, _MINLEN, _MAXLEN, _TOP, _FIRST, _LAST, _LAST_BLOCK = range(STATS_WIDTH)


@dataclass
class FieldTerms:
    """A field's encoded terms in term order (by bytes), as columns."""

    texts: list[bytes]
    """Each term's bytes, increasing."""
    blocks: bytes
    """Every term's posting blocks, one term after the other."""
    sizes: Any
    """The length of each term's blocks (int64 array)."""
    stats: Any
    """Each term's statistics, a row of :data:`STATS_WIDTH` (float64 array: the
    numbers that are integers are exact there)."""
    hashes: Any = None
    """Each term's key hash in the terms table, once made (a list, or an int64 array
    after a join)."""


def field_terms(texts: list[bytes], encoded: Sequence[tuple[bytes, TermStats]]) -> FieldTerms:
    """The columns of terms ``texts`` (increasing) and their ``(blocks, statistics)``."""
    import numpy as np

    count = len(texts)
    blocks = [item[0] for item in encoded]
    flat = chain.from_iterable(item[1] for item in encoded)
    stats = np.fromiter(flat, dtype=np.float64, count=count * STATS_WIDTH)
    return FieldTerms(
        texts,
        b"".join(blocks),
        np.fromiter(map(len, blocks), dtype=np.int64, count=count),
        stats.reshape(count, STATS_WIDTH),
    )


def join_fields(first: FieldTerms, second: FieldTerms) -> FieldTerms:
    """A field's terms of two consecutive shares: a term in both gets the second's blocks
    after the first's (a posting list's blocks may have any sizes), its statistics
    combined. The hashes are kept where both shares made them."""
    import numpy as np

    if not second.texts:
        return first
    if not first.texts:
        return second
    later = dict(zip(second.texts, range(len(second.texts)), strict=True))
    mine = [i for i, text in enumerate(first.texts) if text in later]  # terms in both
    theirs = np.array([later.pop(first.texts[i]) for i in mine], dtype=np.int64)
    only = np.fromiter(later.values(), dtype=np.int64, count=len(later))  # increasing
    both = np.array(mine, dtype=np.int64)
    texts = first.texts + [second.texts[j] for j in only.tolist()]
    order = np.array(sorted(range(len(texts)), key=texts.__getitem__), dtype=np.int64)

    ends_a, ends_b = np.cumsum(first.sizes), np.cumsum(second.sizes)
    starts_a, starts_b = ends_a - first.sizes, ends_b - second.sizes
    # The first list's last block is no longer last: its length (negative) turns positive.
    patched = np.frombuffer(first.blocks, dtype=np.uint8).copy()
    at = starts_a[both] + first.stats[both, _LAST_BLOCK].astype(np.int64)
    cells = at[:, None] + np.arange(_INT_SIZE)
    patched[cells] = (
        (-patched[cells].view(">i4").ravel()).astype(">i4").view(np.uint8).reshape(-1, _INT_SIZE)
    )
    # Where each term's bytes come from: its first piece (the first share's blocks, or a
    # second-share-only term's), then for a term in both the second's blocks without
    # their header tag (a posting list has one). Pieces that follow each other in the
    # same share's string are copied as one.
    count, count_a = len(texts), len(first.texts)
    source = np.zeros((count, 2), dtype=np.int64)
    source[count_a:, 0] = 1
    source[:, 1] = 1
    start = np.zeros((count, 2), dtype=np.int64)
    end = np.zeros((count, 2), dtype=np.int64)
    start[:, 0] = np.concatenate((starts_a, starts_b[only]))
    end[:, 0] = np.concatenate((ends_a, ends_b[only]))
    start[both, 1] = starts_b[theirs] + _MAGIC
    end[both, 1] = ends_b[theirs]
    flat = [column[order].ravel() for column in (source, start, end)]
    used = np.flatnonzero(flat[2] > flat[1])
    source, start, end = (column[used] for column in flat)
    new = np.ones(len(used), dtype=bool)
    new[1:] = (source[1:] != source[:-1]) | (start[1:] != end[:-1])
    firsts = np.flatnonzero(new)
    lasts = np.append(firsts[1:], len(used)) - 1
    views = (patched.data, memoryview(second.blocks))
    pieces = [
        views[k][a:b]
        for k, a, b in zip(
            source[firsts].tolist(), start[firsts].tolist(), end[lasts].tolist(), strict=True
        )
    ]

    sizes = np.concatenate((first.sizes, second.sizes[only]))
    sizes[both] += second.sizes[theirs] - _MAGIC
    stats = np.concatenate((first.stats, second.stats[only]))
    a, b = stats[both], second.stats[theirs]
    stats[both] = np.column_stack(
        (
            a[:, _WEIGHT] + b[:, _WEIGHT],
            a[:, _DF] + b[:, _DF],
            np.minimum(a[:, _MINLEN], b[:, _MINLEN]),
            np.maximum(a[:, _MAXLEN], b[:, _MAXLEN]),
            np.maximum(a[:, _TOP], b[:, _TOP]),
            a[:, _FIRST],
            b[:, _LAST],
            first.sizes[both] + b[:, _LAST_BLOCK] - _MAGIC,
        )
    )
    hashes = None
    if first.hashes is not None and second.hashes is not None:
        hashes = np.concatenate((first.hashes, np.asarray(second.hashes)[only]))[order]
    return FieldTerms(
        [texts[k] for k in order.tolist()],
        b"".join(pieces),
        sizes[order],
        stats[order],
        hashes,
    )
