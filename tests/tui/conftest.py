"""Fixtures of the tests that drive the app: imported from :mod:`tests.helpers.tui_fixtures`,
:mod:`tests.helpers.notices` and :mod:`tests.helpers.join_homes`; fewer automatic garbage
collections in the tests of this folder but ``cli``; the first three sample papers' index."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from index_builder.model import Paper
from tests.helpers.join_homes import certain_app, join_app  # noqa: F401
from tests.helpers.notices import notices  # noqa: F401
from tests.helpers.tui_fixtures import (  # noqa: F401
    make_app,
    tui_index_dir,
    tui_no_similar_pause,
    tui_papers,
    tui_quick_idle_checks,
    tui_utc,
)
from tests.helpers.tui_prebuilt import index_into

COMMAND_LINE_TESTS = Path(__file__).parent / "cli"
"""The command-line tests, which run no app: their collections are left as they are."""

YOUNG_COLLECTION_EVERY = 100_000
"""Allocations between two automatic collections of young objects (Python's default: 700)."""


@pytest.fixture(autouse=True)
def tui_fewer_collections(request: pytest.FixtureRequest) -> Iterator[None]:
    """Python collects young objects every 100,000 allocations, not 700, during the test.

    A Pilot test allocates millions of short-lived objects (strips, segments, styles) while
    the app holds thousands: with the default threshold Python ran about 160 collections
    of the young generation a test, ~5 % of the folder's CPU (measured with
    ``gc.callbacks``). Objects are still freed by their reference counts at once; only
    cycles wait, until the next collection or the one after each test (``tests/conftest.py``).
    """
    if COMMAND_LINE_TESTS in request.node.path.parents:
        yield
        return
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *before[1:])
    yield
    gc.set_threshold(*before)


@pytest.fixture
def first_three_index(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, request: pytest.FixtureRequest
) -> Path:
    """The index of the first three sample papers, where ``make_app(papers=tui_papers[:3])``
    looks for it, built once per run (the update tests start from it; its build is not
    what they check)."""
    papers: tuple[Paper, ...] = request.getfixturevalue("tui_papers")
    return index_into(tmp_path_factory, "sample-first-3", papers[:3], tmp_path)
