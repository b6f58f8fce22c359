"""Corpora with the vocabulary of real abstracts: the sample itself, and 50k grown from it.

The arXiv sample (``arxiv_sample.jsonl.gz``, 9,909 real papers, median abstract ~1,400
characters) is what an updated home holds: :func:`sample` gives its records, and the
updated home (:mod:`tests.benchmarks.updated`) pairs the bundled table's 6,628 papers
with its abstracts. For 50,000 papers there are not enough real abstracts, and
resampling them would stop the vocabulary at the sample's. :func:`grown` resamples real
abstracts and titles, and replaces their rare words (seen once or twice in the sample) by
new, made-up words whenever the corpus has fewer distinct words than Heaps' law, fitted
on the sample (:func:`heaps`), says a real corpus of that many words has; otherwise by
rare words already used. The distinct-word curve thus follows the real one's, where a
fixed word list (:mod:`tests.benchmarks.corpus`) stops at a few thousand words.

Generated corpora are cached under ``.cache/`` (gitignored) as ``jsonl.gz``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from index_builder.model import Paper
from tests.benchmarks.corpus import load_pools
from tests.benchmarks.engines import CACHE

GENERATOR_VERSION = 1
"""Bump when the grown text changes, so cached corpora and indexes are rebuilt."""
SAMPLE = "arxiv_sample.jsonl.gz"
RARE = 2
"""A word seen at most this many times in the sample is rare: it may be replaced."""
WORD = re.compile(r"[^\W\d_]{2,}")
"""The words counted and replaced: letters only (numbers and symbols stay as they are)."""
_ONSETS = ("b", "br", "d", "dr", "f", "g", "gl", "k", "l", "m", "n", "p", "pr", "r", "s", "t")
_ONSETS += ("tr", "v", "z", "sk", "ch", "th")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ou", "ei")
_ENDS = ("", "n", "r", "s", "x", "l", "m", "t")


def sample_path() -> Path | None:
    """Where the arXiv sample is: ``$PAPERSCOPE_SHARED_DATA``, ``shared/data`` beside the
    repository, or ``/work/shared/data``; None when this machine does not have it."""
    repo = Path(__file__).resolve().parents[2]
    places = [os.environ.get("PAPERSCOPE_SHARED_DATA", "")]
    places += [str(repo.parent / "shared" / "data"), "/work/shared/data"]
    for place in places:
        if place and (Path(place) / SAMPLE).is_file():
            return Path(place) / SAMPLE
    return None


@lru_cache(maxsize=1)
def sample() -> tuple[dict[str, Any], ...]:
    """The sample's records (``title``, ``authors``, ``abstract``, ``categories``), in order."""
    path = sample_path()
    if path is None:
        raise FileNotFoundError(f"{SAMPLE} is not on this machine")
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return tuple(json.loads(line) for line in lines)


def distinct_curve(texts: Sequence[str], at: Sequence[int]) -> dict[int, tuple[int, int]]:
    """For each count in ``at``: (words, distinct words) of the first that many texts."""
    seen: set[str] = set()
    words = 0
    out: dict[int, tuple[int, int]] = {}
    marks = set(at)
    last = max(marks, default=0)
    for i, text in enumerate(texts[:last], 1):
        found = [w.lower() for w in WORD.findall(text)]
        words += len(found)
        seen.update(found)
        if i in marks:
            out[i] = (words, len(seen))
    return out


@lru_cache(maxsize=1)
def _sample_vocabulary() -> tuple[Counter[str], dict[int, tuple[int, int]]]:
    """How often each word occurs in the sample's titles and abstracts, and their
    :func:`distinct_curve` in the sample's order at every count, from one pass: Heaps' fit,
    every report's sample column and the grower's rare words read the same words."""
    counts: Counter[str] = Counter()
    words = 0
    curve: dict[int, tuple[int, int]] = {}
    for i, r in enumerate(sample(), 1):
        found = [w.lower() for w in WORD.findall(f"{r['title']} {r['abstract']}")]
        counts.update(found)
        words += len(found)
        curve[i] = (words, len(counts))
    return counts, curve


def sample_curve() -> dict[int, tuple[int, int]]:
    """:func:`distinct_curve` of the sample's titles and abstracts, in the sample's order,
    at every count (made once)."""
    return _sample_vocabulary()[1]


