"""The full build runs with the cyclic garbage collector paused, in this process and in
the worker it forks, and leaves the collector as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from whoosh import index as whoosh_index

from index_builder.search import parallel
from index_builder.search.documents import paper_doc
from index_builder.search.schema import make_schema
from tests.benchmarks.corpus import generate
from tests.helpers.search_papers import PAPERS


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations collected while the test runs, with a threshold low enough that
    a build making thousands of objects would be collected many times."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    thresholds = gc.get_threshold()
    gc.set_threshold(50, 5, 5)
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*thresholds)


def _docs() -> list[dict[str, str]]:
    return [paper_doc(p) for p in [*PAPERS, *generate(120, seed=3).papers]]


def test_no_collection_runs_during_a_build(
    collections: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert parallel.can_fork(), "these tests run with one thread"
    monkeypatch.setattr(parallel, "FORK_FROM", 2)  # the worker of a build of many papers
    docs = _docs()
    marks = tmp_path / "worker-gc.txt"
    gather = parallel._gather

    def noting_gather(*args: Any) -> Any:  # runs in the forked worker
        with marks.open("a") as out:
            out.write(f"{gc.isenabled()}\n")
        return gather(*args)

    # Counted from the worker's fork to the segment's writing, both in the build: the
    # collector running again after it collects what the pause let pile up, once.
    counts: list[int] = []
    start, write = parallel._Worker.start, parallel.write
    monkeypatch.setattr(parallel, "_gather", noting_gather)
    monkeypatch.setattr(
        parallel._Worker, "start", lambda *a: (counts.append(len(collections)), start(*a))[1]
    )
    monkeypatch.setattr(
        parallel, "write", lambda *a: (counts.append(len(collections)), write(*a))[1]
    )
    assert gc.isenabled()
    ix = whoosh_index.create_in(str(tmp_path), make_schema())
    parallel.build(ix.writer(procs=1, compound=False), docs, tmp_path, workers=2)
    ix.close()
    assert len(counts) == 2, "the build forked no worker"
    during = counts[1] - counts[0]
    assert during == 0, f"{during} collections ran during the build"
    assert marks.read_text() == "False\n", "the worker gathered with the collector running"
    assert gc.isenabled(), "the collector was left paused"
    with whoosh_index.open_dir(str(tmp_path)).reader() as r:
        assert r.doc_count_all() == len(docs)


def test_an_interrupted_build_leaves_the_collector_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "FORK_FROM", 2)  # the worker of a build of many papers

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    ix = whoosh_index.create_in(str(tmp_path), make_schema())
    writer = ix.writer(procs=1, compound=False)
    with pytest.raises(KeyboardInterrupt):
        parallel.build(writer, _docs(), tmp_path, progress=stop, workers=2)
    writer.cancel()
    ix.close()
    assert gc.isenabled()


def test_the_vectors_and_the_manifest_are_made_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from index_builder.search import in_place, vector_build

    seen: list[bool] = []
    fit, manifest = vector_build.write_vectors, in_place.save_manifest

    def noting_fit(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return fit(*args)

    def noting_manifest(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return manifest(*args)

    monkeypatch.setattr(vector_build, "write_vectors", noting_fit)
    monkeypatch.setattr(in_place, "save_manifest", noting_manifest)
    papers = [*PAPERS, *generate(40, seed=5).papers]
    stats = vector_build.write_vectors_and_manifest(papers, tmp_path)
    assert seen == [False, False]
    assert gc.isenabled()
    assert stats["features"] > 0
    assert (tmp_path / in_place.MANIFEST).is_file()
