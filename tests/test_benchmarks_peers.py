"""The benchmark's synthetic corpus and its peers agree on who matches what.

On 200 generated papers, the planted method names are a ground truth: the
linear scan, SQLite FTS5 and PaperScope's own index must each return exactly
the papers that carry a name (alone, OR-ed, and with a filter). No timings.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from tests.benchmarks.corpus import Corpus, generate
from tests.benchmarks.peers import Fts5Index, LinearScan

N = 200


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return generate(N, seed=7)


def test_generator_is_deterministic_and_realistic(corpus: Corpus) -> None:
    again = generate(N, seed=7)
    assert again.papers == corpus.papers
    assert generate(N, seed=8).papers != corpus.papers
    assert len({p.id for p in corpus.papers}) == N
    assert 900 < statistics.mean(len(p.abstract) for p in corpus.papers) < 1500
    assert all(p.title and p.authors for p in corpus.papers)
    assert corpus.planted


def _names(corpus: Corpus, count: int = 25) -> list[str]:
    return sorted(corpus.planted, key=lambda n: (-len(corpus.planted[n]), n))[:count]


def _ids(engine: LinearScan | Fts5Index, query: str) -> set[str]:
    total, hits = engine.search(query, limit=N)
    assert total == len(hits)
    return {pid for pid, _, _ in hits}


@pytest.mark.parametrize("engine_class", ["linear", "fts5"])
def test_peers_find_exactly_the_planted_papers(corpus: Corpus, engine_class: str) -> None:
    engine: LinearScan | Fts5Index
    if engine_class == "linear":
        engine = LinearScan(corpus.papers)
    else:
        engine = Fts5Index.build(corpus.papers)
    names = _names(corpus)
    oral = {p.id for p in corpus.papers if p.oral}
    for name in names:
        assert _ids(engine, name) == corpus.planted[name], name
        assert _ids(engine, f"{name} is:oral") == corpus.planted[name] & oral
    a, b = names[0], names[1]
    assert _ids(engine, f"{a} OR {b}") == corpus.planted[a] | corpus.planted[b]
    assert _ids(engine, f"{a} NOT {b}") == corpus.planted[a] - corpus.planted[b]


def test_peer_highlights_cover_the_name(corpus: Corpus) -> None:
    name = _names(corpus, 1)[0]
    by_id = {p.id: p for p in corpus.papers}
    engines: list[LinearScan | Fts5Index] = [
        LinearScan(corpus.papers),
        Fts5Index.build(corpus.papers),
    ]
    for engine in engines:
        _, hits = engine.search(name, limit=N)
        for pid, title_spans, _ in hits:
            title = by_id[pid].title
            assert any(title[s:e].lower() == name for s, e in title_spans), (pid, title_spans)


def test_paperscope_agrees_with_the_peers(corpus: Corpus, tmp_path: Path) -> None:
    search = pytest.importorskip("index_builder.search.engine")
    index = search.SearchIndex(tmp_path / "index", corpus.papers, "bench-test")
    index.ensure()
    try:
        for name in _names(corpus, 10):
            result = index.search(name, limit=N)
            assert {h.paper.id for h in result.hits} == corpus.planted[name], name
    finally:
        index.close()
