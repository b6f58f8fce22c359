"""What every xdist worker would do again at its start, done once by the controller.

Each worker imports every test module it collects, and pytest rewrites each one's asserts
before compiling it: parsing, the rewrite and the compilation were half of a worker's
collection (~5.5 s of CPU of ~11 s for the suite's ~180 test modules, py-spy). pytest keeps
the rewritten code in a ``.pyc`` of its own beside the module, and reads it back when it is
as new as the source, but writes it only when Python may write bytecode. With
``PYTHONDONTWRITEBYTECODE`` set (as on the machines here) all three workers rewrote all
the modules at every run; in CI (which unsets it) the clone is clean, and the three
workers, started together, each rewrote every module another had not written yet.

:func:`rewrite_for_workers` writes those files once, in the controller, before the workers
start; each worker then reads them (a few milliseconds a module) and a module changed since
is rewritten by its worker, as pytest always does. It uses pytest's own rewriter
(``_pytest.assertion.rewrite``: no public API writes these files); if a pytest release
moves those names, nothing is written and the workers rewrite as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

REWRITTEN = ("test_*.py", "conftest.py")
"""The modules pytest rewrites here: the test modules (its default ``python_files``, this
suite's) and the conftests."""


def modules_to_rewrite(root: Path, args: Iterable[str]) -> Iterator[Path]:
    """The test modules and conftests under the run's arguments (each once), with the
    conftests of the folders above them up to ``root``."""
    seen: set[Path] = set()
    for arg in args:
        path = (root / arg.split("::")[0]).resolve()
        found = [f for pattern in REWRITTEN for f in path.rglob(pattern)] if path.is_dir() else []
        if path.is_file():
            found.append(path)
        for parent in path.parents:
            if not parent.is_relative_to(root):
                break
            found.append(parent / "conftest.py")
        for module in found:
            if module not in seen and module.is_file():
                seen.add(module)
                yield module


def rewrite_for_workers(config: pytest.Config, modules: Iterable[Path]) -> int:
    """Write pytest's rewritten code of ``modules`` as a worker would; the number written."""
    if config.getoption("assertmode", "rewrite") != "rewrite":
        return 0
    try:
        from _pytest.assertion import rewrite

        rewritten, write, cache_dir = (
            rewrite._rewrite_test,
            rewrite._write_pyc,
            rewrite.get_cache_dir,
        )
        read, tail = rewrite._read_pyc, rewrite.PYC_TAIL
        state = config.stash[rewrite.assertstate_key]
    except (ImportError, AttributeError, KeyError):
        return 0  # another pytest: its workers rewrite the modules themselves
    written = 0
    for module in modules:
        pyc = cache_dir(module) / f"{module.name[:-3]}{tail}"
        if read(module, pyc) is not None:
            continue  # written by an earlier run and as new as the module
        try:
            pyc.parent.mkdir(exist_ok=True)
        except OSError:
            return written  # a read-only checkout: the workers rewrite in memory
        source_stat, code = rewritten(module, config)
        written += write(state, code, source_stat, pyc)
    return written
