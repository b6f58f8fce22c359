"""Declared venues reach what is built from them: the index built in a child process gives
a declared venue's sessions their days in its zone, and a catalogue cached before a venue
was declared is built again."""

from __future__ import annotations

from pathlib import Path

from index_builder import venues
from index_builder.model import Paper
from index_builder.search.engine import SearchIndex
from index_builder.venue_config import make_venue

# 20:00 in California on Wednesday is Thursday noon in Tokyo.
PAPER = Paper(id="kyoto2027:1", title="Temples of Attention", title_raw="Temples of Attention",
              venue="KYOTO 2027", session="Poster Session 1",
              starts_at="2027-10-06T20:00:00-07:00")  # fmt: skip


def test_a_child_build_uses_the_declared_zone(tmp_path: Path) -> None:
    venues.declare([make_venue("kyoto2027", "kyoto.example", timezone="Asia/Tokyo")])
    index = SearchIndex(tmp_path / "index", (PAPER,), "declared")
    index.build_in_child = True
    index.ensure()
    try:
        assert [h.paper.id for h in index.search("day:thu venue:kyoto2027").hits] == [PAPER.id]
        assert index.search("day:wed").total == 0
    finally:
        index.close()


def test_a_catalogue_cached_before_a_venue_was_declared_is_not_reused(tmp_path: Path) -> None:
    import json

    from index_builder.catalogue.load import load_catalogue
    from tests.helpers.venue_feeds import COLM27_FEED, colm_feed

    feed = tmp_path / COLM27_FEED
    feed.write_text(json.dumps(colm_feed()[0]), encoding="utf-8")
    cache = tmp_path / "cache"
    before = load_catalogue([feed], cache_dir=cache)
    assert {p.venue for p in before.papers} == {""}
    venues.declare([make_venue("colm2027", "colm.cc", timezone="America/Toronto")])
    after = load_catalogue([feed], cache_dir=cache)
    assert {p.venue for p in after.papers} == {"COLM 2027"}
    assert sorted(p.id for p in after.papers) == ["colm2027:30001", "colm2027:30002"]
