"""Building the index in a child process (what the app does, so that it can quit at once)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from index_builder.search import builder, parallel
from index_builder.search import folder as indexfiles
from index_builder.search.engine import SearchIndex
from tests.helpers.search_papers import PAPERS, load_table


def test_a_child_build_gives_the_same_index_with_progress(tmp_path: Path) -> None:
    ix = SearchIndex(tmp_path / "child", PAPERS, "fp")
    ix.build_in_child = True
    seen: list[tuple[int, int]] = []
    assert ix.ensure(lambda done, total: seen.append((done, total))) is None
    assert seen[0] == (0, len(PAPERS)) and seen[-1] == (len(PAPERS), len(PAPERS))
    here = SearchIndex(tmp_path / "here", PAPERS, "fp")
    here.ensure()
    for query in ("proeval", "author:massart", "is:oral", "sampl*", '"parallel sampling"'):
        child_ids = [h.paper.id for h in ix.search(query).hits]
        assert child_ids == [h.paper.id for h in here.search(query).hits], query
    assert indexfiles.read_marker(ix.index_dir)["doc_count"] == len(PAPERS)  # type: ignore[index]
    ix.close()
    here.close()


def test_a_killed_child_leaves_no_index_and_the_next_build_completes(tmp_path: Path) -> None:
    papers = load_table()[:2000]  # enough for the child to be still building when killed
    ix = SearchIndex(tmp_path / "index", papers, "fp")
    ix.build_in_child = True
    started = threading.Event()

    def progress(done: int, total: int) -> None:
        if done:
            started.set()

    failure: list[BaseException] = []

    def run() -> None:
        try:
            ix.ensure(progress)
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    assert started.wait(120)
    builder.stop_children()
    thread.join(30)
    assert not thread.is_alive()
    assert failure and isinstance(failure[0], builder.ChildBuildError)
    assert not ix.is_fresh() and indexfiles.read_marker(ix.index_dir) is None
    assert not list(tmp_path.glob("index.tmp-*"))  # the caller removed its folder
    ix.close()
    # The next build in that folder, under the same fingerprint, completes: 2,000 papers
    # were for the kill (a child still building); 100 show the folder is free (a whole
    # build of 2,000 here took ~1.3 s of CPU).
    again = SearchIndex(tmp_path / "index", papers[:100], "fp")
    assert again.ensure() is None and again.search("the").total > 0
    assert indexfiles.read_marker(again.index_dir)["doc_count"] == 100  # type: ignore[index]
    again.close()


def test_a_child_that_fails_reports_why(tmp_path: Path) -> None:
    ix = SearchIndex(tmp_path / "index", PAPERS, "fp")
    ix.build_in_child = True
    folder = tmp_path / "not-a-folder"
    folder.write_text("x")
    with pytest.raises(builder.ChildBuildError, match="the index build stopped"):
        builder.write_in_child(ix.index_dir, folder, PAPERS, "fp", None)


@pytest.mark.parametrize("worker", ["forked", "failed", "none"])
def test_the_vector_job_writes_the_vectors_and_the_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, worker: str
) -> None:
    """The worker beside the Whoosh build writes the vectors and the manifest; when it
    fails or cannot fork, this process writes both."""
    import os

    from index_builder.search import in_place, vector_build
    from index_builder.vectors.storage import VECTORS_FILE

    parent = os.getpid()
    if worker == "failed":
        real = vector_build.write_vectors

        def fails_in_child(papers, folder):  # type: ignore[no-untyped-def]
            if os.getpid() != parent:
                raise RuntimeError("the worker fails")
            return real(papers, folder)

        monkeypatch.setattr(vector_build, "write_vectors", fails_in_child)
    if worker == "none":
        monkeypatch.setattr(vector_build, "can_fork", lambda: False)
    else:  # the worker a build of many papers forks, for these few
        monkeypatch.setattr(parallel, "FORK_FROM", 2)
    job = vector_build.VectorJob(PAPERS, tmp_path)
    job.start()
    assert (job._worker is None) == (worker == "none")
    job.finish()
    assert (tmp_path / VECTORS_FILE).is_file() and job.stats["features"] > 0
    manifest = in_place.load_manifest(tmp_path)
    assert manifest == {p.id: in_place.entry(p) for p in PAPERS}
