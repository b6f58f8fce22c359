"""``is:new`` (:func:`~index_builder.feeds.store.added_ids`): a paper is new until the next
update that does not add it, whether that update stores a new set or finds nothing
modified."""

from __future__ import annotations

from pathlib import Path

from index_builder import venues
from index_builder.feeds.store import added_ids
from index_builder.feeds.update import update
from index_builder.paths import Paths
from tests.helpers.feed_data import good_files
from tests.helpers.feed_server import serve

ICML = venues.DEFAULT


def test_an_update_that_finds_nothing_modified_ends_what_was_new(tmp_path: Path) -> None:
    paths = Paths(tmp_path / "config", tmp_path / "data", tmp_path / "cache").ensure()
    with serve(good_files()) as site:
        first = update(ICML, paths, source=site.url)
        new = added_ids(paths)
        assert first.added > 0 and len(new) == first.added
        again = update(ICML, paths, source=site.url)
    assert again.unchanged and again.downloaded == 0
    assert added_ids(paths) == frozenset()
