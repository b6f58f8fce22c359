"""Writing a whole segment at once: the files Whoosh's writer makes, for a fraction of the work.

Whoosh's ``add_document`` runs every field through layers of generators, pickles each
posting into a pool, sorts half a million tuples and unpickles them again at commit, then
writes them one call per posting. Here a document's words are tokenized once however many
fields repeat them (the combined field repeats them all), the postings are gathered per
term in arrays, and each term's blocks are encoded in one pass in the codec's format
(:mod:`~index_builder.search.blocks`; ``whoosh.codec.whoosh3``, pinned with the library):
the same terms, postings, weights,
values, lengths and statistics, read back by Whoosh's own readers
(``tests/core/search/test_segment.py`` compares every one with Whoosh's writer). Three
things differ in the bytes, not in what is read: a block too small to shrink is stored
uncompressed (its header says so, as the format allows), equal position lists share
one pickled value, and a block's postings are pickled with protocol 4, not 2
(:data:`~index_builder.search.blocks.BLOCK_PROTOCOL`).

Two builders can split a build by documents (:mod:`index_builder.search.parallel`): each
gathers and encodes its share (``docbase`` numbers the second one's documents), makes its
documents' stored fields and lengths (:mod:`~index_builder.search.doc_values`) and hashes
its terms' keys for the terms table (:mod:`~index_builder.search.term_table`), and
:func:`join` puts a term's two posting lists end to end, block lists being allowed any
block sizes. Fast paths cover this schema's analyzers
(:class:`SearchTokenizer` with positions, :class:`CombinedTokenizer` with frequencies);
other fields go through the field's own ``index()``, once per distinct value. A schema
with columns, vectors or spelling words raises :class:`NotSupported`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from whoosh.filedb.filetables import md5_hash
from whoosh.formats import Frequency, Positions
from whoosh.system import pack_ushort

from index_builder.search.blocks import encode_columns, encode_single
from index_builder.search.by_value import ValuePostings
from index_builder.search.doc_values import DocValues, write_values
from index_builder.search.documents import PART_BOOSTS, PART_SEPARATOR
from index_builder.search.schema import CombinedTokenizer, SearchTokenizer
from index_builder.search.term_columns import FieldTerms, field_terms, join_fields
from index_builder.search.term_table import (
    INFO_SIZE,
    add_rows,
    key_hashes,
    term_infos,
    write_hashes,
)

Words = list[tuple[int, str]]
"""A value's words: ``(position, folded)``."""
Progress = Callable[[int, int], None]
_POSITIONS, _COMBINED, _GENERIC = "positions", "combined", "generic"
"""How :meth:`SegmentBuilder.add` gathers a field: words with positions, the combined
field's parts, or the field's own ``index()``."""


class NotSupported(ValueError):
    """The schema needs something this writer does not write (columns, vectors, spelling)."""


@dataclass
class Gathered:
    """A share of the documents, ready to write: per-document values, encoded terms, words."""

    docbase: int
    docs: list[DocValues]
    """The documents' stored fields and lengths, consecutive parts from ``docbase``."""
    terms: dict[str, FieldTerms]
    words: Counter[str]
    """How many of these documents use each word of the combined field (the vocabulary)."""
    numbers: dict[str, int]
    """The field number each field's terms were hashed with (-1: another for some);
    the segment numbers its fields with terms in name order (:func:`numbered`)."""


