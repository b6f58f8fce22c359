"""The TUI's searcher: the simple filter before the index, like:, everything, sorting."""

from __future__ import annotations

from pathlib import Path

from index_builder.search.engine import SearchIndex
from index_builder.search.vector_queries import like_words
from tests.helpers.tui_papers import HAND_MADE, PaperShelf, sample_papers
from tui.screens.main.searching import Searcher, like_query


def test_simple_filter_matches_title_and_authors_in_any_case() -> None:
    searcher = Searcher(PaperShelf(HAND_MADE))
    assert not searcher.ready
    result = searcher.run("MASSART noise")
    assert {h.paper.id for h in result.hits} == {"t01", "t02"}
    assert result.total == 2
    title = result.hits[0].paper.title
    assert [title[a:b].lower() for a, b in result.hits[0].title_spans] == ["massart", "noise"]
    assert [h.paper.id for h in searcher.run("grace hopper").hits] == ["t04"]
    assert searcher.run("nothing-like-this").hits == ()


def test_simple_filter_sorts_and_limits() -> None:
    searcher = Searcher(PaperShelf(sample_papers()))
    result = searcher.run("a", sort="title", limit=5)
    assert len(result.hits) == 5 and result.total > 5
    titles = [h.paper.title.casefold() for h in result.hits]
    assert titles == sorted(titles)


def test_empty_query_is_every_paper_in_order() -> None:
    shelf = PaperShelf(sample_papers())
    searcher = Searcher(shelf)
    assert [h.paper for h in searcher.run("").hits] == list(shelf.papers)
    timed = [h.paper.starts_at for h in searcher.run("  ", sort="time").hits if h.paper.starts_at]
    assert timed == sorted(timed)


def test_like_needs_the_index_then_lists_similar(tui_index_dir: Path) -> None:
    shelf = PaperShelf(sample_papers())
    searcher = Searcher(shelf)
    assert searcher.run(like_query("t01")).hits == ()
    searcher.attach(SearchIndex(tui_index_dir / "index", shelf.papers, shelf.fingerprint))
    hits = searcher.run(like_query("t01")).hits
    assert hits and "t01" not in {h.paper.id for h in hits}
    assert searcher.run(like_query("nope")).hits == ()


def test_like_counts_what_similar_counts_and_pages_through_them(tui_index_dir: Path) -> None:
    """like:ID in the browser and ``paperscope similar ID`` count the same papers and say so
    in the same words; the list pages through all of them (issue 36, item 18)."""
    shelf = PaperShelf(sample_papers())
    index = SearchIndex(tui_index_dir / "index", shelf.papers, shelf.fingerprint)
    searcher = Searcher(shelf, index)
    similar = index.similar("t01", 100)
    listed = searcher.run(like_query("t01"))
    assert listed.total == similar.total > 4
    assert listed.note == similar.note == f"{similar.total:,} {like_words('t01')}"
    page = searcher.run(like_query("t01"), limit=2, offset=2).hits
    assert [h.paper.id for h in page] == [h.paper.id for h in similar.hits[2:4]]


def test_with_the_index_queries_go_to_it(tui_index_dir: Path) -> None:
    shelf = PaperShelf(sample_papers())
    searcher = Searcher(
        shelf, SearchIndex(tui_index_dir / "index", shelf.papers, shelf.fingerprint)
    )
    result = searcher.run("watermar")
    assert [h.paper.id for h in result.hits] == ["t04"], "the last word is a prefix"
    counts = searcher.run("", facets=True)
    assert counts.facets and len(counts.hits) == len(shelf.papers)
