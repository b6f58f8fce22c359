"""The segment's terms table, written a field at a time: rows made with numpy, one write.

The table is Whoosh's ``OrderedHashWriter`` (``whoosh.filedb.filetables``): a row a term
(its lengths, the field's number and the term's bytes as the key, the term info as the
value), the rows' positions, and 256 hash tables of the keys' MD5s. Its own ``add`` is
a call per term and four writes; here a field's term infos are packed at once
(:func:`term_infos`), its rows laid out in one buffer (:func:`add_rows`), and each hash
table written at once (:func:`write_hashes`). The bytes are Whoosh's
(``tests/core/search/test_term_table.py``). Used by :mod:`index_builder.search.segment`
after the shares are joined, on the build's serial path.
"""

from __future__ import annotations

import hashlib
import importlib
import struct
from collections.abc import Callable, Sequence
from itertools import chain, starmap
from operator import lt
from typing import Any

from whoosh.codec.whoosh3 import W3TermInfo
from whoosh.filedb.filetables import md5_hash

_ROW_LENGTHS = struct.Struct("!ii")
"""A hash table row's key and value lengths (``whoosh.filedb.filetables``)."""
_POINTER = struct.Struct("!Iq")
"""A hash table slot: a key's hash and where its row starts (``filetables._pointer``)."""
_INFO_FIELDS = ("flags", "weight", "df", "minlen", "maxlen", "maxweight", "minid", "maxid")
_INFO_TYPES = ("u1", ">f4", ">u4", "u1", "u1", ">f4", ">u4", ">u4")
if W3TermInfo._struct.format not in ("!BfIBBfII", b"!BfIBBfII"):  # the layout mirrored here
    raise ImportError(f"unknown term info layout {W3TermInfo._struct.format!r}")


def _md5_of_bytes() -> Callable[[bytes], Any]:
    """CPython's own MD5 (``_md5``): on a key's few bytes half the cost of hashlib's
    (OpenSSL's) a call; hashlib's where the build left it out. The same digests."""
    try:
        found: Callable[[bytes], Any] = importlib.import_module("_md5").md5
        return found
    except ImportError:
        return hashlib.md5


md5 = _md5_of_bytes()
"""The MD5 of a key (:func:`_md5_of_bytes`)."""


INFO_SIZE = W3TermInfo._struct.size + 8 + 4
"""Bytes of a term info row: the statistics, the blocks' offset (8) and length (4)."""


def term_infos(stats: Sequence[Sequence[float]], offset: int, lengths: Sequence[int]) -> bytes:
    """The term info of each term, one after the other (:data:`INFO_SIZE` bytes each): the
    first seven of its statistics (total weight, document frequency, least and greatest
    length byte, greatest weight, first and last document), then where its blocks start
    (the first term's at ``offset``, each term's after the one before) and their length."""
    import numpy as np

    layout = [*zip(_INFO_FIELDS, _INFO_TYPES, strict=True), ("offset", ">i8"), ("length", ">i4")]
    count = len(stats)
    rows = np.zeros(count, dtype=np.dtype(layout))
    if not count:
        return b""
    if isinstance(stats, np.ndarray):  # already a row a term (a share's columns)
        columns = stats.astype(np.float64, copy=False)
    else:  # read flat from one iterator: a third faster than numpy reading a tuple a term
        width = len(stats[0])
        flat = chain.from_iterable(stats)
        columns = np.fromiter(flat, dtype=np.float64, count=count * width).reshape(count, width)
    for k, name in enumerate(_INFO_FIELDS[1:]):
        rows[name] = columns[:, k]
    sizes = np.array(lengths, dtype=np.int64)
    rows["length"] = sizes
    rows["offset"] = offset + np.cumsum(sizes) - sizes
    return rows.tobytes()


def key_hashes(prefix: bytes, terms: Sequence[bytes]) -> list[int]:
    """The hash (``filetables.md5_hash``) of each term's key in the terms table: its
    field's number (``prefix``), then its bytes."""
    return [int.from_bytes(md5(prefix + term).digest()[-4:], "big") for term in terms]


