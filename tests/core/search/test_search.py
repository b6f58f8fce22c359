"""Search semantics on a small hand-made catalogue (PRODUCT.md section 2)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from index_builder.model import SearchResult, SortKey
from index_builder.search.engine import SearchIndex
from tests.helpers.search_papers import PAPERS


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    ix = SearchIndex(tmp_path_factory.mktemp("search") / "index", PAPERS, "fixture-1")
    assert ix.ensure() is None
    yield ix
    ix.close()


def ids(result: SearchResult) -> list[str]:
    return [hit.paper.id for hit in result.hits]


def found(index: SearchIndex, query: str, **kw: object) -> set[str]:
    return set(ids(index.search(query, **kw)))  # type: ignore[arg-type]


def test_method_name_finds_its_paper_first(index: SearchIndex) -> None:
    result = index.search("proeval")
    assert ids(result)[:1] == ["p01"]
    assert result.hits[0].title_spans == ((0, 7),)


def test_case_insensitive_and_digits_stay_in_one_token(index: SearchIndex) -> None:
    assert ids(index.search("RL4RLA")) == ids(index.search("rl4rla")) == ["p11"]
    assert found(index, "RL4") == set()


def test_title_match_ranks_above_abstract_match(index: SearchIndex) -> None:
    assert ids(index.search("transformers"))[:2] == ["p16", "p17"]


def test_stemming(index: SearchIndex) -> None:
    assert found(index, "language") == {"p06", "p12", "p13"}
    assert "p16" in found(index, "transformer")


def test_dash_and_accent_folding(index: SearchIndex) -> None:
    result = index.search("Wang-Landau")
    assert ids(result) == ["p03"]
    title = result.hits[0].paper.title
    assert [title[a:b] for a, b in result.hits[0].title_spans] == ["Wang–Landau"]
    assert found(index, "Lukasz") == {"p03"}
    assert found(index, "author:emile") == {"p03"}
    assert found(index, "institution:universite") == {"p03"}


def test_and_is_the_default_or_and_not(index: SearchIndex) -> None:
    assert found(index, "diffusion language") == {"p12", "p13"}
    assert found(index, "massart OR watermarking") == {"p09", "p10", "p06", "p07", "p08"}
    assert found(index, "diffusion NOT code") == {"p05", "p12"}
    assert found(index, "diffusion -code") == {"p05", "p12"}
    assert found(index, "diffusion AND code") == {"p13"}


def test_phrase(index: SearchIndex) -> None:
    assert found(index, '"optimal transport"') == {"p04", "p05"}
    assert found(index, '"transport optimal"') == set()


def test_phrase_not_excludes(index: SearchIndex) -> None:
    assert found(index, '"optimal transport" NOT diffusion') == {"p04"}


def test_not_inside_or_binds_to_its_word(index: SearchIndex) -> None:
    # a OR (b AND NOT c), never "a OR NOT c" (which matches nearly everything)
    assert found(index, "massart OR diffusion NOT code") == {"p09", "p10", "p05", "p12"}
    assert found(index, "(massart OR diffusion) NOT code") == {"p09", "p10", "p05", "p12"}


def test_pure_negation_matches_the_rest(index: SearchIndex) -> None:
    assert index.search("NOT diffusion").total == len(PAPERS) - 3
    assert index.search("-diffusion").total == len(PAPERS) - 3


def test_author_phrase_does_not_cross_authors(index: SearchIndex) -> None:
    assert found(index, 'author:"Zi Wang"') == {"p01"}
    assert found(index, 'author:"Wang Li"') == {"p02"}
    assert found(index, "author:zi") == {"p01", "p02"}


def test_field_queries(index: SearchIndex) -> None:
    assert found(index, "title:watermark") == {"p06", "p07"}
    assert found(index, "abstract:watermark") == {"p08"}
    assert found(index, "topic:theory") == {"p04", "p09", "p10"}
    assert found(index, 'topic:"large language models"') == {"p12", "p13"}
    assert found(index, 'institution:"carnegie mellon"') == {"p18"}
    assert found(index, 'session:"Poster Session 1"') == {"p02", "p04"}
    assert found(index, "session:1") == {"p02", "p04"}
    assert found(index, "author:(hopper OR dao)") == {"p06", "p07", "p17"}


def test_prefix_uses_unstemmed_words(index: SearchIndex) -> None:
    result = index.search("watermark*")
    assert set(ids(result)) == {"p06", "p07", "p08"}
    spans = {h.paper.id: h for h in result.hits}
    paper = spans["p06"].paper
    assert [paper.title[a:b] for a, b in spans["p06"].title_spans] == ["Watermarking"]
    abstract = spans["p08"].paper.abstract
    assert [abstract[a:b] for a, b in spans["p08"].abstract_spans] == ["watermark"]
    assert found(index, "title:watermark*") == {"p06", "p07"}


def test_fuzzy_on_unstemmed_words(index: SearchIndex) -> None:
    assert "p06" in found(index, "watermarkin~")
    assert found(index, "watermarkin") == set()
    assert found(index, "masart~") == {"p09", "p10"}
    assert found(index, "author:hoper~") == {"p06", "p07"}


def test_filters(index: SearchIndex) -> None:
    assert found(index, "is:oral") == {"p03", "p18"}
    assert found(index, "is:spotlight") == {"p01", "p03", "p12"}
    assert found(index, "has:abstract") == {"p08", "p14", "p17"}
    assert found(index, "has:code") == {"p14"}
    assert found(index, "has:abstract reinforcement") == {"p14"}
    assert found(index, "diffusion language is:spotlight") == {"p12"}
    assert found(index, "is:oral OR is:spotlight") == {"p01", "p03", "p12", "p18"}
    assert found(index, "sampling -is:oral") == set()


def test_bookmarked_filter(index: SearchIndex) -> None:
    assert found(index, "is:bookmarked", bookmarked={"p04", "p09", "gone"}) == {"p04", "p09"}
    assert found(index, "massart is:bookmarked", bookmarked={"p04", "p09"}) == {"p09"}
    assert found(index, "is:bookmarked") == set()
    assert found(index, "is:bookmarked", bookmarked={"abstract:old-18"}) == {"p18"}
    assert found(index, "massart -is:bookmarked", bookmarked={"p09"}) == {"p10"}


def test_sets_passed_again_answer_as_they_hold_now(index: SearchIndex) -> None:
    """The current ids of a set passed with every keystroke are kept (by the set's
    identity): a new set, a set like an earlier one but with other tags, and more sets than
    are kept, each answer with what it holds."""
    from index_builder.model import Marked

    first = frozenset({"p04", "abstract:old-18"})
    try:
        index.new_ids = first
        assert found(index, "is:new") == found(index, "is:new") == {"p04", "p18"}
        index.new_ids = frozenset({"p09"})
        assert found(index, "is:new") == {"p09"}
        index.new_ids = first
        assert found(index, "is:new") == {"p04", "p18"}
    finally:
        index.new_ids = frozenset()
    assert found(index, "is:new") == set()
    ids = frozenset({"p04", "p09"})
    red, blue = Marked(ids, {"red": frozenset({"p04"})}), Marked(ids, {"red": frozenset({"p09"})})
    assert found(index, "tag:red", bookmarked=red) == {"p04"}
    assert found(index, "tag:red", bookmarked=blue) == {"p09"}
    for n in range(20):  # more sets than are kept: the oldest make way, answers stay right
        one = frozenset({f"p{n % 18 + 1:02d}"})
        assert found(index, "is:bookmarked", bookmarked=one) == set(one)
    assert found(index, "tag:red", bookmarked=red) == {"p04"}


def test_dismissed_filter(index: SearchIndex) -> None:
    gone = {"p04", "p09", "gone"}
    assert found(index, "is:dismissed", dismissed=gone) == {"p04", "p09"}
    assert found(index, "massart is:dismissed", dismissed=gone, bookmarked={"p10"}) == {"p09"}
    assert found(index, "is:dismissed", bookmarked={"p04"}) == set()
    assert found(index, "is:dismissed", dismissed={"abstract:old-18"}) == {"p18"}
    assert found(index, "massart -is:dismissed", dismissed={"p09"}) == {"p10"}
    assert not index.search("is:dismissed", dismissed={"p04"}).fallback


def test_day_filter(index: SearchIndex) -> None:
    assert found(index, "day:2026-07-06") == {"p02", "p04", "p18"}
    assert found(index, "day:mon") == {"p02", "p04", "p18"}
    assert found(index, "day:Wednesday") == {"p03"}
    assert found(index, "day:07-07") == {"p01"}


def test_prefix_option_for_typing(index: SearchIndex) -> None:
    assert found(index, "mass", prefix=True) == {"p09", "p10", "p18"}
    assert found(index, "mass") == set()
    assert found(index, "mass ", prefix=True) == set()
    assert found(index, "diffusion lang", prefix=True) == {"p12", "p13"}


def test_empty_query_lists_every_paper_in_order(index: SearchIndex) -> None:
    for query in ("", "   "):
        result = index.search(query)
        assert result.total == len(PAPERS)
        assert ids(result) == [p.id for p in PAPERS]
        assert not result.fallback
    assert len(index.search("", limit=5).hits) == 5


def test_limit_and_total(index: SearchIndex) -> None:
    result = index.search("diffusion", limit=1)
    assert result.total == 3
    assert len(result.hits) == 1
    assert result.elapsed_ms > 0


def test_sort_by_title_and_time(index: SearchIndex) -> None:
    by_title = index.search("learning OR diffusion", sort="title")
    titles = [h.paper.title.casefold() for h in by_title.hits]
    assert titles == sorted(titles)
    by_time = index.search("sampling OR transport OR graph OR diffusion", sort="time")
    assert ids(by_time) == ["p18", "p02", "p04", "p03", "p12", "p13", "p05", "p16"]


def test_did_you_mean(index: SearchIndex) -> None:
    result = index.search("massart noize")
    assert result.total == 0
    assert result.suggestion == "massart noise"
    assert index.search(result.suggestion).total == 2
    assert index.search("proevl").suggestion == "proeval"
    assert index.search("massart noise").suggestion is None
    assert index.search("zzzzqqq").suggestion is None


def test_did_you_mean_for_the_last_word_typed_as_a_prefix(index: SearchIndex) -> None:
    assert index.search("proevl", prefix=True).suggestion == "proeval"
    assert index.search("massart noize", prefix=True).suggestion == "massart noise"
    assert index.search("noize", prefix=True).suggestion == "noise"
    # The start of a real word is not a typo.
    assert index.search("mass", prefix=True).suggestion is None


@pytest.mark.parametrize("query", ["title:", "author:", "title:*", "tite:", "auther:", "is:"])
@pytest.mark.parametrize("prefix", [False, True])
def test_no_suggestion_for_field_names_or_syntax(
    index: SearchIndex, query: str, prefix: bool
) -> None:
    assert index.search(query, prefix=prefix).suggestion is None


def test_facets_count_all_matches_and_select_them(index: SearchIndex) -> None:
    result = index.search("learning OR diffusion OR sampling", limit=1, facets=True)
    assert set(result.facets) == {"topic", "kind", "session", "venue", "track", "site"}
    # One venue, one track, no site: nothing to narrow.
    assert result.facets["venue"] == result.facets["track"] == result.facets["site"] == ()
    for name, counts in result.facets.items():
        assert counts or name in ("venue", "track", "site"), name
        for facet in counts:
            narrowed = index.search(f"(learning OR diffusion OR sampling) {facet.query}")
            assert narrowed.total == facet.count, (name, facet)
    kinds = {f.value: f.count for f in result.facets["kind"]}
    assert sum(kinds.values()) == result.total
    everything = index.search("", facets=True)
    assert sum(f.count for f in everything.facets["kind"]) == len(PAPERS)
    topics = {f.value: f for f in everything.facets["topic"]}
    assert topics["Theory"].count == 3
    assert index.search(topics["Deep Learning"].query).total == topics["Deep Learning"].count


def test_highlights_are_offsets_into_display_text(index: SearchIndex) -> None:
    result = index.search("diffusion language")
    for hit in result.hits:
        marked = [hit.paper.title[a:b].lower() for a, b in hit.title_spans]
        assert marked == ["diffusion language"]
    negated = index.search("diffusion NOT code").hits
    assert all("code" not in h.paper.title[a:b].lower() for h in negated for a, b in h.title_spans)


def test_more_like_this(index: SearchIndex) -> None:
    similar = index.more_like_this("p12")
    similar_ids = [h.paper.id for h in similar]
    assert "p12" not in similar_ids
    assert similar_ids[0] == "p13"
    assert index.more_like_this("missing") == ()


@pytest.mark.parametrize(
    "query",
    ['"unbalanced', "(open", "NOT", "author:", "*", "~", ":::", "a AND", "OR b"],
)
def test_malformed_falls_back_to_plain_words(index: SearchIndex, query: str) -> None:
    result = index.search(query)
    assert isinstance(result, SearchResult)
    assert result.fallback


def test_a_stray_closing_bracket_is_ignored_not_a_fallback(index: SearchIndex) -> None:
    result = index.search("massart)")
    assert not result.fallback
    assert result.total == index.search("massart").total > 0


def test_fallback_searches_the_words(index: SearchIndex) -> None:
    result = index.search('"massart noise')
    assert result.fallback
    assert set(ids(result)) == {"p09", "p10"}
    assert index.search("x" * 3000).total == 0


def test_search_works_in_a_fresh_instance_without_ensure(tmp_path: Path) -> None:
    ix = SearchIndex(tmp_path / "index", PAPERS, "fp")
    try:
        assert ids(ix.search("proeval")) == ["p01"]
    finally:
        ix.close()


@pytest.mark.parametrize("sort", ["relevance", "title", "time"])
@pytest.mark.parametrize("query", ["", "learning"])
def test_pages_follow_on_to_every_hit(index: SearchIndex, sort: SortKey, query: str) -> None:
    whole = index.search(query, limit=1000, sort=sort)
    assert whole.total == len(whole.hits) > 3
    pages = [index.search(query, limit=2, offset=start, sort=sort) for start in range(0, 1000, 2)]
    paged = [h.paper.id for page in pages for h in page.hits]
    assert paged == [h.paper.id for h in whole.hits]
    assert all(page.total == whole.total for page in pages)
