"""The terms a fit keeps and their counts, with word pairs counted as numbers.

A fit (:func:`index_builder.vectors.tfidf.compute`) keeps the words and word pairs found
in ``min_df`` papers or more and in at most ``max_df`` of them (then the ``max_features``
found in most papers), and the authors of ``author_min_df`` papers or more. Most word
pairs are in one paper alone: of the 580,000 distinct terms of the updated home's 6,630
abstracts, 26,000 are kept. Making every pair a string and numbering it in a dictionary
was most of a fit's time and memory. Here the words are numbered, a pair is the number
``first * words + second``, and all terms are counted and their papers found with numpy
sorts; only the terms kept become text.

The result is the one counting every term as text gives: the same features, document
frequencies and counts, and each row's counts in the order their terms first came in
the catalogue (a paper's words, then its pairs, then its authors, as
:meth:`Analysis.terms <index_builder.vectors.analysis.Analysis.terms>` lists them), so
that the sums over a row add in the same order (``tests/core/search/test_vectors_counting.py``).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Sequence
from itertools import count, pairwise
from typing import TYPE_CHECKING, Any, NamedTuple

from index_builder.vectors.analysis import Analysis, author_features, pair_text, text_of

if TYPE_CHECKING:
    from index_builder.model import Paper


PART = 1 << 19
"""Terms tallied at a time (:func:`_tally_in_parts`): at 20,000 papers the words and the
word pairs are each 2.7 million terms, and a tally's sorts held 170 MB of them at once."""


class KeptCounts(NamedTuple):
    """The kept features (sorted), each one's document frequency, and the papers' counts
    over them as CSR arrays (``data``, ``indices``, ``indptr``, ``shape``)."""

    features: tuple[str, ...]
    df: list[int]
    data: Any
    indices: Any
    indptr: Any
    shape: tuple[int, int]


class _Tally(NamedTuple):
    """One kind of term (words, pairs or authors): each distinct key, where it first came
    in the catalogue's stream of terms, how many papers have it, and the (paper, term,
    count) cells."""

    keys: Any
    first: Any
    df: Any
    rows: Any
    terms: Any
    counts: Any


