"""Posting lists and field lengths read straight from Whoosh's codec, a block at a time.

The one place that reads Whoosh's private codec attributes (``W3LeafMatcher._data``,
``_read_data``, ``_next_block``, the reader's per-document lengths column): one unpickle
per 128 postings instead of a Python call per posting. Any other codec or reader is
read through Whoosh's public matcher API, or refused with :class:`Unsupported` so the
caller asks Whoosh itself. :mod:`~index_builder.search.scoring` scores what this reads.
"""

from __future__ import annotations

from array import array
from itertools import accumulate
from typing import Any

from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.reading import TermNotFound
from whoosh.util.numeric import byte_to_length

LENGTH_OF_BYTE = [byte_to_length(b) if b else 1 for b in range(256)]
"""The field length each stored length byte stands for (Whoosh's lossy encoding)."""


class Unsupported(Exception):
    """A query shape or index this package does not evaluate; the caller asks Whoosh instead."""


def postings(reader: Any, field: str, text: str) -> tuple[array[int], list[float]]:
    """The documents of a term and its weight (frequency) in each, in document order."""
    ids: array[int] = array("I")
    weights: list[float] = []
    try:
        m = reader.postings(field, text)
    except TermNotFound:
        return ids, weights
    if type(m) is not W3LeafMatcher:
        while m.is_active():
            ids.append(m.id())
            weights.append(m.weight())
            m.next()
        return ids, weights
    # Block by block: one unpickle per 128 postings instead of a call per posting.
    while m.is_active():
        m._read_data()
        raw_ids, raw_weights = m._data[0], m._data[1]
        count = len(raw_ids)
        ids.extend(raw_ids if m._byteids else accumulate(raw_ids))
        if raw_weights is None:
            weights.extend([1.0] * count)
        elif isinstance(raw_weights, float):
            weights.extend([raw_weights] * count)
        else:
            weights.extend(raw_weights)
        m._next_block()
    return ids, weights


def posting_values(reader: Any, field: str, text: str, docs: set[int]) -> dict[int, bytes]:
    """The raw posting values (encoded positions) of a term for ``docs``."""
    m = reader.postings(field, text)
    found: dict[int, bytes] = {}
    if type(m) is not W3LeafMatcher:
        raise Unsupported("another codec")
    while m.is_active():
        m._read_data()
        raw_ids = m._data[0]
        ids = raw_ids if m._byteids else accumulate(raw_ids)
        for d, value in zip(ids, m._data[2], strict=True):
            if d in docs:
                found[d] = value
        m._next_block()
    return found


def field_lengths(reader: Any, field: str, doc_count: int) -> bytes:
    """One length byte per document (see :data:`LENGTH_OF_BYTE`), read in one go."""
    raw = b""
    try:
        col = reader._perdoc._cached_reader(_lenfield(field), LENGTHS_COLUMN)
        if col is not None:
            raw = bytes(col._dbfile.get(col._basepos, col._count))
    except AttributeError as error:  # another codec or reader: let Whoosh score
        raise Unsupported("lengths column") from error
    return raw + bytes(max(0, doc_count - len(raw)))
