"""The tokenized fields of a share of documents as arrays: postings without a loop per word.

On real abstracts a build spends its time per word and per posting: a dictionary look-up,
an append, a stem, for each of two million postings at 6,628 papers. Here a share's
distinct values are tokenized together (:mod:`~index_builder.search.tokens`: one
regular expression pass, the words numbered in one C-level ``map``), and a field's
postings are grouped, counted and weighed with numpy sorts and reductions over the
whole share (:meth:`TextColumns.postings`); only the position lists of words that occur
more than once in a document, and each term's blocks, are made in Python. The terms,
postings, weights and values are exactly those Whoosh's writer makes
(``tests/core/search/test_segment.py``).

numpy is imported by the build alone, inside the functions (the index build runs in a child
or in the command line), never on the way to the app's first frame.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pickle import dumps
from typing import Any

from whoosh.system import pack_uint
from whoosh.util.numeric import length_to_byte

from index_builder.search.schema import stem
from index_builder.search.tokens import (
    BOUNDARY,
    BOUNDARY_NUMBER,
    EMPTY,
    SEPARATOR_NUMBER,
    ValueTokens,
    tokenize,
)
from index_builder.search.words import VALUE_SEPARATOR, fold_word

Column = tuple[list[int], list[float], list[bytes], list[int]]
"""A field's postings in term order: document numbers, weights, values, length bytes."""
TermRuns = tuple[list[str], list[int]]
"""A field's terms in byte order and where each one's postings start in its columns."""
_EMPTY = EMPTY


def load_numpy() -> None:
    """Import numpy now. A build forks its workers (the second share, the vectors) after
    this, and they share the parent's import instead of each making its own (about 0.1 s
    of CPU each on a quiet machine, more under load). ``numpy.ma`` too: ``np.unique``
    imports it on its first call, in each process that groups postings."""
    import numpy.ma  # noqa: F401