class SegmentBuilder:
    """Postings and per-document values of whole documents, gathered in memory.

    Documents are numbered from ``docbase`` (the second share of a split build). The
    tokenized fields' values are noted in :class:`~index_builder.search.columns.TextColumns`,
    tokenized together and grouped into postings at the end (their lengths set then); the
    other fields' terms are posted as they come.
    """

    def __init__(self, schema: Any, docbase: int = 0) -> None:
        from index_builder.search.columns import TextColumns

        self.schema = schema
        stemmed: dict[str, bool] = {}
        combined: list[str] = []
        for name in schema.names():
            field = schema[name]
            if field.column_type or field.vector or field.separate_spelling():
                raise NotSupported(f"field {name!r} needs columns, vectors or spelling")
            analyzer, fmt = field.analyzer, field.format
            if type(analyzer) is SearchTokenizer and type(fmt) is Positions:
                stemmed[name] = analyzer.stemming
            elif type(analyzer) is CombinedTokenizer and type(fmt) is Frequency:
                combined.append(name)
            else:
                continue
            if not field.scorable:
                raise NotSupported(f"field {name!r} is tokenized but not scorable")
        if len(combined) > 1:
            raise NotSupported(f"more than one combined field: {combined}")
        self.docbase = docbase
        self.columns = TextColumns(stemmed, combined[0] if combined else "", PART_BOOSTS)
        self.by_value = ValuePostings(schema)
        self.docs = DocValues(docbase)
        self._plan: dict[str, tuple[str, bool]] = {}
        for name in schema.names():
            self._plan_of(name)

    # -- gathering ---------------------------------------------------------------------

    def add(self, doc: dict[str, str]) -> None:
        """Gather one document (field name -> value), as ``writer.add_document(**doc)``."""
        docnum = self.docbase + self.docs.count
        columns = self.columns
        plan = self._plan
        stored: dict[str, str] = {}
        lengths: list[tuple[str, int]] = []
        for name in sorted(doc):
            value = doc[name]
            if value is None or name.startswith("_"):
                continue
            kind, keep = plan.get(name) or self._plan_of(name)
            if kind is _POSITIONS:  # tokenized with the share's other values at the end
                columns.add_value(name, docnum, value)
            elif kind is _COMBINED:
                columns.add_combined(docnum, value.split(PART_SEPARATOR))
            else:
                length = self.by_value.add(name, value, docnum)
                if length:
                    lengths.append((name, length))
            if keep:
                stored[name] = value
        self.docs.add(stored, lengths)

    def _plan_of(self, name: str) -> tuple[str, bool]:
        """How a field is gathered (:data:`_POSITIONS`, :data:`_COMBINED` or another
        kind) and whether it is stored; a dynamic field's too (kept once asked)."""
        field = self.schema[name]
        columns = self.columns
        kind = (
            _POSITIONS if name in columns.stemmed
            else _COMBINED if name == columns.combined
            else _GENERIC
        )  # fmt: skip
        found = self._plan[name] = (kind, bool(field.stored))
        return found

    # -- encoding ----------------------------------------------------------------------

    def gathered(self) -> Gathered:
        """Everything gathered, each field's terms encoded in term order (the arrays are freed)."""
        terms: dict[str, FieldTerms] = {}
        for name, postings in self.by_value.fields().items():
            fixed_size = self.schema[name].format.fixed_value_size()
            ranked = sorted((term.encode("utf-8"), term) for term in postings)
            terms[name] = field_terms(
                [tbytes for tbytes, _ in ranked],
                [encode_columns(*postings[term], fixed_size) for _, term in ranked],
            )
        columns = self.columns
        for name, (column, total) in columns.tokenize(self.docbase, self.docs.count).items():
            self.docs.set_lengths(name, column, total)
        for name in columns.fields():
            fmt = self.schema[name].format
            (texts, starts), (ids, weights, values, lengths) = columns.postings(
                name, fmt.field_boost
            )
            fixed_size = fmt.fixed_value_size()
            ends = [*starts[1:], len(ids)]
            terms[name] = field_terms([text.encode("utf-8") for text in texts], [
                encode_single(ids[a], weights[a], values[a], lengths[a], fixed_size)
                if b - a == 1  # most terms: no slices
                else encode_columns(
                    ids[a:b], weights[a:b], values[a:b], lengths[a:b], fixed_size
                )
                for a, b in zip(starts, ends, strict=True)
            ])  # fmt: skip
        words = columns.vocabulary() if columns.combined else Counter[str]()
        terms = dict(sorted(terms.items()))
        numbers = numbered(terms)
        for name, number in numbers.items():  # hashed here, on a share's core
            found = terms[name]
            found.hashes = key_hashes(pack_ushort(number), found.texts)
        return Gathered(self.docbase, [self.docs], terms, words, numbers)


