"""Narrowing to one venue: the ``venue:`` filter and the venue facet."""

from __future__ import annotations

from pathlib import Path

from index_builder.model import Paper
from index_builder.search.engine import SearchIndex

PAPERS = (
    Paper(id="1", title="Sparse attention for graphs", venue="ICML 2026", event_id=1),
    Paper(id="2", title="Dense attention for graphs", venue="ICML 2026", event_id=2),
    Paper(id="neurips2025:3", title="Attention on graphs, again", venue="NeurIPS 2025",
          event_id=3),
    Paper(id="a1", title="Attention without a venue"),
)  # fmt: skip


def test_venue_filter_and_facet(tmp_path: Path) -> None:
    index = SearchIndex(tmp_path / "index", PAPERS, "venues")
    assert index.ensure() is None
    try:
        found = {h.paper.id for h in index.search("attention venue:neurips2025").hits}
        assert found == {"neurips2025:3"}
        for spelling in ('venue:"ICML 2026"', "venue:icml2026", "venue:ICML2026"):
            assert {h.paper.id for h in index.search(spelling).hits} == {"1", "2"}, spelling
        assert index.search("-venue:icml2026 attention").total == 2
        facets = index.search("attention", facets=True).facets["venue"]
        assert [(f.value, f.count) for f in facets] == [("ICML 2026", 2), ("NeurIPS 2025", 1)]
        assert index.search(facets[1].query).total == 1
    finally:
        index.close()
