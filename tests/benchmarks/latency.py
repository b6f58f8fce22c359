"""Search latency over a fixed query set, the three engines interleaved.

Every query is run ``reps`` times; each engine's samples are all
(query, repetition) pairs, so its p95 covers the slow queries as well as
the fast ones. Keystroke queries (``m`` … ``massart``) run with the last
word as a prefix, as the TUI sends them while the user types.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from index_builder.model import Paper
from tests.benchmarks.corpus import Corpus
from tests.benchmarks.engines import Built


@dataclass(frozen=True)
class Query:
    """One query of the set: its text, its kind, and whether it is typed (prefix)."""

    text: str
    kind: str
    prefix: bool = False


KEYSTROKES = ["m", "ma", "mas", "mass", "massa", "massart", "diffusion l", "diffusion la"]
KEYSTROKES += ["diffusion lang"]


def bundled_queries() -> list[Query]:
    """The set on the bundled data: PRODUCT.md's examples and typed prefixes."""
    return [
        Query("proeval", "word"),
        Query("diffusion", "word"),
        Query("reinforcement learning", "words"),
        Query("graph neural networks", "words"),
        Query("language models reasoning", "words"),
        Query('"optimal transport"', "phrase"),
        Query('"large language models"', "phrase"),
        Query('author:"Zi Wang"', "field"),
        Query("title:diffusion", "field"),
        Query("topic:optimization", "field"),
        Query("diffusion language is:spotlight", "filter"),
        Query("has:abstract reinforcement", "filter"),
        Query('"optimal transport" NOT diffusion', "not"),
        Query("watermark*", "wildcard"),
        Query("rl4rla", "word"),
        *(Query(k, "keystroke", True) for k in KEYSTROKES),
    ]


def synthetic_queries(corpus: Corpus) -> list[Query]:
    """The same shapes on a synthetic corpus: names, authors and phrases taken from it."""
    papers = corpus.papers
    single = sorted(name for name, ids in corpus.planted.items() if len(ids) == 1)
    name = single[len(single) // 2] if single else "proeval"
    author = papers[len(papers) // 3].authors[0]
    words = re.findall(r"[a-z]{4,}", papers[len(papers) // 2].title.lower())
    phrase = " ".join(words[:2]) if len(words) >= 2 else "optimal transport"
    out = [q for q in bundled_queries() if q.kind not in {"phrase", "field", "not"}]
    out[0] = Query(name, "word")
    out += [
        Query(f'"{phrase}"', "phrase"),
        Query('"language models"', "phrase"),
        Query(f'author:"{author}"', "field"),
        Query("title:diffusion", "field"),
        Query("topic:optimization", "field"),
        Query(f'"{phrase}" NOT diffusion', "not"),
    ]
    return out


def titles_of(papers: Sequence[Paper]) -> list[str]:
    """Display titles, for the terminal figures."""
    return [p.title for p in papers]


def measure(engines: Sequence[Built], queries: Sequence[Query], reps: int) -> dict[str, dict]:
    """Per engine: ``samples`` (ms, every query × rep), ``by_query`` medians and hit counts."""
    out: dict[str, dict] = {e.name: {"samples": [], "by_query": {}, "totals": {}} for e in engines}
    for engine in engines:  # warm-up: first searcher, caches, lazily read segments
        for q in queries:
            out[engine.name]["totals"][q.text] = engine.search(q.text, q.prefix)
    gc.collect()
    for _ in range(reps):
        for q in queries:
            for engine in engines:
                started = time.perf_counter()
                engine.search(q.text, q.prefix)
                ms = (time.perf_counter() - started) * 1000
                out[engine.name]["samples"].append(ms)
                out[engine.name]["by_query"].setdefault(q.text, []).append(ms)
    return out
