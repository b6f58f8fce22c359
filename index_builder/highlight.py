"""Highlight spans: character offsets of matched words in display text.

No HTML and no Whoosh: the words of a query are collected into :class:`MatchTerms`
(stems, exact words and prefixes, all folded) and :func:`spans` walks the display text
with the same tokenizer as the index, so a span is always a whole displayed word.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from index_builder.model import Span
from index_builder.searchtext import iter_words

_JOINERS = frozenset(" \t-\u2010\u2011\u2012\u2013\u2014")


@dataclass
class MatchTerms:
    """What a word must be to count as matched: a stem, an exact word or a prefix."""

    stems: set[str] = field(default_factory=set)
    exact: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.stems or self.exact or self.prefixes)

    def matches(self, folded: str, stem: Callable[[str], str]) -> bool:
        """True when the folded word ``folded`` is one of the query's words."""
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
    for _, start, end, folded in iter_words(text):
        if terms.matches(folded, stem):
            if found and start - found[-1][1] == 1 and text[start - 1] in _JOINERS:
                found[-1] = (found[-1][0], end)
            else:
                found.append((start, end))
    return tuple(found)
