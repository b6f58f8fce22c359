"""One folding of text and one tokenizer, for search, joins, citation keys and display.

Folding (:func:`strip_accents`, :func:`fold`, :func:`fold_word`) takes accents off with
Unicode's compatibility decomposition and spells out the letters it cannot take apart
(:data:`SPECIAL_LETTERS`: ß æ œ ø ł đ ð þ ı ħ ŀ), so ``Łukasz Dvořák`` folds to
``lukasz dvorak`` wherever a name is compared: the index, the joins of abstracts to
titles, the author part of a citation key.

The tokenizer (:func:`iter_words`, :func:`positioned_words`, :func:`words`) finds words
as search sees them: letters, digits and combining marks, with dots joining ``e.g`` and
``3.5``, so ``RL4RLA`` stays one word and dashes of any kind separate words. Folding is
per word, after tokenizing, so offsets stay those of the display text: ``Łukasz`` is
found as ``lukasz`` and highlighted as ``Łukasz``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import lru_cache

__all__ = [
    "NON_ASCII",
    "POSITION_GAP",
    "SPECIAL_LETTERS",
    "VALUE_SEPARATOR",
    "WORD_RE",
    "each_non_ascii_run",
    "fold",
    "fold_word",
    "iter_words",
    "positioned_words",
    "strip_accents",
    "words",
]

SPECIAL_LETTERS = {
    "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "ı": "i", "ħ": "h", "Ħ": "H", "ŀ": "l", "Ŀ": "L",
}  # fmt: skip
"""Letters that Unicode does not decompose into a base letter and marks, spelled out."""
_SPECIAL = str.maketrans(SPECIAL_LETTERS)

# Letters, digits and combining marks; dots join "e.g" and "3.5".
_WORD = r"[\w\u0300-\u036f]+"
WORD_RE = re.compile(rf"{_WORD}(?:\.{_WORD})*")

VALUE_SEPARATOR = "\n"
"""Joins the values of a multi-valued field (authors); a phrase never spans it."""

POSITION_GAP = 100
"""Positions skipped at a :data:`VALUE_SEPARATOR`, so ``"Zi Wang"`` cannot match "… Zi; Wang …"."""


NON_ASCII = re.compile(r"[^\x00-\x7f]+")
"""A run of non-ASCII characters: all that folding can change (see :func:`strip_accents`)."""


def each_non_ascii_run(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to each of its runs of non-ASCII characters.

    For a folding (:func:`strip_accents`, :func:`index_builder.text.safe.fold`): only the
    runs of non-ASCII characters can change, and each on its own, since an ASCII character
    is a starter that decomposition never reorders across, never a mark and never a special
    letter. An abstract has a few such runs (a dash, a quote, a name), each met many times,
    so a cached ``change`` folds each once (the vectors fold whole texts).
    """
    if text.isascii():
        return text
    return NON_ASCII.sub(lambda run: change(run.group()), text)


def strip_accents(text: str) -> str:
    """``text`` without accents, special letters spelled out, case kept (``Łódź`` -> ``Lodz``)."""
    return each_non_ascii_run(text, _strip_run)


@lru_cache(maxsize=20_000)
def _strip_run(run: str) -> str:
    decomposed = unicodedata.normalize("NFKD", run.translate(_SPECIAL))
    # Again after decomposing: accented forms of special letters (ǣ, ǿ) decompose to them.
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_SPECIAL)


def fold(text: str) -> str:
    """``text`` lower-cased and without accents (``Łukasz Dvořák`` -> ``lukasz dvorak``)."""
    # Lower case first as well: a capital may decompose unlike its small letter (Ϲ, ϲ).
    return strip_accents(text.lower()).lower()


@lru_cache(maxsize=200_000)
def fold_word(word: str) -> str:
    """:func:`fold` of one word, cached (``Łukasz`` -> ``lukasz``, ``é`` -> ``e``)."""
    return fold(word)


def _raw_words(text: str) -> list[tuple[int, str]]:
    """``(position, word)`` of each word of ``text`` as written: the one tokenizer.

    ``position`` counts words and jumps by :data:`POSITION_GAP` at each
    :data:`VALUE_SEPARATOR` (``findall`` per value: the indexing path's speed).
    """
    if VALUE_SEPARATOR not in text:
        return list(enumerate(WORD_RE.findall(text)))
    out: list[tuple[int, str]] = []
    pos = -1
    for k, value in enumerate(text.split(VALUE_SEPARATOR)):
        found = WORD_RE.findall(value)
        if found and k:  # a separator lies between this value's first word and the one before
            pos += POSITION_GAP
        out.extend(enumerate(found, start=pos + 1))
        pos += len(found)
    return out


def positioned_words(text: str) -> list[tuple[int, str]]:
    """``(position, folded)`` of each word of ``text`` (words that fold to nothing skipped)."""
    return [(pos, folded) for pos, raw in _raw_words(text) if (folded := fold_word(raw))]


def iter_words(text: str) -> Iterator[tuple[int, int, int, str]]:
    """Yield ``(position, start, end, folded)`` for each word of :func:`positioned_words`.

    ``text[start:end]`` is the word as displayed.
    """
    end = 0
    for pos, raw in _raw_words(text):
        # Between two words lies no word character, so the word is the next occurrence.
        start = text.find(raw, end)
        end = start + len(raw)
        if folded := fold_word(raw):
            yield pos, start, end, folded


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order."""
    return [w for _, w in positioned_words(text)]
