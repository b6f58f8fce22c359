"""TF-IDF vectors of papers (title + abstract + authors), stored beside the search index.

The settings are arxiv-sanity-lite's (sublinear tf, ``max_df`` 0.1, ``min_df`` 5, 20,000
features, rows of unit length) with two changes, both measured on 3,000 real arXiv papers
of known categories: single words, not 1-2-grams (the same precision of recommendations
and of similar papers, a quarter of the time: 0.67 s against 3.9 s at 6,628 real
abstracts), and ``min_df``/``max_df`` eased for small catalogues, where 5 papers or a tenth
of them would leave no words, and for catalogues of titles (:func:`settings`). Words start
with a letter and English stop words are left out, so every feature is a word a person
reads (the explanations show them).

They are stored in the index folder by :mod:`index_builder.vectors.storage`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from index_builder.vectors.storage import PaperVectors

if TYPE_CHECKING:
    from index_builder.model import Paper

MAX_FEATURES = 20_000
TOKEN_PATTERN = r"(?u)\b[^\W\d_][^\W_]+\b"
"""Words of two or more letters or digits that start with a letter."""


def paper_text(paper: Paper) -> str:
    """What a paper's vector is made of: its title, abstract and authors."""
    return "\n".join((paper.title, paper.abstract, " ".join(paper.authors)))


def settings(count: int, with_abstract: int) -> tuple[int, float]:
    """``(min_df, max_df)`` for ``count`` papers of which ``with_abstract`` have one.

    arxiv-sanity-lite's from 2,000 papers with abstracts. Where most papers are titles
    alone (the bundled data: 76 abstracts for 6,628 papers) a word two titles share is
    the best link they have, so it is kept; a small catalogue keeps nearly every word.
    """
    if count < 200:
        return 1, 0.5
    if with_abstract * 2 < count:
        return 2, 0.1
    if count >= 2000:
        return 5, 0.1
    return 2, 0.2


def compute(papers: Sequence[Paper]) -> PaperVectors:
    """The TF-IDF vectors of ``papers`` (a catalogue with no usable word gets no features)."""
    import numpy as np
    from scipy import sparse
    from sklearn.feature_extraction.text import TfidfVectorizer

    ids = tuple(p.id for p in papers)
    min_df, max_df = settings(len(papers), sum(1 for p in papers if p.abstract))
    vectorizer = TfidfVectorizer(
        token_pattern=TOKEN_PATTERN,
        stop_words="english",
        sublinear_tf=True,
        min_df=min_df,
        max_df=max_df,
        max_features=MAX_FEATURES,
        dtype=np.float32,
    )
    try:
        matrix = vectorizer.fit_transform(paper_text(p) for p in papers)
    except ValueError:  # no word left (an empty catalogue, or no word in enough papers)
        return PaperVectors.from_matrix(sparse.csr_matrix((len(ids), 0), dtype=np.float32), (), ids)
    words = tuple(str(w) for w in vectorizer.get_feature_names_out())
    return PaperVectors.from_matrix(sparse.csr_matrix(matrix, dtype=np.float32), words, ids)
