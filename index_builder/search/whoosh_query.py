"""From a parsed query to a Whoosh query, and "did you mean" (Whoosh query objects only).

:class:`QueryBuilder` expands prefixes and fuzzy words against the vocabulary and
collects the words to highlight; :func:`suggest` proposes a corrected query.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from itertools import islice
from typing import Any

from whoosh import query as Q
from whoosh.query.compound import PreloadedOr
from whoosh.support.levenshtein import distance

from index_builder.model import tagged_ids
from index_builder.search.documents import normalize_day
from index_builder.search.facets import site_term, venue_term
from index_builder.search.highlight import MatchTerms
from index_builder.search.schema import stem
from index_builder.search.syntax import (
    And,
    Node,
    Not,
    Phrase,
    QuerySyntaxError,
    Word,
    parse,
    positive_leaves,
)
from index_builder.search.syntax import plain_words as plain_words_query
from index_builder.search.vocabulary import Vocabulary, close_words
from index_builder.search.words import words

DEFAULT_FIELDS = ("text",)
"""Unfielded words search one combined field: title, authors, topic, institutions, abstract."""
STEMMED = frozenset({"title", "abstract", "text"})
HIGHLIGHTED = frozenset({"title", "abstract", "text"})
PHRASE_FIELDS = ("title", "author", "abstract", "topic", "institution")
"""The combined field has no positions (cheaper to build): phrases search each field."""
FLAG_FIELDS = frozenset({"is", "has", "day", "tag"})
EXACT_FIELDS = frozenset({"area", "session", "venue", "track", "site"})
NO_SPELLING = FLAG_FIELDS | EXACT_FIELDS
LEXICONS = ("author", "institution", "topic")
"""Unstemmed fields whose words serve "did you mean" besides the vocabulary."""
MAX_EXPANSIONS = 32


def _close_words(reader: Any, field: str, word: str, maxdist: int) -> list[tuple[int, str]]:
    """``(distance, term)`` for terms of ``field`` within ``maxdist`` edits (same first letter)."""
    if not word:
        return []
    lo, hi = len(word) - maxdist, len(word) + maxdist

    def terms() -> Iterator[str]:
        for raw in reader.expand_prefix(field, word[0]):
            if lo <= len(raw) <= hi + 4:  # UTF-8 bytes: a letter takes up to 4
                yield raw.decode("utf-8") if isinstance(raw, bytes) else raw

    def levenshtein(a: str, b: str, limit: int) -> int:
        return int(distance(a, b, limit=limit + 1))

    return close_words(word, terms(), maxdist, levenshtein)


def _any(parts: list[Any]) -> Any:
    """An OR of the terms a prefix or fuzzy word expands to."""
    if not parts:
        return Q.NullQuery
    if len(parts) == 1:
        return parts[0]
    # A tree of unions can skip ahead inside an AND; an array wins once there are many parts.
    return PreloadedOr(parts) if len(parts) > 16 else Q.Or(parts)


def _expansion(
    expanded: Sequence[str], fields: Sequence[str], unstemmed: Callable[[str], list[Any]]
) -> Any:
    """An OR of the stems of the ``expanded`` words in each stemmed field, and of the terms
    ``unstemmed(field)`` gives in each other field (their words are stored as written)."""
    stems = sorted({stem(w) for w in expanded})
    parts: list[Any] = []
    for f in fields:
        parts.extend((Q.Term(f, s) for s in stems) if f in STEMMED else unstemmed(f))
    return _any(parts)


def _exact_value(field: str, text: str) -> str:
    if field == "venue":
        return venue_term(text)
    if field == "site":
        return site_term(text)
    value = " ".join(words(text))
    if field == "session" and value.isascii() and value.isdigit():
        return f"poster session {value}"
    return value


class QueryBuilder:
    """Turns a parsed query into a Whoosh query and collects the words to highlight."""

    def __init__(
        self,
        reader: Any,
        vocab: Vocabulary,
        bookmarked: Collection[str] = (),
        new: Collection[str] = (),
        dismissed: Collection[str] = (),
        library: Collection[str] = (),
    ) -> None:
        self.reader = reader
        self.vocab = vocab
        # The is: values that name a set of ids the caller holds, not an indexed flag.
        self.id_sets = {
            "bookmarked": bookmarked, "new": new, "dismissed": dismissed, "library": library
        }  # fmt: skip
        self.terms = MatchTerms()
        self._positive = False

    def build(self, node: Node) -> Any | None:
        """The Whoosh query for ``node`` (``None`` when it has no searchable word)."""
        self._positive = False
        built = self._node(node, False)
        if built is not None and not self._positive:
            built = Q.And([Q.Every(), built])
        return built

    def _node(self, node: Node, negated: bool) -> Any | None:
        if isinstance(node, Word):
            built = self._word(node, negated)
        elif isinstance(node, Phrase):
            built = self._phrase(node, negated)
        elif isinstance(node, Not):
            child = self._node(node.child, not negated)
            return None if child is None else Q.Not(child)
        else:
            kids = [k for k in (self._node(c, negated) for c in node.children) if k is not None]
            if len(kids) <= 1:
                return kids[0] if kids else None
            return Q.And(kids) if isinstance(node, And) else Q.Or(kids)
        if built is not None and not negated:
            self._positive = True
        return built

    def _word(self, node: Word, negated: bool) -> Any | None:
        field = node.field
        if field in FLAG_FIELDS:
            value = normalize_day(node.text) if field == "day" else node.text.lower()
            if field == "tag":  # the reading list's tags (model.Marked), not in the index
                tagged = sorted(tagged_ids(self.id_sets["bookmarked"], node.text))
                return Q.Or([Q.Term("id", i) for i in tagged]) if tagged else Q.NullQuery
            if field == "is" and value in self.id_sets:
                ids = sorted(self.id_sets[value])
                return Q.Or([Q.Term("id", i) for i in ids]) if ids else Q.NullQuery
            return Q.Term(field, value)
        if field in EXACT_FIELDS:
            return Q.Term(field, _exact_value(field, node.text))
        fields = (field,) if field else DEFAULT_FIELDS
        found = words(node.text)
        if not found:
            return None
        highlight = not negated and any(f in HIGHLIGHTED for f in fields)
        if node.kind == "prefix":
            return self._prefix(found[-1], fields, highlight)
        if node.kind in ("suffix", "infix"):
            return self._inside(found[-1], fields, highlight, at_end=node.kind == "suffix")
        if node.kind == "fuzzy":
            return self._fuzzy(found[-1], fields, node.distance, highlight)
        parts = [self._plain(w, fields, highlight) for w in found]
        return parts[0] if len(parts) == 1 else Q.And(parts)

    def _plain(self, word: str, fields: Sequence[str], highlight: bool) -> Any:
        if highlight:
            self.terms.stems.add(stem(word))
            self.terms.exact.add(word)
        parts = [Q.Term(f, stem(word) if f in STEMMED else word) for f in fields]
        return parts[0] if len(parts) == 1 else Q.Or(parts)

    def _prefix(self, prefix: str, fields: Sequence[str], highlight: bool) -> Any:
        # A short prefix ("l" while typing) expands to thousands of words, and an OR of
        # thousands of terms is slow (WHOOSH.md): keep the most frequent words only.
        cap = min(MAX_EXPANSIONS, 4 * 2 ** (len(prefix) - 1))
        expanded, more = self.vocab.expand(prefix, cap)
        if highlight:
            if more:
                self.terms.exact.update(expanded)
            else:
                self.terms.prefixes.add(prefix)

        def unstemmed(f: str) -> list[Any]:
            terms = list(islice(self.reader.expand_prefix(f, prefix), cap + 1))
            if len(terms) <= cap:
                return [Q.Term(f, t.decode("utf-8")) for t in terms]
            return [Q.Term(f, prefix)] if (f, prefix) in self.reader else []

        return _expansion(expanded, fields, unstemmed)

    def _inside(self, part: str, fields: Sequence[str], highlight: bool, *, at_end: bool) -> Any:
        """``*part*`` (words holding ``part``) or ``*part`` (ending with it): the most
        frequent words that do, as for a prefix; an unstemmed field scans its own terms."""
        expanded, _ = self.vocab.containing(part, MAX_EXPANSIONS, at_end=at_end)
        if highlight:
            self.terms.exact.update(expanded)

        def holds(term: str) -> bool:
            return term.endswith(part) if at_end else part in term

        def unstemmed(f: str) -> list[Any]:
            lexicon = (t.decode("utf-8") for t in self.reader.lexicon(f))
            return [Q.Term(f, t) for t in islice(filter(holds, lexicon), MAX_EXPANSIONS)]

        return _expansion(expanded, fields, unstemmed)

    def _fuzzy(self, word: str, fields: Sequence[str], maxdist: int, highlight: bool) -> Any:
        near = {t for _, t in self.vocab.near(word, maxdist)} | {word}
        if highlight:
            self.terms.exact.update(near)
            self.terms.stems.update(stem(t) for t in near)
        parts: list[Any] = []
        for f in fields:
            if f in STEMMED:
                parts.extend(Q.Term(f, s) for s in sorted({stem(t) for t in near}))
            else:
                parts.append(Q.FuzzyTerm(f, word, maxdist=maxdist, prefixlength=1))
        return _any(parts)

    def _phrase(self, node: Phrase, negated: bool) -> Any | None:
        field = node.field
        if field in FLAG_FIELDS:
            return self._word(Word(node.text, field), negated)
        if field in EXACT_FIELDS:
            return Q.Term(field, _exact_value(field, node.text))
        fields = (field,) if field else PHRASE_FIELDS
        found = words(node.text)
        if not found:
            return None
        if not negated and any(f in HIGHLIGHTED for f in fields):
            self.terms.stems.update(stem(w) for w in found)
            self.terms.exact.update(found)
        parts = []
        for f in fields:
            terms = [stem(w) if f in STEMMED else w for w in found]
            parts.append(Q.Term(f, terms[0]) if len(terms) == 1 else Q.Phrase(f, terms))
        return parts[0] if len(parts) == 1 else Q.Or(parts)


def _starts_a_word(reader: Any, vocab: Vocabulary, prefix: str) -> bool:
    """True when some indexed word begins with ``prefix``."""
    if vocab.expand(prefix, 1)[0]:
        return True
    return any(next(iter(reader.expand_prefix(f, prefix)), None) for f in LEXICONS)


def _closest(reader: Any, vocab: Vocabulary, word: str) -> str | None:
    """The most frequent indexed word nearest to ``word``, or ``None``."""
    maxdist = 2 if len(word) > 4 else 1
    best: tuple[int, int, str] | None = None
    for dist, term in vocab.near(word, maxdist):
        key = (dist, -vocab.df(term), term)
        if best is None or key < best:
            best = key
    for field in LEXICONS:
        for dist, term in _close_words(reader, field, word, maxdist):
            key = (dist, -reader.doc_frequency(field, term), term)
            if best is None or key < best:
                best = key
    return best[2] if best else None


def suggest(
    reader: Any,
    vocab: Vocabulary,
    query: str,
    node: Node,
    total: int,
    bookmarked: Collection[str],
    count: Callable[[Any], int],
) -> str | None:
    """A corrected query when words of ``query`` are unknown and the correction finds more.

    ``count`` tells how many papers a Whoosh query matches.
    """
    edits: list[tuple[int, int, str]] = []
    for leaf in positive_leaves(node):
        if not isinstance(leaf, Word) or leaf.kind not in ("plain", "prefix"):
            continue
        if leaf.field in NO_SPELLING or ":" in query[leaf.start : leaf.end + 1]:
            continue  # a field name being typed ("title:") is syntax, not a misspelt word
        found = words(leaf.text)
        if len(found) != 1 or len(found[0]) < 3:
            continue
        if vocab.df(found[0]) or any(reader.doc_frequency(f, found[0]) for f in LEXICONS):
            continue
        if leaf.kind == "prefix" and _starts_a_word(reader, vocab, found[0]):
            continue  # the start of a word being typed (search as you type)
        better = _closest(reader, vocab, found[0])
        if better:
            edits.append((leaf.start, leaf.end, better))
    if not edits:
        return None
    fixed = query
    for start, end, word in sorted(edits, reverse=True):
        fixed = fixed[:start] + word + fixed[end:]
    try:
        fixed_node: Node | None = parse(fixed)
    except QuerySyntaxError:
        fixed_node = plain_words_query(fixed)
    built = QueryBuilder(reader, vocab, bookmarked).build(fixed_node) if fixed_node else None
    if built is None:
        return None
    return fixed if count(built) > total else None


def weighted_terms(weights: dict[str, float], fields: Sequence[str]) -> Any:
    """An OR of ``term`` in each of ``fields``, each weighted (for "more like this")."""
    return Q.Or([Q.Term(f, t, boost=w) for t, w in weights.items() for f in fields])
