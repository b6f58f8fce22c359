"""A full build keeps the last build's vectors when their inputs are the same, and only then.

Each test rebuilds (``SearchIndex.build``, as ``paperscope index --rebuild``) a copy of the
fixture's full build, and compares the ``vectors.bin`` it leaves with the bytes a fit of
the same papers writes into an empty folder. Where the vectors must be kept, a fit fails
the build (``write_vectors`` raises; in this process, where a build of the fixture's 239
papers fits them: fewer than ``parallel.FORK_FROM``, so no worker is forked).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from index_builder.model import Paper
from index_builder.search import folder as indexfiles
from index_builder.search import pending_rows, vector_build
from index_builder.search.engine import SearchIndex
from index_builder.search.kept_vectors import KEY_FILE
from index_builder.vectors.storage import VECTORS_FILE
from tests.core.test_analysis_versions import fixed_papers
from tests.helpers.search_builds import fixed_index


def fitted(papers: list[Paper], folder: Path) -> bytes:
    """The bytes of ``vectors.bin`` a fit of ``papers`` writes into an empty folder."""
    folder.mkdir()
    vector_build.write_vectors(papers, folder)
    return (folder / VECTORS_FILE).read_bytes()


@pytest.fixture(scope="module")
def fixed_fit(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """:func:`fitted` of the fixture's papers unchanged, fitted once per module: two tests
    compare with it (one twice)."""
    return fitted(fixed_papers(), tmp_path_factory.mktemp("fit") / "vectors")


def rebuilt(folder: Path, papers: list[Paper], fingerprint: str) -> bytes:
    """``folder``'s index built again from scratch for ``papers``; its ``vectors.bin``."""
    index = SearchIndex(folder, papers, fingerprint)
    index.build()
    index.close()
    return (folder / VECTORS_FILE).read_bytes()


def no_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any fit of the vectors fail the build."""

    def refused(papers: object, folder: object) -> dict[str, float]:
        raise AssertionError("the vectors were fitted again")

    monkeypatch.setattr(vector_build, "write_vectors", refused)


def test_a_rebuild_of_the_same_inputs_keeps_the_bytes_a_fit_makes(
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    fixed_fit: bytes,
) -> None:
    papers = fixed_papers()
    expected = fixed_fit
    folder = fixed_index(tmp_path_factory, tmp_path / "index")
    # A session moved and a paper's topic changed: not what the vectors are made of.
    moved = [replace(papers[0], session="Elsewhere", topic="Moved"), *papers[1:]]
    no_fit(monkeypatch)
    assert rebuilt(folder, moved, "v1") == expected
    assert (folder / KEY_FILE).is_file()
    assert rebuilt(folder, moved, "v1") == expected  # a kept file is kept again
    marker = indexfiles.read_marker(folder) or {}
    assert indexfiles.checksums_match(folder, marker.get("checksums"))
    assert marker["vector_stats"]["kept"] is True


CHANGES = {  # each moves the fit (a word or author dropped below min_df moves nothing)
    "title": lambda p: [replace(p[5], title=p[30].title), *p[:5], *p[6:]],
    "abstract": lambda p: [*p[:7], replace(p[7], abstract=p[43].abstract), *p[8:]],
    "authors": lambda p: [*p[:9], replace(p[9], authors=p[12].authors), *p[10:]],
    "id": lambda p: [*p[:11], replace(p[11], id="renamed-1"), *p[12:]],
    "order": lambda p: [p[1], p[0], *p[2:]],
    "removed": lambda p: p[:-1],
}  # fmt: skip


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_of_any_input_fits_them_again(
    change: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    papers = CHANGES[change](fixed_papers())
    folder = fixed_index(tmp_path_factory, tmp_path / "index")
    before = (folder / VECTORS_FILE).read_bytes()
    after = rebuilt(folder, papers, "v1")
    assert after == fitted(papers, tmp_path / "fit")
    assert after != before


def test_vectors_rewritten_by_a_change_in_place_are_not_kept(
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    fixed_fit: bytes,
) -> None:
    """A change whose rows are written into ``vectors.bin`` (no pending limit) links the
    key file of the fit before; undone, the catalogue's inputs are the fit's again, but
    the file is no longer that fit: the rebuild fits."""
    papers = fixed_papers()
    folder = fixed_index(tmp_path_factory, tmp_path / "index")
    monkeypatch.setattr(pending_rows, "PENDING_LIMIT", 0)
    changed = [*papers[:43], replace(papers[43], abstract=papers[44].abstract), *papers[44:]]
    index = SearchIndex(folder, changed, "v1")
    assert index.ensure() is None
    index.close()
    assert "changed_in_place" in (indexfiles.read_marker(folder) or {})
    assert (folder / KEY_FILE).is_file()
    assert (folder / VECTORS_FILE).read_bytes() != fixed_fit
    assert rebuilt(folder, papers, "v0") == fixed_fit
