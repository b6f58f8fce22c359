"""Indexes of the TUI tests' own paper sets, built once per run and copied into a test's home.

``make_app(papers=...)`` gives the app an index folder of its own in the test's cache,
which the app then builds at its start (~0.1-0.2 s of CPU and a dozen frames of the
status line's progress for a few papers). Where the build is not what a test checks, the
test copies the same build, made once per run for every worker, into that folder first:
the app finds it fresh and opens it, as on any start after the first. A copy is the
test's own, so a test may change or damage it.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from index_builder.model import Paper
from tests.helpers.shared_builds import build_once
from tests.helpers.tui_papers import PaperShelf


def index_into(
    factory: pytest.TempPathFactory, name: str, papers: Sequence[Paper], home: Path
) -> Path:
    """Copy the index of ``papers`` (built once per run as ``tui-prebuilt-NAME``) to where
    ``make_app(papers=papers)`` on ``home`` (the test's ``tmp_path``) looks for it.

    ``name`` must stand for ``papers`` alone: every shelf has the same fingerprint, so an
    index of other papers would be taken as fresh.
    """

    def build(folder: Path) -> None:
        from index_builder.search.engine import SearchIndex

        shelf = PaperShelf(papers)
        index = SearchIndex(folder / "index", shelf.papers, shelf.fingerprint)
        index.ensure()
        index.close()

    return copy_index(build_once(factory, f"tui-prebuilt-{name}", build), home)


def copy_index(cache: Path, home: Path) -> Path:
    """Copy the index of the cache folder ``cache`` (``tui_index_dir`` for the sample
    papers) to ``home``'s cache, where ``make_app(papers=...)`` looks for it."""
    dest = home / "cache" / "index"
    dest.parent.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copytree(cache / "index", dest))
