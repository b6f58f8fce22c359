"""A change in place writes the manifest's changed entries alone (the base file stays the
old index's, hard-linked), and the manifest read back is the one a full build writes;
past :data:`~index_builder.search.manifest.MANIFEST_CHANGES_LIMIT` entries it is written
whole again."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from index_builder.search import in_place, manifest
from index_builder.search.engine import SearchIndex
from tests.core.search.test_in_place import mutate
from tests.core.test_analysis_versions import fixed_papers
from tests.helpers.search_builds import fixed_index


@pytest.mark.parametrize("limit", [1000, 5])
def test_the_manifest_changed_in_place_is_a_fresh_one(
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    limit: int,
) -> None:
    monkeypatch.setattr(manifest, "MANIFEST_CHANGES_LIMIT", limit)
    rng = random.Random(4)
    papers = fixed_papers()
    index_dir = fixed_index(tmp_path_factory, tmp_path / "index")
    base = os.stat(index_dir / manifest.MANIFEST).st_ino
    for serial in range(1, 4):
        papers = mutate(papers, rng, serial)
        SearchIndex(index_dir, papers, f"v{serial}").ensure()
        assert in_place.load_manifest(index_dir) == {p.id: in_place.entry(p) for p in papers}
    changes = index_dir / manifest.MANIFEST_CHANGES
    kept = os.stat(index_dir / manifest.MANIFEST).st_ino == base
    assert kept == changes.exists() == (limit > 5)


def test_a_damaged_file_of_manifest_changes_is_a_full_build(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    papers = fixed_papers()
    index_dir = fixed_index(tmp_path_factory, tmp_path / "index")
    papers = mutate(papers, random.Random(8), 1)
    SearchIndex(index_dir, papers, "v1").ensure()
    (index_dir / manifest.MANIFEST_CHANGES).write_bytes(b"not a pickle")
    assert in_place.load_manifest(index_dir) is None
