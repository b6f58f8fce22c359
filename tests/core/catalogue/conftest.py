"""Fixtures of the catalogue tests: the lone list, beside a cut of the table and its cache,
built once per run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.catalogue_builds import (
    share_across_workers,
    shared_cut_cache,
    shared_held_out_arxiv,
    shared_lone_cut,
    shared_lone_list,
)
from tests.helpers.join_lists import Case
from tests.helpers.shared_builds import copy_cache, home_paths


@pytest.fixture(scope="session", autouse=True)
def _builds_from_nothing_shared(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Builds from nothing of shared sources are made once per run for every worker."""
    share_across_workers(tmp_path_factory)


@pytest.fixture(scope="session")
def lone_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The lone list (``mine.txt``), shared by every test: read it, never write it."""
    return shared_lone_list(tmp_path_factory)


@pytest.fixture(scope="session")
def lone_cut(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """``[cut table, lone list]``: the list beside a cut of the table (45 papers) where its
    abstracts get the joins and hints of the whole table (shared: read them, never write)."""
    return shared_lone_cut(tmp_path_factory)


@pytest.fixture(scope="session")
def cut_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cache of :func:`lone_cut`, built cold once per run (read only)."""
    return shared_cut_cache(tmp_path_factory)


@pytest.fixture
def cut_cache_copy(cut_cache: Path, tmp_path: Path) -> Path:
    """A private copy of :func:`cut_cache` (to build through and write into)."""
    return copy_cache(cut_cache, tmp_path / "cache")


@pytest.fixture(scope="session")
def held_out_case(tmp_path_factory: pytest.TempPathFactory) -> Case:
    """The held-out arXiv case (600 listed, 150 absent), made once per run (read only)."""
    return shared_held_out_arxiv(tmp_path_factory)


@pytest.fixture
def warm_cache_copy(warm_home: Path, tmp_path: Path) -> Path:
    """A private copy of the warm home's catalogue caches (no index), for a test that adds
    a small source to the bundled ones and checks how it merges, not how a build from
    nothing goes: the bundled sources' parsing, rankings and table papers are kept there,
    so the build does the merge (~0.75 s of CPU, ~1.2 s from nothing). A build through
    the caches equals one from nothing (``test_kept_papers.py``,
    ``test_join_scoring_cache.py``)."""
    return copy_cache(home_paths(warm_home).cache_dir, tmp_path / "warm-cache", with_index=False)
