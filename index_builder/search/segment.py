"""Writing a whole segment at once: the files Whoosh's writer makes, for a fraction of the work.

Whoosh's ``add_document`` runs every field through layers of generators, pickles each
posting into a pool, sorts half a million tuples and unpickles them again at commit, then
writes them one call per posting. Here a document's words are tokenized once however many
fields repeat them (the combined field repeats them all), the postings are gathered per
term in arrays, and each term's blocks are encoded in one pass in the codec's format
(``whoosh.codec.whoosh3``, pinned with the library): the same terms, postings, weights,
values, lengths and statistics, read back by Whoosh's own readers
(``tests/core/search/test_segment.py`` compares every one with Whoosh's writer). Two
things differ in the bytes, not in what is read: a block too small to shrink is stored
uncompressed (its header says so, as the format allows), and equal position lists share
one pickled value.

Two builders can split a build by documents (:mod:`index_builder.search.parallel`): each
gathers and encodes its share (``docbase`` numbers the second one's documents), and
:func:`join` puts a term's two posting lists end to end, block lists being allowed any
block sizes. Fast paths cover this schema's analyzers
(:class:`SearchTokenizer` with positions, :class:`CombinedTokenizer` with frequencies);
other fields go through the field's own ``index()``, once per distinct value. A schema
with columns, vectors or spelling words raises :class:`NotSupported`.
"""

from __future__ import annotations

import struct
import zlib
from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from operator import sub
from pickle import dumps
from typing import Any

from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC, W3TermInfo
from whoosh.formats import Frequency, Positions
from whoosh.system import _INT_SIZE, pack_int, pack_long, pack_uint, pack_ushort, unpack_int
from whoosh.util.numeric import length_to_byte

from index_builder.search.documents import PART_BOOSTS, PART_SEPARATOR
from index_builder.search.schema import CombinedTokenizer, SearchTokenizer, stem
from index_builder.search.words import positioned_words

Words = list[tuple[int, str]]
"""A value's words: ``(position, folded)``."""
Items = list[tuple[str, int, float, bytes]]
"""A field value's terms: ``(term, frequency, weight, encoded value)``."""
TermStats = tuple[float, int, int, int, float, int, int, int]
"""A term's statistics as its term info holds them (total weight, document frequency,
least and greatest length byte, greatest weight, first and last document number), then
where its last block starts in its encoded blocks."""
Encoded = list[tuple[bytes, bytes, TermStats]]
"""A field's terms, sorted: ``(term bytes, posting blocks, statistics)``."""
PerDoc = tuple[tuple[str, Any, int], ...]
"""A document's fields: ``(name, stored value or None, length)``."""
Progress = Callable[[int, int], None]

BLOCK_LIMIT = 128
"""Postings per block, as the codec's default (``W3Codec(blocklimit=128)``)."""
COMPRESSION = 3
"""zlib level of a block, as the codec's default."""
_SMALL_BLOCK = 100
"""A pickled block shorter than this is stored as it is (zlib saves a few bytes at most)."""
_TERM_INFO = W3TermInfo._struct
_FLOAT32 = struct.Struct("f")
_ROW_LENGTHS = struct.Struct("!ii")
"""A hash table row's key and value lengths (``whoosh.filedb.filetables``)."""


class NotSupported(ValueError):
    """The schema needs something this writer does not write (columns, vectors, spelling)."""


class _Term:
    """The postings of one term, in document order."""

    __slots__ = ("ids", "lengths", "values", "weights")

    def __init__(self) -> None:
        self.ids: array[int] = array("I")
        self.weights: array[float] = array("d")
        self.values: list[bytes] = []
        self.lengths = bytearray()
        """The length byte of the field in each posting's document (0: not scorable)."""


@dataclass
class Gathered:
    """A share of the documents, ready to write: per-document values, encoded terms, words."""

    docbase: int
    docs: list[PerDoc]
    terms: dict[str, Encoded]
    words: Counter[str]
    """How many of these documents use each word of the combined field (the vocabulary)."""