def kept_counts(
    analysis: Analysis,
    papers: Sequence[Paper],
    *,
    min_df: int,
    max_df: float,
    author_min_df: int,
) -> KeptCounts:
    """The terms of ``papers`` a fit keeps (``max_df``: a share of the papers) and their
    counts."""
    import numpy as np

    words, word_at, word_start = _numbered(analysis.single_words(text_of(p)) for p in papers)
    authors, author_at, author_start = _numbered(author_features(p.authors) for p in papers)
    n = len(papers)
    per_word, per_author = np.diff(word_start), np.diff(author_start)
    per_pair = np.maximum(per_word - 1, 0) if analysis.pairs else np.zeros(n, np.int64)
    # Where each paper's terms start in the stream a text count numbers them by.
    base = np.zeros(n + 1, np.int64)
    np.cumsum(per_word + per_pair + per_author, out=base[1:])
    # Papers, words and places in the stream as 32-bit numbers where they fit: each array
    # is one entry a word of every abstract (2.7 million at 20,000 papers).
    small = _small(max(base[-1], n, len(words), len(authors)))
    word_at, author_at = word_at.astype(small), author_at.astype(small)
    word_rows = np.repeat(np.arange(n, dtype=small), per_word)
    word_pos = (base[:-1] - word_start[:-1]).astype(small)[word_rows]
    word_pos += np.arange(len(word_at), dtype=small)
    width = max(len(words), 1)
    most = max_df * n
    tallies = [_tally_in_parts(word_at, word_rows, word_pos, min_df, most, dense=True)]
    # Each kind's arrays are made after the kind before is counted, and let go once
    # counted: the words' and the pairs' at once held 130 MB more at 20,000 papers.
    empty = np.zeros(0, small)
    pair_keys, pair_rows, pair_pos = empty.astype(np.int64), empty, empty
    if analysis.pairs:
        joined = np.flatnonzero(word_rows[1:] == word_rows[:-1])
        pair_rows = word_rows[1:][joined]
        pair_keys = word_at[:-1][joined].astype(np.int64) * width + word_at[1:][joined]
        # The k-th pair of a paper comes after its words: its first word's place + its words.
        pair_pos = word_pos[:-1][joined] + per_word.astype(small)[pair_rows]
        del joined
    del word_at, word_rows, word_pos
    tallies.append(_tally_in_parts(pair_keys, pair_rows, pair_pos, min_df, most))
    del pair_keys, pair_rows, pair_pos
    author_rows = np.repeat(np.arange(n, dtype=small), per_author)
    author_pos = (
        base[author_rows] + per_word[author_rows] + per_pair[author_rows]
        + np.arange(len(author_at)) - author_start[author_rows]
    ).astype(small)  # fmt: skip
    tallies.append(_tally(author_at, author_rows, author_pos, author_min_df, math.inf, dense=True))

    def text(kind: int, key: int) -> str:
        if kind == 0:
            return words[key]
        if kind == 1:
            return pair_text(words[key // width], words[key % width])
        return authors[key]

    # Candidates: (kind, term index in its tally).
    in_range = [
        (kind, i)
        for kind in (0, 1)
        for i in np.flatnonzero((tallies[kind].df >= min_df) & (tallies[kind].df <= max_df * n))
        .tolist()
    ]  # fmt: skip
    texts = {c: text(c[0], int(tallies[c[0]].keys[c[1]])) for c in in_range}
    if len(in_range) > analysis.max_features:
        in_range.sort(key=lambda c: (-int(tallies[c[0]].df[c[1]]), texts[c]))
        in_range = in_range[: analysis.max_features]
    people = np.flatnonzero(tallies[2].df >= author_min_df).tolist()
    kept = [*in_range, *((2, i) for i in people)]
    texts.update({(2, i): authors[int(tallies[2].keys[i])] for i in people})
    kept.sort(key=texts.__getitem__)
    features = tuple(texts[c] for c in kept)
    return _cells(tallies, kept, features, n)


def _small(largest: int) -> Any:
    """The integer type for numbers up to ``largest``: 32 bits where they fit."""
    import numpy as np

    return np.int32 if largest < np.iinfo(np.int32).max else np.int64


def _numbered(lists: Iterable[list[str]]) -> tuple[list[str], Any, Any]:
    """Strings numbered in the order they first come: the strings, every occurrence's
    number in one array, and where each list's numbers start (lists are read one at a
    time: the words of every abstract at once would be 1.3 million strings)."""
    import numpy as np

    number: dict[str, int] = {}
    at = array("q")
    fresh = count()
    ends = [0]
    # One C-level call a string: a known string uses up a number of ``fresh``, so the
    # numbers are made consecutive at the end (they increase in the order strings came).
    for found in lists:
        at.extend(map(number.setdefault, found, fresh))
        ends.append(len(at))
    starts = np.array(ends, np.int64)
    given = np.fromiter(number.values(), np.int64, len(number))
    raw = np.frombuffer(at, dtype=np.int64) if len(at) else np.zeros(0, np.int64)
    return list(number), np.searchsorted(given, raw), starts


def _tally_in_parts(
    keys: Any, rows: Any, positions: Any, least: float, most: float, *, dense: bool = False
) -> _Tally:
    """:func:`_tally` of ``keys`` a range of keys at a time (about :data:`PART` terms each),
    the parts' tallies put end to end: the same tally, with a part of its sorts' memory.
    A key's terms are all in its range, in the order they came, so its papers, count and
    first place are the same; the ranges come in order, so the keys stay sorted."""
    import numpy as np

    if len(keys) <= PART:
        return _tally(keys, rows, positions, least, most, dense=dense)
    sample = np.sort(keys[:: max(1, len(keys) // 4096)])
    picks = np.linspace(0, len(sample) - 1, len(keys) // PART + 1).astype(np.int64)[1:-1]
    bounds = [None, *np.unique(sample[picks]).tolist(), None]
    parts: list[_Tally] = []
    kept = 0
    for low, high in pairwise(bounds):
        inside = np.ones(len(keys), bool)
        if low is not None:
            inside &= keys >= low
        if high is not None:
            inside &= keys < high
        at = np.flatnonzero(inside)
        del inside
        start = int(low or 0) if dense else 0
        part = _tally(keys[at] - start, rows[at], positions[at], least, most, dense=dense)
        del at
        parts.append(part._replace(keys=part.keys + start, terms=part.terms + kept))
        kept += len(part.keys)
    return _Tally(*(np.concatenate(field) for field in zip(*parts, strict=True)))


def _tally(
    keys: Any, rows: Any, positions: Any, least: float, most: float, *, dense: bool = False
) -> _Tally:
    """The terms of ``keys`` found in ``least`` to ``most`` papers (the others cannot be
    kept: most pairs are in one paper, and their cells are let go at once). ``dense``: the
    keys are numbered 0, 1, ... in the order they first come. The cells' papers, terms and
    counts are kept as ``rows``' type."""
    import numpy as np

    if dense:
        # A key first comes where the running greatest key grows.
        top = np.maximum.accumulate(keys) if len(keys) else keys
        first = np.flatnonzero(np.diff(top, prepend=-1) > 0)
        del top
        distinct, inverse = np.arange(len(first)), keys
    else:
        distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    width = max(len(distinct), 1)
    cells, counts = np.unique(rows.astype(np.int64) * width + inverse, return_counts=True)
    del inverse
    terms = (cells % width).astype(rows.dtype)
    df = np.bincount(terms, minlength=len(distinct))
    able = (df >= least) & (df <= most)
    chosen = np.flatnonzero(able[terms])
    renumbered = (np.cumsum(able) - 1).astype(rows.dtype)
    return _Tally(
        distinct[able],
        positions[first[able]],
        df[able],
        (cells[chosen] // width).astype(rows.dtype),
        renumbered[terms[chosen]],
        counts[chosen].astype(rows.dtype),
    )


def _cells(
    tallies: list[_Tally], kept: list[tuple[int, int]], features: tuple[str, ...], n: int
) -> KeptCounts:
    """The kept terms' cells as CSR arrays: columns by feature, each row's cells in the
    order their terms first came. ``tallies`` are emptied as they are read."""
    import numpy as np

    df = [int(tallies[kind].df[i]) for kind, i in kept]
    rows, columns, counts, firsts = [], [], [], []
    for kind, tally in enumerate(tallies):
        column = np.full(len(tally.keys), -1, np.int32)
        mine = [(i, col) for col, (k, i) in enumerate(kept) if k == kind]
        if mine:
            at, cols = np.array(mine, np.int64).T
            column[at] = cols
        chosen = np.flatnonzero(column[tally.terms] >= 0)
        terms = tally.terms[chosen]
        rows.append(tally.rows[chosen])
        columns.append(column[terms])
        counts.append(tally.counts[chosen])
        firsts.append(tally.first[terms])
        del chosen, terms
        tallies[kind] = tally = tally._replace(rows=None, terms=None, counts=None)
    row, first = np.concatenate(rows), np.concatenate(firsts)
    del rows, firsts
    order = np.lexsort((first, row))
    del first
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(np.bincount(row, minlength=n), out=indptr[1:])
    del row
    column = np.concatenate(columns)[order]
    del columns
    return KeptCounts(
        features,
        df,
        np.concatenate(counts)[order].astype(np.float64),
        column.astype(np.int32),
        indptr,
        (n, len(features)),
    )
