"""Library seeding on real papers: For you from 30 owned papers of one topic, against
arxiv-sanity-lite's method trained on the same 30.

    .venv/bin/python -m tests.benchmarks.library_seed [--every 4] [--draws 3]

The catalogue is every ``--every``-th paper of ``arxiv_sample.jsonl.gz`` (real titles,
authors and abstracts; the primary category is the topic), less the held-out papers:
for each topic and draw, 30 papers of that topic (drawn from the whole sample) are kept
out of the catalogue and written as a Zotero BibTeX export
(:mod:`tests.helpers.library_files`). Ours: the export read by
:func:`~index_builder.readinglist.library_files.read_library`, matched (none is in the
catalogue) and ranked by ``SearchIndex.recommend(library_papers=…)`` with no
bookmark. The anchor: arxiv-sanity-lite's TF-IDF (1-2-grams, its settings) fitted on the
catalogue and the 30, and its LinearSVC (C=0.01, balanced) with the 30 as positives.
Both are judged by P@20 (the share of the top 20 in the topic); the ratio's 95 %
interval is a bootstrap over the (topic, draw) pairs. It reports; it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from index_builder.model import Paper
from index_builder.readinglist.library_files import read_library
from index_builder.readinglist.library_match import match_library
from index_builder.search.engine import SearchIndex
from tests.helpers.arxiv_papers import arxiv_papers
from tests.helpers.library_files import Item, bibtex
from tui.shared.seeds import as_paper

TOPICS = ("cs.CV", "cs.CL", "cs.AI", "cs.IT", "cs.GT")
OWNED = 30


def _item(n: int, paper: Paper) -> Item:
    names = tuple((a.split()[-1], " ".join(a.split()[:-1])) for a in paper.authors if a.strip())
    return Item(f"k{n}", paper.title, names, 2025, abstract=paper.abstract,
                arxiv=paper.id.removeprefix("arXiv:"))  # fmt: skip


def anchor_top20(catalogue: list[Paper], owned: list[Paper]) -> list[int]:
    """arxiv-sanity-lite: its TF-IDF over catalogue + owned, its SVM on the owned."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.svm import LinearSVC

    texts = [f"{p.title} {p.abstract} {', '.join(p.authors)}" for p in [*catalogue, *owned]]
    features = TfidfVectorizer(
        strip_accents="unicode", ngram_range=(1, 2), max_features=20000, sublinear_tf=True,
        max_df=0.1, min_df=5, norm="l2", use_idf=True, smooth_idf=True,
    ).fit_transform(texts)  # fmt: skip
    labels = np.zeros(len(texts))
    labels[len(catalogue) :] = 1
    model = LinearSVC(class_weight="balanced", max_iter=10000, tol=1e-6, C=0.01)
    scores = model.fit(features, labels).decision_function(features)[: len(catalogue)]
    return [int(i) for i in np.argsort(-scores, kind="stable")[:20]]


def bootstrap(ours: list[float], theirs: list[float], rounds: int = 2000) -> tuple[float, float]:
    """A 95 % percentile interval of mean(ours) / mean(theirs) over resampled pairs."""
    rng = random.Random(0)
    ratios = []
    for _ in range(rounds):
        picks = [rng.randrange(len(ours)) for _ in ours]
        theirs_mean = statistics.fmean(theirs[i] for i in picks)
        if theirs_mean > 0:
            ratios.append(statistics.fmean(ours[i] for i in picks) / theirs_mean)
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]


def main(argv: list[str] | None = None) -> int:
    """Build the catalogue once, rank each held-out library both ways, print the figures."""
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.library_seed")
    parser.add_argument("--every", type=int, default=4, help="every N-th paper of the sample")
    parser.add_argument("--draws", type=int, default=3, help="libraries per topic")
    args = parser.parse_args(argv)
    sample = arxiv_papers()
    rows = list(range(0, len(sample.papers), args.every))
    rng = random.Random(38)
    held: dict[tuple[str, int], list[int]] = {}
    taken: set[int] = set()
    for topic in TOPICS:  # drawn from the whole sample, so small topics have enough
        for draw in range(args.draws):
            pool = [r for r, c in enumerate(sample.categories) if c == topic and r not in taken]
            held[(topic, draw)] = rng.sample(pool, OWNED)
            taken |= set(held[(topic, draw)])
    kept = [r for r in rows if r not in taken]
    catalogue = [sample.papers[r] for r in kept]
    topic_of = [sample.categories[r] for r in kept]
    print(f"catalogue: {len(catalogue):,} real arXiv papers; {len(held)} libraries of {OWNED}")
    ours: list[float] = []
    theirs: list[float] = []
    results: list[Any] = []
    with tempfile.TemporaryDirectory() as tmp:
        index = SearchIndex(Path(tmp) / "index", catalogue, "library-seed")
        started = time.perf_counter()
        index.ensure()
        print(f"index and vectors built in {time.perf_counter() - started:.1f} s")
        row_of = {p.id: i for i, p in enumerate(catalogue)}
        for (topic, draw), owned_rows in held.items():
            owned = [sample.papers[r] for r in owned_rows]
            export = Path(tmp) / f"{topic}-{draw}.bib"
            export.write_text(bibtex([_item(n, p) for n, p in enumerate(owned)]), "utf-8")
            read = read_library(export)
            match = match_library(catalogue, read.entries)
            started = time.perf_counter()
            outside = [as_paper(e) for e in match.outside]
            found = index.recommend([], library=match.paper_ids, library_papers=outside, limit=20)
            spent = (time.perf_counter() - started) * 1000
            mine = sum(topic_of[row_of[h.paper.id]] == topic for h in found.hits) / 20
            anchor = sum(topic_of[r] == topic for r in anchor_top20(catalogue, owned)) / 20
            ours.append(mine)
            theirs.append(anchor)
            results.append((topic, draw, len(read.entries), len(match.paper_ids), mine, anchor))
            print(f"{topic} draw {draw}: read {len(read.entries)}, in catalogue "
                  f"{len(match.paper_ids)}; P@20 ours {mine:.2f}, anchor {anchor:.2f} "
                  f"({spent:.0f} ms)")  # fmt: skip
    low, high = bootstrap(ours, theirs)
    mean_ours, mean_theirs = statistics.fmean(ours), statistics.fmean(theirs)
    print(f"P@20 mean: ours {mean_ours:.3f}, arxiv-sanity-lite {mean_theirs:.3f}; ratio "
          f"{mean_ours / mean_theirs:.3f} (95 % bootstrap {low:.3f}-{high:.3f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
