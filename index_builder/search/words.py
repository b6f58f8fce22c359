"""Words as search sees them: one tokenizer and one folding, shared by index and highlights.

The index analyzer (in :mod:`index_builder.search.engine`) and the highlighter both walk text
with :func:`iter_words`, so a highlighted span is always exactly a word the index saw.
Folding is per word, after tokenizing, so character offsets stay those of the display
text: ``Łukasz`` is found as ``lukasz`` and highlighted as ``Łukasz``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache

# Letters, digits and combining marks; dots join "e.g" and "3.5"; so "RL4RLA" stays one word
# and dashes of any kind ("Wang-Landau", "Wang–Landau") separate words.
_WORD = r"[\w\u0300-\u036f]+"
WORD_RE = re.compile(rf"{_WORD}(?:\.{_WORD})*")

VALUE_SEPARATOR = "\n"
"""Joins the values of a multi-valued field (authors); a phrase never spans it."""

POSITION_GAP = 100
"""Positions skipped at a :data:`VALUE_SEPARATOR`, so ``"Zi Wang"`` cannot match "… Zi; Wang …"."""

# Letters that Unicode does not decompose into a base letter and a mark.
_SPECIAL = str.maketrans(
    {
        "ł": "l",
        "Ł": "l",
        "ø": "o",
        "Ø": "o",
        "đ": "d",
        "Đ": "d",
        "ð": "d",
        "þ": "th",
        "ß": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ı": "i",
        "ħ": "h",
        "ŀ": "l",
    }
)


@lru_cache(maxsize=200_000)
def fold_word(word: str) -> str:
    """Lower-case ``word`` and strip its accents (``Łukasz`` -> ``lukasz``, ``é`` -> ``e``)."""
    low = word.lower()
    if low.isascii():
        return low
    low = low.translate(_SPECIAL)
    decomposed = unicodedata.normalize("NFKD", low)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def iter_words(text: str) -> Iterator[tuple[int, int, int, str]]:
    """Yield ``(position, start, end, folded)`` for each word of ``text``.

    ``text[start:end]`` is the word as displayed; ``position`` counts words and jumps by
    :data:`POSITION_GAP` at each :data:`VALUE_SEPARATOR`.
    """
    pos = -1
    prev_end = 0
    has_sep = VALUE_SEPARATOR in text
    for match in WORD_RE.finditer(text):
        start, end = match.span()
        pos += 1
        if has_sep and VALUE_SEPARATOR in text[prev_end:start]:
            pos += POSITION_GAP
        prev_end = end
        folded = fold_word(match.group())
        if folded:
            yield pos, start, end, folded


def positioned_words(text: str) -> list[tuple[int, str]]:
    """``(position, folded)`` of each word of ``text``: :func:`iter_words` without offsets.

    The indexing path: the same positions and words, from ``findall`` per value instead of
    a match object per word.
    """
    out: list[tuple[int, str]] = []
    pos = -1
    values = text.split(VALUE_SEPARATOR) if VALUE_SEPARATOR in text else (text,)
    for k, value in enumerate(values):
        found = WORD_RE.findall(value)
        if not found:
            continue
        if k:  # a separator lies between this value's first word and the word before it
            pos += POSITION_GAP
        for raw in found:
            pos += 1
            folded = fold_word(raw)
            if folded:
                out.append((pos, folded))
    return out


def words(text: str) -> list[str]:
    """The folded words of ``text``, in order."""
    return [w for _, _, _, w in iter_words(text)]