def numbered(terms: dict[str, FieldTerms]) -> dict[str, int]:
    """The number of each field that has terms, as a new segment numbers them (in the
    order they are written: by name)."""
    return {
        name: k for k, name in enumerate(sorted(n for n, found in terms.items() if found.texts))
    }


def join(first: Gathered, second: Gathered) -> Gathered:
    """Two consecutive shares as one: a term in both gets the second's blocks after the first's.

    Consumes the shares' terms (field by field, so that they are not held twice)."""
    if second.docbase != first.docbase + sum(part.count for part in first.docs):
        raise ValueError("the shares are not consecutive")
    terms: dict[str, FieldTerms] = {}
    for name in sorted(first.terms.keys() | second.terms.keys()):
        mine, theirs = first.terms.pop(name, None), second.terms.pop(name, None)
        terms[name] = join_fields(mine, theirs) if mine and theirs else mine or theirs  # type: ignore[assignment]
    # What `+` gives (all counts positive), the words in the same order, without a
    # Python step for each word of one share only.
    words = Counter({**first.words, **second.words})
    for word in first.words.keys() & second.words.keys():
        words[word] = first.words[word] + second.words[word]
    numbers: dict[str, int] = {}
    for name in terms:  # the number both shares hashed a field's terms with, or -1
        found = {first.numbers.get(name, -2), second.numbers.get(name, -2)} - {-2}
        numbers[name] = found.pop() if len(found) == 1 else -1
    return Gathered(first.docbase, first.docs + second.docs, terms, words, numbers)


def write_docs(writer: Any, docs: list[DocValues]) -> None:
    """Write the per-document values (stored id, field lengths) of the parts of ``docs``
    not written yet (a part is written whole, from the writer's next document)."""
    for part in docs:
        if part.docbase >= writer.docnum:
            write_values(writer, part)
        elif part.docbase + part.count > writer.docnum:
            raise ValueError("a part of these documents was written in part")


def write(writer: Any, gathered: Gathered, progress: Progress | None = None) -> None:
    """Write ``gathered`` through ``writer``, a new ``SegmentWriter``, and commit it.

    Its documents are written from the writer's next one (:func:`write_docs` may have
    written the first ones already). ``progress(done, total)`` counts terms written."""
    if gathered.docbase > writer.docnum:
        raise ValueError("these documents do not follow those written")
    write_docs(writer, gathered.docs)
    fieldwriter = writer.fieldwriter
    postfile, table = fieldwriter._postfile, fieldwriter._tindex
    fieldmap = fieldwriter._fieldmap
    hashed = table.hashfn is md5_hash  # the hashes of the shares are md5_hash's
    offset = postfile.tell()
    total, done = sum(len(terms.texts) for terms in gathered.terms.values()), 0
    for name, terms in sorted(gathered.terms.items()):
        if not terms.texts:
            continue
        number = fieldmap.setdefault(name, len(fieldmap))
        prefix = pack_ushort(number)
        keys = [prefix + t for t in terms.texts]
        known = hashed and gathered.numbers.get(name) == number and terms.hashes is not None
        infos = term_infos(terms.stats, offset, terms.sizes)
        add_rows(table, keys, infos, INFO_SIZE, terms.hashes if known else None)
        postfile.write(terms.blocks)
        offset += len(terms.blocks)
        done += len(keys)
        if progress:
            progress(done, total)
    table._write_hashes = lambda: write_hashes(table)  # the same bytes, written at commit
    writer.commit(optimize=True)
