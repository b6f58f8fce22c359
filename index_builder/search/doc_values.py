"""The per-document values of a share (stored fields, field lengths), made where it is gathered.

Whoosh's per-document writer takes one call per field of each document: the stored
fields are pickled and compressed, each length becomes a byte written to its column one
``write`` at a time. A split build (:mod:`~index_builder.search.parallel`) wrote them all
in the parent after the shares were gathered, on the build's serial path. Here each share
makes its documents' column values as it gathers them (:class:`DocValues`: the stored
column's compressed pickles, one length byte a document for each field), and
:func:`write_values` appends a whole share to the codec's columns in a few writes: the
same column bytes (``tests/core/search/test_segment.py`` compares the files with
Whoosh's), the same field totals.
"""

from __future__ import annotations

import zlib
from collections import Counter
from pickle import dumps
from typing import Any

from whoosh.codec.whoosh3 import LENGTHS_COLUMN, STORED_COLUMN, W3PerDocWriter, _lenfield
from whoosh.columns import CompressedBytesColumn, NumericColumn, PickleColumn
from whoosh.util.numeric import length_to_byte

_STORED_LEVEL = STORED_COLUMN._child._level
"""The zlib level of the stored fields' column (``PickleColumn(CompressedBytesColumn())``)."""
_LENGTH_BYTES = bytes(length_to_byte(n) for n in range(256))
"""The length byte of each short length (a longer one asks ``length_to_byte``)."""


class DocValues:
    """The stored fields and field lengths of consecutive documents from ``docbase``."""

    def __init__(self, docbase: int = 0) -> None:
        self.docbase = docbase
        self.count = 0
        self.stored: list[bytes] = []
        """Each document's value in the stored fields' column (b"" when it stores none)."""
        self.lengths: dict[str, bytearray] = {}
        """A field's length byte of each document (0: none), for fields that have one;
        shorter than :attr:`count` when the last documents have none."""
        self.totals: Counter[str] = Counter()
        """Each field's total length over these documents."""

    def add(self, stored: dict[str, Any], lengths: list[tuple[str, int]]) -> None:
        """Add the next document: its stored fields and the lengths of its fields that have
        one (not 0), as ``PerDocumentWriter.add_field`` gets them, in the same order."""
        i = self.count
        self.stored.append(zlib.compress(dumps(stored, 2), _STORED_LEVEL) if stored else b"")
        for name, length in lengths:
            column = self.lengths.get(name)
            if column is None:
                column = self.lengths[name] = bytearray(i)
            elif len(column) < i:
                column.extend(bytes(i - len(column)))
            column.append(_LENGTH_BYTES[length] if length < 256 else length_to_byte(length))
            self.totals[name] += length
        self.count = i + 1

    def set_lengths(self, name: str, column: bytes, total: int) -> None:
        """Set field ``name``'s length byte of each of these documents at once (``column``:
        from the first, ending at the last that has one; ``total``: their sum), for a
        field whose lengths :meth:`add` was not given."""
        if column:
            self.lengths[name] = bytearray(column)
            self.totals[name] += total


def write_values(writer: Any, values: DocValues) -> None:
    """Append ``values`` (whose first document must be ``writer``'s next) to the columns of
    ``writer``, a ``SegmentWriter`` of the codec this package builds with."""
    perdoc = writer.perdocwriter
    start, count = values.docbase, values.count
    if start != writer.docnum or start != perdoc._doccount:
        raise ValueError(f"document {start} is not the writer's next ({writer.docnum})")
    if type(perdoc) is not W3PerDocWriter or perdoc._indoc:
        raise TypeError("not the whoosh3 codec's per-document writer between documents")
    if not count:
        return
    _append_stored(perdoc._get_column("_stored"), start, values.stored)
    for name in sorted(values.lengths):
        column = values.lengths[name]
        lenfield = _lenfield(name)
        if not perdoc._has_column(lenfield):
            perdoc._create_column(lenfield, LENGTHS_COLUMN)
        _append_lengths(perdoc._get_column(lenfield), start, column)
        perdoc._fieldlengths[name] += values.totals[name]
    perdoc._doccount = start + count
    perdoc._docnum = start + count - 1
    writer.docnum = start + count
    writer._added = True


def _append_stored(column: Any, start: int, stored: list[bytes]) -> None:
    """``VarBytesColumn.Writer.add`` of each document's value (empty ones too: the
    column's ``fill`` gives a document without a value a length of 0 there)."""
    if type(column) is not PickleColumn.Writer or type(column._child) is not (
        CompressedBytesColumn.Writer
    ):
        raise TypeError("the stored fields' column is not the whoosh3 codec's")
    child = column._child
    child.fill(start)
    offset = child._offset_base
    offsets = []
    for value in stored:
        offsets.append(offset)
        offset += len(value)
    child._dbfile.write(b"".join(stored))
    child._lengths.extend(map(len, stored))
    child._offsets.extend(offsets)
    child._offset_base = offset
    child._count = start + len(stored)


def _append_lengths(column: Any, start: int, lengths: bytearray) -> None:
    """``NumericColumn.Writer.add`` of each document's length byte. The column skips a
    default (0) byte, and writes those of the documents before one it adds (``fill``):
    it ends at its last byte that is not 0."""
    if type(column) is not NumericColumn.Writer or column._fixedlen != 1 or column._default:
        raise TypeError("a length column is not the whoosh3 codec's")
    written = lengths.rstrip(b"\0")
    if written:
        column.fill(start)
        column._dbfile.write(written)
        column._count = start + len(written)
