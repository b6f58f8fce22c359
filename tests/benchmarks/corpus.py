"""A synthetic corpus of papers, deterministic from a seed, without downloads.

Words are drawn from a Zipf distribution over the vocabulary of the bundled
table's titles and abstracts (ranked by frequency), so the text has the
shape of real abstracts: a few very common words, a long tail of rare ones.
Authors are recombined from the table's first and last names; topics,
sessions and decisions follow the table's own frequencies.

Some papers carry a planted method name (``Zorvak``-like, unique in the
corpus, a prefix of no other word, unchanged by stemming) in the title and
abstract. :attr:`Corpus.planted` records which papers got each name, which is
a ground truth that every search engine must agree on.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import random
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from index_builder.model import Paper
from index_builder.paths import bundled_sources

GENERATOR_VERSION = 1
"""Bump when the generated text changes, so cached indexes are rebuilt."""

TABLE_COLUMNS: tuple[str, ...] = ("event_id", "event_type", "title", "decision", "topic", "session")
TABLE_COLUMNS += ("starttime", "endtime", "url", "paper_url", "authors", "institutions")
ZIPF_S = 1.05
WORD_RE = re.compile(r"[A-Za-z][a-z]+")
_ONSETS = ("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "t", "v", "z", "br", "kr", "pl", "st")
_VOWELS = ("a", "e", "i", "o", "u")
_ENDS = ("x", "k", "z", "q")


@dataclass(frozen=True)
class Pools:
    """What the generator samples from, all taken from the bundled data."""

    title_words: tuple[str, ...]
    abstract_words: tuple[str, ...]
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    institutions: tuple[str, ...]
    topics: tuple[str, ...]
    sessions: tuple[tuple[str, str, str], ...]
    digest: str


@dataclass(frozen=True)
class Corpus:
    """Generated papers with the method names planted in them."""

    size: int
    seed: int
    papers: tuple[Paper, ...]
    planted: dict[str, frozenset[str]]

    @property
    def key(self) -> str:
        """A name for caches: size, seed, generator version and data digest."""
        return f"n{self.size}-s{self.seed}-g{GENERATOR_VERSION}-{load_pools().digest}"


def _ranked(counter: Counter[str]) -> tuple[str, ...]:
    """Words by falling frequency, ties alphabetical (deterministic)."""
    return tuple(w for w, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


@lru_cache(maxsize=1)
def load_pools() -> Pools:
    """Read the bundled table and abstract lists into sampling pools."""
    table, *lists = bundled_sources()
    raw = table.read_bytes()
    rows = [
        r for r in csv.DictReader(raw.decode("utf-8").splitlines()) if r["event_type"] == "Poster"
    ]
    titles: Counter[str] = Counter()
    for row in rows:
        titles.update(w.lower() for w in WORD_RE.findall(row["title"]))
    words: Counter[str] = Counter()
    digest = hashlib.sha256(raw)
    for path in lists:
        data = path.read_bytes()
        digest.update(data)
        words.update(w.lower() for w in WORD_RE.findall(data.decode("utf-8", "replace")))
    # Abstracts' own words first (the, of, and...), then the titles' other words.
    ranked = _ranked(words)
    ranked += tuple(w for w in _ranked(titles) if w not in words)
    names = [a.split() for r in rows for a in r["authors"].split("; ") if len(a.split()) >= 2]
    return Pools(
        title_words=_ranked(titles),
        abstract_words=ranked,
        first_names=tuple(sorted({n[0] for n in names})),
        last_names=tuple(sorted({n[-1] for n in names})),
        institutions=tuple(sorted({i for r in rows for i in r["institutions"].split("; ") if i})),
        topics=tuple(r["topic"] for r in rows),
        sessions=tuple((r["session"], r["starttime"], r["endtime"]) for r in rows),
        digest=digest.hexdigest()[:10],
    )


def _zipf_weights(n: int) -> list[float]:
    """Cumulative Zipf weights for ranks 1..n."""
    return list(itertools.accumulate(1.0 / (rank**ZIPF_S) for rank in range(1, n + 1)))


def _method_names(rng: random.Random, count: int, vocabulary: set[str]) -> list[str]:
    """Made-up, capitalised method names: none inside another or inside a real word."""
    names: list[str] = []
    seen: set[str] = set()
    haystack = "\n".join(sorted(vocabulary))
    while len(names) < count:
        syllables = [rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(rng.randint(2, 3))]
        name = "".join(syllables) + rng.choice(_ENDS)
        if name in seen or name in haystack:
            continue
        seen.add(name)
        names.append(name)
    # A name that is a prefix of a longer one would match it too: drop those pairs.
    # Sorted, a prefix sits right before the first name that extends it.
    ordered = sorted(seen)
    prefixes = {a for a, b in itertools.pairwise(ordered) if b.startswith(a)}
    return [n for n in names if n not in prefixes]


def _sentence(rng: random.Random, words: tuple[str, ...], cum: list[float]) -> str:
    picked = rng.choices(words, cum_weights=cum, k=rng.randint(10, 26))
    return " ".join(picked).capitalize() + "."


def generate(size: int, seed: int = 2026) -> Corpus:
    """``size`` synthetic papers; the same size and seed always give the same papers."""
    pools = load_pools()
    rng = random.Random(f"{seed}-{size}")
    t_cum = _zipf_weights(len(pools.title_words))
    a_cum = _zipf_weights(len(pools.abstract_words))
    taken = {*pools.abstract_words, *(n.lower() for n in pools.first_names + pools.last_names)}
    names = _method_names(rng, max(size // 4, 8), taken)
    planted: dict[str, set[str]] = {}
    papers = []
    for i in range(size):
        pid = f"syn-{seed}-{i:06d}"
        title = " ".join(rng.choices(pools.title_words, cum_weights=t_cum, k=rng.randint(5, 11)))
        sentences: list[str] = []
        target = min(max(int(rng.gauss(1130, 250)), 600), 2000)
        while sum(len(s) + 1 for s in sentences) < target:
            sentences.append(_sentence(rng, pools.abstract_words, a_cum))
        if rng.random() < 0.5:
            # Most names belong to one or two papers; a few popular ones to many.
            pool = names[:5] if rng.random() < 0.1 else names
            name = rng.choice(pool)
            planted.setdefault(name, set()).add(pid)
            title = f"{name}: {title}"
            sentences.insert(rng.randint(0, 2), f"We propose {name}, a method for {title.lower()}.")
        title = title[0].upper() + title[1:]
        abstract = " ".join(sentences)
        session, starts, ends = rng.choice(pools.sessions)
        kind = rng.random()
        authors = tuple(
            f"{rng.choice(pools.first_names)} {rng.choice(pools.last_names)}"
            for _ in range(rng.randint(1, 8))
        )
        papers.append(
            Paper(
                id=pid,
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
                url=f"https://example.org/synthetic/{i}",
                sources=("synthetic",),
                event_id=100000 + i,
            )
        )
    return Corpus(size, seed, tuple(papers), {k: frozenset(v) for k, v in planted.items()})


def write_table(corpus: Corpus, path: Path) -> None:
    """Write the corpus as a paper table (the bundled CSV's columns, no abstracts)."""
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(TABLE_COLUMNS)
        for p in corpus.papers:
            authors, institutions = "; ".join(p.authors), "; ".join(p.institutions)
            row = (p.event_id, "Poster", p.title, p.decision, p.topic, p.session, p.starts_at)
            out.writerow((*row, p.ends_at, p.url, "", authors, institutions))
    tmp.replace(path)


def write_abstract_list(corpus: Corpus, path: Path) -> None:
    """Write the abstracts as an abstract list (a header line, one paragraph each)."""
    tmp = path.with_suffix(".tmp")
    text = "Synthetic papers\n\n" + "\n\n".join(p.abstract for p in corpus.papers) + "\n"
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