def add_rows(
    table: Any, keys: list[bytes], values: bytes, size: int, hashes: list[int] | None = None
) -> None:
    """``OrderedHashWriter.add`` of each key with its value (``size`` bytes each, one
    after the other in ``values``), in one write: keys must increase. ``hashes``: each
    key's hash by the table's function, when known (:func:`key_hashes`)."""
    import numpy as np

    count = len(keys)
    if not count:
        return
    if keys[0] <= table.lastkey or not all(map(lt, keys, keys[1:])):
        raise ValueError(f"keys must increase after {table.lastkey!r}")
    if len(values) != count * size:
        raise ValueError("a value is not of the given size")
    dbfile = table.dbfile
    key_sizes = np.fromiter(map(len, keys), dtype=np.int64, count=count)
    row_sizes = _ROW_LENGTHS.size + key_sizes + size
    starts = np.cumsum(row_sizes) - row_sizes
    out = np.empty(int(starts[-1] + row_sizes[-1]), dtype=np.uint8)
    heads = np.empty((count, 2), dtype=">i4")
    heads[:, 0], heads[:, 1] = key_sizes, size
    out[starts[:, None] + np.arange(_ROW_LENGTHS.size)] = heads.view(np.uint8).reshape(count, -1)
    key_bytes = np.frombuffer(b"".join(keys), dtype=np.uint8)
    key_starts = np.cumsum(key_sizes) - key_sizes
    out[
        np.repeat(starts + _ROW_LENGTHS.size - key_starts, key_sizes) + np.arange(key_bytes.size)
    ] = key_bytes
    value_starts = starts + _ROW_LENGTHS.size + key_sizes
    out[value_starts[:, None] + np.arange(size)] = np.frombuffer(values, np.uint8).reshape(
        count, size
    )
    positions = dbfile.tell() + starts
    if hashes is None:
        hashes = list(map(_md5_low32 if table.hashfn is md5_hash else table.hashfn, keys))
    _add_to_buckets(table.buckets, np.array(hashes, dtype=np.int64), positions)
    positions = positions.tolist()
    index = table.index
    try:
        index.array.fromlist(positions)  # unchanged when one does not fit its type
    except (OverflowError, AttributeError):
        index.extend(positions)  # one at a time, its type widened as needed
    dbfile.write(out.tobytes())
    table.lastkey = keys[-1]


def _add_to_buckets(buckets: list[list[tuple[int, int]]], hashes: Any, positions: Any) -> None:
    """Each ``(hash, position)`` appended to the bucket of its hash's low byte, in order."""
    import numpy as np

    low = hashes & 255
    order = np.argsort(low, kind="stable")
    bounds = np.searchsorted(low[order], np.arange(257)).tolist()
    hashes, positions = hashes[order].tolist(), positions[order].tolist()
    for bucket, lo, hi in zip(buckets, bounds, bounds[1:], strict=False):
        if hi > lo:
            bucket.extend(zip(hashes[lo:hi], positions[lo:hi], strict=True))


def write_hashes(table: Any) -> None:
    """``HashWriter._write_hashes``, the 256 hash tables written when the terms table
    closes: the same slots (linear probing from the same start), one write a table
    instead of one a slot (200,000 writes at 6,630 papers)."""
    dbfile = table.dbfile
    null = (0, 0)  # never a row: no row starts at position 0 (the header is there)
    for entries in table.buckets:
        numslots = 2 * len(entries)
        table.directory.append((dbfile.tell(), numslots))
        slots = [null] * numslots
        for entry in entries:
            slot = (entry[0] >> 8) % numslots
            while slots[slot] is not null:
                slot = (slot + 1) % numslots
            slots[slot] = entry
        dbfile.write(b"".join(starmap(_POINTER.pack, slots)))


def _md5_low32(key: bytes) -> int:
    """``filetables.md5_hash``: the low 32 bits of the key's MD5, read from its bytes."""
    return int.from_bytes(md5(key).digest()[-4:], "big")
