"""How well an abstract matches each title of the paper table (the evidence for a join).

Titles and abstracts are reduced to word stems (case and accents folded, LaTeX
commands and Markdown marks dropped, light suffix stripping). A title's stems
are weighted by their rarity among all titles (IDF). An abstract matches a title
when it holds the title's rare stems, the title's word pairs in the same order,
and above all the title's distinctive name (``ProEval``, ``RL4RLA``): a
CamelCase, multi-capital or digit-bearing word that at most two titles carry, or a
one-word lead before the colon (``View-on-Graph:``). A title whose name, or either word
of a two-word lead (``SAM Audio:``), the abstract never writes is set back.

When the table knows its papers' authors, :meth:`TitleIndex.fully_named` finds the rows
every one of whose (two or more) authors an entry writes in full (``Yen-Ju Chen`` or
``Y. Chen``), as a list copied with its author lines does.

:class:`TitleIndex` scores one abstract against every title through an inverted
index, so matching thousands of abstracts against thousands of titles is cheap.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from index_builder.catalogue.joins.thresholds import (
    CANDIDATE_MAX_DF,
    NAME_BONUS,
    NAME_GRAMS,
    NAME_MAX_TITLES,
    NAME_MISS,
)
from index_builder.catalogue.joins.thresholds import TF_MAX as _TF_MAX
from index_builder.text.words import fold, strip_accents


def _words(text: str) -> list[str]:
    """The whitespace-separated words of a constant."""
    return text.split()


STOPWORDS = frozenset(
    _words(
        """
        a an the of for and or in on to with by from via at as is are be we our this that
        these those its it into over under between through without within towards toward
        using use based vs versus can do does not no when what which how why more less than
        beyond new novel approach approaches method methods framework study analysis learning
        model models learn
        """
    )
)
_SUFFIXES = sorted(
    _words(
        """
        izations ization ations ation izing ized izes ize ising ised ises ise ings ing edly ed
        ness ments ment ities ity ically ical ally ly ives ive ers er es s al ions ion ors or
        """
    ),
    key=len,
    reverse=True,
)

_TF_WEIGHT = [0.0] + [min(1 + math.log(n), _TF_MAX) for n in range(1, 8)]
"""Weight of a title word by how often the abstract repeats it: 1, 1.69, 2.10, ... capped."""
_COMMAND = re.compile(r"\\[A-Za-z]+")
_MARKS = re.compile(r"[$^{}*_]")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[A-Za-z]")
_WORD = re.compile(r"[0-9a-z]+")
_ALNUM = re.compile(r"[^0-9A-Za-z]")
_NAME_PART = re.compile(r"[a-z]+")


def _fold(text: str) -> str:
    """Drop LaTeX commands, math and emphasis marks, and accents; keep letter case."""
    return strip_accents(_MARKS.sub("", _COMMAND.sub(" ", text)).replace("~", " "))


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A light stem: strip one common English suffix, keeping at least four letters."""
    if len(word) <= 4 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 5:
        return word[:-3] + "y"
    if word.endswith("iness") and len(word) > 8:  # trustworthiness -> trustworthy
        return word[:-5] + "y"
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                continue
            return word[: -len(suffix)]
    return word


def stems(text: str) -> list[str]:
    """The stems of a text in order, stopwords included."""
    return _stems_of_folded(_fold(text))


def _stems_of_folded(folded: str) -> list[str]:
    """:func:`stems` of text already passed through :func:`_fold`."""
    return [stem(word) for word in _WORD.findall(folded.lower())]


def compact_words(text: str) -> set[str]:
    """Each whitespace-separated word with everything but letters and digits removed."""
    return {_ALNUM.sub("", word) for word in _fold(text).split()} - {""}


def _name_words(text: str) -> list[str]:
    """The letter runs of a text, folded (``Shin'ya`` is ``shin ya``, ``Hopper1`` is
    ``hopper``: affiliation marks stay out of names)."""
    return _NAME_PART.findall(fold(text))


