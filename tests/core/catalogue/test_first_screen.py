"""The first screen of papers, read in milliseconds: the head cache and the table peek."""

from __future__ import annotations

import csv
import os
from pathlib import Path

from index_builder.catalogue.first_look import peek_table_papers, quick_table_papers
from index_builder.catalogue.load import HEAD_SIZE, Catalogue, load_catalogue, read_head
from index_builder.paths import bundled_sources
from tests.helpers.shared_builds import copy_cache, home_paths

HEADER = ["event_id", "event_type", "title", "decision", "starttime", "authors"]
EARLY = "2026-07-06T18:30:00-07:00"
LATE = "2026-07-07T18:30:00-07:00"


def write_table(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([HEADER, *rows])
    return path


def test_the_peek_is_the_first_look_cut_short() -> None:
    sources = bundled_sources()
    first_look = quick_table_papers(sources)
    for count in (1, 15, 100, 900):
        peek = peek_table_papers(sources, count)
        assert peek is not None and not peek.complete
        assert list(peek.papers) == list(first_look.papers[:count]), count


def test_the_peek_orders_titles_as_rendered(tmp_path: Path) -> None:
    """``{A}pple`` is shown (and sorted) as ``Apple``; an oral marks its poster."""
    table = write_table(
        tmp_path / "papers.csv",
        [
            ["1", "Poster", "Banana", "Accept (oral)", LATE, "A. Author"],
            ["2", "Poster", "Cherry", "Accept (poster)", LATE, "B. Author"],
            ["3", "Poster", "{A}pple", "Accept (poster)", LATE, "C. Author"],
            ["4", "Poster", "Date", "Accept (poster)", LATE, "D. Author"],
            ["5", "Poster", "Zucchini", "Accept (poster)", EARLY, "E. Author"],
            ["6", "Poster", "Untimed", "Accept (poster)", "", "F. Author"],
            ["7", "Oral", "Banana", "Accept (oral)", EARLY, "A. Author"],
        ],
    )
    first_look = quick_table_papers([table])
    assert [p.title for p in first_look.papers][:3] == ["Zucchini", "Apple", "Banana"]
    for count in range(1, 7):
        peek = peek_table_papers([table], count)
        assert peek is not None
        assert list(peek.papers) == list(first_look.papers[:count]), count
    banana = next(p for p in first_look.papers if p.title == "Banana")
    assert banana.oral and len(banana.events) == 2


def test_no_table_no_peek(tmp_path: Path) -> None:
    abstracts = tmp_path / "abstracts.txt"
    abstracts.write_text("An abstract about nothing in particular.\n", encoding="utf-8")
    assert peek_table_papers([abstracts]) is None


def test_the_head_cache_holds_the_catalogue_s_first_papers(tmp_path: Path, warm_home: Path) -> None:
    sources = bundled_sources()
    assert read_head(sources, tmp_path) is None, "no cache yet"
    # The run's bundled home: its cache was written by a build from the sources alone.
    cache = copy_cache(home_paths(warm_home).cache_dir, tmp_path / "cache", with_index=False)
    head = read_head(sources, cache)
    full = load_catalogue(sources, cache_dir=cache)
    assert isinstance(head, Catalogue) and not head.complete
    assert list(head.papers) == list(full.papers[:HEAD_SIZE])
    assert head.fingerprint == full.fingerprint


def test_a_changed_source_has_no_head(tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "papers.csv", [["1", "Poster", "Banana", "Accept (poster)", LATE, "A. B"]]
    )
    cache = tmp_path / "cache"
    load_catalogue([table], cache_dir=cache)
    assert read_head([table], cache) is not None
    write_table(table, [["1", "Poster", "Cherry", "Accept (poster)", LATE, "A. B"]])
    assert read_head([table], cache) is None


def test_a_touched_source_gets_its_head_back_on_the_next_load(tmp_path: Path) -> None:
    table = write_table(
        tmp_path / "papers.csv", [["1", "Poster", "Banana", "Accept (poster)", LATE, "A. B"]]
    )
    cache = tmp_path / "cache"
    load_catalogue([table], cache_dir=cache)
    info = table.stat()
    os.utime(table, ns=(info.st_atime_ns, info.st_mtime_ns + 10**9))
    assert read_head([table], cache) is None, "the head does not read the sources to check"
    load_catalogue([table], cache_dir=cache)  # the catalogue cache still holds
    head = read_head([table], cache)
    assert head is not None and [p.title for p in head.papers] == ["Banana"]
