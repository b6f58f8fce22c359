"""Posting lists and field lengths read straight from Whoosh's codec, a block at a time.

The one place that reads Whoosh's private codec attributes (``W3LeafMatcher._data``,
``_read_data``, ``_next_block``, the reader's per-document lengths column): one unpickle
per 128 postings instead of a Python call per posting. Any other codec or reader is
read through Whoosh's public matcher API, or refused with :class:`Unsupported` so the
caller asks Whoosh itself. :mod:`~index_builder.search.scoring` scores what this reads.

An index changed in place (:mod:`~index_builder.search.in_place`) has several segments
and deleted documents: each segment is read on its own (its document numbers shifted by
its base) and a segment's deleted documents are dropped after its blocks are read.
"""

from __future__ import annotations

from array import array
from itertools import accumulate
from typing import Any

from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.matching.wrappers import FilterMatcher
from whoosh.reading import TermNotFound
from whoosh.util.numeric import byte_to_length

LENGTH_OF_BYTE = [byte_to_length(b) if b else 1 for b in range(256)]
"""The field length each stored length byte stands for (Whoosh's lossy encoding)."""


class Unsupported(Exception):
    """A query shape or index this package does not evaluate; the caller asks Whoosh instead."""


def postings(reader: Any, field: str, text: str) -> tuple[array[int], list[float]]:
    """The documents of a term and its weight (frequency) in each, in document order."""
    if reader.is_atomic():
        return _leaf_postings(reader, field, text)
    ids: array[int] = array("I")
    weights: list[float] = []
    for leaf, base in reader.leaf_readers():
        leaf_ids, leaf_weights = _leaf_postings(leaf, field, text)
        ids.extend(d + base for d in leaf_ids)
        weights.extend(leaf_weights)
    return ids, weights


def _matcher(reader: Any, field: str, text: str) -> tuple[Any, Any]:
    """A segment's matcher for a term, unwrapped from its deletions filter, and those
    deleted documents (``None`` when it has none)."""
    m = reader.postings(field, text)
    if type(m) is FilterMatcher and m._exclude and type(m.child) is W3LeafMatcher:
        return m.child, m._ids
    return m, None


def _leaf_postings(reader: Any, field: str, text: str) -> tuple[array[int], list[float]]:
    ids: array[int] = array("I")
    weights: list[float] = []
    try:
        m, deleted = _matcher(reader, field, text)
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
    if deleted:
        kept = [i for i, d in enumerate(ids) if d not in deleted]
        return array("I", [ids[i] for i in kept]), [weights[i] for i in kept]
    return ids, weights


def posting_values(reader: Any, field: str, text: str, docs: set[int]) -> dict[int, bytes]:
    """The raw posting values (encoded positions) of a term for ``docs`` (live documents)."""
    found: dict[int, bytes] = {}
    for leaf, base in reader.leaf_readers():
        try:
            m, _ = _matcher(leaf, field, text)
        except TermNotFound:
            continue
        if type(m) is not W3LeafMatcher:
            raise Unsupported("another codec")
        while m.is_active():
            m._read_data()
            raw_ids = m._data[0]
            ids = raw_ids if m._byteids else accumulate(raw_ids)
            for d, value in zip(ids, m._data[2], strict=True):
                if d + base in docs:
                    found[d + base] = value
            m._next_block()
    return found


def field_lengths(reader: Any, field: str, doc_count: int) -> bytes:
    """One length byte per document (see :data:`LENGTH_OF_BYTE`), read in one go."""
    raw = b""
    for leaf, base in reader.leaf_readers():
        raw += bytes(max(0, base - len(raw)))
        try:
            col = leaf._perdoc._cached_reader(_lenfield(field), LENGTHS_COLUMN)
            if col is not None:
                raw += bytes(col._dbfile.get(col._basepos, col._count))
        except AttributeError as error:  # another codec or reader: let Whoosh score
            raise Unsupported("lengths column") from error
    return raw + bytes(max(0, doc_count - len(raw)))
