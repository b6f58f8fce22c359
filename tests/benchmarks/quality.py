"""Quality against arxiv-sanity-lite: ``python -m tests.benchmarks.quality``.

On the 9,909 real arXiv papers of ``arxiv_sample.jsonl.gz`` (judged by their primary
category), our vectors (one line per analysis variant, :data:`VARIANTS`) and the
anchor (:mod:`tests.helpers.anchor`: 1-2-gram TF-IDF and LinearSVC, C = 0.01, run here
on the same papers) are asked the same questions:

- similar: the 10 papers nearest to a probe paper (``neighbours``; the anchor ranks by
  its SVM of that one paper, as arxiv-sanity-lite does, and by its cosine), P@10 = the
  share in the probe's category;
- recommend: 8 papers of one category bookmarked, the top 20 of ``recommend`` (two SVM
  fits) against the anchor's SVM, P@20;
- library (``--library``): 30 papers of one category held out of the catalogue, written
  as a BibTeX file the way Zotero writes it and read back by the catalogue's own reader,
  ranked by ``recommend(..., library_papers=...)`` against the anchor's SVM of those 30.

The probes and bookmark sets are drawn once (seeded) and split in two halves: ``tune``
(the settings were chosen on it) and ``held-out`` (the figures reported). Each line
gives the mean precision, the ratio to the anchor's, and a 95 % bootstrap interval of
that ratio (2,000 resamplings of the probes). ``--half tune`` measures the other half.
``--cost 0,7000,50000`` times the vectors instead (fit, file size, similar, recommend) on
the bundled catalogue and on :func:`tests.benchmarks.similarity.corpus`'s papers.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from index_builder.model import Paper
from index_builder.vectors import tfidf
from index_builder.vectors.analysis import Analysis
from index_builder.vectors.recommend import recommend
from index_builder.vectors.similar import EXPAND, neighbours
from index_builder.vectors.storage import PaperVectors
from tests.helpers.anchor import anchor_features, anchor_scores, anchor_top
from tests.helpers.arxiv_papers import Labelled, arxiv_papers


def variants() -> dict[str, tuple[Analysis, int]]:
    """The analyses compared and the similar papers' feedback (``default``: a build's)."""
    base = tfidf.default_analysis()
    words = replace(base, pairs=False, author_weight=0.0)
    pairs = replace(words, pairs=True, author_weight=0.5)
    return {
        "words": (words, 0),
        "words+authors": (replace(words, author_weight=0.5), 0),
        "pairs": (replace(words, pairs=True), 0),
        "pairs+authors": (pairs, 0),
        "pairs+authors+bm25tf": (replace(pairs, tf="bm25"), 0),
        "pairs+authors+bm25idf": (replace(pairs, idf="bm25"), 0),
        "pairs+authors+40k": (replace(pairs, max_features=40_000), 0),
        "pairs+authors+prf5": (pairs, 5),
        "pairs+authors+prf10": (pairs, 10),
        "words+authors+prf5": (replace(words, author_weight=0.5), 5),
        "pairs+authors+prf3": (pairs, 3),
        "pairs+authors+bm25tf+prf5": (replace(pairs, tf="bm25"), 5),
        "default": (base, EXPAND),
    }


SIMILAR_PROBES = 400
DRAWS = 6
BOOKMARKS = 8
LIBRARY = 30


def probes(data: Labelled, half: str) -> tuple[list[int], list[tuple[str, list[int]]]]:
    """The similar probes and the bookmark sets of ``half`` (every other one of a draw)."""
    rng = random.Random(38)
    rows = rng.sample(range(len(data.papers)), SIMILAR_PROBES)
    sets = []
    for topic in sorted(set(data.categories)):
        members = [i for i, c in enumerate(data.categories) if c == topic]
        sets += [(topic, rng.sample(members, BOOKMARKS)) for _ in range(DRAWS)]
    pick = 0 if half == "tune" else 1
    return rows[pick::2], sets[pick::2]


def share(rows: Sequence[int], topic: str, categories: Sequence[str], limit: int) -> float:
    """The share of the top ``limit`` ``rows`` in ``topic``."""
    return sum(categories[r] == topic for r in rows[:limit]) / limit


def interval(ours: Sequence[float], theirs: Sequence[float]) -> tuple[float, float]:
    """95 % bootstrap interval of mean(ours) / mean(theirs), the probes resampled."""
    rng = random.Random(7)
    n, ratios = len(ours), []
    for _ in range(2000):
        pick = [rng.randrange(n) for _ in range(n)]
        below = sum(theirs[i] for i in pick)
        ratios.append(sum(ours[i] for i in pick) / below if below else float("nan"))
    ratios.sort()
    return ratios[50], ratios[1949]


def line(name: str, ours: Sequence[float], theirs: Sequence[float]) -> str:
    """One figure: our mean, the anchor's, the ratio and its interval."""
    mine, ref = statistics.mean(ours), statistics.mean(theirs)
    low, high = interval(ours, theirs)
    return f"{name:<34} {mine:.3f} vs {ref:.3f}  ratio {mine / ref:.3f} [{low:.3f}, {high:.3f}]"


