"""Expensive test data built once per test run, for every xdist worker, under a file lock.

Under xdist each worker's base temp dir is ``<run's base temp>/popen-gwN``, so the parent
is one folder per run that every worker sees; without xdist the base temp dir itself is.
:func:`build_once` builds a named folder there the first time any worker asks for it; the
others wait on the lock (``fcntl.flock``) and then reuse it. A ``.done`` file is written
only after a complete build, so a worker killed midway leaves nothing that looks finished.

The folders are shared: tests read them, never write into them. A test that writes gets
its own copy (:func:`copy_home`, :func:`copy_cache`), which takes milliseconds.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from index_builder.paths import Paths


def shared_root(factory: pytest.TempPathFactory) -> Path:
    """The folder of this test run that all xdist workers share."""
    base = factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = root / "shared-builds"
    folder.mkdir(exist_ok=True)
    return folder


def build_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """``root/name``, made by ``build(folder)`` in the first worker that asks; then reused."""
    root = shared_root(factory)
    folder = root / name
    done = root / f"{name}.done"
    with (root / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build killed midway
            build(folder)
            done.touch()
    return folder


def home_paths(home: Path) -> Paths:
    """The config, data and cache folders of a PaperScope home (as PAPERSCOPE_HOME lays out)."""
    return Paths(home / "config", home / "data", home / "cache")


def build_bundled_home(home: Path) -> None:
    """A home whose catalogue cache and index of the bundled data are built."""
    from tui.shared.context import Context

    ctx = Context(paths=home_paths(home).ensure())
    index = ctx.index()
    index.ensure()
    index.close()


def copy_cache(cache: Path, dest: Path, *, with_index: bool = True) -> Path:
    """Copy the cache folder ``cache`` (catalogue pickle, and the index unless told) to ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    for item in cache.iterdir():
        if item.is_file():
            shutil.copy2(item, dest / item.name)
        elif item.is_dir() and (with_index or item.name != "index"):
            shutil.copytree(item, dest / item.name)
    return dest


def copy_home(home: Path, dest: Path, *, with_index: bool = True) -> Path:
    """A private home at ``dest`` with a copy of ``home``'s cache (config and data empty)."""
    copy_cache(home / "cache", dest / "cache", with_index=with_index)
    return dest


def copy_listed(built: Path, dest: Path) -> tuple[Path, Path]:
    """A private copy (at ``dest/home``) of ``built/home``, and ``built/rows.json``: the
    source that home was made from (a home whose reading list holds a paper of it).

    The source stays where the home was made from it (its path is in the catalogue's
    fingerprint); the home holds no path of its own.
    """
    home = Path(shutil.copytree(built / "home", dest / "home", symlinks=True))
    return home, built / "rows.json"
