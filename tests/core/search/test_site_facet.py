"""The ``site:`` filter and the Site and Venue facets over several venues side by side
(issue 37): a session belongs to the city its name begins with."""

from __future__ import annotations

from pathlib import Path

from index_builder.model import Paper
from index_builder.search.engine import SearchIndex


def _paper(pid: str, venue: str, session: str, start: str) -> Paper:
    title = f"Diffusion at {session}"
    return Paper(id=pid, title=title, title_raw=title, venue=venue, session=session,
                 starts_at=start)  # fmt: skip


N26 = "NeurIPS 2026"
PAPERS = (
    _paper("neurips2026:1", N26, "Sydney Poster Session 1", "2026-12-08T11:00:00+11:00"),
    _paper("neurips2026:2", N26, "Paris Poster Session 1", "2026-12-10T00:00:00+11:00"),
    _paper("neurips2026:3", N26, "Paris Poster Session 2", "2026-12-10T20:00:00+11:00"),
    _paper("neurips2026:4", N26, "Atlanta Poster Session 1", "2026-12-09T10:00:00-05:00"),
    _paper("neurips2025:5", "NeurIPS 2025", "Mexico City Poster Session 1",
           "2025-12-04T10:00-06:00"),
    _paper("6", "ICML 2026", "Poster Session 3", "2026-07-07T18:30:00-07:00"),
)  # fmt: skip


def test_site_filter_and_facets(tmp_path: Path) -> None:
    index = SearchIndex(tmp_path / "index", PAPERS, "sites")
    index.ensure()
    try:
        assert [h.paper.id for h in index.search("site:paris", sort="title").hits] == [
            "neurips2026:2",
            "neurips2026:3",
        ]
        assert [h.paper.id for h in index.search('site:"Mexico City"').hits] == ["neurips2025:5"]
        # Paris's Wednesday is its own, not Sydney's (already Thursday there).
        assert [h.paper.id for h in index.search("day:wed site:paris").hits] == ["neurips2026:2"]
        result = index.search("diffusion", facets=True)
        sites = {f.value: f.count for f in result.facets["site"]}
        assert sites == {
            "NeurIPS 2026 · Paris": 2,
            "NeurIPS 2026 · Sydney": 1,
            "NeurIPS 2026 · Atlanta": 1,
            "NeurIPS 2025 · Mexico City": 1,
        }
        venues = {f.value: f.count for f in result.facets["venue"]}
        assert venues == {"NeurIPS 2026": 4, "NeurIPS 2025": 1, "ICML 2026": 1}
        for facet in (*result.facets["site"], *result.facets["venue"]):
            assert index.search(f"diffusion {facet.query}").total == facet.count, facet
    finally:
        index.close()