class SegmentBuilder:
    """Postings and per-document values of whole documents, gathered in memory.

    Documents are numbered from ``docbase`` (the second share of a split build).
    """

    def __init__(self, schema: Any, docbase: int = 0) -> None:
        self.schema = schema
        for name in schema.names():
            field = schema[name]
            if field.column_type or field.vector or field.separate_spelling():
                raise NotSupported(f"field {name!r} needs columns, vectors or spelling")
        self.docbase = docbase
        self.terms: dict[str, dict[str, _Term]] = {}
        self.docs: list[PerDoc] = []
        self.words: Counter[str] = Counter()
        self._positions_encoded: dict[tuple[int, ...], bytes] = {}
        self._frequency_encoded: dict[int, bytes] = {}
        self._generic: dict[tuple[str, str], Items] = {}

    # -- gathering ---------------------------------------------------------------------

    def add(self, doc: dict[str, str]) -> None:
        """Gather one document (field name -> value), as ``writer.add_document(**doc)``."""
        docnum = self.docbase + len(self.docs)
        tokenized: dict[str, Words] = {}

        def words_of(value: str) -> Words:
            found = tokenized.get(value)
            if found is None:
                found = tokenized[value] = positioned_words(value)
            return found

        per_doc = []
        for name in sorted(doc):
            value = doc[name]
            if value is None or name.startswith("_"):
                continue
            field = self.schema[name]
            analyzer, fmt = field.analyzer, field.format
            if type(analyzer) is SearchTokenizer and type(fmt) is Positions:
                items = self._positions(words_of(value), analyzer.stemming, fmt.field_boost)
            elif type(analyzer) is CombinedTokenizer and type(fmt) is Frequency:
                parts = [words_of(part) for part in value.split(PART_SEPARATOR)]
                self.words.update({w for words in parts for _, w in words})
                items = self._combined(parts, fmt.field_boost)
            else:
                items = self._generic_items(name, field, value)
            length = sum(item[1] for item in items) if field.scorable else 0
            if items:
                self._post(name, docnum, items, length_to_byte(length))
            per_doc.append((name, value if field.stored else None, length))
        self.docs.append(tuple(per_doc))

    def _post(self, name: str, docnum: int, items: Items, length_byte: int) -> None:
        terms = self.terms.get(name)
        if terms is None:
            terms = self.terms[name] = {}
        for term, _, weight, value in items:
            postings = terms.get(term)
            if postings is None:
                postings = terms[term] = _Term()
            postings.ids.append(docnum)
            postings.weights.append(weight)
            postings.values.append(value)
            postings.lengths.append(length_byte)

    def _positions(self, words: Words, stemming: bool, boost: float) -> Items:
        """As ``Positions.word_values``: positions per term, weight = frequency × boost."""
        positions: dict[str, list[int]] = {}
        for pos, folded in words:
            term = stem(folded) if stemming else folded
            found = positions.get(term)
            if found is None:
                positions[term] = [pos]
            else:
                found.append(pos)
        encoded = self._positions_encoded
        items: Items = []
        for term, found in positions.items():
            key = tuple(found)
            value = encoded.get(key)
            if value is None:
                value = _encode_positions(found)
                if len(found) <= 2:
                    encoded[key] = value
            items.append((term, len(found), len(found) * boost, value))
        return items

    def _combined(self, parts: list[Words], boost: float) -> Items:
        """As ``Frequency.word_values`` over :class:`CombinedTokenizer`'s weighted parts."""
        freqs: dict[str, int] = {}
        weights: dict[str, float] = {}
        for words, part_boost in zip(parts, PART_BOOSTS, strict=False):
            for _, folded in words:
                term = stem(folded)
                freqs[term] = freqs.get(term, 0) + 1
                weights[term] = weights.get(term, 0.0) + part_boost
        encoded = self._frequency_encoded
        items: Items = []
        for term, freq in freqs.items():
            value = encoded.get(freq)
            if value is None:
                value = encoded[freq] = pack_uint(freq)
            items.append((term, freq, weights[term] * boost, value))
        return items

    def _generic_items(self, name: str, field: Any, value: str) -> Items:
        """The field's own ``index()`` (short values that repeat: asked once per value)."""
        key = (name, value)
        found = self._generic.get(key)
        if found is None:
            found = [
                (tbytes.decode("utf-8"), freq, weight, vbytes)
                for tbytes, freq, weight, vbytes in field.index(value)
            ]
            self._generic[key] = found
        return found

    # -- encoding ----------------------------------------------------------------------

    def gathered(self) -> Gathered:
        """Everything gathered, each field's terms encoded in term order (the arrays are freed)."""
        terms: dict[str, Encoded] = {}
        for name in sorted(self.terms):
            fixed_size = self.schema[name].format.fixed_value_size()
            postings = self.terms.pop(name)
            terms[name] = [
                (tbytes, *_encode_term(postings[term], fixed_size))
                for tbytes, term in sorted((term.encode("utf-8"), term) for term in postings)
            ]
        return Gathered(self.docbase, self.docs, terms, self.words)


def join(first: Gathered, second: Gathered) -> Gathered:
    """Two consecutive shares as one: a term in both gets the second's blocks after the first's.

    Consumes the shares' terms (field by field, so that they are not held twice)."""
    if second.docbase != first.docbase + len(first.docs):
        raise ValueError("the shares are not consecutive")
    terms: dict[str, Encoded] = {}
    for name in sorted(first.terms.keys() | second.terms.keys()):
        mine, theirs = first.terms.pop(name, []), second.terms.pop(name, [])
        merged: Encoded = []
        i = j = 0
        while i < len(mine) and j < len(theirs):
            if mine[i][0] < theirs[j][0]:
                merged.append(mine[i])
                i += 1
            elif theirs[j][0] < mine[i][0]:
                merged.append(theirs[j])
                j += 1
            else:
                merged.append(_join_term(mine[i], theirs[j]))
                i += 1
                j += 1
        merged += mine[i:]
        merged += theirs[j:]
        terms[name] = merged
    return Gathered(first.docbase, first.docs + second.docs, terms, first.words + second.words)


