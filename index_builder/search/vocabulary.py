"""The unstemmed words of the papers, with document frequencies (pure Python).

Prefix (``watermark*``), fuzzy (``word~``) and "did you mean" need the words as written,
but the combined field, titles and abstracts are stored as stems. Keeping the unstemmed
words in a side file written with the index is cheaper than a second unstemmed field in
Whoosh (every posting costs at build time).
"""

from __future__ import annotations

import json
import os
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from index_builder.atomic import write_atomic
from index_builder.search.words import words

VOCAB_FILE = "paperscope-vocabulary.json"
CHANGES_FILE = "paperscope-vocabulary-changes.json"
"""The moves of the counts by changes in place (see :mod:`~.in_place`): a change of a few
papers writes them, not the 30,000 counts."""
CHANGES_LIMIT = 5000
"""More moved words than this and a change in place writes the counts whole."""

# Function words are never what a typed prefix means ("t" is not "the"), and they are the
# longest posting lists: leaving them out of expansions keeps typing fast.
_FUNCTION_WORDS = """a an and are as at be by can do for from has have in into is it its of on
or our than that the their these this to towards via we when which while with without"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())
_EXPANSIONS_KEPT = 4096
"""Prefix expansions kept (forgotten all at once beyond that: typing asks few)."""


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance of ``a`` and ``b`` with adjacent swaps; ``limit + 1`` when larger."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def foreign_letters(word: str) -> dict[int, None]:
    """A ``str.translate`` table deleting ``word``'s letters: what is left of another word
    are letters ``word`` lacks, each one edit at least (:func:`edit_distance` is never less).
    """
    return dict.fromkeys(map(ord, word))


def close_words(
    word: str,
    candidates: Iterable[str],
    maxdist: int,
    distance: Callable[[str, str, int], int] = edit_distance,
) -> list[tuple[int, str]]:
    """``(distance, term)`` for the ``candidates`` within ``maxdist`` edits of ``word``.

    Cheap bounds first: the length, then the letters a term has that ``word`` lacks (each
    one edit at least, so no edit distance is less); most candidates stop there.
    """
    found: list[tuple[int, str]] = []
    lo, hi = len(word) - maxdist, len(word) + maxdist
    foreign = foreign_letters(word)
    for term in candidates:
        if lo <= len(term) <= hi and len(term.translate(foreign)) <= maxdist:
            dist = distance(word, term, maxdist)
            if dist <= maxdist:
                found.append((dist, term))
    return found


def read_counts(folder: Path, *, changed: bool = True) -> dict[str, int]:
    """The word counts saved in ``folder`` (``changed``: with the changes in place made
    since, :data:`CHANGES_FILE`); raises on a missing or bad file."""
    data = json.loads((folder / VOCAB_FILE).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError("vocabulary is not a mapping")
    # JSON keys are strings: the counts are checked, not converted one by one (30,000
    # conversions were a quarter of reading the file).
    if not all(type(count) is int for count in data.values()):
        data = {str(k): int(v) for k, v in data.items()}
    return moved(data, read_moves(folder)) if changed else data


def write_counts(folder: Path, freq: dict[str, int], words: Sequence[str] | None = None) -> None:
    """Save word counts into ``folder`` (temp file, then ``os.replace``), in word order
    (``words``: the words of ``freq`` sorted, when the caller has them): the reader sorts
    the words again (:class:`Vocabulary`), which takes a tenth of the time on sorted ones."""
    tmp = folder / f".{VOCAB_FILE}.tmp"
    ordered = {word: freq[word] for word in (sorted(freq) if words is None else words)}
    tmp.write_text(json.dumps(ordered, separators=(",", ":")), encoding="utf-8")
    os.replace(tmp, folder / VOCAB_FILE)


def read_moves(folder: Path) -> dict[str, int]:
    """How much each word's count moved by the changes in place since the counts were
    written (none when there is no such file); raises on a bad file."""
    try:
        data = json.loads((folder / CHANGES_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    if not isinstance(data, dict):
        raise ValueError("vocabulary changes are not a mapping")
    return {str(k): int(v) for k, v in data.items()}


def write_moves(folder: Path, changes: dict[str, int]) -> None:
    """Save the moves of the counts into ``folder`` (a new file, never written through a
    hard link to an older index's)."""
    write_atomic(folder / CHANGES_FILE, json.dumps(changes, separators=(",", ":")))


def moved(counts: dict[str, int], changes: dict[str, int]) -> dict[str, int]:
    """``counts`` moved by ``changes`` (in place), words counted zero times left out."""
    for word, change in changes.items():
        count = counts.get(word, 0) + change
        if count > 0:
            counts[word] = count
        else:
            counts.pop(word, None)
    return counts


class Vocabulary:
    """Words and how many papers use each, with prefix and near-word look-ups."""

    def __init__(self, freq: dict[str, int]) -> None:
        self.freq = freq
        self.sorted = sorted(freq)
        self._expansions: dict[tuple[str, str, int], tuple[list[str], bool]] = {}

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Vocabulary:
        """Count each folded word once per text."""
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(set(words(text)))
        return cls(dict(counts))

    def save(self, folder: Path) -> None:
        """Write the vocabulary into ``folder`` (temp file, then ``os.replace``)."""
        write_counts(folder, self.freq, self.sorted)

    @classmethod
    def load(cls, folder: Path) -> Vocabulary:
        """Read the vocabulary written by :meth:`save`; raises on a missing or bad file."""
        return cls(read_counts(folder))

    def df(self, word: str) -> int:
        """How many papers use ``word``."""
        return self.freq.get(word, 0)

    def expand(self, prefix: str, cap: int) -> tuple[list[str], bool]:
        """The ``cap`` most frequent words starting with ``prefix``, and whether there are more.

        Kept per prefix (the vocabulary never changes): a short prefix ranks a thousand
        words, and each keystroke asks again."""

        def starting() -> list[str]:
            start = bisect_left(self.sorted, prefix)
            end = bisect_left(self.sorted, prefix + "\U0010ffff", lo=start)
            return self.sorted[start:end]

        return self._kept(("prefix", prefix, cap), prefix, starting, cap)

    def containing(self, part: str, cap: int, *, at_end: bool = False) -> tuple[list[str], bool]:
        """The ``cap`` most frequent words holding ``part`` (``at_end``: ending with it), and
        whether there are more (``*former*``, ``*former``). A scan of every word (30,000 in
        the bundled data: 1 to 3 ms), kept per part like :meth:`expand`."""

        def holding() -> list[str]:
            if at_end:
                return [w for w in self.sorted if w.endswith(part)]
            return [w for w in self.sorted if part in w]

        kind = "suffix" if at_end else "infix"
        return self._kept((kind, part, cap), part, holding, cap)

    def _kept(
        self, key: tuple[str, str, int], typed: str, matches: Callable[[], list[str]], cap: int
    ) -> tuple[list[str], bool]:
        """The ``cap`` most frequent of ``matches()`` (function words left out unless
        ``typed`` is one) and whether there were more, worked out once per ``key``."""
        found = self._expansions.get(key)
        if found is None:
            if len(self._expansions) >= _EXPANSIONS_KEPT:
                self._expansions.clear()
            words = [w for w in matches() if w not in FUNCTION_WORDS or w == typed]
            more = len(words) > cap
            if more:
                words = sorted(words, key=lambda w: (-self.freq[w], w))[:cap]
            found = self._expansions[key] = (words, more)
        return list(found[0]), found[1]

    def near(self, word: str, maxdist: int) -> list[tuple[int, str]]:
        """``(distance, word)`` for words within ``maxdist`` edits sharing the first letter."""
        if not word:
            return []
        start = bisect_left(self.sorted, word[0])
        end = bisect_left(self.sorted, word[0] + "\U0010ffff", lo=start)
        return close_words(word, self.sorted[start:end], maxdist)
