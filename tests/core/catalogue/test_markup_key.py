"""The official join's text key (:func:`official.markup_key`): its ASCII shortcut keys
every text as the whole-text expression does.

The expression is the rule (runs of letters and digits after NFKC, case folded, one space
apart); the shortcut must not move a single key, or a certain join would change.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.catalogue.official import markup_key
from tests.helpers.arxiv_papers import arxiv_papers, sample_path

_MARKUP = re.compile(r"[\W_]+")


def by_expression(raw: str) -> str:
    """The key as the expression alone makes it (the code before the shortcut)."""
    return " ".join(_MARKUP.sub(" ", unicodedata.normalize("NFKC", raw)).casefold().split())


@pytest.mark.skipif(sample_path() is None, reason="the arXiv sample is not on this machine")
def test_every_arxiv_title_and_abstract_keys_as_by_the_expression() -> None:
    """Every text beyond ASCII of the sample (the expression's own path), and every ninth
    ASCII one (titles and abstracts alike): on ASCII the shortcut is a table of the 128
    characters, which the next test checks whole, character by character and pair by pair;
    the expression over all 18,000 ASCII texts was most of this test's CPU."""
    texts = [t for p in arxiv_papers().papers for t in (p.title_raw, p.abstract_raw)]
    plain = [t for t in texts if t.isascii()]
    assert len(plain) > 0.9 * len(texts)
    beyond = [t for t in texts if not t.isascii()]
    assert len(beyond) > 100
    checked = [*beyond, *plain[::9]]
    assert [markup_key(t) for t in checked] == [by_expression(t) for t in checked]


def test_every_pair_of_ascii_characters_keys_as_by_the_expression() -> None:
    ascii_chars = [chr(code) for code in range(128)]
    texts = [f"a{x}{y}B" for x in ascii_chars for y in ascii_chars]
    assert [markup_key(t) for t in texts] == [by_expression(t) for t in texts]


@pytest.mark.parametrize(
    "raw",
    ["a_b__c", "  $x^2$ -- \\emph{Foo}_{1} ", "İstanbul ß ﬁne Ⅻ", "a\u0301b x²", "\t\n", ""],
)
def test_markup_underscores_and_compatibility_forms(raw: str) -> None:
    assert markup_key(raw) == by_expression(raw)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x2FFF), max_size=40))
def test_any_text_keys_as_by_the_expression(raw: str) -> None:
    assert markup_key(raw) == by_expression(raw)


# 100 examples, was 400: on ASCII the key is each character's class (kept, lowercased or
# a space) and the runs they make, which every pair of characters above checks whole.
@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=60))
def test_any_ascii_text_keys_as_by_the_expression(raw: str) -> None:
    assert markup_key(raw) == by_expression(raw)