class TextColumns:
    """The words of every tokenized field of a share, numbered, with document and position.

    ``stemmed`` maps each positional field to whether it is stemmed; ``combined`` names
    the frequency field whose parts are weighted by ``part_boosts``. Values are noted
    document by document (:meth:`add_value`, :meth:`add_combined`) and tokenized all at
    once (:meth:`tokenize`, :mod:`~index_builder.search.tokens`), each distinct value once.
    """

    def __init__(self, stemmed: dict[str, bool], combined: str, part_boosts: Sequence[float]):
        self.stemmed = stemmed
        self.combined = combined
        self.part_boosts = tuple(part_boosts)
        self._number: dict[str, int] = {
            BOUNDARY: BOUNDARY_NUMBER,
            VALUE_SEPARATOR: SEPARATOR_NUMBER,
        }
        """Word as written -> word number (of its folded form); the separators' own."""
        self._folded_number: dict[str, int] = {"": _EMPTY}
        self.folded: list[str] = [""]
        """Word number -> folded word."""
        self._values: dict[str, int] = {}
        """A distinct value -> its number."""
        self._noted: dict[str, tuple[list[int], list[int]]] = {name: ([], []) for name in stemmed}
        """A positional field's documents and their values' numbers."""
        self._parts: tuple[list[int], list[int], list[int]] = ([], [], [])
        """The combined field's parts: document, place in the document, value number."""
        self._fields: dict[str, tuple[Any, Any, Any]] = {}
        """A tokenized field's words, their documents and positions (the combined
        field's: their weights)."""
        self._distinct: Any = None
        """The combined field's ``(document, word)`` pairs, each once."""
        self._term_tables: dict[bool, tuple[Any, list[str]]] = {}

    # -- gathering ---------------------------------------------------------------------

    def numbers(self, raw: list[str]) -> list[int]:
        """The word numbers of words as written (new words are numbered here)."""
        number = self._number
        found = list(map(number.get, raw))
        if None in found:
            for word in set(raw).difference(number):
                folded = fold_word(word)
                known = self._folded_number.get(folded)
                if known is None:
                    known = self._folded_number[folded] = len(self.folded)
                    self.folded.append(folded)
                number[word] = known
            found = list(map(number.__getitem__, raw))
        return found  # type: ignore[return-value]

    def _value(self, text: str) -> int:
        values = self._values
        found = values.get(text)
        if found is None:
            found = values[text] = len(values)
        return found

    def add_value(self, name: str, docnum: int, text: str) -> None:
        """Note document ``docnum``'s value of the positional field ``name``."""
        docs, values = self._noted[name]
        docs.append(docnum)
        values.append(self._value(text))

    def add_combined(self, docnum: int, parts: list[str]) -> None:
        """Note document ``docnum``'s parts of the combined field."""
        docs, places, values = self._parts
        docs += [docnum] * len(parts)
        places += range(len(parts))
        values += map(self._value, parts)

    def tokenize(self, docbase: int, count: int) -> dict[str, tuple[bytes, int]]:
        """Tokenize every value noted. Returns each field's length bytes of documents
        ``docbase`` to ``docbase + count - 1`` (words indexed: those that fold to nothing
        are left out; the bytes end at the last document with a length) and their total."""
        import numpy as np

        def column(docs: Any, lengths: Any) -> tuple[bytes, int]:
            has = lengths > 0
            docs, lengths = docs[has] - docbase, lengths[has]
            if not len(docs):
                return b"", 0
            table = [length_to_byte(n) for n in range(int(lengths.max()) + 1)]
            out = np.zeros(int(docs.max()) + 1, dtype=np.uint8)
            out[docs] = np.array(table, dtype=np.uint8)[lengths]
            return out.tobytes(), int(lengths.sum())

        tokens = tokenize(list(self._values), self.numbers)
        lengths: dict[str, tuple[bytes, int]] = {}
        for name, (doc_list, value_list) in self._noted.items():
            values = np.array(value_list, dtype=np.int64)
            docs = np.array(doc_list, dtype=np.int64)
            counts = tokens.counts[values]
            taken = tokens.take(values)
            self._fields[name] = (
                tokens.ids[taken],
                np.repeat(docs, counts),
                tokens.positions[taken],
            )
            lengths[name] = column(docs, counts - tokens.empty[values])
        if self.combined:
            lengths[self.combined] = column(*self._tokenize_combined(tokens))
        return lengths

    def _tokenize_combined(self, tokens: ValueTokens) -> tuple[Any, Any]:
        """The combined field's words and weights (parts past the weights' are not
        indexed), the pairs of the vocabulary; its documents with words and lengths."""
        import numpy as np

        docs, places, values = (np.array(column, dtype=np.int64) for column in self._parts)
        if not len(docs):
            return docs, docs
        counts = tokens.counts[values]
        weighed = places < len(self.part_boosts)
        # A document's words are those of its weighed parts; one without any has no
        # length, and its other parts count nowhere (the rule of the word-at-a-time path).
        totals = np.bincount(docs[weighed], counts[weighed], minlength=int(docs.max()) + 1)
        listed = np.flatnonzero(totals[docs] > 0)
        docs, places, values, counts = docs[listed], places[listed], values[listed], counts[listed]
        weighed = places < len(self.part_boosts)
        every = tokens.take(values)
        every_doc = np.repeat(docs, counts)
        taken = tokens.take(values[weighed])
        boosts = np.array(self.part_boosts, dtype=np.float64)[places[weighed]]
        self._fields[self.combined] = (
            tokens.ids[taken],
            np.repeat(docs[weighed], counts[weighed]),
            np.repeat(boosts, counts[weighed]),
        )
        self._distinct = distinct(every_doc * len(self.folded) + tokens.ids[every])
        if not len(docs):
            return docs, docs
        starts = np.flatnonzero(np.diff(docs, prepend=-1))
        words = np.add.reduceat(np.where(weighed, counts, 0), starts)
        return docs[starts], words - np.add.reduceat(tokens.empty[values], starts)

    # -- grouping ----------------------------------------------------------------------

    def fields(self) -> list[str]:
        """The fields that got words."""
        return [name for name, found in self._fields.items() if len(found[0])]

    def vocabulary(self) -> Counter[str]:
        """How many documents use each folded word of the combined field."""
        import numpy as np

        if self._distinct is None:
            return Counter()
        counts = np.bincount(self._distinct % len(self.folded), minlength=1)
        counts[_EMPTY] = 0
        folded = self.folded
        return Counter({folded[i]: int(counts[i]) for i in np.flatnonzero(counts).tolist()})

    def _terms(self, stemmed: bool) -> tuple[Any, list[str]]:
        """Word number -> term number, and the terms (stems or the folded words)."""
        import numpy as np

        found = self._term_tables.get(stemmed)
        if found is None:
            texts = list(map(stem, self.folded)) if stemmed else self.folded
            table: dict[str, int] = {}
            numbers = np.fromiter(map(table.setdefault, texts, range(len(texts))), np.int64)
            found = self._term_tables[stemmed] = (numbers, texts)
        return found

    def postings(self, name: str, boost: float) -> tuple[TermRuns, Column]:
        """A field's postings, grouped by term (in byte order), then document."""
        import numpy as np

        words, docs, extra = self._fields[name]
        keep = words != _EMPTY
        combined = name == self.combined
        term_of, texts = self._terms(stemmed=combined or self.stemmed[name])
        terms = term_of[words[keep]]
        docs = docs[keep]
        used = distinct(terms)
        listed = used.tolist()
        # Code point order is UTF-8 byte order (the order of the terms table): no encoding.
        ranked = sorted(range(len(listed)), key=[texts[i] for i in listed].__getitem__)
        rank = np.zeros(len(texts), dtype=np.int64)
        rank[used[ranked]] = np.arange(len(used))
        order = np.argsort(rank[terms], kind="stable")  # stable: documents stay in order
        keys, docs = rank[terms][order], docs[order]
        n = len(keys)
        first = np.ones(n, dtype=bool)
        first[1:] = (keys[1:] != keys[:-1]) | (docs[1:] != docs[:-1])
        starts = np.flatnonzero(first)
        freqs = np.diff(np.append(starts, n))
        posting_docs = docs[starts]
        lengths = np.bincount(docs - docs.min(), minlength=1) if n else np.zeros(1, np.int64)
        base = int(docs.min()) if n else 0
        length_bytes = np.array([length_to_byte(int(x)) for x in range(int(lengths.max()) + 1)])
        posting_lengths = length_bytes[lengths[posting_docs - base]]
        if combined:
            boosts = extra[keep][order]
            weights = np.add.reduceat(boosts, starts) * boost if n else np.zeros(0)
            packed = {f: pack_uint(f) for f in distinct(freqs).tolist()}
            values = list(map(packed.__getitem__, freqs.tolist()))
        else:
            weights = freqs * boost
            positions = extra[keep][order]
            values = _position_values(positions, starts, freqs)
        term_starts = np.flatnonzero(np.diff(keys[starts], prepend=-1))
        term_texts = [texts[listed[ranked[k]]] for k in keys[starts][term_starts].tolist()]
        column = (posting_docs.tolist(), weights.tolist(), values, posting_lengths.tolist())
        return (term_texts, term_starts.tolist()), column


