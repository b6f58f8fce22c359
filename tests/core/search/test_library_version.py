"""The Whoosh fork check names the installed distributions as ``importlib.metadata`` does,
without importing it (the search process's start-up is measured)."""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

from index_builder.search.schema import WHOOSH_DISTRIBUTIONS, installed_names, library_version
from tests.helpers.imports import modules_after

INSTALLED = ("whoosh-reloaded", "Whoosh_Reloaded", "textual", "scikit-learn", "pytest")
MISSING = ("whoosh-novo", "whoosh-ng", "no-such-distribution-here")


def _by_metadata(names: tuple[str, ...]) -> list[str]:
    found = []
    for name in names:
        try:
            found.append(metadata.distribution(name).metadata["Name"])
        except metadata.PackageNotFoundError:
            continue
    return found


def test_the_names_are_the_ones_importlib_metadata_gives() -> None:
    wanted = (*INSTALLED, *MISSING, *WHOOSH_DISTRIBUTIONS)
    assert sorted(installed_names(wanted)) == sorted(set(_by_metadata(wanted)))
    assert installed_names(MISSING) == []
    named = "+".join(sorted(_by_metadata(WHOOSH_DISTRIBUTIONS)))
    assert library_version().startswith(f"{named} ")


def test_a_distribution_of_another_folder_on_the_path_is_found(tmp_path: Path) -> None:
    info = tmp_path / "Whoosh_NG-9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: whoosh-ng\nVersion: 9.9\n\nx\n")
    (tmp_path / "whoosh_novo.egg-info").write_text("Metadata-Version: 1.0\nName: Whoosh-Novo\n")
    sys.path.append(str(tmp_path))
    try:
        assert sorted(installed_names(MISSING)) == ["Whoosh-Novo", "whoosh-ng"]
        assert sorted(installed_names(MISSING)) == sorted(_by_metadata(MISSING))
    finally:
        sys.path.remove(str(tmp_path))


def test_the_fork_check_imports_no_importlib_metadata() -> None:
    code = "from index_builder.search.schema import library_version\nlibrary_version()"
    assert "importlib.metadata" not in modules_after(code)
