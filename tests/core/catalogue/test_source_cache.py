"""A change of one source reads that source alone; the catalogue is the one built from scratch.

On a copy of the analysis fixture (a table, abstract lists, JSON and BibTeX records) in a
real cache folder: one abstract list is edited, the catalogue is loaded again, and only
that file goes through the readers; the papers equal a build without any cache.
"""

from __future__ import annotations

import json
import pickle
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from index_builder.catalogue.load import CATALOGUE_VERSION, load_catalogue
from index_builder.model import Event
from index_builder.paths import bundled_sources
from index_builder.sources.reading import read_source
from index_builder.sources.types import SourceData
from tests.core.test_analysis_versions import fixture_catalogue, sources
from tests.helpers.catalogue_builds import files_read
from tests.helpers.feed_data import ICML_FEED, icml_feed


@pytest.fixture
def copied(tmp_path: Path) -> list[Path]:
    """The fixture's sources copied into ``tmp_path/src``."""
    folder = tmp_path / "src"
    folder.mkdir()
    for path in sources():
        shutil.copy(path, folder / path.name)
    return sorted(folder.iterdir())


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files that went through the readers."""
    return files_read(monkeypatch)


def test_a_changed_source_is_the_only_one_read(
    copied: list[Path], tmp_path: Path, reads: list[str]
) -> None:
    cache_dir = tmp_path / "cache"
    load_catalogue(copied, cache_dir=cache_dir)
    assert len(reads) == len(copied)
    changed = next(p for p in copied if p.suffix == ".txt")
    text = changed.read_text(encoding="utf-8")
    changed.write_text(text.replace("the", "the very", 1), encoding="utf-8")
    reads.clear()
    again = load_catalogue(copied, cache_dir=cache_dir)
    assert reads == [changed.name]
    reads.clear()
    cold = load_catalogue(copied)
    assert (again.papers, again.problems) == (cold.papers, cold.problems)


@pytest.mark.parametrize("garbage", [b"", b"junk", b"\x80\x05K"])
def test_a_damaged_source_cache_is_ignored(
    copied: list[Path], tmp_path: Path, reads: list[str], garbage: bytes
) -> None:
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / f"sources-v{CATALOGUE_VERSION}.pickle").write_bytes(garbage)
    built = load_catalogue(copied, cache_dir=cache_dir)
    assert len(reads) == len(copied)
    # The fixture's files built without a cache, once per process: a paper names its
    # sources by their file names, the same in the copy.
    assert built.papers == fixture_catalogue().papers


def test_parsed_sources_pickle_whole(tmp_path: Path) -> None:
    """Rows are pickled as columns (:meth:`SourceData.__reduce__`): every field of every
    row and paper, of a feed, an abstracts file, the table and records, comes back equal,
    and a value the rows share stays one object."""
    feed = tmp_path / ICML_FEED
    feed.write_text(json.dumps(icml_feed()), encoding="utf-8")
    table = next(p for p in bundled_sources() if p.suffix == ".csv")
    event = Event("poster", "Session 1", "2026-07-14T10:00", "", 7, "Hall A", "#12")
    made = [
        read_source(path, path.read_bytes())
        for path in [feed, table, *(p for p in sources() if p.suffix != ".csv")]
    ]
    row = made[0].rows[0]
    made.append(
        SourceData(
            tmp_path / "own.csv", rows=[replace(row, paper=replace(row.paper, events=(event,)))]
        )
    )
    made.append(SourceData(tmp_path / "none.csv"))
    assert any(d.records for d in made) and any(d.abstracts for d in made)
    for data in made:
        again = pickle.loads(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
        assert again == data
        assert [r.related for r in again.rows] == [r.related for r in data.rows]
    sessions = [r.paper.session for r in pickle.loads(pickle.dumps(made[0])).rows]
    assert len({id(s) for s in sessions}) == len(set(sessions))
