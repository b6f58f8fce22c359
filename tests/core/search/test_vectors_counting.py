"""A fit's counts with pairs counted as numbers equal counting every term as text.

:func:`~index_builder.vectors.counting.kept_counts` counts word pairs as numbers and makes
text of the kept ones only. Here the same terms are counted the plain way, each one a
string of :meth:`Analysis.terms <index_builder.vectors.analysis.Analysis.terms>`, numbered
as it first comes, and the rule of what a fit keeps is applied to those counts. Both
must give the same features, document frequencies, counts, and each row's counts in the
order their terms first came (the order the row's sums add in), on real arXiv papers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Any

import numpy as np
import pytest

from index_builder.model import Paper
from index_builder.vectors import counting, tfidf
from index_builder.vectors.analysis import Analysis, is_author
from index_builder.vectors.counting import kept_counts
from tests.helpers.arxiv_papers import arxiv_papers, sample_path

pytestmark = pytest.mark.skipif(sample_path() is None, reason="no arxiv_sample.jsonl.gz here")


def by_text(
    analysis: Analysis, papers: Sequence[Paper], min_df: int, max_df: float, author_min_df: int
) -> tuple[list[str], list[int], list[int], list[int], list[int]]:
    """Features, their document frequencies and the CSR counts, every term a string."""
    number: dict[str, int] = {}
    rows: list[Counter[str]] = []
    for paper in papers:
        words, authors = analysis.terms(paper)
        for term in words + authors:
            number.setdefault(term, len(number))
        rows.append(Counter(words + authors))
    df = Counter(term for row in rows for term in row)
    n = len(papers)
    words_kept = [t for t in df if not is_author(t) and min_df <= df[t] <= max_df * n]
    words_kept = sorted(words_kept, key=lambda t: (-df[t], t))[: analysis.max_features]
    kept = sorted(words_kept + [t for t in df if is_author(t) and df[t] >= author_min_df])
    column = {t: i for i, t in enumerate(kept)}
    data: list[int] = []
    indices: list[int] = []
    indptr = [0]
    for row in rows:
        for term in sorted((t for t in row if t in column), key=number.__getitem__):
            data.append(row[term])
            indices.append(column[term])
        indptr.append(len(data))
    return kept, [df[t] for t in kept], data, indices, indptr


@cache
def by_text_once(
    analysis: Analysis, papers: tuple[Paper, ...], min_df: int, max_df: float, author_min_df: int
) -> tuple[list[str], list[int], list[int], list[int], list[int]]:
    """:func:`by_text`, counted once per test process for the same papers and rule: three
    tests compare a tally in parts of every size with the same 600 papers' plain count."""
    return by_text(analysis, papers, min_df, max_df, author_min_df)


def _same(analysis: Analysis, papers: Sequence[Paper], **limits: Any) -> list[str]:
    """The features ``kept_counts`` keeps, after checking its counts against :func:`by_text`."""
    ours = kept_counts(analysis, papers, **limits)
    features, df, data, indices, indptr = by_text_once(
        analysis, tuple(papers), limits["min_df"], limits["max_df"], limits["author_min_df"]
    )
    assert list(ours.features) == features
    assert ours.df == df
    assert np.array_equal(ours.indptr, indptr)
    assert np.array_equal(ours.indices, indices) and ours.indices.dtype == np.int32
    assert np.array_equal(ours.data, data) and ours.data.dtype == np.float64
    assert ours.shape == (len(papers), len(features))
    return features


@pytest.mark.parametrize("pairs", [True, False])
def test_counts_equal_counting_every_term_as_text(pairs: bool) -> None:
    papers = arxiv_papers(600).papers
    analysis = replace(tfidf.default_analysis(), pairs=pairs)
    kept = _same(analysis, papers, min_df=2, max_df=0.2, author_min_df=2)
    assert len(kept) > 1000
    if pairs:
        assert any(" " in word for word in kept)


def test_the_cut_to_max_features_breaks_ties_by_text() -> None:
    papers = arxiv_papers(400).papers
    analysis = replace(tfidf.default_analysis(), max_features=300)
    assert len(_same(analysis, papers, min_df=1, max_df=0.5, author_min_df=1)) > 300


def test_papers_without_terms_and_no_papers() -> None:
    empty = [Paper("a", "the of and"), Paper("b", "a 12 --", authors=("Wang",))]
    papers = [*empty, *arxiv_papers(50).papers, Paper("c", "")]
    _same(tfidf.default_analysis(), papers, min_df=1, max_df=1.0, author_min_df=1)
    assert _same(tfidf.default_analysis(), empty, min_df=1, max_df=1.0, author_min_df=1) == []
    assert _same(tfidf.default_analysis(), [], min_df=1, max_df=1.0, author_min_df=1) == []


@pytest.mark.parametrize("part", [1, 97, 5000])
def test_terms_tallied_a_range_of_keys_at_a_time_count_the_same(
    part: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At 20,000 papers the words and the pairs are tallied in parts of PART terms: here
    # parts of one term, of a few, and of many (600 papers have some 80,000 words). Parts
    # of one term take every term through the same loop, a part at a time (its cost grows
    # with the terms times the parts): 20 papers, some 5,000 terms, are thousands of parts.
    monkeypatch.setattr(counting, "PART", part)
    papers = arxiv_papers(600 if part > 1 else 20).papers
    analysis = replace(tfidf.default_analysis(), pairs=True)
    assert len(_same(analysis, papers, min_df=2, max_df=0.2, author_min_df=2)) > (
        1000 if part > 1 else 300
    )
    empty = [Paper("a", "the of and"), Paper("b", "a 12 --", authors=("Wang",))]
    others = arxiv_papers(40 if part > 1 else 10).papers
    _same(analysis, [*empty, *others], min_df=1, max_df=1.0, author_min_df=1)
