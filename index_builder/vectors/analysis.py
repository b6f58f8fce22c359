"""What a paper's vector is made of: its words (and word pairs), and its authors as people.

The text (title and abstract) is folded as everywhere else (:func:`index_builder.text.words.fold`)
and cut into words that start with a letter; English stop words are left out, and word
pairs join two words that stand next to each other once the stop words are gone (as
scikit-learn's 1-2-grams do). An author is one feature, the whole name folded
(:data:`AUTHOR_MARK` then ``yann lecun``): a first name or an initial is never a feature,
so two papers by a Paul and a Paul are not near for that. The authors' part of a row is
scaled to :attr:`Analysis.author_weight` of the words' part, so a shared author is a real
but bounded link.

:class:`Analysis` holds every setting that turns text into features; it is stored with
the vectors, so a paper outside the catalogue is vectorized as the catalogue's papers were.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, fields
from functools import cached_property
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from index_builder.text.words import fold

if TYPE_CHECKING:
    from index_builder.model import Paper

TOKEN_PATTERN = r"(?u)\b[^\W\d_][^\W_]+\b"
"""Words of two or more letters or digits that start with a letter."""
AUTHOR_MARK = "@"
"""Starts every author feature: no word starts with it, so the two never meet."""


@dataclass(frozen=True)
class Analysis:
    """The settings that turn a paper into features, stored beside the vectors."""

    stop_words: tuple[str, ...]
    pairs: bool = False
    """Word pairs (2-grams) as well as words."""
    tf: str = "log"
    """How a term's count weighs: ``log`` (1 + ln count), ``bm25`` (saturating at
    ``tf_k`` + 1: count (k + 1) / (count + k)) or ``raw``."""
    tf_k: float = 1.2
    idf: str = "smooth"
    """``smooth`` (ln((1 + n) / (1 + df)) + 1, scikit-learn's) or ``bm25``
    (ln(1 + (n - df + 0.5) / (df + 0.5)))."""
    author_weight: float = 0.0
    """The authors' part of a row over the words' part (both unit length first)."""
    max_features: int = 20_000
    """Word features kept at most (those in most papers); authors are not counted."""
    token_pattern: str = TOKEN_PATTERN

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON values."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["stop_words"] = list(self.stop_words)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Analysis:
        """The settings :meth:`to_json` wrote; ``ValueError`` when they are not whole."""
        try:
            return cls(
                stop_words=tuple(str(w) for w in data["stop_words"]),
                pairs=bool(data["pairs"]),
                tf=str(data["tf"]),
                tf_k=float(data["tf_k"]),
                idf=str(data["idf"]),
                author_weight=float(data["author_weight"]),
                max_features=int(data["max_features"]),
                token_pattern=str(data["token_pattern"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"the vectors' analysis settings are not whole: {exc}") from exc

    def words(self, text: str) -> list[str]:
        """The terms of ``text``: folded words without stop words, then the pairs."""
        found = self.single_words(text)
        if self.pairs:
            found += [pair_text(a, b) for a, b in pairwise(found)]
        return found

    def single_words(self, text: str) -> list[str]:
        """The folded words of ``text`` without stop words, in order (no pairs): each
        two neighbours of this list are a pair when :attr:`pairs` is on."""
        stop = self._stop
        return [w for w in self._pattern.findall(fold(text)) if w not in stop]

    @cached_property
    def _stop(self) -> frozenset[str]:
        return frozenset(self.stop_words)

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        return re.compile(self.token_pattern)

    def terms(self, paper: Paper) -> tuple[list[str], list[str]]:
        """``(words, authors)``: the text's terms and the author features of ``paper``."""
        return self.words(text_of(paper)), author_features(paper.authors)


def text_of(paper: Paper) -> str:
    """The text of ``paper`` whose words are its terms: its title and abstract."""
    return f"{paper.title}\n{paper.abstract}"


def pair_text(first: str, second: str) -> str:
    """The feature of two neighbouring words (a space never occurs in a word)."""
    return f"{first} {second}"


def is_author(feature: str) -> bool:
    """Whether ``feature`` is an author (not a word of the text)."""
    return feature.startswith(AUTHOR_MARK)


def author_features(authors: Iterable[str]) -> list[str]:
    """One feature per author: the whole name folded, spaces made single. A name of one
    word (``Wang``, as some sources list a person) tells no one apart: not a feature."""
    out = []
    for name in authors:
        folded = " ".join(fold(name).replace(".", ". ").split())
        if " " in folded:
            out.append(AUTHOR_MARK + folded)
    return list(dict.fromkeys(out))
