"""Fixtures shared by the whole suite: a private home per test, the bundled data built once.

The bundled catalogue cache and index are built once per test run for all xdist workers
(:mod:`tests.helpers.shared_builds`). ``warm_home`` and ``bundled_index`` are shared and
read only; a test that writes into a home takes ``warm_home_copy``.
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from index_builder.paths import HOME_ENV
from tests.helpers.search_text_strategies import text_table_once
from tests.helpers.shared_builds import build_bundled_home, build_once, copy_home, home_paths
from tests.helpers.suite_start import modules_to_rewrite, rewrite_for_workers
from tests.helpers.tmux import TmuxServer

if TYPE_CHECKING:
    from index_builder.catalogue.load import Catalogue
    from index_builder.search.engine import SearchIndex


def pytest_configure(config: pytest.Config) -> None:
    """Compile the app's modules once, before any worker or subprocess imports them, and,
    for xdist's workers, the tests' (:mod:`tests.helpers.suite_start`).

    With ``PYTHONDONTWRITEBYTECODE`` set (as on the machines here), every ``paperscope``
    the tests start would compile them again: ~70 ms a process, hundreds of processes.
    ``compileall`` writes the bytecode all the same; a source changed later is compiled
    in memory again, as Python does for any stale file.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # the controller compiled before starting the workers
    import compileall

    root = Path(__file__).resolve().parents[1]
    for package in ("index_builder", "tui"):
        # A read-only checkout only returns False: its modules compile as they are imported.
        compileall.compile_dir(root / package, quiet=2)
    if config.getoption("numprocesses", None):
        # The helpers, imported as they are (pytest rewrites the test modules and conftests).
        compileall.compile_dir(root / "tests", quiet=2, rx=re.compile(r"(test_\w*|conftest)\.py$"))
        rewrite_for_workers(config, modules_to_rewrite(root, config.args))


@pytest.fixture(scope="session", autouse=True)
def _vector_libraries_loaded() -> None:
    """Load what computing paper vectors imports (numpy, SciPy, scikit-learn) once per
    test process, before any test builds an index.

    Every index build forks a worker for the vectors (:mod:`index_builder.search.vector_build`)
    and waits for it. A worker forked from a process without those libraries imports them
    itself: ~1.3 s of CPU and 2-4 s of waiting on two shared cores, for every index the
    tests build here, however small (18 papers took 2.3-4 s to index, 0.1 s with them
    loaded). Forked from this process, the worker finds them loaded. The build itself is
    unchanged; a command or app run as a process of its own still imports them as it does.
    """
    from index_builder.model import Paper
    from index_builder.vectors.tfidf import compute

    compute([Paper("a", "Warm vectors"), Paper("b", "Vectors warm")])


@pytest.fixture(autouse=True)
def _no_declared_venues() -> Iterator[None]:
    """Each test starts and ends knowing the built-in venues alone: a command run in the
    test's process declares its config's venues for the whole process."""
    from index_builder import venues

    venues.declare(())
    yield
    venues.declare(())


@pytest.fixture(autouse=True)
def _ctrl_c_handler_kept() -> Iterator[None]:
    """Each test ends with the Ctrl+C handler it started with: code run in the test's
    process (a command's ``main``, an app quitting) may set its own, and a test that sends
    itself SIGINT (``test_segment.py``) must find Python's default, whatever ran before it
    on the same worker."""
    import signal

    before = signal.getsignal(signal.SIGINT)
    yield
    if signal.getsignal(signal.SIGINT) is not before:
        signal.signal(signal.SIGINT, before)


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After each test: collect its garbage, then freeze what outlives it.

    A full collection walks every object the process holds, and a worker made some
    hundreds of them (a Pilot test leaves enough garbage for about one) over the same
    long-lived objects: the modules, the bundled catalogue and index loaded once, the
    caches. Frozen (``gc.freeze``), those are no longer walked, so this collection, and
    every automatic one, walks only what the last test made. Objects frozen are still
    freed when their last reference goes; only a cycle among them would stay.
    """
    yield
    gc.collect()
    gc.freeze()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty PAPERSCOPE_HOME for one test."""
    root = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(root))
    yield root


@pytest.fixture(scope="session")
def warm_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PAPERSCOPE_HOME whose catalogue cache and index are built once per test run.

    Shared by every test of every worker: read it, never write into it (take
    ``warm_home_copy`` for that). Pass it via ``monkeypatch.setenv(HOME_ENV, ...)`` or
    build ``Paths`` over its ``cache`` with a config and data folder of the test's own.
    """
    return build_once(tmp_path_factory, "bundled-home", build_bundled_home)


@pytest.fixture
def warm_home_copy(warm_home: Path, tmp_path: Path) -> Path:
    """A private home holding a copy of the warm catalogue cache and index (to write into)."""
    return copy_home(warm_home, tmp_path / "home")


@pytest.fixture(scope="session")
def bundled_catalogue(warm_home: Path) -> Catalogue:
    """The bundled catalogue, loaded from the warm cache."""
    from index_builder.catalogue.load import load_catalogue
    from index_builder.paths import bundled_sources

    return load_catalogue(bundled_sources(), cache_dir=home_paths(warm_home).cache_dir)


@pytest.fixture(scope="session")
def bundled_index(warm_home: Path, bundled_catalogue: Catalogue) -> Iterator[SearchIndex]:
    """The bundled catalogue's index in the warm home, opened (shared: search only)."""
    from index_builder.search.engine import SearchIndex

    cat = bundled_catalogue
    index = SearchIndex(home_paths(warm_home).index_dir, cat.papers, cat.fingerprint)
    assert index.is_fresh(), "the shared bundled index does not match the catalogue"
    index.ensure()
    yield index
    index.close()


@pytest.fixture(scope="session")
def text_table(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Hypothesis's UTF-8 table, made once per run (see ``search_text_strategies``): for the
    tests that draw ``st.text()``."""
    text_table_once(tmp_path_factory)


@pytest.fixture
def tmux_server() -> Iterator[TmuxServer]:
    """A tmux server on a socket of this test's own, killed at the end even on failure."""
    with TmuxServer() as server:
        yield server
