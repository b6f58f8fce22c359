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
    texts = [t for p in arxiv_papers().papers for t in (p.title_raw, p.abstract_raw)]
    assert sum(t.isascii() for t in texts) > 0.9 * len(texts)
    assert sum(not t.isascii() for t in texts) > 100
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


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=60))
def test_any_ascii_text_keys_as_by_the_expression(raw: str) -> None:
    assert markup_key(raw) == by_expression(raw)