def distinct(values: Any) -> Any:
    """The distinct numbers of ``values`` in increasing order, as ``np.unique`` gives them,
    by one sort: numpy 2's ``np.unique`` hashes them, 30 times slower on the 150,000
    words of a share's combined field (0.07-0.1 s against 2 ms, measured)."""
    import numpy as np

    ordered = np.sort(values)
    if len(ordered):
        ordered = ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]
    return ordered


def _position_values(positions: Any, starts: Any, freqs: Any) -> list[bytes]:
    """``Positions.encode`` of each posting: its count, then its pickled position gaps."""
    import numpy as np

    single = freqs == 1
    lone = positions[starts[single]].tolist()
    encoded = {p: pack_uint(1) + dumps([p], 2) for p in set(lone)}
    out: list[bytes] = [b""] * len(starts)
    for i, p in zip(np.flatnonzero(single).tolist(), lone, strict=True):
        out[i] = encoded[p]
    gaps = positions.copy()
    gaps[1:] -= positions[:-1]
    gaps[starts] = positions[starts]
    listed = gaps.tolist()
    several = np.flatnonzero(~single).tolist()
    for i, s, f in zip(several, starts[~single].tolist(), freqs[~single].tolist(), strict=True):
        out[i] = pack_uint(f) + dumps(listed[s : s + f], 2)
    return out
