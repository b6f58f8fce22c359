"""Catalogue builds the catalogue tests share: the lone list and its cache, built once per
run, and each build from nothing made once per test process.

Building the real table's catalogue takes seconds. Many catalogue tests start from the
same one, the table beside the lone list (:func:`tests.helpers.catalogue_data.write_lone_list`),
and compare what a cache gives with what a build from nothing gives:

- :func:`shared_lone_list` is that list, written once per run in a shared folder (read
  only): a list at the same path is the same source for every test;
- :func:`shared_lone_cache` is the cache folder of a cold build of ``[TABLE, list]``
  (the parsed sources, the rendered texts, the join's scoring, the kept table papers and
  the catalogue); a test takes its own copy (:func:`tests.helpers.shared_builds.copy_cache`);
- :func:`from_nothing` is ``load_catalogue(sources)`` without a cache, kept for the test
  process: a test that builds the same sources again (the same resolved paths and bytes,
  the same declared venues and catalogue version) gets the catalogue built the first time.
  A build without a cache reads nothing else, so it would give the same papers.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import pytest

from index_builder import venues
from index_builder.catalogue import load
from index_builder.catalogue.load import Catalogue, load_catalogue
from tests.helpers.catalogue_data import TABLE, write_lone_list
from tests.helpers.shared_builds import build_once

LONE_LIST_NAME = "mine.txt"
KEPT_BUILDS = 6
"""Builds from nothing kept at once (each holds a catalogue of the whole table)."""

_built: OrderedDict[tuple[str, ...], Catalogue] = OrderedDict()


def shared_lone_list(factory: pytest.TempPathFactory) -> Path:
    """The lone list (``mine.txt``), written once per run; read it, never write it."""

    def write(folder: Path) -> None:
        folder.mkdir(parents=True)
        write_lone_list(folder / LONE_LIST_NAME)

    return build_once(factory, "lone-list", write) / LONE_LIST_NAME


def shared_lone_cache(factory: pytest.TempPathFactory) -> Path:
    """The cache folder of ``[TABLE, shared_lone_list]`` built cold once per run (read only)."""
    listed = shared_lone_list(factory)

    def build(folder: Path) -> None:
        load_catalogue([TABLE, listed], cache_dir=folder)

    return build_once(factory, "lone-cache", build)


def from_nothing(sources: Sequence[Path]) -> Catalogue:
    """``load_catalogue(sources)`` without a cache, built once per test process for the
    same sources (do not change the catalogue it gives: other tests read it too)."""
    key = _key(sources)
    if key in _built:
        _built.move_to_end(key)
        return _built[key]
    catalogue = load_catalogue(sources)
    _built[key] = catalogue
    while len(_built) > KEPT_BUILDS:
        _built.popitem(last=False)
    return catalogue


def _key(sources: Sequence[Path]) -> tuple[str, ...]:
    """What a build from nothing reads: the version, the declared venues, each source's
    resolved path and bytes (in the order given)."""
    parts = [f"v{load.CATALOGUE_VERSION}", venues.declared_digest()]
    for path in sources:
        try:
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError as exc:
            digest = f"unreadable {exc.__class__.__name__}"
        parts.append(f"{Path(path).resolve()}\0{digest}")
    return tuple(parts)


def files_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files that go through the readers from now on (in this test)."""
    import index_builder.sources.reading as reading

    seen: list[str] = []
    original = reading.read_source

    def counting(path: Path, data: bytes) -> object:
        seen.append(path.name)
        return original(path, data)

    monkeypatch.setattr(reading, "read_source", counting)
    return seen