def author_keys(name: str) -> frozenset[str]:
    """How an author may be written in an entry: in full, or with the first name's initial.

    Empty for a name of one word, which could be anybody's.
    """
    words = _name_words(name)
    if len(words) < 2 or len(words) > max(NAME_GRAMS):
        return frozenset()
    return frozenset({" ".join(words), " ".join([words[0][0], *words[1:]])})


_TOKEN = re.compile(r"\S+")
_CONNECTORS = frozenset({"and", "et", "al"})
_LINE_END = " .,;:·*†‡"


def without_author_line(text: str, authors: Sequence[str]) -> str:
    """``text`` without the author line it opens with, if it opens with all of ``authors``.

    The line may hold the names in any order with commas, ``and``, marks and affiliation
    numbers between them; it ends where the last author is complete. A text that does not
    open with every author (two or more) is returned as it is.
    """
    keys = _author_forms(authors)
    if len(keys) < 2:
        return text
    allowed = {word for forms in keys for form in forms for word in form.split()} | _CONNECTORS
    words: list[str] = []
    for token in _TOKEN.finditer(text):
        parts = _name_words(token.group())
        if not allowed.issuperset(parts) or len(words) > 6 * len(keys) + 8:
            return text
        words.extend(parts)
        if _writes_all(keys, _name_runs(words)):
            rest = text[token.end() :].lstrip(_LINE_END)
            return rest or text
    return text


def _author_forms(authors: Sequence[str]) -> tuple[frozenset[str], ...]:
    """:func:`author_keys` of each author who has any (one-word names left out)."""
    return tuple(filter(None, map(author_keys, authors)))


def _writes_all(keys: Sequence[frozenset[str]], runs: frozenset[str]) -> bool:
    """True when ``runs`` hold one form of every author of ``keys``."""
    return all(not forms.isdisjoint(runs) for forms in keys)


@lru_cache(maxsize=1 << 16)
def _surname(name: str) -> str:
    """The last word of a name as :func:`author_keys` ends it (``Bui-Tran``: ``tran``);
    empty for a name of one word. Kept per name: the table's 37,477 authors are 25,919
    names, and a process builds the index of the same table again."""
    parts = name.split()
    if len(parts) < 2:
        return ""
    last = _name_words(parts[-1])
    return last[-1] if last else ""


def _name_runs(words: Sequence[str]) -> frozenset[str]:
    """Every run of :data:`NAME_GRAMS` words, as :func:`author_keys` writes them."""
    return frozenset(
        " ".join(words[i : i + n]) for n in NAME_GRAMS for i in range(len(words) - n + 1)
    )


def title_names(title: str) -> set[str]:
    """Candidate method names of a title: CamelCase, multi-capital or digit-bearing words."""
    return _names_of_folded(_fold(title))


def _names_of_folded(folded: str) -> set[str]:
    """:func:`title_names` of text already passed through :func:`_fold`."""
    names = set()
    for word in folded.split():
        if word.islower():  # its letters and digits, if any, are lower case too
            continue
        core = _name_of_word(word)
        if core:
            names.add(core)
    return names


@lru_cache(maxsize=1 << 16)
def _name_of_word(word: str) -> str:
    """The name a title's word is (its letters and digits), or "" when it is none.

    Kept per word: titles repeat their capitalised words (``Learning``, ``Models``), and
    the table's 6,628 titles hold some 60,000 words, a fifth of them distinct (the
    :class:`TitleIndex` of the table 0.03 s faster, 13 %)."""
    core = _ALNUM.sub("", word)
    if len(core) < 3 or core.islower():
        return ""
    # Two letters side by side are in one run of letters and digits: the word's own
    # search finds what a search of each run would.
    if _CAMEL.search(word) or (_DIGIT.search(core) and _LETTER.search(core)):
        return core
    return ""


