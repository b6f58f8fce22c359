"""The vectors' worker of a build waits until a share of the Whoosh build is gathered
(:meth:`~index_builder.search.vector_build.VectorJob.release`): it then runs on the core
that share leaves, not beside both shares."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from index_builder.search import parallel, vector_build
from index_builder.search.documents import paper_doc
from index_builder.search.schema import make_schema
from index_builder.vectors.storage import VECTORS_FILE
from tests.helpers.search_papers import PAPERS
from tests.helpers.waiting import wait_until


def waiting_on_a_pipe(pid: int) -> bool:
    """True while process ``pid`` sleeps reading a pipe (Linux's /proc)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state == "S" and "pipe" in Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return False


def test_the_vectors_start_when_a_share_is_gathered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vector_build, "can_fork", lambda: True)  # a runner's thread or two
    monkeypatch.setattr(parallel, "FORK_FROM", 2)  # the worker of a build of many papers
    job = vector_build.VectorJob(PAPERS, tmp_path)
    job.start()
    assert job._worker is not None
    result = job._worker.path
    try:
        wait_until(
            lambda: waiting_on_a_pipe(job._worker.pid) or result.exists(),
            what="the vectors' worker waiting, or done",
        )
        assert not result.exists() and not (tmp_path / VECTORS_FILE).exists()
        share = os.fork()  # as the build's second share is, after the job started
        if share == 0:
            job.release()
            os._exit(0)
        os.waitpid(share, 0)
        wait_until(result.exists, what="the vectors' worker's result, once released")
        job.finish()
    finally:
        job.stop()
    assert (tmp_path / VECTORS_FILE).is_file() and job.stats["features"] > 0


def test_each_share_of_a_build_says_when_it_is_gathered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    monkeypatch.setattr(parallel, "FORK_FROM", 2)  # the shares of a build of many papers
    said = tmp_path / "said"

    def gathered() -> None:
        with open(said, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")

    folder = tmp_path / "index"
    folder.mkdir()
    ix = whoosh_index.create_in(str(folder), make_schema())
    docs = [paper_doc(p) for p in PAPERS]
    parallel.build(ix.writer(procs=1, compound=False), docs, folder, gathered=gathered)
    ix.close()
    pids = said.read_text(encoding="utf-8").split()
    assert len(set(pids)) == len(pids) == 2 and str(os.getpid()) in pids
