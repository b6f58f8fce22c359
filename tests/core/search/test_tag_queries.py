"""``tag:NAME`` in a query: the reading list's tags (carried by ``ReadingList.ids()``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from index_builder.model import Marked, Paper
from index_builder.readinglist.store import ReadingList


def test_the_list_ids_carry_each_tag_with_aliases(tmp_path: Path) -> None:
    with ReadingList(tmp_path / "list.sqlite3") as store:
        store.add(Paper("p1", "One", aliases=("old1",)))
        store.add(Paper("p2", "Two"))
        store.tag("p1", ["Thesis", "for my thesis"])
        ids = store.ids()
        assert ids == {"p1", "old1", "p2"}
        assert ids.tags == {"thesis": {"p1", "old1"}, "for my thesis": {"p1", "old1"}}
        store.untag("p1", ["thesis"])
        assert store.ids().tags == {"for my thesis": {"p1", "old1"}}


def test_tag_queries_find_the_tagged_papers(bundled_index: Any) -> None:
    papers = bundled_index.papers
    first, second, third = papers[0].id, papers[1].id, papers[2].id
    tags = {"zotero": frozenset({first, second}), "for my thesis": frozenset({third})}
    marked = Marked(frozenset({first, second, third}), tags)

    def ids(query: str, bookmarked: Any = marked) -> set[str]:
        result = bundled_index.search(query, bookmarked=bookmarked, limit=50)
        return {h.paper.id for h in result.hits}

    assert ids("tag:zotero") == {first, second}
    assert ids("tag:ZOTERO") == {first, second}
    assert ids('tag:"for my thesis"') == {third}
    assert ids("tag:zotero NOT tag:zotero") == set()
    assert ids('tag:zotero OR tag:"for my thesis"') == {first, second, third}
    assert ids("tag:nope") == set()
    assert ids("tag:zotero", frozenset({first})) == set()  # a plain set has no tags
    word = papers[0].title.split()[0]
    assert first in ids(f"tag:zotero {word}") <= {first, second}


def test_the_tag_facet_counts_the_matches(bundled_index: Any) -> None:
    papers = bundled_index.papers
    tags = {"zotero": frozenset({papers[0].id, papers[1].id}), "unused": frozenset({"x"})}
    marked = Marked(frozenset({papers[0].id, papers[1].id}), tags)
    result = bundled_index.search("tag:zotero", bookmarked=marked, facets=True)
    assert [(f.value, f.count, f.query) for f in result.facets["tag"]] == [
        ("zotero", 2, 'tag:"zotero"')
    ]
    everything = bundled_index.search("", bookmarked=marked, facets=True)
    assert [f.value for f in everything.facets["tag"]] == ["zotero"]
    assert "tag" not in bundled_index.search("", facets=True).facets
