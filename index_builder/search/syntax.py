"""The query language, parsed into a small tree with no Whoosh in it.

Grammar (NOT binds tightest, then AND, then OR, so ``a OR b NOT c`` is ``a OR (b AND NOT c)``
and ``"optimal transport" NOT diffusion`` excludes diffusion from the phrase's matches)::

    query   := or
    or      := and ("OR" and)*
    and     := unary ("AND"? unary)*
    unary   := ("NOT" | "-") unary | primary
    primary := "(" or ")" | FIELD ":" ("(" or ")" | PHRASE | WORD) | PHRASE | WORD
    WORD    := word | word "*" (prefix) | "*" word (suffix) | "*" word "*" (infix)
             | word "~" [digit] (fuzzy)

Anything else raises :class:`QuerySyntaxError`; the caller then reads the query as plain
words with :func:`plain_words`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

from index_builder.search.words import WORD_RE, iter_words

FIELDS = {
    "title": "title",
    "author": "author",
    "authors": "author",
    "abstract": "abstract",
    "topic": "topic",
    "area": "area",
    "institution": "institution",
    "institutions": "institution",
    "inst": "institution",
    "affiliation": "institution",
    "session": "session",
    "is": "is",
    "has": "has",
    "day": "day",
    "venue": "venue",
    "track": "track",
    "site": "site",
    "tag": "tag",
}
"""Field names a user may type (lower case) and the field each one means."""

FILTER_VALUES = {
    "is": {"oral", "spotlight", "poster", "bookmarked", "dismissed", "new", "unjoined", "library"},
    "has": {"abstract", "code"},
}
MAX_DEPTH = 24
MAX_LEAVES = 128
MAX_FALLBACK_WORDS = 32

WordKind = Literal["plain", "prefix", "suffix", "infix", "fuzzy"]
"""``word``, ``word*`` (starts with), ``*word`` (ends with), ``*word*`` (contains),
``word~`` (within one or two edits)."""


class QuerySyntaxError(ValueError):
    """The query is not well formed."""


@dataclass(frozen=True)
class Word:
    """One word, maybe restricted to a field; ``start``/``end`` locate it in the query."""

    text: str
    field: str | None = None
    kind: WordKind = "plain"
    distance: int = 1
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class Phrase:
    """Words that must appear together, in order."""

    text: str
    field: str | None = None


@dataclass(frozen=True)
class And:
    """Every child matches."""

    children: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    """At least one child matches."""

    children: tuple[Node, ...]


@dataclass(frozen=True)
class Not:
    """The child does not match."""

    child: Node


Node = Word | Phrase | And | Or | Not

_FIELD_RE = re.compile(r"([A-Za-z]+):(.*)", re.S)
_FUZZY_RE = re.compile(r"(.+?)~(\d?)")
_SPECIALS = '()"'


def _lex(query: str) -> list[tuple[str, object, int, int]]:
    """Split ``query`` into ``(kind, value, start, end)`` tokens."""
    tokens: list[tuple[str, object, int, int]] = []
    i, n = 0, len(query)
    while i < n:
        c = query[i]
        if c.isspace():
            i += 1
        elif c in "()":
            tokens.append((c, c, i, i + 1))
            i += 1
        elif c == '"':
            close = query.find('"', i + 1)
            if close < 0:
                raise QuerySyntaxError("unbalanced quote")
            tokens.append(("phrase", query[i + 1 : close], i, close + 1))
            i = close + 1
        elif c == "-" and i + 1 < n and not query[i + 1].isspace() and query[i + 1] != "-":
            tokens.append(("NOT", "-", i, i + 1))
            i += 1
        else:
            j = i
            while j < n and not query[j].isspace() and query[j] not in _SPECIALS:
                j += 1
            run = query[i:j]
            tokens.append(_word_token(run, query, i, j))
            i = j
    return tokens


def _word_token(run: str, query: str, i: int, j: int) -> tuple[str, object, int, int]:
    if run in ("AND", "OR", "NOT"):
        return (run, run, i, j)
    match = _FIELD_RE.fullmatch(run)
    if match and match.group(1).lower() in FIELDS:
        field = FIELDS[match.group(1).lower()]
        rest = match.group(2)
        if rest:
            return ("word", (field, rest, i + len(match.group(1)) + 1), i, j)
        if j < len(query) and query[j] in '"(':
            return ("field", field, i, j)
        raise QuerySyntaxError(f"{field}: has no value")
    return ("word", (None, run, i), i, j)


def _make_word(field: str | None, text: str, start: int) -> Word:
    end = start + len(text)
    if not WORD_RE.search(text):
        raise QuerySyntaxError(f"{text!r} has no word in it")
    kind: WordKind = "plain"
    distance = 1
    if text.startswith("*") and WORD_RE.fullmatch(core := text.strip("*")):
        text, kind = core, "infix" if text.endswith("*") else "suffix"
    elif text.endswith("*"):
        text, kind = text.rstrip("*"), "prefix"
    elif fuzzy := _FUZZY_RE.fullmatch(text):
        text, kind = fuzzy.group(1), "fuzzy"
        distance = min(int(fuzzy.group(2) or 1), 2)
    if kind != "plain" and not WORD_RE.fullmatch(text):
        raise QuerySyntaxError(f"{text!r} cannot take * or ~")
    if field in FILTER_VALUES and text.lower() not in FILTER_VALUES[field]:
        raise QuerySyntaxError(f"unknown filter {field}:{text}")
    return Word(text, field, kind, distance, start, end)


class _Parser:
    def __init__(self, query: str) -> None:
        self.tokens = _without_stray_closers(_lex(query))
        self.i = 0
        self.depth = 0
        self.leaves = 0

    def peek(self) -> str | None:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, object, int, int]:
        if self.i >= len(self.tokens):
            raise QuerySyntaxError("unexpected end")
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def parse(self) -> Node:
        node = self.parse_or()
        if self.i != len(self.tokens):
            raise QuerySyntaxError("unexpected )")
        return node

    def deeper(self) -> None:
        """Count one more level of nesting (a bracket or a NOT); refuse past the limit."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise QuerySyntaxError("nested too deep")

    def parse_or(self) -> Node:
        self.deeper()
        items = [self.parse_and()]
        while self.peek() == "OR":
            self.take()
            items.append(self.parse_and())
        self.depth -= 1
        return items[0] if len(items) == 1 else Or(tuple(items))

    def parse_and(self) -> Node:
        items: list[Node] = []
        while self.peek() not in (None, ")", "OR"):
            if self.peek() == "AND":
                self.take()
                if not items or self.peek() in (None, ")", "OR", "AND"):
                    raise QuerySyntaxError("AND needs two sides")
                continue
            items.append(self.parse_unary())
        if not items:
            raise QuerySyntaxError("empty expression")
        return items[0] if len(items) == 1 else And(tuple(items))

    def parse_unary(self) -> Node:
        if self.peek() == "NOT":
            self.take()
            if self.peek() in (None, ")", "OR", "AND"):
                raise QuerySyntaxError("NOT needs a term")
            self.deeper()  # NOT NOT NOT ... nests as deep as brackets do
            child = self.parse_unary()
            self.depth -= 1
            return Not(child)
        return self.parse_primary()

    def parse_primary(self, field: str | None = None) -> Node:
        kind, value, _, _ = self.take()
        self.leaves += 1
        if self.leaves > MAX_LEAVES:
            raise QuerySyntaxError("too many terms")
        if kind == "(":
            node = self.parse_or()
            if self.take()[0] != ")":
                raise QuerySyntaxError("unbalanced (")
            return with_field(node, field) if field else node
        if kind == "field" and field is None:
            return self.parse_primary(str(value))
        if kind == "phrase":
            return Phrase(str(value), field)
        if kind == "word":
            assert isinstance(value, tuple)
            own_field, text, text_start = value
            return _make_word(own_field or field, str(text), int(text_start))
        raise QuerySyntaxError(f"unexpected {kind}")


