"""arxiv-sanity-lite's method, the anchor our similar papers and For you are judged by.

Its TF-IDF (1-2-grams of title, abstract and authors, its settings) and its ranking, a
scikit-learn ``LinearSVC`` (balanced classes, C = 0.01) of the marked papers against
all others; arxiv-sanity-lite ranks a paper's similar papers the same way, with that one
paper marked. Run in the test's or the benchmark's own process, on the same papers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from index_builder.model import Paper


def anchor_features(papers: Sequence[Paper]) -> Any:
    """arxiv-sanity-lite's TF-IDF of ``papers`` (a scipy sparse matrix, a row per paper)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    texts = [f"{p.title} {p.abstract} {', '.join(p.authors)}" for p in papers]
    vectorizer = TfidfVectorizer(
        strip_accents="unicode", ngram_range=(1, 2), max_features=20000, sublinear_tf=True,
        max_df=0.1, min_df=5, norm="l2", use_idf=True, smooth_idf=True,
    )  # fmt: skip
    return vectorizer.fit_transform(texts)


def anchor_scores(features: Any, marked: Sequence[int]) -> Any:
    """Every row's score by arxiv-sanity-lite's SVM of the ``marked`` rows (numpy array)."""
    import numpy as np
    from sklearn.svm import LinearSVC

    labels = np.zeros(features.shape[0])
    labels[list(marked)] = 1
    model = LinearSVC(class_weight="balanced", max_iter=10000, tol=1e-6, C=0.01)
    return model.fit(features, labels).decision_function(features)


def anchor_top(
    features: Any, marked: Sequence[int], limit: int, among: int | None = None
) -> list[int]:
    """The ``limit`` best rows (of the first ``among``, all by default) not ``marked``."""
    import numpy as np

    scores = anchor_scores(features, marked)[: among or features.shape[0]]
    scores[[m for m in marked if m < len(scores)]] = -np.inf
    return [int(i) for i in np.argsort(-scores, kind="stable")[:limit]]
