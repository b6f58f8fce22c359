"""pytest's rewritten test modules written once, before the xdist workers collect them.

pytest rewrites the ``assert`` statements of every test module and conftest it imports,
and keeps the result in a ``__pycache__/*.pyc`` of its own; with
``PYTHONDONTWRITEBYTECODE`` set (as on the machines here) it writes none, and on a clean
clone there is none yet. So each of the three workers rewrote the 184 modules again:
~6 s of a worker's ~9 s of CPU to collect the suite, measured with
``pytest --collect-only -q tests`` with and without the files (docs/test-suite.md).
pytest reads such a file whether or not it may write one, and checks it against the
source's time and size, so written once by the controller, every worker loads it.
"""

from __future__ import annotations

import fnmatch
import os
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest


def rewrite_candidates(config: pytest.Config, folder: Path) -> list[Path]:
    """The files under ``folder`` pytest rewrites when it imports them: the test modules
    (its ``python_files`` patterns) and the conftests."""
    patterns: Sequence[str] = config.getini("python_files")
    return sorted(
        path
        for path in folder.rglob("*.py")
        if path.name == "conftest.py" or any(fnmatch.fnmatch(path.name, p) for p in patterns)
    )


def _write(config: pytest.Config, files: Iterable[Path]) -> int:
    """Rewrite each file whose cached copy is missing or stale; the number written."""
    # pytest's own functions, so the file is the one its import hook reads and writes.
    # They are private: a pytest without them leaves the rewriting to pytest, as before
    # (test_rewrite_ahead.py fails then, the suite does not).
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        _ = (rewrite.get_cache_dir, rewrite.PYC_TAIL, rewrite.try_makedirs, rewrite._read_pyc,
             rewrite._rewrite_test, rewrite._write_pyc)  # fmt: skip
    except (ImportError, AttributeError, KeyError):
        return 0
    written = 0
    for path in files:
        cache = Path(rewrite.get_cache_dir(path))
        pyc = cache / (path.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(path, pyc, state.trace) is not None:
            continue
        if not rewrite.try_makedirs(cache):
            return written  # a read-only checkout: pytest rewrites in memory, as before
        try:
            source_stat, code = rewrite._rewrite_test(path, config)
        except (SyntaxError, ValueError):
            continue  # pytest reports it when it collects the module
        rewrite._write_pyc(state, code, source_stat, pyc)
        written += 1
    return written


def rewrite_ahead(config: pytest.Config, folder: Path, processes: int = 2) -> int:
    """Write pytest's rewritten copy of every test module and conftest under ``folder``
    that lacks a fresh one, in ``processes`` processes (forked; one while other threads
    run, which a fork would leave holding their locks); the number this process wrote.
    Nothing when assertions are not rewritten (``--assert=plain``)."""
    if config.getoption("assertmode") != "rewrite":
        return 0
    if threading.active_count() > 1:
        processes = 1
    files = rewrite_candidates(config, folder)
    shares = [files[i::processes] for i in range(max(processes, 1))]
    children = []
    for share in shares[1:]:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child's coverage is not collected
            try:
                _write(config, share)
            finally:
                os._exit(0)
        children.append(pid)
    try:
        return _write(config, shares[0])
    finally:
        for pid in children:
            os.waitpid(pid, 0)
