"""Whoosh's segment writer, made cheaper where it repeats work (same files, same bytes).

When a segment is written, Whoosh asks the length of the field in the document of every
posting (for the block statistics), one column look-up per posting: a sixth of a build's
time. :func:`fast_lengths` makes the writer read each field's length column once.
:func:`report_commit` reports progress while the commit writes the postings (more than
half of a build), which otherwise showed as a bar stuck near its end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any

from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield
from whoosh.util.numeric import byte_to_length

ADDING_SHARE = 0.4
"""The part of a build's progress given to adding documents; the commit gets the rest."""
_LENGTH = [byte_to_length(b) if b else 0 for b in range(256)]


class ColumnLengths:
    """``doc_field_length`` from whole length columns, read once per field.

    Wraps the per-document reader Whoosh passes to ``FieldWriter.add_postings`` (which
    uses nothing else of it); falls back to the reader for anything unexpected.
    """

    def __init__(self, reader: Any) -> None:
        self._reader = reader
        self._fields: dict[str, bytes | None] = {}

    def _column(self, fieldname: str) -> bytes | None:
        if fieldname not in self._fields:
            raw: bytes | None = None
            try:
                col = self._reader._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
                if col is not None:
                    raw = bytes(col._dbfile.get(col._basepos, col._count))
            except AttributeError:  # another codec: ask the reader per document
                raw = None
            self._fields[fieldname] = raw
        return self._fields[fieldname]

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> int:
        """The length of ``fieldname`` in ``docnum``, as the reader would give it."""
        raw = self._column(fieldname)
        if raw is None or docnum >= len(raw):
            return int(self._reader.doc_field_length(docnum, fieldname, default))
        return _LENGTH[raw[docnum]] or default

    def close(self) -> None:
        """Close the wrapped reader."""
        self._reader.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)


def fast_lengths(writer: Any) -> Any:
    """Make ``writer`` (a Whoosh ``SegmentWriter``) look lengths up by whole columns."""
    per_document_reader = writer.per_document_reader

    def reader() -> Any:
        return ColumnLengths(per_document_reader())

    writer.per_document_reader = reader
    return writer


def report_commit(
    writer: Any, progress: Callable[[int, int], None], total: int, start: float
) -> None:
    """Call ``progress`` (from ``start`` of ``total`` to just short of it) as postings go out.

    The number of postings is exact when the pool holds them in one run, else estimated
    from the runs written (each about the size of the pool).
    """
    pool = writer.pool
    items = pool.iter_postings

    def iter_postings() -> Iterator[Any]:
        count = max(1, len(pool.current) * (len(pool.runs) + 1))
        step = max(1, count // 100)
        source, sent = iter(items()), 0
        while chunk := list(islice(source, step)):
            yield from chunk
            sent += len(chunk)
            share = start + (1 - start) * min(1.0, sent / count)
            progress(min(total - 1, int(total * share)), total)

    pool.iter_postings = iter_postings
