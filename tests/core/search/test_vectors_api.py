"""The vectors API the library and the in-place updates build on, on real arXiv papers.

``tfidf.vectorize`` gives a paper its row in the stored feature space (the stored row
for a catalogue paper, to float32 precision); ``PaperVectors.with_rows`` replaces, adds
and removes rows without a refit; ``recommend`` ranks from a library (catalogue rows and
papers outside the catalogue) with no bookmark, and never recommends an owned paper.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from index_builder.model import Paper
from index_builder.vectors import storage, tfidf
from index_builder.vectors.analysis import AUTHOR_MARK
from index_builder.vectors.recommend import MIN_BOOKMARKS, recommend
from tests.helpers.arxiv_papers import Labelled, arxiv_papers, sample_path

pytestmark = pytest.mark.skipif(sample_path() is None, reason="no arxiv_sample.jsonl.gz here")

OUTSIDE = 40
"""The last papers of the sample slice, kept out of the catalogue."""


@cache
def sample() -> Labelled:
    return arxiv_papers(1240)


@cache
def catalogue() -> storage.PaperVectors:
    return tfidf.compute(sample().papers[:-OUTSIDE])


@cache
def with_pairs() -> storage.PaperVectors:
    analysis = replace(tfidf.default_analysis(), pairs=True)
    return tfidf.compute(sample().papers[:-OUTSIDE], analysis)


@pytest.mark.parametrize("make", [catalogue, with_pairs])
def test_a_catalogue_paper_is_vectorized_as_it_is_stored(make: object) -> None:
    vectors = make()  # type: ignore[operator]
    rows = tfidf.vectorize(vectors, sample().papers[:-OUTSIDE])
    assert rows.shape == vectors.matrix.shape and rows.dtype == np.float32
    assert abs(rows - vectors.matrix).max() < 1e-6
    assert any(AUTHOR_MARK in w for w in vectors.words)
    if make is with_pairs:
        assert sum(" " in w and AUTHOR_MARK not in w for w in vectors.words) > 100


def test_a_paper_outside_is_a_unit_row_of_known_features_only() -> None:
    vectors = catalogue()
    outside = [*sample().papers[-OUTSIDE:], Paper(id="x", title="zzqx qqzx")]
    rows = tfidf.vectorize(vectors, outside)
    norms = np.sqrt(np.asarray(rows.multiply(rows).sum(axis=1))).ravel()
    assert np.allclose(norms[:-1], 1.0, atol=1e-5) and norms[-1] == 0
    assert rows.shape == (len(outside), len(vectors.words))


def test_rows_are_replaced_added_and_removed_without_a_refit(tmp_path: Path) -> None:
    vectors = catalogue()
    ids = list(vectors.ids)
    changed = replace(sample().papers[3], title="Quantum error correction with surface codes")
    added = sample().papers[-1]
    rows = tfidf.vectorize(vectors, [changed, added])
    order = [added.id, *ids[:10], *ids[11:]]  # the new paper first, paper 10 gone
    updated = vectors.with_rows({changed.id: rows[0], added.id: rows[1], ids[10]: None}, order)
    assert updated.ids == tuple(order) and updated.words == vectors.words
    assert abs(updated.matrix[0] - rows[1]).max() == 0
    assert abs(updated.matrix[4] - rows[0]).max() == 0  # paper 3, after the new one
    assert abs(updated.matrix[5] - vectors.matrix[4]).max() == 0
    assert abs(updated.matrix[11] - vectors.matrix[11]).max() == 0  # paper 10 is gone
    assert (updated.transposed != updated.matrix.T.tocsr()).nnz == 0
    storage.save(updated, tmp_path)
    loaded = storage.load(tmp_path)
    assert loaded.ids == updated.ids and (loaded.matrix != updated.matrix).nnz == 0
    with pytest.raises(KeyError):
        vectors.with_rows({}, [*ids, "not-a-paper"])
    with pytest.raises(KeyError):
        vectors.with_rows({ids[0]: None}, ids)


def topic_rows(topic: str) -> list[int]:
    return [i for i, c in enumerate(sample().categories[:-OUTSIDE]) if c == topic]


def main_topic() -> str:
    return Counter(sample().categories[:-OUTSIDE]).most_common(1)[0][0]


def test_a_library_alone_is_enough_and_owned_papers_are_not_recommended() -> None:
    vectors = catalogue()
    owned = topic_rows(main_topic())[:6]
    ranking = recommend(vectors, (), library_rows=owned, limit=20)
    assert len(ranking.found) == 20 and ranking.explain
    assert not {r.row for r in ranking.found} & set(owned)
    assert ranking.total == vectors.rows - len(owned)
    assert not any(w.startswith(AUTHOR_MARK) for w in ranking.explain)
    with pytest.raises(ValueError):
        recommend(vectors, owned[:1], library_rows=owned[1 : MIN_BOOKMARKS - 1])


def test_papers_outside_the_catalogue_seed_the_ranking() -> None:
    vectors = catalogue()
    topic = main_topic()
    outside = [p for p, c in zip(sample().papers, sample().categories, strict=True) if c == topic]
    library = [p for p in outside if p.id not in set(vectors.ids)]
    assert len(library) >= MIN_BOOKMARKS
    ranking = recommend(vectors, (), library_papers=library, limit=20)
    categories = sample().categories
    share = sum(categories[r.row] == topic for r in ranking.found) / 20
    base = len(topic_rows(topic)) / vectors.rows
    assert share >= min(0.9, base + 0.2), (share, base)


def test_feedback_reranks_the_pool_by_the_paper_and_its_nearest() -> None:
    from index_builder.vectors.similar import POOL, cosines, expanded, neighbours, top_rows

    vectors = catalogue()
    row = 7
    scores = cosines(vectors, row)
    scores[row] = 0.0
    near, pool = top_rows(scores, 5), top_rows(scores, POOL)
    matrix = vectors.matrix.astype(np.float64)
    query = matrix[row] + matrix[near].sum(axis=0) * (0.5 / 5)
    want = np.asarray(matrix[pool] @ np.asarray(query).ravel()).ravel()
    got = expanded(vectors, scores, 5, 0.5)
    assert np.allclose(got[pool], want) and np.count_nonzero(got) == len(pool)
    plain = [n.row for n in neighbours(vectors, row, 10, expand=0).found]
    fed = neighbours(vectors, row, 10, expand=5)
    assert row not in {n.row for n in fed.found} and len(fed.found) == 10
    assert [n.row for n in fed.found] == [int(i) for i in np.argsort(-got, kind="stable")[:10]]
    assert fed.total == neighbours(vectors, row, 10, expand=0).total and plain