def measure(
    data: Labelled, variant: tuple[Analysis, int], half: str, anchor: dict[str, Any]
) -> list[str]:
    """Similar and recommend figures of ``variant`` on ``half`` against the anchor's."""
    analysis, expand = variant
    started = time.perf_counter()
    vectors = tfidf.compute(data.papers, analysis)
    fitted = time.perf_counter() - started
    rows, sets = probes(data, half)
    cats = data.categories
    similar = [
        share([n.row for n in neighbours(vectors, r, 10, expand).found], cats[r], cats, 10)
        for r in rows
    ]
    times, recommended = [], []
    for topic, marked in sets:
        started = time.perf_counter()
        found = recommend(vectors, marked, limit=20).found
        times.append((time.perf_counter() - started) * 1000)
        recommended.append(share([f.row for f in found], topic, cats, 20))
    size = vectors.by_paper.values.nbytes * 2 + len(vectors.words) * 12
    return [
        f"fit {fitted:.2f} s, {len(vectors.words)} features, {size / 1e6:.1f} MB of arrays, "
        f"recommend median {statistics.median(times):.0f} ms",
        line("similar P@10 vs anchor SVM", similar, anchor["similar_svm"]),
        line("similar P@10 vs anchor cosine", similar, anchor["similar_cos"]),
        line("recommend P@20 vs anchor SVM", recommended, anchor["recommend"]),
    ]


def anchor_figures(data: Labelled, half: str) -> dict[str, Any]:
    """The anchor's precision on every probe and set of ``half``."""
    import numpy as np

    features = anchor_features(data.papers)
    rows, sets = probes(data, half)
    cats = data.categories
    by_svm, by_cos = [], []
    for r in rows:
        by_svm.append(share(anchor_top(features, [r], 10), cats[r], cats, 10))
        cos = np.asarray((features @ features[r].T).todense()).ravel()
        cos[r] = -1
        by_cos.append(share(list(np.argsort(-cos, kind="stable")[:10]), cats[r], cats, 10))
    recommended = [share(anchor_top(features, m, 20), t, cats, 20) for t, m in sets]
    return {"similar_svm": by_svm, "similar_cos": by_cos, "recommend": recommended}


def zotero_bibtex(papers: Sequence[Paper]) -> str:
    """BibTeX as Zotero's translator writes a preprint: ``@misc``, ``Family, Given``
    names joined by ``and``, the title in double braces, the abstract, the arXiv id."""
    out = []
    for k, p in enumerate(papers):
        names = " and ".join(
            f"{n.split()[-1]}, {' '.join(n.split()[:-1])}" if " " in n else n for n in p.authors
        )
        out.append(
            f"@misc{{paper{k}_2024,\n\ttitle = {{{{{p.title}}}}},\n\tauthor = {{{names}}},"
            f"\n\tabstract = {{{p.abstract}}},\n\tnote = {{arXiv:{p.id}}},\n}}\n"
        )
    return "\n".join(out)


