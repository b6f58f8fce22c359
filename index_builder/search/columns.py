"""The tokenized fields of a share of documents as arrays: postings without a loop per word.

On real abstracts a build spends its time per word and per posting: a dictionary look-up,
an append, a stem, for each of two million postings at 6,628 papers. Here a value's words
become word numbers in one C-level ``map`` over the regular expression's matches, and a
field's postings are grouped, counted and weighed with numpy sorts and reductions over
the whole share (:meth:`TextColumns.postings`); only the position lists of words that
occur more than once in a document, and each term's blocks, are made in Python. The
terms, postings, weights and values are exactly those of the word-at-a-time path of
:mod:`~index_builder.search.segment` (``tests/core/search/test_segment.py``).

numpy is imported by the build alone, inside the functions (the index build runs in a child
or in the command line), never on the way to the app's first frame.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from pickle import dumps
from typing import Any

from whoosh.system import pack_uint
from whoosh.util.numeric import length_to_byte

from index_builder.search.schema import stem
from index_builder.search.words import POSITION_GAP, VALUE_SEPARATOR, WORD_RE, fold_word

Column = tuple[list[int], list[float], list[bytes], list[int]]
"""A field's postings in term order: document numbers, weights, values, length bytes."""
TermRuns = tuple[list[str], list[int]]
"""A field's terms in byte order and where each one's postings start in its columns."""
_EMPTY = 0
"""The word number of a word that folds to nothing (counted in positions, never indexed)."""


def load_numpy() -> None:
    """Import numpy now. A build forks its workers (the second share, the vectors) after
    this, and they share the parent's import instead of each making its own (about 0.1 s
    of CPU each on a quiet machine, more under load). ``numpy.ma`` too: ``np.unique``
    imports it on its first call, in each process that groups postings."""
    import numpy.ma  # noqa: F401


class TextColumns:
    """The words of every tokenized field of a share, numbered, with document and position.

    ``stemmed`` maps each positional field to whether it is stemmed; ``combined`` names
    the frequency field whose parts are weighted by ``part_boosts``.
    """

    def __init__(self, stemmed: dict[str, bool], combined: str, part_boosts: Sequence[float]):
        self.stemmed = stemmed
        self.combined = combined
        self.part_boosts = tuple(part_boosts)
        self._number: dict[str, int] = {}
        """Word as written -> word number (of its folded form)."""
        self._folded_number: dict[str, int] = {"": _EMPTY}
        self.folded: list[str] = [""]
        """Word number -> folded word."""
        self._ids = {name: array("i") for name in [*stemmed, combined]}
        self._pos = {name: array("i") for name in stemmed}
        self._docs: dict[str, list[int]] = {name: [] for name in [*stemmed, combined]}
        self._counts: dict[str, list[int]] = {name: [] for name in [*stemmed, combined]}
        self._boosts: list[float] = []
        self._boost_counts: list[int] = []
        self._distinct = array("i")
        """The combined field's distinct word numbers, document by document."""
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

    def words(self, text: str) -> tuple[list[int], range | list[int]]:
        """A value's word numbers and positions, as :func:`~.words.positioned_words`."""
        if VALUE_SEPARATOR not in text:
            numbers = self.numbers(WORD_RE.findall(text))
            return numbers, range(len(numbers))
        raw: list[str] = []
        positions: list[int] = []
        pos = -1
        for k, value in enumerate(text.split(VALUE_SEPARATOR)):
            found = WORD_RE.findall(value)
            if not found:
                continue
            if k:
                pos += POSITION_GAP
            raw += found
            positions += range(pos + 1, pos + 1 + len(found))
            pos += len(found)
        return self.numbers(raw), positions  # one look-up for every value's words

    def add_positions(self, name: str, docnum: int, words: tuple[list[int], Any]) -> int:
        """Add a positional field's words; returns the field's length (words indexed)."""
        ids, positions = words
        if not ids:
            return 0
        self._ids[name].extend(ids)
        self._pos[name].extend(positions)
        self._docs[name].append(docnum)
        self._counts[name].append(len(ids))
        return len(ids) - ids.count(_EMPTY)

    def add_combined(self, docnum: int, parts: list[list[int]]) -> int:
        """Add the combined field's parts (word numbers); returns its length."""
        ids = self._ids[self.combined]
        total = 0
        for words, boost in zip(parts, self.part_boosts, strict=False):
            if words:
                ids.extend(words)
                self._boosts.append(boost)
                self._boost_counts.append(len(words))
                total += len(words)
        if not total:
            return 0
        self._docs[self.combined].append(docnum)
        self._counts[self.combined].append(total)
        self._distinct.extend(set().union(*parts))
        return total - sum(words.count(_EMPTY) for words in parts)

    # -- grouping ----------------------------------------------------------------------

    def fields(self) -> list[str]:
        """The fields that got words."""
        return [name for name, ids in self._ids.items() if ids]

    def vocabulary(self) -> Counter[str]:
        """How many documents use each folded word of the combined field."""
        import numpy as np

        counts = np.bincount(np.array(self._distinct, dtype=np.int64), minlength=1)
        counts[_EMPTY] = 0
        folded = self.folded
        return Counter({folded[i]: int(counts[i]) for i in np.flatnonzero(counts).tolist()})

    def _stream(self, name: str) -> tuple[Any, Any]:
        """A field's word numbers and, word by word, their document numbers."""
        import numpy as np

        ids = np.frombuffer(self._ids[name], dtype=np.int32)
        docs = np.repeat(np.array(self._docs[name], dtype=np.int64), self._counts[name])
        return ids, docs

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

        words, docs = self._stream(name)
        keep = words != _EMPTY
        combined = name == self.combined
        term_of, texts = self._terms(stemmed=combined or self.stemmed[name])
        terms = term_of[words[keep]]
        docs = docs[keep]
        used = np.unique(terms)
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
            boosts = np.repeat(np.array(self._boosts), self._boost_counts)[keep][order]
            weights = np.add.reduceat(boosts, starts) * boost if n else np.zeros(0)
            packed = {f: pack_uint(f) for f in np.unique(freqs).tolist()}
            values = list(map(packed.__getitem__, freqs.tolist()))
        else:
            weights = freqs * boost
            positions = np.frombuffer(self._pos[name], dtype=np.int32)[keep][order]
            values = _position_values(positions, starts, freqs)
        term_starts = np.flatnonzero(np.diff(keys[starts], prepend=-1))
        term_texts = [texts[listed[ranked[k]]] for k in keys[starts][term_starts].tolist()]
        column = (posting_docs.tolist(), weights.tolist(), values, posting_lengths.tolist())
        return (term_texts, term_starts.tolist()), column


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