def with_field(node: Node, field: str) -> Node:
    """``node`` with every unfielded word and phrase restricted to ``field``."""
    if isinstance(node, Word | Phrase):
        return node if node.field else replace(node, field=field)
    if isinstance(node, Not):
        return Not(with_field(node.child, field))
    return type(node)(tuple(with_field(c, field) for c in node.children))


def parse(query: str) -> Node:
    """Parse ``query``; raise :class:`QuerySyntaxError` when it is malformed."""
    try:
        return _Parser(query).parse()
    except RecursionError as exc:  # any nesting the depth count missed is still refused
        raise QuerySyntaxError("nested too deep") from exc


def _without_stray_closers(
    tokens: list[tuple[str, object, int, int]],
) -> list[tuple[str, object, int, int]]:
    """The tokens without a ``)`` that closes nothing (``diffusion OR transformer)``)."""
    depth, kept = 0, []
    for tok in tokens:
        if tok[0] == "(":
            depth += 1
        elif tok[0] == ")":
            if depth == 0:
                continue
            depth -= 1
        kept.append(tok)
    return kept


def plain_words(query: str) -> Node | None:
    """The query read as plain words ANDed together (``None`` when it has no words)."""
    found = [Word(query[s:e], None, "plain", 1, s, e) for _, s, e, _ in iter_words(query)][
        :MAX_FALLBACK_WORDS
    ]
    if not found:
        return None
    return found[0] if len(found) == 1 else And(tuple(found))


def last_word_as_prefix(node: Node, query: str) -> Node:
    """Make the plain word that ends ``query`` a prefix (search as you type).

    A ``*word`` being typed (ends with) becomes ``*word*`` (contains) the same way.
    """
    end = len(query)
    if not query or query[-1].isspace():
        return node

    def visit(n: Node) -> Node:
        if isinstance(n, Word):
            if n.end == end and n.kind == "plain" and WORD_RE.fullmatch(n.text):
                return replace(n, kind="prefix")
            if n.end == end and n.kind == "suffix":
                return replace(n, kind="infix")
            return n
        if isinstance(n, Phrase):
            return n
        if isinstance(n, Not):
            return Not(visit(n.child))
        return type(n)(tuple(visit(c) for c in n.children))

    return visit(node)


def positive_leaves(node: Node, negated: bool = False) -> Iterator[Word | Phrase]:
    """Words and phrases that a match must (or may) contain, skipping those under NOT."""
    if isinstance(node, Word | Phrase):
        if not negated:
            yield node
    elif isinstance(node, Not):
        yield from positive_leaves(node.child, not negated)
    else:
        for child in node.children:
            yield from positive_leaves(child, negated)