def _join_term(
    first: tuple[bytes, bytes, TermStats], second: tuple[bytes, bytes, TermStats]
) -> tuple[bytes, bytes, TermStats]:
    tbytes, data_a, (weight_a, df_a, min_a, max_a, top_a, first_id, _, last_a) = first
    _, data_b, (weight_b, df_b, min_b, max_b, top_b, _, last_id, last_b) = second
    # The first list's last block is no longer last: its length turns positive. The
    # second list's header tag is dropped (a posting list has one).
    size = -unpack_int(data_a[last_a : last_a + _INT_SIZE])[0]
    head = data_a[:last_a] + pack_int(size) + data_a[last_a + _INT_SIZE :]
    data = head + data_b[len(WHOOSH3_HEADER_MAGIC) :]
    stats = (
        weight_a + weight_b,
        df_a + df_b,
        min(min_a, min_b),
        max(max_a, max_b),
        max(top_a, top_b),
        first_id,
        last_id,
        len(head) + last_b - len(WHOOSH3_HEADER_MAGIC),
    )
    return tbytes, data, stats


def write(writer: Any, gathered: Gathered, progress: Progress | None = None) -> None:
    """Write ``gathered`` (every document, from 0) through ``writer``, a new
    ``SegmentWriter``, and commit it. ``progress(done, total)`` counts terms written."""
    if gathered.docbase:
        raise ValueError("a segment starts at document 0")
    schema = writer.schema
    perdoc = writer.perdocwriter
    for docnum, fields in enumerate(gathered.docs):
        perdoc.start_doc(docnum)
        for name, stored, length in fields:
            perdoc.add_field(name, schema[name], stored, length)
        perdoc.finish_doc()
    writer.docnum = len(gathered.docs)
    writer._added = bool(gathered.docs)
    fieldwriter = writer.fieldwriter
    postfile, table = fieldwriter._postfile, fieldwriter._tindex
    fieldmap = fieldwriter._fieldmap
    offset = postfile.tell()
    total, done = sum(len(terms) for terms in gathered.terms.values()), 0
    for name, terms in sorted(gathered.terms.items()):
        if not terms:
            continue
        prefix = pack_ushort(fieldmap.setdefault(name, len(fieldmap)))
        rows = []
        for tbytes, data, stats in terms:
            info = _TERM_INFO.pack(False, *stats[:7]) + pack_long(offset) + pack_int(len(data))
            rows.append((prefix + tbytes, info))
            offset += len(data)
        postfile.write(b"".join(data for _, data, _ in terms))
        _add_rows(table, rows)
        done += len(terms)
        if progress:
            progress(done, total)
    writer.commit(optimize=True)


def _add_rows(table: Any, rows: list[tuple[bytes, bytes]]) -> None:
    """``OrderedHashWriter.add`` for many rows, in one write: keys must increase."""
    dbfile = table.dbfile
    position = dbfile.tell()
    hashfn, buckets, index, last = table.hashfn, table.buckets, table.index, table.lastkey
    chunks: list[bytes] = []
    for key, value in rows:
        if key <= last:
            raise ValueError(f"keys must increase: {last!r}..{key!r}")
        index.append(position)
        h = hashfn(key)
        buckets[h & 255].append((h, position))
        chunks += (_ROW_LENGTHS.pack(len(key), len(value)), key, value)
        position += _ROW_LENGTHS.size + len(key) + len(value)
        last = key
    dbfile.write(b"".join(chunks))
    table.lastkey = last


def _encode_positions(positions: list[int]) -> bytes:
    """``Positions.encode``: the count, then the pickled gaps between positions."""
    gaps = [positions[0], *map(sub, positions[1:], positions[:-1])]
    return pack_uint(len(positions)) + dumps(gaps, 2)


def _encode_term(postings: _Term, fixed_size: int | None) -> tuple[bytes, TermStats]:
    """One term's blocks as the codec writes them, and its statistics."""
    ids, weights, values = postings.ids, postings.weights, postings.values
    lengths = postings.lengths
    count = len(ids)
    if count == 1:  # half the terms: the same bytes, without the loop
        return _encode_single(ids[0], weights[0], values[0], lengths[0], fixed_size)
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
            2,
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


def _encode_single(
    docnum: int, weight: float, value: bytes, length: int, fixed_size: int | None
) -> tuple[bytes, TermStats]:
    """:func:`_encode_term` of a term in one document (small: never compressed)."""
    weight32 = _FLOAT32.unpack(_FLOAT32.pack(weight))[0]
    if fixed_size is None or fixed_size < 0:
        mini_value: Any = (value,) if value else ()
    else:
        mini_value = None if fixed_size == 0 else value
    data = dumps(((docnum,), None if weight32 == 1.0 else weight32, mini_value), 2)
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
