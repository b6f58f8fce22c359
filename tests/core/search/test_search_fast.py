"""The fast paths give exactly what the slow ones give.

Totals, facets and sorted pages come from whole-list scoring (:mod:`searchscore`) and
highlights from a regular-expression scan; here each is checked against Whoosh's own
unoptimised one-match-at-a-time count and ranking, and against the word-by-word
highlighter, on the real bundled papers (6,628: the scale) and a synthetic corpus of 1,000
papers, each with an abstract (the broad words' lists run to 8 blocks of 128 postings and
every query but two finds some; at 2,000 papers its build took 3.2 s of CPU, 1.8 s now).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from whoosh.collectors import TopCollector

from index_builder.model import Paper
from index_builder.search import highlight
from index_builder.search.engine import SearchIndex, stem
from index_builder.search.facets import count_facets, facet_values, sorted_indexes
from index_builder.search.highlight import MatchTerms, spans
from index_builder.search.scoring import FastScorer
from index_builder.search.syntax import last_word_as_prefix, parse
from index_builder.search.whoosh_query import QueryBuilder
from index_builder.search.words import iter_words
from tests.helpers.shared_builds import build_once

QUERIES = [
    ("diffusion", False),
    ("learning OR model", False),
    ("learning model", False),
    ("reinforcement learning -policy", False),
    ("(graph OR graphs) AND neural NOT molecular", False),
    ("model OR -learning", False),
    ('"language models"', False),
    ('"optimal transport" OR "large language"', False),
    ('"language models" NOT reasoning', False),
    ("m", True),
    ("mo", True),
    ("diffusion la", True),
    ("optim*", False),
    ("transformr~", False),
    ("learning is:spotlight", False),
    ("has:abstract reinforcement", False),
    ("is:oral OR is:spotlight", False),
    ("-is:poster", False),
    ("title:diffusion", False),
    ('author:"Zi Wang"', False),
    ("topic:optimization OR area:theory", False),
    ("is:bookmarked OR proeval", False),
    ("is:bookmarked learning", False),
    ("is:unjoined", False),
    ("learning -is:unjoined", False),
]


@cache
def _papers_synthetic() -> tuple[Paper, ...]:
    """The synthetic corpus of 1,000 papers (generated once per worker)."""
    from tests.benchmarks.corpus import generate

    return tuple(generate(1000).papers)


@pytest.fixture(scope="module", params=["bundled", "synthetic-1k"])
def index(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SearchIndex]:
    """The bundled index (shared by the whole run, read only), or a synthetic one of 1,000."""
    if request.param == "bundled":
        yield request.getfixturevalue("bundled_index")
        return
    papers = _papers_synthetic()

    def build(folder: Path) -> None:
        SearchIndex(folder / "index", papers, request.param).build()

    folder = build_once(tmp_path_factory, request.param, build)  # shared by the workers
    ix = SearchIndex(folder / "index", papers, request.param)
    assert ix.is_fresh()
    ix.ensure()
    yield ix
    ix.close()


def _marked(index: SearchIndex) -> list[str]:
    return [p.id for p in index.papers[::97]]


def _built(index: SearchIndex, query: str, prefix: bool) -> tuple[Any, MatchTerms]:
    node = parse(query)
    if prefix:
        node = last_word_as_prefix(node, query)
    builder = QueryBuilder(index._searcher.reader(), index._vocab, set(_marked(index)))
    return builder.build(node), builder.terms


def _slow(index: SearchIndex, built: Any, limit: int) -> tuple[int, list[tuple[int, float]]]:
    """Whoosh scoring and counting every match, with no block skipping or replacement."""
    collector = TopCollector(limit=limit, usequality=False, replace=0)
    index._searcher.search_with_collector(built, collector)
    results = collector.results()
    return collector.count(), [(h.docnum, h.score) for h in results]


@pytest.mark.parametrize(("query", "prefix"), QUERIES)
def test_total_and_top_hits_match_whoosh(index: SearchIndex, query: str, prefix: bool) -> None:
    index.ensure()
    built, _ = _built(index, query, prefix)
    total, ranked = _slow(index, built, 50)
    result = index.search(query, limit=50, prefix=prefix, bookmarked=_marked(index))
    assert result.total == total
    assert [h.paper.id for h in result.hits] == [
        index.papers[index._doc_paper[d]].id for d, _ in ranked
    ]
    assert [h.score for h in result.hits] == pytest.approx([s for _, s in ranked], rel=1e-9)


@pytest.mark.parametrize("sort", ["title", "time"])
@pytest.mark.parametrize(("query", "prefix"), QUERIES[::3])
def test_sorted_pages_and_facets_match_a_full_sort(
    index: SearchIndex, query: str, prefix: bool, sort: Any
) -> None:
    index.ensure()
    built, _ = _built(index, query, prefix)
    docs = sorted(index._searcher.docs_for_query(built))
    papers = [index._doc_paper[d] for d in docs]
    expected = sorted_indexes(sort, index.papers, papers)[:40]
    result = index.search(query, limit=40, prefix=prefix, sort=sort, bookmarked=_marked(index))
    assert [h.paper.id for h in result.hits] == [index.papers[i].id for i in expected]
    assert result.total == len(docs)
    faceted = index.search(query, prefix=prefix, facets=True, bookmarked=_marked(index))
    assert faceted.facets == count_facets(facet_values(index.papers[i]) for i in papers)


def test_the_empty_query_facets_and_sorts_every_paper(index: SearchIndex) -> None:
    result = index.search("", limit=30, sort="title", facets=True)
    assert [h.paper for h in result.hits] == [
        index.papers[i] for i in sorted_indexes("title", index.papers, range(len(index.papers)))
    ][:30]
    assert result.facets == count_facets(facet_values(p) for p in index.papers)


Words = tuple[tuple[int, int, int, str], ...]


@pytest.fixture(scope="module")
def walked(index: SearchIndex) -> tuple[list[str], dict[str, Words]]:
    """The texts the highlight test reads, and the words of each as :func:`iter_words` gives
    them: they depend on the text alone, so the word walk is done once, not once per query."""
    texts = [t for p in index.papers[:3000] for t in (p.title, p.abstract) if t]
    return texts, {t: tuple(iter_words(t)) for t in texts}


@pytest.mark.parametrize(("query", "prefix"), QUERIES[:14])
def test_fast_highlights_equal_the_word_walk(
    index: SearchIndex,
    walked: tuple[list[str], dict[str, Words]],
    query: str,
    prefix: bool,
) -> None:
    index.ensure()
    _, fast = _built(index, query, prefix)
    fast.surface = index._forms(fast.stems)
    slow = MatchTerms(set(fast.stems), set(fast.exact), set(fast.prefixes))
    assert fast.scanner() is not None and slow.scanner() is None
    texts, words = walked
    with pytest.MonkeyPatch.context() as patched:
        # The slow walk over the words walked once; the fast spans below are made unpatched.
        patched.setattr(highlight, "iter_words", words.__getitem__)
        slow_spans = [spans(text, slow, stem) for text in texts]
    found = 0
    for text, expected in zip(texts, slow_spans, strict=True):
        assert spans(text, fast, stem) == expected, text
        found += bool(expected)
    assert found or query.startswith("-")


@pytest.mark.parametrize(
    "text",
    [
        "e.g. models, i.e.model; Model-based (models) modelling.",
        "3.5 models..models .models model.\nmodels",
        "MODELS model_x xmodel models2 model.s",
    ],
)
def test_fast_highlights_on_word_edges(text: str) -> None:
    slow = MatchTerms({stem("models")}, {"e.g", "s"}, {"model"})
    fast = MatchTerms(set(slow.stems), set(slow.exact), set(slow.prefixes))
    fast.surface = {"model", "models", "modelling", "modell"}
    assert spans(text, fast, stem) == spans(text, slow, stem)
    assert spans(text, slow, stem)


def test_a_tiny_postings_cache_changes_nothing(index: SearchIndex) -> None:
    index.ensure()
    small = FastScorer(index._searcher, cache_postings=10, cache_scores=50)
    for query, prefix in QUERIES:
        built, _ = _built(index, query, prefix)
        for _ in range(2):  # asked again: from what the small caches kept
            assert small.matches(built) == index._scorer.matches(built), query
    for kept, budget in ((small._terms, 10), (small._scores, 50)):
        assert len(kept) >= 1 and (kept.size <= budget or len(kept) == 1)
        assert kept.size == sum(size for _, size in kept._items.values())


def test_the_top_hits_settle_ties_at_the_cut_by_document() -> None:
    scores = {9: 1.0, 3: 2.0, 7: 1.0, 1: 1.0, 5: 3.0, 2: 0.5}
    assert FastScorer.top(scores, 4) == [(5, 3.0), (3, 2.0), (1, 1.0), (7, 1.0)]
    assert FastScorer.top(scores, 10) == [
        (5, 3.0),
        (3, 2.0),
        (1, 1.0),
        (7, 1.0),
        (9, 1.0),
        (2, 0.5),
    ]
    assert FastScorer.top(scores, 0) == [] == FastScorer.top({}, 5)


def test_a_reopened_index_starts_a_new_cache(tmp_path: Path) -> None:
    papers = _papers_synthetic()[:50]
    ix = SearchIndex(tmp_path / "index", papers, "a")
    ix.ensure()
    ix.search("learning")
    before = ix._scorer
    assert before is not None and before._terms
    ix.build()
    assert ix._scorer is not before and not ix._scorer._terms
    built, _ = _built(ix, "learning", False)
    assert ix.search("learning").total == _slow(ix, built, 10)[0] > 0
    ix.close()