@lru_cache(maxsize=1)
def heaps() -> tuple[float, float]:
    """Heaps' law ``distinct = k * words ** beta`` fitted (least squares, log-log) on the
    sample's titles and abstracts, in the sample's order."""
    curve = sample_curve()
    points = [curve[n] for n in range(500, len(curve) + 1, 500)]
    xs = [math.log(w) for w, _ in points]
    ys = [math.log(d) for _, d in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    beta = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    beta /= sum((x - mx) ** 2 for x in xs)
    return math.exp(my - beta * mx), beta


@dataclass(frozen=True)
class RealCorpus:
    """Papers with real-length, real-vocabulary abstracts, and a name for caches."""

    name: str
    key: str
    papers: tuple[Paper, ...]


def _digest() -> str:
    path = sample_path()
    if path is None:
        return "nosample"
    stat = path.stat()
    return hashlib.sha256(f"{stat.st_size}-{load_pools().digest}".encode()).hexdigest()[:10]


class _Grower:
    """Rewrites real text, replacing rare words so that the vocabulary follows Heaps' law."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        counts = _sample_vocabulary()[0]
        self.known = set(counts)
        self.rare = sorted(w for w, n in counts.items() if n <= RARE)
        self.rare_set = set(self.rare)
        self.used: list[str] = []
        self.seen: set[str] = set()
        self.words = 0
        self.k, self.beta = heaps()

    def _mint(self) -> str:
        rng = self.rng
        while True:
            parts = [rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(rng.randint(2, 4))]
            word = "".join(parts) + rng.choice(_ENDS)
            if word not in self.known and word not in self.seen:
                return word

    def _replace(self, match: re.Match[str]) -> str:
        raw = match.group()
        low = raw.lower()
        if low in self.known and low not in self.rare_set:
            return raw
        target = self.k * max(self.words, 1) ** self.beta
        if len(self.seen) < target:
            word = self._mint()
            self.used.append(word)
        else:
            pool = self.used if self.used and self.rng.random() < 0.5 else self.rare
            word = self.rng.choice(pool)
        self.seen.add(word)
        return word.capitalize() if raw[0].isupper() else word

    def rewrite(self, text: str) -> str:
        """``text`` with its rare words replaced; counts its words into the curve."""
        out = WORD.sub(self._replace, text)
        found = [w.lower() for w in WORD.findall(out)]
        self.words += len(found)
        self.seen.update(found)
        return out


def grown(size: int, seed: int = 2026) -> RealCorpus:
    """``size`` papers of resampled real text whose vocabulary grows as real text does."""
    key = f"grown-n{size}-s{seed}-g{GENERATOR_VERSION}-{_digest()}"
    path = CACHE / f"{key}.jsonl.gz"
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            papers = tuple(Paper.from_json(json.loads(line)) for line in lines)
        return RealCorpus(f"grown {size:,}", key, papers)
    rng = random.Random(f"grown-{seed}-{size}")
    records, pools = sample(), load_pools()
    grower = _Grower(rng)
    names = [a.split() for r in records for a in r["authors"] if len(a.split()) >= 2]
    firsts, lasts = sorted({n[0] for n in names}), sorted({n[-1] for n in names})
    papers = []
    for i in range(size):
        record = rng.choice(records)
        title = grower.rewrite(record["title"])
        abstract = grower.rewrite(record["abstract"])
        session, starts, ends = rng.choice(pools.sessions)
        kind = rng.random()
        authors = tuple(
            f"{rng.choice(firsts)} {rng.choice(lasts)}" for _ in range(rng.randint(1, 8))
        )
        papers.append(
            Paper(
                id=f"grown-{seed}-{i:06d}",
                title=title,
                title_raw=title,
                authors=authors,
                institutions=tuple(rng.sample(pools.institutions, k=rng.randint(1, 3))),
                abstract=abstract,
                abstract_raw=abstract,
                topic=rng.choice(pools.topics),
                decision="Accept (spotlight)" if kind < 0.06 else "Accept (regular)",
                oral=kind < 0.025,
                spotlight=0.025 <= kind < 0.06,
                session=session,
                starts_at=starts,
                ends_at=ends,
                url=f"https://example.org/grown/{i}",
                sources=("grown",),
                event_id=200000 + i,
            )
        )
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    # The fastest level: the cache is rewritten by any test run on a clean clone, and level 9
    # took a third of the grown corpus's generation.
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=1) as out:
        for paper in papers:
            out.write(json.dumps(paper.to_json()) + "\n")
    os.replace(tmp, path)
    return RealCorpus(f"grown {size:,}", key, tuple(papers))


def vocabulary_report(corpus: RealCorpus, at: Sequence[int]) -> dict[int, dict[str, float]]:
    """Distinct words of the corpus's first ``n`` papers beside the sample's and Heaps' law."""
    texts = [f"{p.title} {p.abstract}" for p in corpus.papers]
    ours = distinct_curve(texts, at)
    theirs = sample_curve()
    k, beta = heaps()
    out: dict[int, dict[str, float]] = {}
    for n in at:
        if n not in ours:
            continue
        words, distinct = ours[n]
        row = {"words": words, "distinct": distinct, "heaps": round(k * words**beta)}
        if n in theirs:
            row["sample_distinct"] = theirs[n][1]
        out[n] = row
    return out