def library(data: Labelled, analysis: Analysis, draws: int) -> list[str]:
    """Library seeding: 30 held-out papers of a category, as a BibTeX file, ranked from."""
    from index_builder.catalogue.load import load_catalogue

    rng = random.Random(30)
    ours, theirs = [], []
    for topic in sorted(set(data.categories)):
        members = [i for i, c in enumerate(data.categories) if c == topic]
        for _ in range(draws):
            held = set(rng.sample(members, LIBRARY))
            keep = [i for i in range(len(data.papers)) if i not in held]
            papers = [data.papers[i] for i in keep]
            cats = [data.categories[i] for i in keep]
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "library.bib"
                path.write_text(zotero_bibtex([data.papers[i] for i in held]), encoding="utf-8")
                owned = load_catalogue([path]).papers
            assert len(owned) == LIBRARY and all(p.abstract for p in owned)
            vectors: PaperVectors = tfidf.compute(papers, analysis)
            found = recommend(vectors, (), library_papers=owned, limit=20).found
            ours.append(share([f.row for f in found], topic, cats, 20))
            features = anchor_features([*papers, *(data.papers[i] for i in sorted(held))])
            scores = anchor_scores(features, range(len(papers), features.shape[0]))
            top = [int(i) for i in (-scores[: len(papers)]).argsort(kind="stable")[:20]]
            theirs.append(share(top, topic, cats, 20))
    return [line(f"library P@20 ({len(ours)} libraries)", ours, theirs)]


def cost(size: int) -> str:
    """What the vectors cost at ``size`` papers (0: the bundled catalogue): the fit, the
    file, and the median ``similar`` and ``recommend`` (8 bookmarks) times."""
    from index_builder.vectors.storage import load, save
    from tests.benchmarks.similarity import corpus

    if size:
        papers = corpus(size)
    else:
        from index_builder.catalogue.load import load_catalogue
        from index_builder.paths import bundled_sources

        papers = load_catalogue(bundled_sources()).papers
    started = time.perf_counter()
    vectors = tfidf.compute(papers)
    fitted = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        megabytes = save(vectors, Path(tmp)).stat().st_size / 1e6
        vectors = load(Path(tmp))
    rng = random.Random(5)
    rows = list(range(len(papers)))
    similar, recommended = [], []
    for r in rng.sample(rows, 200):
        started = time.perf_counter()
        neighbours(vectors, r, 10)
        similar.append((time.perf_counter() - started) * 1000)
    for _ in range(21):
        marked = rng.sample(rows, 8)
        started = time.perf_counter()
        recommend(vectors, marked, limit=20)
        recommended.append((time.perf_counter() - started) * 1000)
    return (
        f"{len(papers)} papers: fit {fitted:.2f} s, {len(vectors.words)} features, "
        f"vectors.bin {megabytes:.1f} MB, similar median {statistics.median(similar):.2f} ms, "
        f"recommend median {statistics.median(recommended[1:]):.0f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    """Print each variant's figures on the chosen half."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--half", choices=("tune", "held-out"), default="held-out")
    parser.add_argument("--variants", default="default", help="comma-separated, or 'all'")
    parser.add_argument("--library", type=int, default=0, help="library draws per category")
    parser.add_argument("--anchor-cache", help=argparse.SUPPRESS)
    parser.add_argument("--cost", help="sizes to time instead (0: the bundled catalogue)")
    args = parser.parse_args(argv)
    if args.cost:
        for size in args.cost.split(","):
            print(cost(int(size)), flush=True)
        return 0
    data = arxiv_papers()
    known = variants()
    names = list(known) if args.variants == "all" else args.variants.split(",")
    started = time.perf_counter()
    if args.anchor_cache and Path(args.anchor_cache).is_file():  # tuning runs only
        anchor = json.loads(Path(args.anchor_cache).read_text())
    else:
        anchor = anchor_figures(data, args.half)
        if args.anchor_cache:
            Path(args.anchor_cache).write_text(json.dumps(anchor))
    took = time.perf_counter() - started
    print(f"{len(data.papers)} papers, half {args.half}; anchor {took:.0f} s")
    for name in names:
        print(f"== {name}", flush=True)
        for text in measure(data, known[name], args.half, anchor):
            print("  " + text, flush=True)
    if args.library:
        for text in library(data, known[names[-1]][0], args.library):
            print("  " + text, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
