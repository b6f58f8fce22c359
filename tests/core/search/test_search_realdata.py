"""The PRODUCT.md search examples on the real bundled table (6,628 papers)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from index_builder.catalogue.load import Catalogue
from index_builder.model import Paper
from index_builder.search.engine import SearchIndex
from index_builder.search.words import words
from index_builder.times import first_event


@pytest.fixture(scope="module")
def papers(bundled_catalogue: Catalogue) -> Sequence[Paper]:
    """The papers of the bundled catalogue."""
    return bundled_catalogue.papers


@pytest.fixture(scope="module")
def index(bundled_index: SearchIndex) -> SearchIndex:
    """The bundled index (shared by the whole run, read only)."""
    return bundled_index


def title_words(paper: Paper) -> list[str]:
    return words(paper.title)


def test_table_is_whole(index: SearchIndex, papers: Sequence[Paper]) -> None:
    assert len(papers) >= 6628
    assert index.search("").total == len(papers)
    assert index.search("is:oral").total == sum(p.oral for p in papers) >= 160


def test_unjoined_finds_the_abstracts_left_on_their_own(
    index: SearchIndex, papers: Sequence[Paper]
) -> None:
    alone = {p.id for p in papers if p.event_id is None}
    assert 0 < len(alone) < 10  # the bundled lists in their own order join 74 of 76
    result = index.search("is:unjoined", limit=100)
    assert {h.paper.id for h in result.hits} == alone and result.total == len(alone)
    assert all(h.paper.title_derived for h in result.hits)
    assert index.search("-is:unjoined").total == len(papers) - len(alone)
    assert index.search("has:abstract -is:unjoined").total == sum(
        p.has_abstract and p.event_id is not None for p in papers
    )


def test_proeval_first(index: SearchIndex) -> None:
    for query in ("proeval", "ProEval", "proev"):
        result = index.search(query, prefix=True)
        assert result.hits[0].paper.title.startswith("ProEval:")


def test_author_zi_wang(index: SearchIndex, papers: Sequence[Paper]) -> None:
    expected = {p.id for p in papers if any(a.casefold() == "zi wang" for a in p.authors)}
    result = index.search('author:"Zi Wang"')
    assert expected
    assert {h.paper.id for h in result.hits} == expected
    adjacent = [p for p in papers if re.search(r"\bzi; wang\b", "; ".join(p.authors).lower())]
    for paper in adjacent:
        assert paper.id not in {h.paper.id for h in result.hits}


def test_diffusion_language_spotlight(index: SearchIndex) -> None:
    result = index.search("diffusion language is:spotlight")
    assert result.total >= 5
    for hit in result.hits:
        assert hit.paper.spotlight
        marked = " ".join(hit.paper.title[a:b].lower() for a, b in hit.title_spans)
        assert "diffusion" in marked
    top = result.hits[0].paper.title.lower()
    assert "diffusion language model" in top


def test_optimal_transport_not_diffusion(index: SearchIndex, papers: Sequence[Paper]) -> None:
    result = index.search('"optimal transport" NOT diffusion', limit=500)
    expected = {
        p.id
        for p in papers
        if "optimal transport" in " ".join(title_words(p))
        and not any(w.startswith("diffus") for w in title_words(p))
    }
    found = {h.paper.id for h in result.hits}
    assert len(expected) >= 30
    assert expected <= found
    for hit in result.hits:
        assert not any(w.startswith("diffus") for w in title_words(hit.paper))


def test_watermark_prefix(index: SearchIndex, papers: Sequence[Paper]) -> None:
    result = index.search("watermark*", limit=500)
    forms = {w for h in result.hits for w in title_words(h.paper) if w.startswith("watermark")}
    assert {"watermark", "watermarks", "watermarking"} <= forms
    expected = {p.id for p in papers if any(w.startswith("watermark") for w in title_words(p))}
    assert expected <= {h.paper.id for h in result.hits}


def test_star_before_a_word_finds_words_ending_with_or_holding_it(
    index: SearchIndex, papers: Sequence[Paper]
) -> None:
    ends = index.search("title:*former", limit=1000)
    expected = {p.id for p in papers if any(w.endswith("former") for w in title_words(p))}
    # every one (titles are searched by stem, as for word*: "transformation" comes too)
    assert len(expected) >= 50 and expected <= {h.paper.id for h in ends.hits}
    forms = {w for h in ends.hits for w in title_words(h.paper) if w.endswith("former")}
    assert {"transformer", "aesformer"} <= forms  # no prefix search reaches AesFormer
    inside = index.search("*diffus*", limit=1000)
    assert inside.total == index.search("diffus*").total >= 300
    assert not inside.fallback and inside.suggestion is None
    assert index.search("*xyzqj*").total == 0


def test_massart_noise(index: SearchIndex) -> None:
    result = index.search("massart noise")
    assert result.total == 2
    assert all("Massart Noise" in h.paper.title for h in result.hits)
    assert index.search("massart", prefix=True).total >= 2
    assert {h.paper.id for h in index.search("mass", prefix=True, limit=500).hits} >= {
        h.paper.id for h in result.hits
    }


def test_rl4rla_case(index: SearchIndex) -> None:
    upper, lower = index.search("RL4RLA"), index.search("rl4rla")
    assert [h.paper.id for h in upper.hits] == [h.paper.id for h in lower.hits]
    assert upper.total == 1


def test_folding_on_real_names(index: SearchIndex) -> None:
    assert index.search("Lukasz").total >= 1
    assert index.search("vision-language").total == index.search("vision–language").total >= 17


def test_sorts(index: SearchIndex) -> None:
    by_time = index.search("learning", sort="time", limit=10000)
    starts = [first_event(h.paper).starts_at for h in by_time.hits]  # an oral's talk first
    dated = [s for s in starts if s]
    assert dated == sorted(dated)
    assert starts == dated + [""] * (len(starts) - len(dated))
    assert len(dated) < len(starts)
    by_title = index.search("learning", sort="title", limit=10000)
    titles = [h.paper.title.casefold() for h in by_title.hits]
    assert titles == sorted(titles)


def test_facets_on_real_data(index: SearchIndex) -> None:
    result = index.search("diffusion", facets=True, limit=5)
    for facet in result.facets["topic"][:3] + result.facets["session"][:2]:
        assert index.search(f"diffusion {facet.query}").total == facet.count
    assert sum(f.count for f in result.facets["kind"]) == result.total


def test_did_you_mean_on_real_data(index: SearchIndex) -> None:
    assert index.search("massart noize").suggestion == "massart noise"
    assert index.search("proevl").suggestion == "proeval"
    assert index.search("transformr", prefix=True).suggestion == "transformer"
    assert index.search("graph transformr", prefix=True).suggestion == "graph transformer"
    for syntax in ("title:", "author:", "title:*", "tite:"):
        for prefix in (False, True):
            assert index.search(syntax, prefix=prefix).suggestion is None, syntax


def test_has_abstract_reinforcement(index: SearchIndex, papers: Sequence[Paper]) -> None:
    with_abstracts = [p for p in papers if p.abstract]
    if not with_abstracts:
        pytest.skip("the catalogue has no abstracts yet")
    result = index.search("has:abstract reinforcement", limit=500)
    assert result.total >= 1
    assert all(h.paper.abstract for h in result.hits)
    assert result.total < index.search("reinforcement").total
    assert index.search("has:abstract").total == len(with_abstracts)
    spans = [h for h in result.hits if h.abstract_spans]
    assert spans, "abstract matches are highlighted"
    for hit in spans:
        for a, b in hit.abstract_spans:
            assert hit.paper.abstract[a:b].lower().startswith("reinforc")


@pytest.mark.parametrize(
    "query, prefix",
    [
        ("learning", False),
        ("diffusion", False),
        ("diffusion l", True),
        ("d", True),
        ("optimal t", True),
        ("learning OR models", False),
        ("graph neural network OR gnn", False),
        ("masart~", False),
        ("watermark*", False),
    ],
)
def test_total_counts_every_match(index: SearchIndex, query: str, prefix: bool) -> None:
    scored = index.search(query, prefix=prefix, limit=5)
    counted = index.search(query, prefix=prefix, limit=5, facets=True)
    assert scored.total == counted.total == sum(f.count for f in counted.facets["kind"])


def test_more_like_this_on_real_data(index: SearchIndex, papers: Sequence[Paper]) -> None:
    massart = [p for p in papers if "Massart Noise" in p.title]
    similar = index.more_like_this(massart[0].id, limit=10)
    ids = [h.paper.id for h in similar]
    assert len(ids) == 10 and massart[0].id not in ids
    assert massart[1].id in ids[:3]
