"""The search tests' shared index: the fixture papers' full build, made once per run.

The change-in-place tests (``tests/core/search``: ``test_in_place.py``,
``test_pending_rows.py``, ``test_segment_ids.py``) each start from a full build of the
analysis fixture's 239 papers (:func:`fixed_papers`, fingerprint ``v0``) and change it.
That build costs about 0.5 s of CPU; a copy takes milliseconds. No file of an index
names its folder, so a copy is the folder a build leaves, and the change in place on it
is the one the test checks. The build is the product's own (``SearchIndex.ensure``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from index_builder.search.engine import SearchIndex
from tests.core.test_analysis_versions import fixed_papers
from tests.helpers.shared_builds import build_once

FIXED_FINGERPRINT = "v0"


def _build(folder: Path) -> None:
    index = SearchIndex(folder / "index", fixed_papers(), FIXED_FINGERPRINT)
    index.ensure()
    index.close()


def fixed_index(factory: pytest.TempPathFactory, dest: Path) -> Path:
    """``dest``: a private copy of the full build of :func:`fixed_papers` as ``v0``."""
    built = build_once(factory, "search-fixed-papers-v0", _build)
    dest.parent.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copytree(built / "index", dest))
