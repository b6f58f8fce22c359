"""The codec's posting blocks, written without the codec's per-posting calls.

A term's postings (:class:`Postings`) are encoded as ``whoosh.codec.whoosh3`` writes them
(:func:`encode_columns`): the ``W3Bl`` tag, then blocks of up to :data:`BLOCK_LIMIT`
postings, each a length (negative for the last), a pickled info tuple and the pickled,
zlib-compressed ids (as gaps), weights and values. Used by
:mod:`index_builder.search.segment`; two shares' lists of a term are put end to end by
:mod:`~.term_columns`, the terms table is :mod:`~.term_table`'s.
"""

from __future__ import annotations

import struct
import zlib
from array import array
from operator import sub
from pickle import dumps
from typing import Any

from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC
from whoosh.system import _INT_SIZE, pack_int, pack_uint

TermStats = tuple[float, int, int, int, float, int, int, int]
"""A term's statistics as its term info holds them (total weight, document frequency,
least and greatest length byte, greatest weight, first and last document number), then
where its last block starts in its encoded blocks."""

BLOCK_LIMIT = 128
"""Postings per block, as the codec's default (``W3Codec(blocklimit=128)``)."""
COMPRESSION = 3
"""zlib level of a block, as the codec's default."""
BLOCK_PROTOCOL = 4
"""Pickle protocol of a block's ids, weights and values. The codec pickles with protocol
2, where each ``bytes`` value (a posting's positions) becomes a call of
``_codecs.encode`` on a text: 7 times slower to write, 14 times slower to read and
twice as large as protocol 4's byte strings. The codec's reader unpickles any protocol,
so the values read are the same; the block's info tuple (numbers only) keeps protocol 2."""
_SMALL_BLOCK = 100
"""A pickled block shorter than this is stored as it is (zlib saves a few bytes at most)."""
_FLOAT32 = struct.Struct("f")


def encode_positions(positions: list[int]) -> bytes:
    """``Positions.encode``: the count, then the pickled gaps between positions."""
    gaps = [positions[0], *map(sub, positions[1:], positions[:-1])]
    return pack_uint(len(positions)) + dumps(gaps, 2)


def encode_columns(
    ids: list[int],
    weights: list[float],
    values: list[bytes],
    lengths: list[int],
    fixed_size: int | None,
) -> tuple[bytes, TermStats]:
    """One term's blocks as the codec writes them, and its statistics, from its
    postings as columns (document numbers, weights, values and length bytes, in
    document order)."""
    count = len(ids)
    if count == 1:
        return encode_single(ids[0], weights[0], values[0], lengths[0], fixed_size)
    if count <= BLOCK_LIMIT:
        return _encode_one_block(ids, weights, values, lengths, fixed_size)
    out = [WHOOSH3_HEADER_MAGIC]
    written = len(WHOOSH3_HEADER_MAGIC)
    last_block = written
    total_weight = max_weight = 0.0
    for start in range(0, count, BLOCK_LIMIT):
        end = min(start + BLOCK_LIMIT, count)
        block_ids = ids[start:end]
        block_weights = array("f", weights[start:end])
        block_lengths = lengths[start:end]
        deltas = (block_ids[0], *map(sub, block_ids[1:], block_ids[:-1]))
        data = dumps(
            (deltas, _mini_weights(block_weights), _mini_values(values[start:end], fixed_size)),
            BLOCK_PROTOCOL,
        )
        comp = COMPRESSION if len(data) >= _SMALL_BLOCK else 0
        if comp:
            data = zlib.compress(data, comp)
        block_max_weight = max(weights[start:end])
        # A field's postings all have a length (scorable) or none does: the block's
        # shortest and longest lengths are the least and greatest length bytes.
        info = dumps(
            (
                end - start,
                block_ids[-1],
                block_max_weight,
                comp,
                min(block_lengths),
                max(block_lengths),
            ),
            2,
        )
        size = len(info) + len(data)
        out += (pack_int(-size if end == count else size), info, data)
        last_block = written
        written += _INT_SIZE + size
        total_weight += sum(block_weights)
        max_weight = max(max_weight, block_max_weight)
    stats = (
        total_weight,
        count,
        min(lengths),
        max(lengths),
        max_weight,
        ids[0],
        ids[-1],
        last_block,
    )
    return b"".join(out), stats


def _encode_one_block(
    ids: list[int],
    weights: list[float],
    values: list[bytes],
    lengths: list[int],
    fixed_size: int | None,
) -> tuple[bytes, TermStats]:
    """:func:`encode_columns` of a term whose postings fit one block (most terms with more
    than one): the same bytes, without the slices and the loop."""
    count = len(ids)
    block_weights = array("f", weights)
    deltas = (ids[0], *map(sub, ids[1:], ids[:-1]))
    blocks = (deltas, _mini_weights(block_weights), _mini_values(values, fixed_size))
    data = dumps(blocks, BLOCK_PROTOCOL)
    comp = COMPRESSION if len(data) >= _SMALL_BLOCK else 0
    if comp:
        data = zlib.compress(data, comp)
    top, shortest, longest = max(weights), min(lengths), max(lengths)
    info = dumps((count, ids[-1], top, comp, shortest, longest), 2)
    size = len(info) + len(data)
    head = len(WHOOSH3_HEADER_MAGIC)
    stats = (sum(block_weights), count, shortest, longest, top, ids[0], ids[-1], head)
    return b"".join((WHOOSH3_HEADER_MAGIC, pack_int(-size), info, data)), stats


def encode_single(
    docnum: int, weight: float, value: bytes, length: int, fixed_size: int | None
) -> tuple[bytes, TermStats]:
    """:func:`encode_columns` of a term in one document (small: rarely compressed)."""
    weight32 = _FLOAT32.unpack(_FLOAT32.pack(weight))[0]
    if fixed_size is None or fixed_size < 0:
        mini_value: Any = (value,) if value else ()
    else:
        mini_value = None if fixed_size == 0 else value
    data = dumps(((docnum,), None if weight32 == 1.0 else weight32, mini_value), BLOCK_PROTOCOL)
    comp = 0
    if len(data) >= _SMALL_BLOCK:
        comp, data = COMPRESSION, zlib.compress(data, COMPRESSION)
    info = dumps((1, docnum, weight, comp, length, length), 2)
    size = len(info) + len(data)
    head = len(WHOOSH3_HEADER_MAGIC)
    stats = (weight32, 1, length, length, weight, docnum, docnum, head)
    return b"".join((WHOOSH3_HEADER_MAGIC, pack_int(-size), info, data)), stats


def _mini_weights(weights: array[float]) -> Any:
    """A block's weights as the codec stores them: None if all 1.0, one float if all equal."""
    first = weights[0]
    if weights.count(first) == len(weights):
        return None if first == 1.0 else first
    return tuple(weights)


def _mini_values(values: list[bytes], fixed_size: int | None) -> Any:
    """A block's values as the codec stores them (by the format's fixed value size)."""
    if fixed_size is None or fixed_size < 0:
        return tuple(filter(None, values))
    if fixed_size == 0:
        return None
    return b"".join(values)
