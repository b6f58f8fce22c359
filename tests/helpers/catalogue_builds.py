"""Catalogue builds the catalogue tests share: the lone list, a cut of the table and its
cache, built once per run, and each build from nothing made once per test process.

Building the real table's catalogue takes seconds. Many catalogue tests start from the
same one, the table beside the lone list (:func:`tests.helpers.catalogue_data.write_lone_list`),
and compare what a cache gives with what a build from nothing gives:

- :func:`shared_lone_list` is that list, written once per run in a shared folder (read
  only): a list at the same path is the same source for every test;
- :func:`shared_lone_cut` is the cut of the table the "certain" homes use beside the same
  list, and :func:`shared_cut_cache` the cold build's cache of that pair (the parsed sources,
  the rendered texts, the join's scoring, the kept table papers and the catalogue; a
  test takes its own copy, :func:`tests.helpers.shared_builds.copy_cache`): the tests of
  the caches (kept papers, scoring, decisions) and of joins by hand compare builds with
  one another, which the table's size does not change, and a build of the cut takes
  ~0.02 s of CPU where the whole table's takes 1.0-1.5 s;
- :func:`from_nothing` is ``load_catalogue(sources)`` without a cache, kept for the test
  process: a test that builds the same sources again (the same resolved paths and bytes,
  the same declared venues and catalogue version) gets the catalogue built the first time.
  A build without a cache reads nothing else, so it would give the same papers. Once
  :func:`share_across_workers` is called (the catalogue tests' session does), a build of
  sources every worker sees alike (the bundled files, the shared lone list) is made once per
  run and pickled; each worker loads it.
"""

from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import pytest

from index_builder import venues
from index_builder.catalogue import load
from index_builder.catalogue.load import Catalogue, load_catalogue
from tests.helpers.catalogue_data import write_lone_list
from tests.helpers.join_lists import Case, held_out_arxiv
from tests.helpers.recording import record_calls
from tests.helpers.shared_builds import build_once, shared_root

LONE_LIST_NAME = "mine.txt"
KEPT_BUILDS = 6
"""Builds from nothing kept at once (each holds a catalogue of the whole table)."""

_built: OrderedDict[tuple[str, ...], Catalogue] = OrderedDict()
_run: list[pytest.TempPathFactory] = []


def shared_lone_list(factory: pytest.TempPathFactory) -> Path:
    """The lone list (``mine.txt``), written once per run; read it, never write it."""

    def write(folder: Path) -> None:
        folder.mkdir(parents=True)
        write_lone_list(folder / LONE_LIST_NAME)

    return build_once(factory, "lone-list", write) / LONE_LIST_NAME


def shared_lone_cut(factory: pytest.TempPathFactory) -> list[Path]:
    """``[cut table, lone list]``, written once per run (read only).

    The cut is :func:`tests.helpers.join_homes.write_certain_sources`' table: the list's
    three papers and the rows of the feed's first 40 records (45 papers). On it the list's
    three abstracts get the joins and hints they get on the whole table (joined by
    itself; alone with the hint ``64328``; alone without one), which the tests assert.
    """
    listed = shared_lone_list(factory)

    def write(folder: Path) -> None:
        from tests.helpers.join_homes import write_certain_sources

        write_certain_sources(folder)

    from tests.helpers.join_homes import CERTAIN_TABLE

    return [build_once(factory, "lone-cut", write) / CERTAIN_TABLE, listed]


def shared_cut_cache(factory: pytest.TempPathFactory) -> Path:
    """The cache folder of :func:`shared_lone_cut` built cold once per run (read only)."""
    sources = shared_lone_cut(factory)

    def build(folder: Path) -> None:
        load_catalogue(sources, cache_dir=folder)

    return build_once(factory, "lone-cut-cache", build)


def shared_held_out_arxiv(factory: pytest.TempPathFactory) -> Case:
    """:func:`tests.helpers.join_lists.held_out_arxiv`, made once per run for every worker
    (pickled; each call reads it back). Making it reads and filters the 9,909-paper arXiv
    sample and ranks every title of its half against the ICML titles: seconds of CPU that
    each worker running a held-out arXiv test paid again."""

    def write(folder: Path) -> None:
        folder.mkdir(parents=True)
        (folder / "case.pickle").write_bytes(pickle.dumps(held_out_arxiv()))

    case = pickle.loads((build_once(factory, "held-out-arxiv", write) / "case.pickle").read_bytes())
    assert isinstance(case, Case)
    return case


def from_nothing(sources: Sequence[Path]) -> Catalogue:
    """``load_catalogue(sources)`` without a cache, built once per test process for the
    same sources (do not change the catalogue it gives: other tests read it too)."""
    key = _key(sources)
    if key in _built:
        _built.move_to_end(key)
        return _built[key]
    catalogue = _for_the_run(sources, key) if _seen_alike(sources) else load_catalogue(sources)
    _built[key] = catalogue
    while len(_built) > KEPT_BUILDS:
        _built.popitem(last=False)
    return catalogue


def share_across_workers(factory: pytest.TempPathFactory) -> None:
    """Let :func:`from_nothing` make a build of shared sources once per run (every worker
    of the run's tests in a module's spread would build the table beside the lone list)."""
    _run[:] = [factory]


def _seen_alike(sources: Sequence[Path]) -> bool:
    """True when every worker reads these sources at the same paths: none is in a test's
    own temporary folder (the run's shared folder and the checkout's files are)."""
    if not _run:
        return False
    shared = shared_root(_run[0]).resolve()
    tests = shared.parent
    paths = [Path(s).resolve() for s in sources]
    return all(p.is_relative_to(shared) or not p.is_relative_to(tests) for p in paths)


def _for_the_run(sources: Sequence[Path], key: tuple[str, ...]) -> Catalogue:
    """The build from nothing of ``sources``, made by the first worker that asks (pickled)."""
    name = "from-nothing-" + hashlib.sha256("\n".join(key).encode()).hexdigest()[:16]

    def write(folder: Path) -> None:
        folder.mkdir(parents=True)
        data = pickle.dumps(load_catalogue(sources), protocol=pickle.HIGHEST_PROTOCOL)
        (folder / "catalogue.pickle").write_bytes(data)

    catalogue = pickle.loads((build_once(_run[0], name, write) / "catalogue.pickle").read_bytes())
    assert isinstance(catalogue, Catalogue)
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

    return record_calls(monkeypatch, reading, "read_source", lambda path, *_: path.name)
