"""The grown corpus's vocabulary follows the real sample's (no timings).

A fixed word list stops at a few thousand distinct words whatever the corpus size; real
abstracts keep bringing new ones (Heaps' law). The grown corpus must track the sample's
curve where both exist and keep growing past it.
"""

from __future__ import annotations

import pytest

from tests.benchmarks import realtext

pytestmark = pytest.mark.skipif(
    realtext.sample_path() is None, reason="the arXiv sample is not on this machine"
)


def test_the_grown_vocabulary_tracks_the_real_one_and_keeps_growing() -> None:
    corpus = realtext.grown(3000, seed=11)
    report = realtext.vocabulary_report(corpus, [1000, 3000])
    for row in report.values():
        assert abs(row["distinct"] - row["sample_distinct"]) <= 0.05 * row["sample_distinct"]
    assert report[3000]["distinct"] > 1.5 * report[1000]["distinct"]
    lengths = sorted(len(p.abstract) for p in corpus.papers)
    assert 1000 <= lengths[len(lengths) // 2] <= 1800
    assert len({p.abstract for p in corpus.papers}) > 0.6 * len(corpus.papers)
