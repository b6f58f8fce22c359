"""Similar papers and recommendations: ``python -m tests.benchmarks.similarity``.

Prints, at each size (7,000 and 50,000 papers by default), the vectors' build time and
the peak memory of a process that loads the papers and computes them (a fresh Python,
as the build child), then ``SearchIndex.similar`` and ``SearchIndex.recommend`` times
(median and p95 over samples; the first call of each, which reads the vectors file or
imports what the fit needs, apart).

The corpus is real: the arXiv sample's papers (real abstracts, known categories), and
past its 9,909 papers new ones whose abstract joins the first half of one real abstract
to the second half of another, so the vocabulary stays real text's. The Whoosh index of
each size is built once and cached under ``tests/benchmarks/.cache/similarity-N/``.

For other scripts (``run.py``): :func:`vector_build` and :func:`serve` return the figures
as dicts; :func:`corpus` makes the papers.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from index_builder.model import Paper
from tests.benchmarks.engines import CACHE
from tests.benchmarks.stats import median, percentile
from tests.helpers.arxiv_papers import arxiv_papers

SIZES = (7_000, 50_000)


def corpus(size: int) -> tuple[Paper, ...]:
    """``size`` papers: the real ones first, then real halves joined (see the module doc)."""
    real = arxiv_papers().papers
    if size <= len(real):
        return real[:size]
    rng = random.Random(size)
    made = list(real)
    while len(made) < size:
        a, b = rng.sample(real, 2)
        first, second = a.abstract[: len(a.abstract) // 2], b.abstract[len(b.abstract) // 2 :]
        made.append(
            replace(a, id=f"mix:{len(made)}", abstract=f"{first} {second}", aliases=(), url="")
        )
    return tuple(made)


def vector_build(size: int) -> dict[str, Any]:
    """Compute ``size`` papers' vectors in a fresh Python; its seconds and peak MB."""
    out = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.similarity", "--vector-child", str(size)],
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _vector_child(size: int) -> None:
    import resource

    from index_builder.search.vector_build import write_vectors

    papers = corpus(size)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with tempfile.TemporaryDirectory() as folder:
        stats = write_vectors(papers, Path(folder))
    stats["papers_loaded_mb"] = round(before, 1)
    print(json.dumps(stats))


def _index(size: int) -> Any:
    from index_builder.search.engine import SearchIndex

    index = SearchIndex(CACHE / f"similarity-{size}", corpus(size), f"similarity-{size}")
    index.ensure()
    return index


def serve(size: int, samples: int = 200) -> dict[str, Any]:
    """Times of ``similar`` (``samples`` random papers) and ``recommend`` (8 bookmarks
    of one category, 20 draws) at ``size`` papers, in milliseconds."""
    index = _index(size)
    rng = random.Random(7)
    ids = [p.id for p in index.papers]
    started = time.perf_counter()
    index.similar(ids[0], 10)
    first = (time.perf_counter() - started) * 1000
    similar = []
    for paper_id in rng.sample(ids, min(samples, len(ids))):
        started = time.perf_counter()
        index.similar(paper_id, 10)
        similar.append((time.perf_counter() - started) * 1000)
    labels = arxiv_papers().categories
    cv = [i for i in range(min(size, len(labels))) if labels[i] == "cs.CV"]
    recommend = []
    for _ in range(21):
        marked = [ids[i] for i in rng.sample(cv, 8)]
        started = time.perf_counter()
        index.recommend(marked, limit=20)
        recommend.append((time.perf_counter() - started) * 1000)
    index.close()
    first_recommend, recommend = recommend[0], recommend[1:]
    return {
        "papers": size,
        "similar_first_ms": round(first, 1),
        "similar_median_ms": round(median(similar), 2),
        "similar_p95_ms": round(percentile(similar, 95), 2),
        "recommend_first_ms": round(first_recommend, 1),
        "recommend_median_ms": round(median(recommend), 1),
        "recommend_p95_ms": round(percentile(recommend, 95), 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures at each size as a table, then as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--vector-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.vector_child:
        _vector_child(args.vector_child)
        return 0
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        row = {**vector_build(size), **serve(size, args.samples)}
        rows.append(row)
        print(
            f"{size:>6} papers  vectors {row['seconds']:.2f} s, peak {row['peak_mb']:.0f} MB "
            f"(papers alone {row['papers_loaded_mb']:.0f} MB), {row['features']} words  "
            f"similar median {row['similar_median_ms']} ms p95 {row['similar_p95_ms']} ms "
            f"(first {row['similar_first_ms']} ms)  recommend median "
            f"{row['recommend_median_ms']} ms p95 {row['recommend_p95_ms']} ms "
            f"(first {row['recommend_first_ms']} ms)",
            flush=True,
        )
    print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
