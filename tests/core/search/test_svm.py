"""The SVM fitted with scipy is scikit-learn's ``LinearSVC``, and queries never import sklearn.

On real paper vectors (the TF-IDF of 2,477 arXiv papers of known topics), with sample
weights as For you gives them (dismissed papers, half-weight feedback positives), the
weights found by :func:`index_builder.vectors.svm.fit` must be ``LinearSVC``'s (dual
coordinate descent to a tight tolerance) and rank the papers the same.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index_builder.vectors import storage, tfidf
from index_builder.vectors.svm import class_costs, fit
from tests.helpers.arxiv_papers import Labelled, arxiv_papers, sample_path

pytestmark = pytest.mark.skipif(sample_path() is None, reason="no arxiv_sample.jsonl.gz here")

C = 0.01


@cache
def corpus() -> Labelled:
    everything = arxiv_papers()
    return Labelled(everything.papers[1::4], everything.categories[1::4])


@cache
def vectors() -> storage.PaperVectors:
    return tfidf.compute(corpus().papers)


def problem(topic: str, seed: int) -> tuple[Any, Any]:
    """Labels and weights: 8 papers of ``topic``, 3 dismissed, 10 half-weight positives."""
    rng = np.random.default_rng(seed)
    rows = np.flatnonzero(np.array(corpus().categories) == topic)
    n = vectors().rows
    labels = np.zeros(n, dtype=np.int8)
    weights = np.ones(n)
    chosen = rng.choice(rows, 8, replace=False)
    labels[chosen] = 1
    others = rng.choice(np.setdiff1d(np.arange(n), chosen), 13, replace=False)
    weights[others[:3]] = 3.0
    labels[others[3:]], weights[others[3:]] = 1, 0.5
    return labels, weights


def liblinear(labels: Any, weights: Any) -> tuple[Any, float]:
    from sklearn.svm import LinearSVC

    # "balanced" from the weighted class sizes, as scikit-learn 1.9 computes it (older
    # releases counted rows): given explicitly, the same model in every release.
    total = weights.sum()
    balanced = {k: total / (2 * weights[labels == k].sum()) for k in (0, 1)}
    model = LinearSVC(class_weight=balanced, C=C, max_iter=100_000, tol=1e-9, dual=True)
    model.fit(vectors().matrix, labels, sample_weight=weights)
    return model.coef_.ravel(), float(model.intercept_[0])


@pytest.mark.parametrize(("topic", "seed"), [("cs.CL", 1), ("cs.GT", 2), ("cs.CV", 3)])
def test_the_fit_is_linearsvcs_model(topic: str, seed: int) -> None:
    labels, weights = problem(topic, seed)
    theirs, their_b = liblinear(labels, weights)
    ours, our_b = fit(vectors().matrix, labels, weights, C)
    given = vectors().transposed.astype(np.float64)  # as For you passes it: the same fit
    same, same_b = fit(vectors().matrix.astype(np.float64), labels, weights, C, None, given)
    assert np.allclose(same, ours, atol=1e-9) and same_b == pytest.approx(our_b, abs=1e-9)
    reference = np.append(theirs, their_b)
    error = np.linalg.norm(np.append(ours, our_b) - reference) / np.linalg.norm(reference)
    assert error < 1e-4
    matrix = vectors().matrix
    mine, their_scores = matrix @ ours + our_b, matrix @ theirs + their_b
    assert np.argsort(-mine, kind="stable")[:20].tolist() == (
        np.argsort(-their_scores, kind="stable")[:20].tolist()
    )
    # The top words (the explanation) are the same too.
    assert set(np.argsort(-ours)[:8]) == set(np.argsort(-theirs)[:8])


def test_starting_from_a_fit_reaches_the_same_model() -> None:
    labels, weights = problem("cs.AI", 4)
    cold, cold_b = fit(vectors().matrix, labels, weights, C)
    labels[np.flatnonzero(labels == 0)[:5]] = 1
    fresh, fresh_b = fit(vectors().matrix, labels, weights, C)
    warm, warm_b = fit(vectors().matrix, labels, weights, C, np.append(cold, cold_b))
    assert np.allclose(np.append(warm, warm_b), np.append(fresh, fresh_b), atol=1e-6)


def test_balanced_costs_weigh_each_class_to_half_the_total() -> None:
    labels = np.array([1, 1, 0, 0, 0, 0])
    weights = np.array([1.0, 0.5, 1.0, 1.0, 3.0, 1.0])
    costs = class_costs(labels, weights, 1.0)
    assert costs[labels > 0].sum() == pytest.approx(weights.sum() / 2)
    assert costs[labels == 0].sum() == pytest.approx(weights.sum() / 2)


CHILD = """
import sys
from pathlib import Path
from index_builder.vectors import storage
from index_builder.vectors.recommend import recommend
from index_builder.vectors.similar import neighbours
found = storage.load(Path(sys.argv[1]))
near = neighbours(found, 0, 5)
assert len(near.found) == 5
print(sorted({m.split(".")[0] for m in sys.modules} & {"sklearn", "scipy"}))
ranking = recommend(found, [0, 1, 2, 3], [4], limit=5)
assert len(ranking.found) == 5 and ranking.explain
print(sorted({m.split(".")[0] for m in sys.modules} & {"sklearn", "scipy"}))
"""


def test_queries_never_import_scikit_learn(tmp_path: Path) -> None:
    """Importing ``sklearn.svm`` took 0.4-2.4 s of every ``paperscope recommend``; similar
    papers need not even scipy (0.1-0.3 s)."""
    storage.save(vectors(), tmp_path)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    similar, recommended = out.stdout.splitlines()
    assert similar == "[]"  # numpy alone
    assert recommended == "['scipy']"
