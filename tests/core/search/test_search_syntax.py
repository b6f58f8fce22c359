"""The query language: parsing, fallbacks and the property that no query raises."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from index_builder.model import SearchResult
from index_builder.search.engine import SearchIndex
from index_builder.search.syntax import (
    And,
    Not,
    Or,
    Phrase,
    QuerySyntaxError,
    Word,
    last_word_as_prefix,
    parse,
    plain_words,
)
from tests.helpers.search_papers import PAPERS

pytestmark = pytest.mark.usefixtures("text_table")


def test_precedence_not_then_and_then_or() -> None:
    node = parse("a OR b NOT c")
    assert isinstance(node, Or)
    left, right = node.children
    assert isinstance(left, Word) and left.text == "a"
    assert isinstance(right, And)
    assert isinstance(right.children[1], Not)


def test_fields_phrases_prefix_fuzzy() -> None:
    node = parse('author:"Zi Wang" title:water* masart~2 -is:oral')
    assert isinstance(node, And)
    phrase, prefix, fuzzy, neg = node.children
    assert phrase == Phrase("Zi Wang", "author")
    assert isinstance(prefix, Word) and (prefix.field, prefix.kind, prefix.text) == (
        "title",
        "prefix",
        "water",
    )
    assert isinstance(fuzzy, Word) and (fuzzy.kind, fuzzy.distance) == ("fuzzy", 2)
    assert isinstance(neg, Not) and neg.child == Word("oral", "is", start=43, end=47)


def test_group_takes_the_field() -> None:
    node = parse("author:(hopper OR dao)")
    assert isinstance(node, Or)
    assert {c.field for c in node.children if isinstance(c, Word)} == {"author"}


def test_unknown_field_is_a_plain_word() -> None:
    assert parse("ratio:1") == Word("ratio:1", None, "plain", 1, 0, 7)


def test_dash_inside_a_word_is_not_negation() -> None:
    node = parse("Wang-Landau")
    assert isinstance(node, Word) and node.text == "Wang-Landau"


@pytest.mark.parametrize(
    "query",
    [
        '"open',
        "(a",
        "NOT",
        "a NOT",
        "author:",
        "*",
        "~",
        ":::",
        "AND",
        "a OR",
        "()",
        "is:nonsense",
        "(" * 40 + "a" + ")" * 40,
        " ".join(["w"] * 130),
    ],
)
def test_malformed(query: str) -> None:
    with pytest.raises(QuerySyntaxError):
        parse(query)


def test_a_stray_closing_bracket_is_dropped() -> None:
    assert parse("a)") == parse("a")
    assert parse("(a OR b))") == parse("(a OR b)")


def test_plain_words_keeps_positions() -> None:
    node = plain_words('"massart noise')
    assert isinstance(node, And)
    assert [(w.text, w.start) for w in node.children if isinstance(w, Word)] == [
        ("massart", 1),
        ("noise", 9),
    ]
    assert plain_words(":::") is None


def test_last_word_as_prefix() -> None:
    node = last_word_as_prefix(parse("diffusion lang"), "diffusion lang")
    assert isinstance(node, And)
    assert [c.kind for c in node.children if isinstance(c, Word)] == ["plain", "prefix"]
    unchanged = last_word_as_prefix(parse("diffusion "), "diffusion ")
    assert isinstance(unchanged, Word) and unchanged.kind == "plain"
    quoted = last_word_as_prefix(parse('"diffusion"'), '"diffusion"')
    assert isinstance(quoted, Phrase)


def test_leading_star_ends_with_and_both_stars_contain() -> None:
    node = parse("*former author:*son *diffus*")
    assert isinstance(node, And)
    suffix, fielded, infix = node.children
    assert isinstance(suffix, Word) and (suffix.text, suffix.kind) == ("former", "suffix")
    assert isinstance(fielded, Word) and (fielded.field, fielded.text, fielded.kind) == (
        "author",
        "son",
        "suffix",
    )
    assert isinstance(infix, Word) and (infix.text, infix.kind) == ("diffus", "infix")
    # typed as the last word (search as you type), "ends with" becomes "contains"
    typing = last_word_as_prefix(parse("*form"), "*form")
    assert isinstance(typing, Word) and typing.kind == "infix"
    with pytest.raises(QuerySyntaxError):
        parse("*a~")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    ix = SearchIndex(tmp_path_factory.mktemp("syntax") / "index", PAPERS, "fp")
    ix.ensure()
    yield ix
    ix.close()


ALPHABET = st.sampled_from(
    [*'abcdefghxyz AND OR NOT ()"*~:-', "author:", "is:", "has:", "title:", "day:", "é", "–"]
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(ALPHABET, max_size=30).map("".join), st.booleans())
def test_no_query_raises(index: SearchIndex, query: str, prefix: bool) -> None:
    result = index.search(query, prefix=prefix, facets=True, sort="relevance")
    assert isinstance(result, SearchResult)
    assert result.total >= len(result.hits)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=200), st.sampled_from(["relevance", "title", "time"]))
def test_no_text_raises(index: SearchIndex, query: str, sort: str) -> None:
    result = index.search(query, prefix=True, sort=sort)  # type: ignore[arg-type]
    assert isinstance(result, SearchResult)


def test_long_junk(index: SearchIndex) -> None:
    junk = ('(("x:::*~ NOT AND OR -"' * 150)[:3000]
    result = index.search(junk)
    assert isinstance(result, SearchResult)
    assert result.fallback
