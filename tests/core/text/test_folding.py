"""One folding of names: the citation key, the joins, the search and the safe text agree.

Over every author of the bundled paper table, each consumer's folding of a name is the
one of :mod:`index_builder.text.words`: the key's author part is the folded family name's
ASCII letters, the join reduces the name to the same words, search indexes the same
words, and the safe text's folding is the same letters in their case.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index_builder.catalogue.joins import score as join_score
from index_builder.catalogue.load import Catalogue
from index_builder.citations.keys import family_word, split_name
from index_builder.search.words import words as search_words
from index_builder.text.safe import fold as safe_fold
from index_builder.text.words import fold, iter_words, positioned_words, strip_accents, words


def _alnum(text: str) -> str:
    """The letters and digits of ``text`` (the safe text also folds quotes and dashes)."""
    return "".join(c for c in text if c.isalnum())


@pytest.fixture(scope="module")
def table_authors(bundled_catalogue: Catalogue) -> list[str]:
    """Every distinct author name of the bundled table, in table order (the run's bundled
    catalogue, loaded from the run's cache, not built again from nothing)."""
    names = (a for p in bundled_catalogue.papers for a in p.authors)
    return list(dict.fromkeys(names))


def test_the_table_has_names_that_need_folding(table_authors: list[str]) -> None:
    names = table_authors
    assert len(names) > 10_000
    assert sum(not n.isascii() for n in names) > 100
    special = {"ł", "ø", "ß", "đ", "æ", "ı", "Ł", "Ø"}
    assert special & {c for n in names for c in n}


def test_every_consumer_folds_each_name_the_same(table_authors: list[str]) -> None:
    disagree = []
    for name in table_authors:
        folded = fold(name)
        family = split_name(name).family
        ascii_family = "".join(c for c in fold(family) if c.isascii() and c.isalnum())
        seen = {
            "key": family_word(name) == (ascii_family or family_word(name)),
            "search": search_words(name) == words(folded),
            "join": join_score.stems(name) == join_score.stems(folded),
            "authors": join_score.author_keys(name) == join_score.author_keys(folded),
            "safe": _alnum(safe_fold(name).lower()) == _alnum(folded),
            "case": strip_accents(name).lower() == folded,
        }
        if not all(seen.values()):
            disagree.append((name, [k for k, ok in seen.items() if not ok]))
    assert not disagree, disagree[:10]


@pytest.mark.parametrize(
    ("name", "folded", "key"),
    [
        ("Łukasz Kaiser", "lukasz kaiser", "kaiser"),
        ("Paweł Wawrzyński", "pawel wawrzynski", "wawrzynski"),
        ("Bernhard Schölkopf", "bernhard scholkopf", "scholkopf"),
        ("Søren Hauberg", "soren hauberg", "hauberg"),
        ("Đorđe Miladinović", "dorde miladinovic", "miladinovic"),
        ("Lars Großmann", "lars grossmann", "grossmann"),
        ("Kıvanç Tatar", "kivanc tatar", "tatar"),
        ("Ægir Þórsson", "aegir thorsson", "thorsson"),
        ("Anna Ħasan", "anna hasan", "hasan"),
    ],
)
def test_special_letters_fold_alike_everywhere(name: str, folded: str, key: str) -> None:
    assert fold(name) == folded
    assert search_words(name) == folded.split()
    assert family_word(name) == key
    assert join_score.stems(name) == [join_score.stem(w) for w in folded.split()]
    assert " ".join(folded.split()) in join_score.author_keys(name)
    assert safe_fold(name).lower() == folded


def test_the_tokenizer_gives_offsets_of_the_display_text() -> None:
    text = "Łukasz e.g. 3.5x—Wang–Landau\nZi Wang"
    found = list(iter_words(text))
    assert [text[s:e] for _, s, e, _ in found] == [
        "Łukasz", "e.g", "3.5x", "Wang", "Landau", "Zi", "Wang"
    ]  # fmt: skip
    assert [(p, w) for p, _, _, w in found] == positioned_words(text)
    assert [p for p, _, _, _ in found] == [0, 1, 2, 3, 4, 105, 106]


def _strip_whole(text: str) -> str:
    """The whole-text folding :func:`strip_accents` used before it took non-ASCII runs
    one by one: the reference it must agree with."""
    import unicodedata

    from index_builder.text.words import SPECIAL_LETTERS

    table = str.maketrans(SPECIAL_LETTERS)
    decomposed = unicodedata.normalize("NFKD", text.translate(table))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(table)


@pytest.mark.usefixtures("text_table")
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
@settings(max_examples=400, deadline=None)
def test_stripping_runs_equals_stripping_the_whole_text(text: str) -> None:
    assert strip_accents(text) == _strip_whole(text)


def test_stripping_runs_equals_stripping_the_whole_text_on_real_abstracts(
    table_authors: list[str],
) -> None:
    from tests.helpers.arxiv_papers import arxiv_papers, sample_path

    if sample_path() is None:
        pytest.skip("the arXiv sample is not on this machine")
    texts = [t for p in arxiv_papers(3000).papers for t in (p.title, p.abstract, *p.authors)]
    texts += table_authors
    mixed = [t for t in texts if not t.isascii()]
    assert len(mixed) > 300
    assert [strip_accents(t) for t in mixed] == [_strip_whole(t) for t in mixed]
    # Marks after ASCII letters, marks to reorder, a special letter's accented form.
    for text in ("e\u0301te\u0301", "a\u0323\u0302b", "x\u01e3y", "ﬁne — “ok”", "Łódź"):
        assert strip_accents(text) == _strip_whole(text)


def _safe_fold_whole(text: str) -> str:
    """The whole-text :func:`index_builder.text.safe.fold` from before it took non-ASCII
    runs one by one."""
    from index_builder.text.safe import _PUNCTUATION

    return _strip_whole(text.translate(_PUNCTUATION)).translate(_PUNCTUATION)


@pytest.mark.usefixtures("text_table")
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
@settings(max_examples=400, deadline=None)
def test_safe_folding_by_runs_equals_folding_the_whole_text(text: str) -> None:
    assert safe_fold(text) == _safe_fold_whole(text)


def test_safe_folding_by_runs_on_rendered_abstracts() -> None:
    from index_builder.text.render import render
    from tests.helpers.arxiv_papers import arxiv_papers, sample_path

    if sample_path() is None:
        pytest.skip("the arXiv sample is not on this machine")
    texts = [render(p.abstract) for p in arxiv_papers(1500).papers]
    mixed = [t for t in texts if not t.isascii()]
    assert len(mixed) > 100
    assert [safe_fold(t) for t in mixed] == [_safe_fold_whole(t) for t in mixed]
    for text in ("a﹘b – “c” é\u0301", "Ł—ǣ‘x’", "－﹣"):
        assert safe_fold(text) == _safe_fold_whole(text)
