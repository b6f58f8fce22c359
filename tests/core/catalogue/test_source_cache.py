"""A change of one source reads that source alone; the catalogue is the one built from scratch.

On a copy of the analysis fixture (a table, abstract lists, JSON and BibTeX records) in a
real cache folder: one abstract list is edited, the catalogue is loaded again, and only
that file goes through the readers; the papers equal a build without any cache.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from index_builder.catalogue.load import CATALOGUE_VERSION, load_catalogue
from tests.core.test_analysis_versions import fixture_catalogue, sources
from tests.helpers.catalogue_builds import files_read


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
