"""Figures 10 and 11 on real-length abstracts: similar papers and recommendations.

Timed through the index's own API (``more_like_this``, and ``recommend`` where the index
has it), on papers spread over the corpus; the first call, which loads what the others
reuse, is reported apart.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from index_builder.model import Paper
from tests.benchmarks import engines
from tests.benchmarks.stats import Figure


def figures(name: str, built: engines.Built, papers: Sequence[Paper]) -> list[Figure]:
    """Figures 10 and 11: similar papers, and recommendations where the index has them."""
    index = built.index
    picks = [papers[i].id for i in range(0, len(papers), max(1, len(papers) // 40))][:40]
    started = time.perf_counter()
    index.more_like_this(picks[0], 10)
    first = (time.perf_counter() - started) * 1000
    samples = []
    for pid in picks[1:]:
        started = time.perf_counter()
        index.more_like_this(pid, 10)
        samples.append((time.perf_counter() - started) * 1000)
    budget = 30.0 if len(papers) > 20000 else 5.0
    out = [
        Figure(
            f"similar_{name}",
            f"10. similar papers, {name}",
            "ms",
            samples,
            budget=budget,
            note=f"{len(samples)} papers, 10 each; the first call (loads what it needs) "
            f"{first:.0f} ms",
        )
    ]
    recommend = getattr(index, "recommend", None)
    if recommend is None:
        out.append(Figure(f"recommend_{name}", f"11. recommend, {name}", "ms", note="absent"))
        return out
    times = []
    for rep in range(12):
        marked = [papers[(rep * 97 + k * 331) % len(papers)].id for k in range(10)]
        dismissed = [papers[(rep * 53 + k * 211 + 7) % len(papers)].id for k in range(3)]
        started = time.perf_counter()
        recommend(marked, dismissed, limit=20)
        times.append((time.perf_counter() - started) * 1000)
    out.append(
        Figure(
            f"recommend_{name}",
            f"11. recommend, {name}",
            "ms",
            times[1:],
            note=f"10 bookmarks, 3 dismissed, top 20 (no time budget: issue 26 sets its "
            f"quality); the first call {times[0]:.0f} ms",
        )
    )
    return out
