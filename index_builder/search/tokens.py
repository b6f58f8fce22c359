"""Every text value of a share tokenized at once: one regular expression pass, one numbering.

A share of a build holds some 10,000 distinct text values (titles, author lists, topics,
institutions, abstracts; the combined field repeats them). Tokenized a value at a time,
each cost a ``findall``, a numbering ``map`` and a few list and array steps. Here the
values are joined by a boundary character, :data:`CHUNK` at a time, and tokenized in one
``findall`` whose pattern also yields each boundary and each
:data:`~.words.VALUE_SEPARATOR`; the words are numbered in one ``map``
(:meth:`~.columns.TextColumns.numbers`), and each word's value and position come from
numpy sums over the tokens. The words and positions are
those of :func:`~.words.positioned_words` (``tests/core/search/test_segment.py``): words
numbered from 0 in a value, :data:`~.words.POSITION_GAP` more before the first word of
each value after the first that has words.

numpy is imported inside the functions: the build's processes alone use this module.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from index_builder.search.words import POSITION_GAP, VALUE_SEPARATOR, WORD_RE

BOUNDARY = "\x1c"
"""Joins the values: not a word character, so a value's own one is read as a space."""
TOKEN_RE = re.compile(rf"[{re.escape(VALUE_SEPARATOR + BOUNDARY)}]|{WORD_RE.pattern}")
"""A word as :data:`~.words.WORD_RE` reads it, or a separator of values."""
CHUNK = 2_000
"""Values tokenized together. Each word found is a string until it is numbered: 1,050,000
words of 150-word values held 83 MB (measured), and a share of three venues' abstracts
holds about twice as many; 2,000 abstracts hold some 300,000."""
BOUNDARY_NUMBER, SEPARATOR_NUMBER = -1, -2
"""The numbers :meth:`~.columns.TextColumns.numbers` gives the boundary and the
separator (words are numbered from 0)."""
EMPTY = 0
"""The number of a word that folds to nothing (counted in positions, never indexed)."""


@dataclass
class ValueTokens:
    """The words of values ``0..n-1``: each value's words are consecutive in the arrays."""

    ids: Any
    """Every word's number (int64)."""
    positions: Any
    """Every word's position in its value (int64)."""
    starts: Any
    """Where each value's words start in :attr:`ids`."""
    counts: Any
    """How many words each value has (words that fold to nothing included)."""
    empty: Any
    """How many of each value's words fold to nothing."""

    def take(self, values: Any) -> Any:
        """The indexes of the words of ``values`` (value numbers), one value after the other."""
        import numpy as np

        counts = self.counts[values]
        ends = np.cumsum(counts)
        return np.repeat(self.starts[values] - ends + counts, counts) + np.arange(
            int(ends[-1]) if len(ends) else 0
        )


def tokenize(
    values: Sequence[str], numbers: Callable[[list[str]], list[int]], chunk: int = CHUNK
) -> ValueTokens:
    """The words of ``values``, numbered by ``numbers`` (which numbers the boundary and the
    separator as :data:`BOUNDARY_NUMBER` and :data:`SEPARATOR_NUMBER`), ``chunk`` values
    read at a time."""
    import numpy as np

    parts = []
    for start in range(0, len(values), chunk):
        read = values[start : start + chunk]
        text = BOUNDARY.join(read)
        if text.count(BOUNDARY) != len(read) - 1:  # a value holds one: read as a space
            text = BOUNDARY.join(value.replace(BOUNDARY, " ") for value in read)
        found = numbers(TOKEN_RE.findall(BOUNDARY + text if start else text))
        parts.append(np.fromiter(found, dtype=np.int64, count=len(found)))
    tokens = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    value_of = np.cumsum(tokens == BOUNDARY_NUMBER)
    word = tokens >= 0
    # A value's first word after a separator starts a new part of the value (an author):
    # POSITION_GAP positions are skipped before it.
    after_separator = np.zeros(len(tokens), dtype=bool)
    after_separator[1:] = tokens[:-1] == SEPARATOR_NUMBER
    gap = word & after_separator
    count = len(values)
    counts = np.bincount(value_of[word], minlength=count)
    gaps = np.bincount(value_of[gap], minlength=count)
    words_before = np.cumsum(counts) - counts
    gaps_before = np.cumsum(gaps) - gaps
    kept = np.flatnonzero(word)
    ids = tokens[kept]
    values_of_words = value_of[kept]
    positions = (np.arange(len(kept)) - words_before[values_of_words]) + POSITION_GAP * (
        np.cumsum(gap)[kept] - gaps_before[values_of_words]
    )
    empty = np.bincount(values_of_words[ids == EMPTY], minlength=count)
    return ValueTokens(ids, positions, words_before, counts, empty)
