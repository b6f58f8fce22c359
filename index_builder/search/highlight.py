"""Highlight spans: character offsets of matched words in display text.

No HTML and no Whoosh: the words of a query are collected into :class:`MatchTerms`
(stems, exact words and prefixes, all folded) and :func:`spans` walks the display text
with the same tokenizer as the index, so a span is always a whole displayed word.

Walking every word of 200 abstracts costs tens of milliseconds, so when the words that
have the query's stems are known (``surface``, from the vocabulary) an ASCII text is
scanned by one regular expression that stops only at words starting like a match; each
stop is then checked exactly as the slow walk would check it.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from index_builder.model import Span
from index_builder.search.words import iter_words

_JOINERS = frozenset(" \t-\u2010\u2011\u2012\u2013\u2014")
_W = r"[\w\u0300-\u036f]"
# A word starts where no word character, and no dot joined to a word ("e.g"), precedes.
_START = rf"(?<!{_W})(?<!{_W}\.)"
_REST = rf"{_W}*(?:\.{_W}+)*"
_LEAD = 3


@dataclass
class MatchTerms:
    """What a word must be to count as matched: a stem, an exact word or a prefix."""

    stems: set[str] = field(default_factory=set)
    exact: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)
    surface: set[str] | None = None
    """Every indexed word whose stem is in ``stems`` (``None``: unknown, walk every word)."""
    _scanner: re.Pattern[str] | None = field(default=None, repr=False, compare=False)
    _seen: dict[str, bool] = field(default_factory=dict, repr=False, compare=False)
    """Words already checked (200 titles repeat many words)."""

    def __bool__(self) -> bool:
        return bool(self.stems or self.exact or self.prefixes)

    def scanner(self) -> re.Pattern[str] | None:
        """A pattern whose matches include every matching word of an ASCII text."""
        if self.surface is None:
            return None
        if self._scanner is None:
            words = self.exact | self.prefixes | self.surface
            leads = {w[:_LEAD].split(".")[0] for w in words}
            alts = "|".join(sorted((re.escape(w) for w in leads if w), reverse=True))
            self._scanner = re.compile(rf"{_START}(?:{alts or '(?!)'}){_REST}", re.IGNORECASE)
        return self._scanner

    def matches(self, folded: str, stem: Callable[[str], str]) -> bool:
        """True when the folded word ``folded`` is one of the query's words."""
        found = self._seen.get(folded)
        if found is None:
            found = self._seen[folded] = self._matches(folded, stem)
        return found

    def _matches(self, folded: str, stem: Callable[[str], str]) -> bool:
        if folded in self.exact:
            return True
        if self.prefixes and folded.startswith(tuple(self.prefixes)):
            return True
        return bool(self.stems) and stem(folded) in self.stems


def spans(text: str, terms: MatchTerms, stem: Callable[[str], str]) -> tuple[Span, ...]:
    """The ``(start, end)`` offsets in ``text`` of every word that ``terms`` match.

    Matched words separated by one space or dash are merged into one span, so a matched
    phrase (or ``Wang–Landau``) reads as one highlight.
    """
    if not text or not terms:
        return ()
    found: list[Span] = []
    scanner = terms.scanner() if text.isascii() else None
    if scanner is not None:
        # ASCII: folding is lower-casing and offsets are unchanged.
        words = ((m.start(), m.end(), m.group().lower()) for m in scanner.finditer(text))
    else:
        words = ((start, end, folded) for _, start, end, folded in iter_words(text))
    for start, end, folded in words:
        if terms.matches(folded, stem):
            if found and start - found[-1][1] == 1 and text[start - 1] in _JOINERS:
                found[-1] = (found[-1][0], end)
            else:
                found.append((start, end))
    return tuple(found)


class StemForms:
    """The indexed words that have a given stem, found in the sorted vocabulary.

    The stemmer only rewrites endings, so a word and its stem share the first letter:
    only the words under that letter are stemmed. Answers are kept per stem.
    """

    def __init__(self, words: Sequence[str], stem: Callable[[str], str]) -> None:
        self.words = words
        self.stem = stem
        self._forms: dict[str, frozenset[str]] = {}

    def __call__(self, stems: Iterable[str]) -> set[str]:
        """Every word of the vocabulary whose stem is one of ``stems``."""
        found: set[str] = set()
        for wanted in stems:
            forms = self._forms.get(wanted)
            if forms is None:
                start = bisect_left(self.words, wanted[:1])
                end = bisect_left(self.words, wanted[:1] + "\U0010ffff", lo=start)
                stem = self.stem
                forms = frozenset(w for w in self.words[start:end] if stem(w) == wanted)
                if len(self._forms) > 4096:
                    self._forms.clear()
                self._forms[wanted] = forms
            found |= forms
        return found
