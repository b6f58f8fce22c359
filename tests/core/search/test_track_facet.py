"""The ``track`` field: ``track:`` in queries and the Track facet (issue 27, item 3)."""

from __future__ import annotations

from pathlib import Path

from index_builder.model import Paper
from index_builder.search.engine import SearchIndex


def _paper(pid: str, title: str, track: str) -> Paper:
    return Paper(id=pid, title=title, title_raw=title, track=track, venue="ICML 2026")


PAPERS = (
    _paper("1", "Sparse ridgelets for diffusion", "main"),
    _paper("2", "Position: diffusion benchmarks should be boring", "position"),
    _paper("3", "Diffusion, a journal paper", "journal"),
    _paper("4", "Diffusion datasets at scale", "datasets and benchmarks"),
    _paper("5", "Diffusion from a table without tracks", ""),
)


def test_track_queries_and_facet(tmp_path: Path) -> None:
    index = SearchIndex(tmp_path / "index", PAPERS, "tracks")
    index.ensure()
    try:
        assert [h.paper.id for h in index.search("track:position").hits] == ["2"]
        assert [h.paper.id for h in index.search("track:Journal").hits] == ["3"]
        assert [h.paper.id for h in index.search('track:"datasets and benchmarks"').hits] == ["4"]
        assert index.search("diffusion -track:main").total == 4
        facets = index.search("diffusion", facets=True).facets["track"]
        assert {f.value: f.count for f in facets} == {
            "main": 1,
            "position": 1,
            "journal": 1,
            "datasets and benchmarks": 1,
        }
        for facet in facets:
            assert index.search(f"diffusion {facet.query}").total == facet.count, facet
    finally:
        index.close()