def _lead_name(folded: str) -> set[str]:
    """A title's one-word lead before a colon, as a name (``View-on-Graph: ...``).

    Hyphenated and plain-capital names escape :func:`title_names`; a lead of that shape
    is the paper's name all the same, and an abstract that never writes it is most likely
    another paper's. A plain capitalised word (``Position:``) is a kind, not a name.
    """
    head, colon, _ = folded.partition(":")
    if not colon or len(head.split()) != 1:
        return set()
    core = _ALNUM.sub("", head)
    plain = core.isalpha() and core[:1].isupper() and core[1:].islower()
    return set() if len(core) < 3 or core.islower() or plain else {core}


def _lead_words(folded: str) -> frozenset[str]:
    """A title's two-word lead before a colon (``SAM Audio: ...``), lowered, unless all lower.

    Such a lead names the paper as a phrase: an abstract that lacks either word is most
    likely another paper's (``SAM`` alone is the segmentation model many papers use).
    """
    head, colon, _ = folded.partition(":")
    if not colon or len(head.split()) != 2:
        return frozenset()
    words = [core for core in (_ALNUM.sub("", w) for w in head.split()) if core]
    if len(words) != 2 or all(w.islower() for w in words):
        return frozenset()
    return frozenset(w.lower() for w in words)


@dataclass(frozen=True, slots=True)
class AbstractTerms:
    """An abstract reduced to what the scores need."""

    counts: Counter[str]
    pairs: frozenset[tuple[str, str]]
    words: frozenset[str]
    lowered: frozenset[str] = frozenset()
    """``words`` in lower case, to find a title's names whatever their case."""
    name_runs: frozenset[str] = frozenset()
    """Runs of two to four words, to find the authors an entry names (:func:`author_keys`)."""
    name_words: frozenset[str] = frozenset()
    """The words of those runs, to find the rows whose authors' surnames the entry writes."""

    @classmethod
    def of(cls, text: str) -> AbstractTerms:
        """Analyse one abstract."""
        tokens = stems(text)
        content = [t for t in tokens if t not in STOPWORDS]
        words = frozenset(compact_words(text))
        named = _name_words(text)
        return cls(
            Counter(tokens),
            frozenset(itertools.pairwise(content)),
            words,
            frozenset(w.lower() for w in words),
            _name_runs(named),
            frozenset(named),
        )


