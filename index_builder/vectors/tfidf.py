"""TF-IDF vectors of papers (title + abstract + authors), stored beside the search index.

The settings are arxiv-sanity-lite's (sublinear tf, ``max_df`` 0.1, ``min_df`` 5, 20,000
features, rows of unit length) with two changes, both measured on 3,000 real arXiv papers
of known categories: single words, not 1-2-grams (the same precision of recommendations
and of similar papers, a quarter of the time: 0.67 s against 3.9 s at 6,628 real
abstracts), and ``min_df``/``max_df`` eased for small catalogues, where 5 papers or a tenth
of them would leave no words, and for catalogues of titles (:func:`settings`). Words start
with a letter and English stop words are left out, so every feature is a word a person
reads (the explanations show them).

The file is ``vectors.npz`` (numpy's uncompressed archive, read without pickle): the
sparse matrix's arrays, the words, the papers' ids row by row and the format's version.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from index_builder.model import Paper

VECTORS_FILE = "vectors.npz"
VECTORS_VERSION = 1
"""Bump when what is computed changes: an index built with another version is rebuilt."""
MAX_FEATURES = 20_000
TOKEN_PATTERN = r"(?u)\b[^\W\d_][^\W_]+\b"
"""Words of two or more letters or digits that start with a letter."""


@dataclass(frozen=True)
class PaperVectors:
    """One unit-length TF-IDF row per paper (``ids[i]`` is row ``i``), over ``words``."""

    matrix: Any
    """A ``scipy.sparse.csr_matrix`` of float32, papers by words."""
    words: tuple[str, ...]
    ids: tuple[str, ...]

    @property
    def rows(self) -> int:
        """How many papers."""
        return len(self.ids)


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
        return PaperVectors(sparse.csr_matrix((len(ids), 0), dtype=np.float32), (), ids)
    words = tuple(str(w) for w in vectorizer.get_feature_names_out())
    return PaperVectors(sparse.csr_matrix(matrix, dtype=np.float32), words, ids)


def save(vectors: PaperVectors, folder: Path) -> Path:
    """Write ``vectors`` to ``folder``/``vectors.npz`` atomically (temp file, then replace)."""
    import numpy as np

    matrix = vectors.matrix
    target = Path(folder) / VECTORS_FILE
    fd, tmp = tempfile.mkstemp(prefix=".vectors.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez(
                out,
                version=np.array([VECTORS_VERSION], dtype=np.int32),
                shape=np.array(matrix.shape, dtype=np.int64),
                data=matrix.data,
                indices=matrix.indices,
                indptr=matrix.indptr,
                words=np.array(vectors.words, dtype=str),
                ids=np.array(vectors.ids, dtype=str),
            )
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def load(folder: Path) -> PaperVectors:
    """Read ``folder``/``vectors.npz``; ``ValueError`` (or ``OSError``) when it is not whole."""
    import numpy as np
    from scipy import sparse

    with np.load(Path(folder) / VECTORS_FILE, allow_pickle=False) as archive:
        if int(archive["version"][0]) != VECTORS_VERSION:
            raise ValueError("the vectors file has another version")
        shape = tuple(int(n) for n in archive["shape"])
        parts = (archive["data"], archive["indices"], archive["indptr"])
        matrix = sparse.csr_matrix(parts, shape=shape, dtype=np.float32)
        words = tuple(str(w) for w in archive["words"])
        ids = tuple(str(i) for i in archive["ids"])
    if len(ids) != shape[0] or len(words) != shape[1]:
        raise ValueError("the vectors file does not match its own shape")
    return PaperVectors(matrix, words, ids)