class TitleIndex:
    """The titles of the table, tokenised and weighted, with an inverted index."""

    def __init__(self, titles: Sequence[str], authors: Sequence[Sequence[str]] = ()) -> None:
        """Analyse every title once; ``authors``, if given, holds each row's author names."""
        self.titles = tuple(titles)
        self._authors = [tuple(names) for names in authors]
        self._surnames = [tuple(filter(None, map(_surname, r))) for r in self._authors]
        self._keys: dict[int, tuple[frozenset[str], ...]] = {}
        surname_df = Counter(itertools.chain.from_iterable(map(set, self._surnames)))
        self._by_surname: dict[str, list[int]] = {}
        """Rows of two or more authors under their rarest surname: an entry must write it."""
        for row, surnames in enumerate(self._surnames):
            if len(surnames) >= 2:
                rarest = min(surnames, key=lambda name: (surname_df[name], name))
                self._by_surname.setdefault(rarest, []).append(row)
        folded = [_fold(title) for title in titles]
        self._terms = [[t for t in _stems_of_folded(f) if t not in STOPWORDS] for f in folded]
        all_names = [_names_of_folded(f) | _lead_name(f) for f in folded]
        df = Counter(itertools.chain.from_iterable(map(set, self._terms)))
        size = len(titles) + 1
        self._idf = {term: math.log(size / (count + 0.5)) for term, count in df.items()}
        idf = self._idf
        self._weights = [tuple((t, idf[t]) for t in dict.fromkeys(terms)) for terms in self._terms]
        self._total = [sum(w for _, w in weights) for weights in self._weights]
        self._pairs = [
            tuple(((a, b), min(idf[a], idf[b])) for a, b in itertools.pairwise(terms))
            for terms in self._terms
        ]
        self._any_names = [frozenset(n.lower() for n in names) for names in all_names]
        self._leads = [_lead_words(f) for f in folded]
        name_df = Counter(n.lower() for names in all_names for n in names)
        self._names = [
            {n for n in names if name_df[n.lower()] <= NAME_MAX_TITLES} for names in all_names
        ]
        self._name_rows: dict[str, list[int]] = {}
        for row, names in enumerate(self._names):
            for name in names:
                self._name_rows.setdefault(name, []).append(row)
        self._postings: dict[str, list[int]] = {}
        for row, terms in enumerate(self._terms):
            for term in set(terms):
                if df[term] <= CANDIDATE_MAX_DF:
                    self._postings.setdefault(term, []).append(row)

    def __len__(self) -> int:
        """The number of titles."""
        return len(self.titles)

    def score(self, terms: AbstractTerms, row: int) -> float:
        """How strongly the abstract matches one title (0 when nothing is shared)."""
        total = self._total[row]
        if not total:
            return 0.0
        counts = terms.counts
        covered = weight = 0.0
        for term, idf in self._weights[row]:
            count = counts.get(term)
            if count:
                covered += idf
                weight += idf * (_TF_WEIGHT[count] if count < len(_TF_WEIGHT) else _TF_MAX)
        if not covered:
            return 0.0
        pairs = sum(w for pair, w in self._pairs[row] if pair in terms.pairs)
        named = NAME_BONUS if self._names[row] & terms.words else 0.0
        score = (weight + pairs + named) * covered / total
        return score * NAME_MISS if self.lacks_name(terms, row) else score

    def lacks_name(self, terms: AbstractTerms, row: int) -> bool:
        """True when the title has a name (``LeafLife``, ``E-FAS``) the abstract never writes,
        or a two-word lead (``SAM Audio:``) one of whose words it never writes."""
        names, lead = self._any_names[row], self._leads[row]
        return (bool(names) and names.isdisjoint(terms.lowered)) or not lead <= terms.lowered

    def fully_named(self, terms: AbstractTerms) -> list[int]:
        """Rows with two or more authors, every one of whom the entry writes.

        A list that leaves authors out (``et al.``) or a row with a single author gives
        none: a name or two in an abstract may be a cited author, a whole author list is not.
        A one-word author (``Xu``, what a stray separator leaves) is passed over.
        """
        words, runs = terms.name_words, terms.name_runs
        rows = (r for word in words for r in self._by_surname.get(word, ()))
        return sorted(
            row
            for row in rows
            if words.issuperset(self._surnames[row]) and self._all_named(row, runs)
        )

    def _all_named(self, row: int, runs: frozenset[str]) -> bool:
        keys = self._keys.get(row)
        if keys is None:
            keys = self._keys[row] = _author_forms(self._authors[row])
        return len(keys) >= 2 and _writes_all(keys, runs)

    def named_by(self, terms: AbstractTerms, exclude: Collection[int] = ()) -> int | None:
        """The row whose author line the entry writes: of the :meth:`fully_named` rows
        (``exclude`` left out), the one with the most authors, if no other has as many.

        A row of two of the entry's six authors is their other paper; two rows of the
        same two authors cannot be told apart by their names.
        """
        rows = [r for r in self.fully_named(terms) if r not in exclude]
        sizes = sorted(((len(self._authors[r]), r) for r in rows), reverse=True)
        if not sizes or (len(sizes) > 1 and sizes[1][0] == sizes[0][0]):
            return None
        return sizes[0][1]

    def ranked(self, terms: AbstractTerms, limit: int = 100) -> list[tuple[float, int]]:
        """The best ``limit`` titles for an abstract, as ``(score, row)``, best first."""
        nominated: dict[int, float] = {}
        for term in terms.counts:
            weight = self._idf.get(term)
            if weight is not None:
                for row in self._postings.get(term, ()):
                    nominated[row] = nominated.get(row, 0.0) + weight
        rows = heapq.nlargest(limit * 2, nominated, key=nominated.__getitem__)
        for word in terms.words:
            rows.extend(r for r in self._name_rows.get(word, ()) if r not in nominated)
        scored = sorted(
            ((self.score(terms, row), row) for row in rows), key=lambda x: (-x[0], x[1])
        )
        return scored[:limit]
